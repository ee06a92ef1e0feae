"""``matador replay``: the replay contract of RULES.md section 8, via the installed executable."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Write = Callable[[str, str | bytes], Path]

TRACE_HEAD = [
    '{"ply": 0, "to_move": 0, "legal": ["0-3", "1-1", "2-4", "3-3", "6-6"]}',
    '{"ply": 1, "to_move": 1, "legal": ["R4-0", "R4-1", "R4-6"]}',
    '{"ply": 2, "to_move": 0, "legal": ["draw"]}',
    '{"ply": 3, "to_move": 0, "legal": ["L0-0", "R0-0", "draw"]}',
]


def test_example_result(matador: Any, example: dict[str, Any], example_result: str,
                        write: Write) -> None:
    """The RULES.md section 8 example prints its result as one line and exits 0."""
    done = matador("replay", write("hand.json", json.dumps(example, indent=2)))
    assert done.returncode == 0
    assert done.stdout == example_result + "\n"
    assert done.stderr == ""


def test_example_trace(matador: Any, example: dict[str, Any], example_result: str,
                       write: Write) -> None:
    """--trace prints a line per position, the first four exactly as RULES.md gives them."""
    done = matador("replay", "--trace", write("hand.json", json.dumps(example)))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[:4] == TRACE_HEAD
    assert len(lines) == len(example["moves"]) + 2  # before each move, after the last, result
    assert lines[-2] == json.dumps({"ply": len(example["moves"]), "to_move": None, "legal": []})
    assert lines[-1] == example_result
    for ply, line in enumerate(lines[:-1]):
        position = json.loads(line)
        assert list(position) == ["ply", "to_move", "legal"]
        assert position["ply"] == ply
        assert position["legal"] == sorted(position["legal"])
        if ply < len(example["moves"]):
            assert example["moves"][ply] in position["legal"]


def test_trace_option_after_the_file(matador: Any, example: dict[str, Any],
                                     write: Write) -> None:
    """``replay RECORD --trace`` is the same as ``replay --trace RECORD``."""
    path = write("hand.json", json.dumps(example))
    assert matador("replay", path, "--trace").stdout == matador("replay", "--trace", path).stdout


def test_stdin(matador: Any, example: dict[str, Any], example_result: str) -> None:
    """``-`` reads the record from standard input."""
    done = matador("replay", "-", stdin=json.dumps(example))
    assert (done.returncode, done.stdout, done.stderr) == (0, example_result + "\n", "")
    traced = matador("replay", "--trace", "-", stdin=json.dumps(example))
    assert traced.stdout.splitlines()[:4] == TRACE_HEAD


def test_unfinished_hand(matador: Any, example: dict[str, Any], write: Write) -> None:
    """Moves that stop early print over false and the seat to move; the trace ends there."""
    example["moves"] = example["moves"][:5]  # both ends blank; seat 1 draws 2-5, still to move
    path = write("hand.json", json.dumps(example))
    done = matador("replay", path)
    assert (done.returncode, done.stdout) == (0, '{"over": false, "to_move": 1}\n')
    lines = matador("replay", "--trace", path).stdout.splitlines()
    assert len(lines) == 7
    assert json.loads(lines[5]) == {
        "ply": 5, "to_move": 1, "legal": ["L2-5", "L5-2", "R2-5", "R5-2", "draw"]}
    assert lines[6] == '{"over": false, "to_move": 1}'


def test_no_moves(matador: Any, example: dict[str, Any], write: Write) -> None:
    """A record without moves replays to the leader to move, with one position line."""
    example["moves"] = []
    done = matador("replay", "--trace", write("hand.json", json.dumps(example)))
    assert done.stdout.splitlines() == [TRACE_HEAD[0], '{"over": false, "to_move": 0}']


def test_result_present_and_matching(matador: Any, example: dict[str, Any],
                                     example_result: str, write: Write) -> None:
    """A record carrying its (correct) result and free-form meta replays normally."""
    example["result"] = json.loads(example_result)
    example["meta"] = {"event": "club night", "anything": [1, {"x": None}]}
    done = matador("replay", write("hand.json", json.dumps(example)))
    assert (done.returncode, done.stdout) == (0, example_result + "\n")


def _set(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


def _refused_cases() -> list[Any]:
    def case(name: str, change: Callable[[dict[str, Any]], Any], where: str,
             why: str = "") -> Any:
        return pytest.param(change, where, why, id=name)

    def moved_to_hand(r: dict[str, Any]) -> dict[str, Any]:
        r["deal"]["hands"][0].append(r["deal"]["boneyard"].pop())
        return r

    def without_boneyard_tile(r: dict[str, Any]) -> dict[str, Any]:
        r["deal"]["boneyard"].pop()
        return r

    def plus_key(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
        return lambda r: {**r, key: value}

    def with_moves(moves: list[str]) -> Callable[[dict[str, Any]], Any]:
        return lambda r: _set(r, ("moves",), moves)

    return [
        case("bad JSON", lambda r: json.dumps(r)[:-1], "record", "not valid JSON"),
        case("not an object", lambda r: "[]", "record"),
        case("NaN", lambda r: json.dumps(r).replace('"players": 2', '"players": NaN'),
             "record", "NaN"),
        case("duplicate key", lambda r: json.dumps(r).replace('"players": 2',
                                                              '"players": 2, "players": 3'),
             "record", "duplicate key"),
        case("not UTF-8", lambda r: json.dumps(r).encode().replace(b"classic", b"cl\xffssic"),
             "record", "UTF-8"),
        case("unknown key", plus_key("comment", "hi"), "comment", "unknown key"),
        case("missing key", lambda r: {k: v for k, v in r.items() if k != "moves"}, "moves",
             "missing"),
        case("unknown preset", lambda r: _set(r, ("rules", "preset"), "domino"),
             "rules.preset", "domino"),
        case("preset alias (records name presets exactly)",
             lambda r: _set(r, ("rules", "preset"), "spanish"), "rules.preset", "spanish"),
        case("preset in capitals", lambda r: _set(r, ("rules", "preset"), "Classic"),
             "rules.preset"),
        case("unknown parameter", lambda r: _set(r, ("rules", "overrides"), {"speed": 1}),
             "rules.overrides.speed", "unknown parameter"),
        case("bad parameter value", lambda r: _set(r, ("rules", "overrides"), {"draw": "two"}),
             "rules.overrides.draw", "two"),
        case("wrong player count", lambda r: _set(r, ("players",), 5), "players"),
        case("bad tile", lambda r: _set(r, ("deal", "hands", 0, 1), "4-2"),
             "deal.hands[0][1]", "low half first"),
        case("tile used twice", lambda r: _set(r, ("deal", "hands", 1, 2), "0-3"),
             "deal.hands[1][2]", "used twice"),
        case("tile missing", without_boneyard_tile, "deal", "missing"),
        case("wrong hand size", moved_to_hand, "deal.hands[0]", "hand_size"),
        case("bad leader", lambda r: _set(r, ("deal", "leader"), 2), "deal.leader"),
        case("malformed move", lambda r: _set(r, ("moves", 1), "L7-0"), "moves[1]"),
        case("illegal move on a blank end", lambda r: _set(r, ("moves", 1), "L4-0"),
             "moves[1]", "(R9)"),
        case("draw instead of playing", lambda r: _set(r, ("moves", 1), "draw"),
             "moves[1]", "(R15)"),
        case("pass with a draw possible", with_moves(["0-3", "R4-0", "pass"]),
             "moves[2]", "(R17)"),
        case("opening on the wrong seat's tile", with_moves(["2-2"]), "moves[0]", "(R6)"),
        case("move after the end", lambda r: _set(r, ("moves",), [*r["moves"], "draw"]),
             "moves[14]", "after the end"),
        case("result that does not match",
             plus_key("result", {"winner": 1, "reason": "out", "pips": [0, 10],
                                 "points": [10, 0]}),
             "result", "does not match"),
        case("result with true for 1",
             plus_key("result", {"winner": 0, "reason": "out", "pips": [0, 10],
                                 "points": [10, False]}),
             "result"),
    ]


@pytest.mark.parametrize(("change", "where", "why"), _refused_cases())
@pytest.mark.parametrize("trace", [False, True], ids=["plain", "trace"])
def test_refused_record(matador: Any, example: dict[str, Any], write: Write,
                        change: Callable[[dict[str, Any]], Any], where: str, why: str,
                        trace: bool) -> None:
    """A refused record: one line ``error: WHERE: WHY`` on stderr, nothing on stdout, exit 2."""
    changed = change(example)
    content = changed if isinstance(changed, (str, bytes)) else json.dumps(changed)
    done = matador("replay", *(["--trace"] if trace else []), write("hand.json", content))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n")
    assert done.stderr.startswith(f"error: {where}: ")
    assert why in done.stderr


def test_refused_record_on_stdin(matador: Any) -> None:
    """Refusals work the same on standard input."""
    done = matador("replay", "-", stdin="{")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: record: not valid JSON")


def test_error_stays_on_one_line(matador: Any, example: dict[str, Any], write: Write) -> None:
    """A line break inside the offending input is escaped, so the error is still one line."""
    example["bad\nkey"] = 1
    done = matador("replay", write("hand.json", json.dumps(example)))
    assert done.returncode == 2
    assert done.stderr == "error: record['bad\\nkey']: unknown key (a record has rules, " \
        "players, deal, moves, meta, result)\n"
    assert done.stderr.count("\n") == 1


def test_deeply_nested_json(matador: Any, write: Write) -> None:
    """Pathological JSON is refused like any bad JSON, not with a crash."""
    done = matador("replay", write("deep.json", "[" * 100_000 + "]" * 100_000))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: record: not valid JSON")


@pytest.mark.parametrize("name", ["missing.json", "."])
def test_unreadable_file(matador: Any, tmp_path: Path, name: str) -> None:
    """A file that cannot be read: ``error: PATH: WHY``, exit 2, nothing on stdout."""
    path = tmp_path / name
    for args in (["replay", path], ["replay", "--jsonl", path]):
        done = matador(*args)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.startswith(f"error: {path}: ")
        assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [[], ["a.json", "--jsonl", "b.jsonl"], ["--bogus", "a.json"]])
def test_bad_arguments(matador: Any, args: list[str]) -> None:
    """Missing or conflicting arguments: argparse's usage message and exit 2."""
    done = matador("replay", *args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("usage: matador replay")
    assert "error:" in done.stderr


# -- --jsonl -----------------------------------------------------------------------


def _jsonl_input(example: dict[str, Any], example_result: str) -> list[str]:
    unfinished = {**example, "moves": example["moves"][:3]}
    illegal = {**example, "moves": ["0-3", "L4-0"]}
    with_result = {**example, "result": json.loads(example_result)}
    wrong_result = {**example, "result": {"over": False, "to_move": 0}}
    meta_with_separator = {**example, "meta": {"note": "a\u2028b\u2029c\x85d"}}
    return [
        json.dumps(example),
        "{not json",
        "",  # an empty line in the middle is a (refused) record too
        json.dumps(illegal),
        json.dumps(unfinished),
        json.dumps(with_result, indent=None, separators=(",", ":")),
        json.dumps(wrong_result),
        json.dumps(meta_with_separator, ensure_ascii=False),
        json.dumps(example) + "\r",  # a CRLF line end
    ]


@pytest.mark.parametrize("final_newline", [True, False], ids=["newline", "no-newline"])
def test_jsonl_mixed(matador: Any, example: dict[str, Any], example_result: str,
                     write: Write, final_newline: bool) -> None:
    """--jsonl prints one line per input line: trace and result, or the single-mode error."""
    lines = _jsonl_input(example, example_result)
    path = write("archive.jsonl", "\n".join(lines) + ("\n" if final_newline else ""))
    done = matador("replay", "--jsonl", path)
    assert (done.returncode, done.stderr) == (0, "")
    out = done.stdout.splitlines()
    assert len(out) == len(lines)
    for line, printed in zip(lines, out, strict=True):
        single = matador("replay", "--trace", "-", stdin=line)
        obj = json.loads(printed)
        if single.returncode == 0:
            *trace, result = single.stdout.splitlines()
            assert list(obj) == ["trace", "result"]
            assert printed == '{"trace": [' + ", ".join(trace) + '], "result": ' + result + "}"
        else:
            assert single.returncode == 2
            assert obj == {"error": single.stderr.removeprefix("error: ").removesuffix("\n")}
    kinds = ["result" if "result" in json.loads(p) else "error" for p in out]
    assert kinds == ["result", "error", "error", "error", "result", "result", "error",
                     "result", "result"]
    assert json.loads(out[0])["result"] == json.loads(example_result)
    assert json.loads(out[4])["result"] == {"over": False, "to_move": 0}
    assert json.loads(out[3])["error"].startswith("moves[1]: ")


def test_jsonl_stdin_and_edge_files(matador: Any, example: dict[str, Any],
                                    example_result: str) -> None:
    """--jsonl - reads stdin; an empty input prints nothing; a lone newline is one empty line."""
    done = matador("replay", "--jsonl", "-", stdin=json.dumps(example) + "\n")
    assert done.returncode == 0
    assert json.loads(done.stdout)["result"] == json.loads(example_result)
    assert matador("replay", "--jsonl", "-", stdin="").stdout == ""
    lone = matador("replay", "--jsonl", "-", stdin="\n")
    assert lone.returncode == 0
    assert list(json.loads(lone.stdout)) == ["error"]
    assert lone.stdout.count("\n") == 1
    blank_end = matador("replay", "--jsonl", "-", stdin=json.dumps(example) + "\n\n")
    assert [list(json.loads(x)) for x in blank_end.stdout.splitlines()] == [
        ["trace", "result"], ["error"]]
