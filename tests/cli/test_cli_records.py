"""What one command writes, the others read; odd records get one clear line (issue 9).

Each case is what issue 9 reproduced through the real ``matador``: a match
saved by ``play`` (a record per line) refused by ``replay`` and ``analyse``;
non-ASCII digits crashing ``int()``; a ``meta`` that is not an object or
holds a lone surrogate; an empty key giving an empty WHERE; a 10 MB key
echoed in full; a record not led by R14's leader crashing ``analyse``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from matador.core.record import Record
from matador.core.rules import Rules
from matador.core.state import Deal, HandState, highest_double_leader

Write = Callable[[str, str | bytes], Path]


def _play_file(matador: Any, tmp_path: Path) -> Path:
    path = tmp_path / "games.jsonl"
    done = matador("play", "--seat", "easy", "--seat", "easy", "--no-menu", "--match-target",
                   "50", "--seed", "3", "--save", path, "--no-review", stdin="")
    assert done.returncode == 0, done.stderr
    assert len(path.read_text().splitlines()) >= 2
    return path


def test_a_saved_match_is_read_by_every_command(matador: Any, tmp_path: Path) -> None:
    """Item 1: ``replay``, ``analyse --hand`` and ``show`` read what ``play`` saved."""
    path = _play_file(matador, tmp_path)
    hands = len(path.read_text().splitlines())
    every = matador("replay", path)
    assert (every.returncode, every.stderr) == (0, "")
    batch = [json.loads(line)["result"] for line in
             matador("replay", "--jsonl", path).stdout.splitlines()]
    assert [json.loads(line) for line in every.stdout.splitlines()] == batch
    second = matador("replay", path, "--hand", "2", "--trace")
    assert second.stdout.splitlines()[-1] == json.dumps(batch[1])
    assert second.stdout.startswith('{"ply": 0,')
    analysed = matador("analyse", path, "--hand", "2", "--ply", "0", "--budget", "3it",
                       "--seed", "1", "--json")
    assert analysed.returncode == 0 and json.loads(analysed.stdout)["ply"] == 0
    ambiguous = matador("analyse", path, "--ply", "0")
    assert ambiguous.returncode == 2 and ambiguous.stdout == ""
    assert ambiguous.stderr == (f"error: {path}: holds {hands} records, one per line: choose "
                                f"one with --hand K (1..{hands})\n")
    shown = matador("show", path, "--all")
    assert (shown.returncode, shown.stderr) == (0, "")
    assert f"Hand {hands}: pips" in shown.stdout
    beyond = matador("replay", path, "--hand", str(hands + 1))
    assert beyond.returncode == 2 and beyond.stderr.startswith("error: --hand: ")


def test_a_bad_line_is_named_and_the_others_kept(matador: Any, example: dict[str, Any],
                                                 write: Write) -> None:
    """Item 1: ``show`` shows the good hands and names the bad line; ``replay`` refuses the
    file naming it, and ``--hand`` reaches the good ones."""
    good = json.dumps(example)
    path = write("three.jsonl", f"{good}\n{{\"rules\": 1}}\n{good}\n")
    replayed = matador("replay", path)
    assert (replayed.returncode, replayed.stdout) == (2, "")
    assert replayed.stderr == "error: line 2: players: missing\n"
    assert matador("replay", path, "--hand", "3").returncode == 0
    shown = matador("show", path, "--all")
    assert shown.returncode == 2
    assert "Hand 1, start" in shown.stdout and "Hand 3, start" in shown.stdout
    assert "Hand 2, start" not in shown.stdout
    assert shown.stderr.splitlines() == [replayed.stderr.strip()]


def test_non_ascii_digits_are_refused_and_the_batch_goes_on(
        matador: Any, example: dict[str, Any], write: Write) -> None:
    """Item 2: ``"²-1"`` passed ``str.isdigit``; now a refusal, and ``--jsonl`` goes on."""
    for move in ("²-1", "1-³", "R٣-4", "\uff10-\uff13"):
        bad = dict(example, moves=[move])
        done = matador("replay", write("bad.json", json.dumps(bad)))
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.startswith(f"error: moves[0]: '{move}' is not a move")
        lines = f"{json.dumps(example)}\n{json.dumps(bad)}\n{json.dumps(example)}\n"
        batch = matador("replay", "--jsonl", write("batch.jsonl", lines))
        out = [json.loads(line) for line in batch.stdout.splitlines()]
        assert batch.returncode == 0 and [sorted(o) for o in out] == [
            ["result", "trace"], ["error"], ["result", "trace"]]


def test_meta_is_read_defensively(matador: Any, example: dict[str, Any], write: Write) -> None:
    """Item 3: ``meta`` that is not an object, and seat names with a lone surrogate,
    terminal escapes or markup, are shown safely."""
    for meta in (5, "x", [1], {"seats": ["\ud800", "[/bold]\x1b[2J"], "hand": 10**40}):
        path = write("meta.json", json.dumps(dict(example, meta=meta)))
        shown = matador("show", path, "--all")
        assert (shown.returncode, shown.stderr) == (0, ""), shown.stderr
        assert "\x1b[2J" not in shown.stdout
        analysed = matador("analyse", path, "--ply", "3", "--budget", "3it", "--seed", "1")
        assert (analysed.returncode, analysed.stderr) == (0, "")
    assert "Seat 0 (\\ud800)" in shown.stdout and "(\\x1b(2J)" not in shown.stdout


def test_odd_keys_are_quoted_visibly(matador: Any, example: dict[str, Any],
                                     write: Write) -> None:
    """Item 4: WHERE is never empty; an empty or odd key is quoted."""
    cases = [(dict(example, **{"": 1}), "record['']"),
             (dict(example, rules={"preset": "classic", "overrides": {"": 1}}),
              "rules.overrides['']"),
             (dict(example, deal=dict(example["deal"], **{"a b": 1})), "deal['a b']")]
    for record, where in cases:
        done = matador("replay", write("odd.json", json.dumps(record)))
        assert done.returncode == 2 and done.stderr.startswith(f"error: {where}: "), done.stderr


def test_huge_input_is_quoted_as_an_excerpt(matador: Any, example: dict[str, Any],
                                            write: Write) -> None:
    """Item 5: a 10 MB key, move or preset gives a short error line."""
    huge = "k" * 10_000_000
    for record in (dict(example, **{huge: 1}), dict(example, moves=[huge]),
                   dict(example, rules={"preset": huge})):
        done = matador("replay", write("huge.json", json.dumps(record)))
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr) < 400 and "(10000000 characters)" in done.stderr


def test_any_leader_is_analysable(matador: Any, write: Write) -> None:
    """Item 7: a valid record whose leader R14 would not have chosen is analysed quickly."""
    rules = Rules.from_preset("classic")
    deal = Deal.random(rules, 2, 21)
    other = 1 - highest_double_leader(deal.hands)
    state = HandState(rules, Deal(deal.hands, deal.boneyard, deal.set_aside, other))
    rng = random.Random(2)
    while not state.is_over:
        state.push(rng.choice(state.legal_move_ids()))
    path = write("led.json", Record.of(state).dumps())
    start = time.perf_counter()
    one = matador("analyse", path, "--ply", "1", "--budget", "20it", "--seed", "1", "--json")
    review = matador("analyse", path, "--budget", "3it", "--seed", "1", "--json")
    assert time.perf_counter() - start < 20
    assert (one.returncode, one.stderr, review.returncode, review.stderr) == (0, "", 0, ""), \
        (one.stderr, review.stderr)


def test_ply_range_names_the_plies_with_a_decision(matador: Any, example: dict[str, Any],
                                                   write: Write) -> None:
    """Item 15: the example hand ends at ply 14, so ``--ply`` goes from 0 to 13."""
    path = write("hand.json", json.dumps(example))
    done = matador("analyse", path, "--ply", "99")
    assert done.stderr == ("error: --ply: 99 is not a ply with a seat to move in this record "
                           "(0..13)\n")
    assert matador("analyse", path, "--ply", "14").stderr == done.stderr.replace("99", "14")


def test_integer_options_take_ascii_digits_only(matador: Any, example: dict[str, Any],
                                                write: Write) -> None:
    """Item 2's class: ``int()`` takes ``'٣'`` and ``'1_0'``; the options do not."""
    path = write("hand.json", json.dumps(example))
    for value in ("٣", "1_0", "²"):
        done = matador("analyse", path, "--ply", value)
        assert done.returncode == 2 and "is not a whole number" in done.stderr
