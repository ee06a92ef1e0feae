"""``matador arena`` end to end: the table, --json, --plot, errors and reproducibility."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from matador.cli.main import main

Run = Callable[..., subprocess.CompletedProcess[str]]

REQUIRED_KEYS = {"preset", "players", "deals", "games", "bots", "score", "ci95",
                 "first_seat_score", "ms_per_move"}


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_arena_writes_table_json_and_plot(matador: Run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "arena.json", tmp_path / "ladder.png"
    done = matador("arena", "heuristic", "greedy", "random", "--preset", "classic",
                   "--players", "2", "--deals", "20", "--seed", "1", "--jobs", "2",
                   "--json", out, "--plot", png)
    assert done.returncode == 0, done.stderr
    for name in ("heuristic", "greedy", "random", "Elo", "95% CI", "ms/move"):
        assert name in done.stdout
    assert "first seat (the leader) scores" in done.stdout
    assert "played 120 hands (20 deals x 2 rotations x 3 tables)" in done.stderr
    assert "seed 1" in done.stderr
    data = _load(out)
    assert set(data) >= REQUIRED_KEYS
    assert data["preset"] == "classic" and data["players"] == 2
    assert data["deals"] == 20 and data["games"] == 120
    assert data["bots"] == ["heuristic", "greedy", "random"]
    for bot in data["bots"]:
        low, high = data["ci95"][bot]
        assert low <= data["score"][bot] <= high
    assert png.stat().st_size > 0
    assert png.read_bytes().startswith(b"\x89PNG")


def test_arena_is_reproducible_whatever_the_jobs(matador: Run, tmp_path: Path) -> None:
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        done = matador("arena", "greedy", "random", "--preset", "six", "--players", "3",
                       "--deals", "10", "--seed", "5", "--jobs", jobs, "--json", out,
                       "--set", "pass_penalty=2")
        assert done.returncode == 0, done.stderr
        data = _load(out)
        del data["ms_per_move"], data["seconds"]
        reports.append(data)
    assert reports[0] == reports[1]
    assert reports[0]["rules"] == {"preset": "six", "overrides": {"pass_penalty": 2}}
    assert reports[0]["tables"] == [["greedy", "random", "random"]]


def test_arena_json_to_stdout_moves_the_table_to_stderr(matador: Run) -> None:
    done = matador("arena", "greedy", "greedy", "--preset", "classic", "--players", "2",
                   "--deals", "5", "--seed", "2", "--json", "-", "--match")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["bots"] == ["greedy#1", "greedy#2"]
    assert data["score"] == {"greedy#1": 0.5, "greedy#2": 0.5}
    assert data["mode"] == "match"
    assert "greedy#1" in done.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["heuristic", "nosuchbot"], "error: bots: unknown bot 'nosuchbot'"),
    (["heuristic"], "error: bots: the arena needs at least two bots"),
    (["heuristic", "random", "--players", "5"], "error: players: 5 players"),
    (["heuristic", "random", "--set", "draw=sometimes"], "error: rules.overrides.draw"),
    (["heuristic", "random", "--timeout", "0"], "error: --timeout"),
])
def test_arena_errors(matador: Run, args: list[str], words: str) -> None:
    argv = ["arena", "--preset", "classic", "--deals", "2", *args]
    if "--players" not in args:
        argv += ["--players", "2"]
    done = matador(*argv)
    assert done.returncode == 2
    assert done.stderr.startswith(words), done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_arena_refuses_bad_counts(matador: Run) -> None:
    done = matador("arena", "greedy", "random", "--preset", "classic", "--players", "2",
                   "--deals", "0")
    assert done.returncode == 2 and "--deals" in done.stderr


def test_arena_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    status = main(["arena", "greedy", "random", "--preset", "classic", "--players", "2",
                   "--deals", "2", "--plot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("error: --plot: needs matplotlib") and "matador[plot]" in err
    assert not (tmp_path / "x.png").exists()


def test_arena_in_help(matador: Run) -> None:
    done = matador("--help")
    assert "arena" in done.stdout
    done = matador("arena", "--help")
    assert done.returncode == 0
    for option in ("--deals", "--seed", "--jobs", "--json", "--plot", "--match", "--set"):
        assert option in done.stdout
