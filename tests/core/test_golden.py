"""Replay every golden record of tests/data/golden and check its result and trace.

Each golden file is one record in the RULES.md section 8 format. Its
``result`` and ``meta.expected_trace`` (position lines of ``replay --trace``)
were derived by hand from RULES.md, move by move (``meta.derivation`` says
how), not copied from the engine.
"""

from __future__ import annotations

import json

import pytest
from rulekit import S8_RECORD, S8_RESULT, golden_paths, load_golden

from matador.core.errors import RecordError
from matador.core.record import parse_record, replay

PATHS = golden_paths()


def test_golden_records_exist() -> None:
    assert len(PATHS) >= 10
    assert "s8_example" in {p.stem for p in PATHS}


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_golden_record(path) -> None:
    data = json.loads(path.read_text())
    meta = data["meta"]
    expected_trace = meta["expected_trace"]
    assert meta["rules_tested"] and meta["derivation"]
    plies = [line["ply"] for line in expected_trace]
    assert plies == sorted(set(plies)), "expected trace lines must be in ply order, each once"

    record = parse_record(path.read_text())  # also checks the written result (section 8)
    out = replay(record, trace=True)
    assert out.result == data["result"]
    assert len(out.trace) == len(data["moves"]) + 1
    for line in expected_trace:
        assert out.trace[line["ply"]] == line, f"ply {line['ply']}"
    if plies == list(range(len(out.trace))):
        assert out.trace == expected_trace
    # the last position line agrees with the result
    last = out.trace[-1]
    if "winner" in data["result"]:
        assert last["to_move"] is None and last["legal"] == []
    else:
        assert last["to_move"] == data["result"]["to_move"] and last["legal"]


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_golden_record_with_a_wrong_result_is_refused(path) -> None:
    """The record's own ``result`` is checked: a golden record cannot silently pass."""
    data = json.loads(path.read_text())
    result = data["result"]
    if "winner" in result:
        result["points"] = [p + 1 for p in result["points"]]
    else:
        result["to_move"] = 1 - result["to_move"]
    with pytest.raises(RecordError) as err:
        parse_record(data)
    assert err.value.where == "result"


def test_golden_s8_example_is_the_rules_md_example_verbatim() -> None:
    data = load_golden("s8_example")
    for key in ("rules", "players", "deal", "moves"):
        assert data[key] == S8_RECORD[key]
    assert data["result"] == S8_RESULT


def test_s8_example_result_and_first_trace_lines() -> None:
    """Section 8 gives the result and the first four ``--trace`` lines."""
    out = replay(parse_record(json.dumps(S8_RECORD)), trace=True)
    assert out.result == {"winner": 0, "reason": "out", "pips": [0, 10], "points": [10, 0]}
    assert out.trace[:4] == [
        {"ply": 0, "to_move": 0, "legal": ["0-3", "1-1", "2-4", "3-3", "6-6"]},
        {"ply": 1, "to_move": 1, "legal": ["R4-0", "R4-1", "R4-6"]},
        {"ply": 2, "to_move": 0, "legal": ["draw"]},
        {"ply": 3, "to_move": 0, "legal": ["L0-0", "R0-0", "draw"]},
    ]
    assert json.dumps(out.trace[0]) == (
        '{"ply": 0, "to_move": 0, "legal": ["0-3", "1-1", "2-4", "3-3", "6-6"]}'
    )


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_golden_record_round_trips(path) -> None:
    """Writing a parsed golden record back gives the same record."""
    data = json.loads(path.read_text())
    record = parse_record(data)
    out = record.to_json()
    assert out["rules"] == data["rules"]
    assert out["deal"] == data["deal"]
    assert out["moves"] == data["moves"]
    assert out["result"] == data["result"]
    assert parse_record(record.dumps()) == record


def test_the_shipped_example_is_the_section_8_record() -> None:
    """examples/hand.json, used by the docs and the CLI tests, is RULES.md's example verbatim."""
    import json
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "hand.json"
    assert json.loads(path.read_text()) == S8_RECORD
