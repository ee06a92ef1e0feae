"""``matador simulate``: random playouts written as records, checked by ``matador replay``."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from matador.core.record import parse_record, replay

PRESET_PLAYERS = [("classic", 2), ("classic", 3), ("classic", 4), ("paluba", 2),
                  ("russian", 2), ("russian", 3), ("russian", 4),
                  ("six", 2), ("six", 3), ("six", 4)]
SUMMARY = re.compile(r"^simulated (\d+) hands, (\d+) moves in \d+\.\d\d s \(.*seed (\d+)\)\n$")


def _simulate(matador: Any, *args: str | Path) -> str:
    done = matador("simulate", *args)
    assert done.returncode == 0, done.stderr
    assert SUMMARY.match(done.stderr), done.stderr
    return str(done.stdout)


@pytest.mark.parametrize(("preset", "players"), PRESET_PLAYERS)
def test_every_line_replays_to_its_result(matador: Any, preset: str, players: int,
                                          tmp_path: Path) -> None:
    """K lines, each a finished record whose ``result`` is what ``matador replay`` prints."""
    path = tmp_path / "hands.jsonl"
    done = matador("simulate", "--preset", preset, "--players", str(players), "--hands", "4",
                   "--seed", "9", "--out", path)
    assert (done.returncode, done.stdout) == (0, "")
    match = SUMMARY.match(done.stderr)
    assert match and match.group(1) == "4" and match.group(3) == "9"
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    moves = 0
    for line in lines:
        record = json.loads(line)
        assert list(record) == ["rules", "players", "deal", "moves", "result"]
        assert record["rules"] == {"preset": preset, "overrides": {}}
        assert record["players"] == players
        moves += len(record["moves"])
        replayed = matador("replay", "-", stdin=line)
        assert (replayed.returncode, replayed.stderr) == (0, ""), replayed.stderr
        assert replayed.stdout == json.dumps(record["result"]) + "\n"
        assert list(record["result"]) == ["winner", "reason", "pips", "points"]
    assert match.group(2) == str(moves)


def test_same_seed_same_bytes(matador: Any, tmp_path: Path) -> None:
    """One seed drives every deal and move: the same arguments write byte-identical output."""
    args = ["--preset", "classic", "--players", "3", "--hands", "50", "--seed", "2024"]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _simulate(matador, *args, "--out", first)
    _simulate(matador, *args, "--out", second)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().count(b"\n") == 50
    assert _simulate(matador, *args).encode() == first.read_bytes()  # no --out: stdout
    assert _simulate(matador, *args, "--out", "-").encode() == first.read_bytes()
    other = _simulate(matador, "--preset", "classic", "--players", "3", "--hands", "50",
                      "--seed", "2025")
    assert other.encode() != first.read_bytes()


def test_without_seed_reports_the_seed(matador: Any) -> None:
    """Without --seed a fresh seed is used and shown, and it reproduces the run."""
    args = ["--preset", "six", "--players", "2", "--hands", "3"]
    done = matador("simulate", *args)
    match = SUMMARY.match(done.stderr)
    assert done.returncode == 0 and match
    assert _simulate(matador, *args, "--seed", match.group(3)) == done.stdout


def test_jsonl_replay_agrees_with_in_process_replay(matador: Any, tmp_path: Path) -> None:
    """``matador replay --jsonl`` of a simulation prints what the core's replay computes."""
    path = tmp_path / "hands.jsonl"
    for preset, players in PRESET_PLAYERS:
        with path.open("a") as out:
            out.write(_simulate(matador, "--preset", preset, "--players", str(players),
                                "--hands", "30", "--seed", str(players)))
    lines = path.read_text().splitlines()
    assert len(lines) == 30 * len(PRESET_PLAYERS)
    done = matador("replay", "--jsonl", path)
    assert (done.returncode, done.stderr) == (0, "")
    printed = done.stdout.splitlines()
    assert len(printed) == len(lines)
    for line, out in zip(lines, printed, strict=True):
        expected = replay(parse_record(line), trace=True)
        assert out == json.dumps({"trace": expected.trace, "result": expected.result})
        assert json.loads(out)["result"] == json.loads(line)["result"]
        assert len(expected.trace) == len(json.loads(line)["moves"]) + 1
        for position in expected.trace:
            assert position["legal"] == sorted(position["legal"])


def test_overrides(matador: Any) -> None:
    """--set changes the rules of every hand, and the records carry the override."""
    out = _simulate(matador, "--preset", "classic", "--players", "2", "--hands", "5",
                    "--seed", "1", "--set", "draw=one", "--set", "per_join=3")
    for line in out.splitlines():
        record = json.loads(line)
        assert record["rules"]["overrides"] == {"draw": "one", "per_join": 3}
        assert matador("replay", "-", stdin=line).stdout == json.dumps(record["result"]) + "\n"
    done = matador("simulate", "--preset", "classic", "--players", "2", "--hands", "5",
                   "--set", "draw=sometimes")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: rules.overrides.draw: ")


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--preset", "paluba", "--players", "4", "--hands", "1"], 2, "error: players: "),
    (["--preset", "classic", "--players", "2", "--hands", "-1"], 2, "usage: matador simulate"),
    (["--preset", "classic", "--players", "2"], 2, "usage: matador simulate"),
    (["--preset", "classic", "--players", "2", "--hands", "1", "--out", "/no/such/dir/x"], 2,
     "error: /no/such/dir/x: "),
])
def test_errors(matador: Any, args: list[str], code: int, message: str) -> None:
    """Bad arguments and unwritable output: exit 2, the message on stderr, nothing on stdout."""
    done = matador("simulate", *args)
    assert (done.returncode, done.stdout) == (code, "")
    assert done.stderr.startswith(message)


def test_zero_hands(matador: Any) -> None:
    """--hands 0 writes nothing and still reports."""
    assert _simulate(matador, "--preset", "six", "--players", "3", "--hands", "0") == ""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_only_on_a_terminal(matador: Any, tmp_path: Path) -> None:
    """On a terminal stderr shows a progress bar; piped, stderr holds only the summary line."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "hands.jsonl"
    args = ["simulate", "--preset", "classic", "--players", "2", "--hands", "3000", "--seed", "1",
            "--out", str(path)]
    child = pexpect.spawn(str(Path(sys.executable).parent / "matador"), args, encoding="utf-8",
                          timeout=120, dimensions=(24, 120))
    child.expect("simulating")
    child.expect(r"simulated 3000 hands, \d+ moves")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert path.read_text().count("\n") == 3000
