"""``matador analyse`` as a user runs it: one position, a whole review, JSON, errors."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., subprocess.CompletedProcess[str]]



def test_analyse_one_position_json(matador: Run, example: dict[str, Any],
                                   write: Callable[[str, str], Path]) -> None:
    """Every legal move of the seat to move gets a win chance, points and a sample size."""
    path = write("hand.json", json.dumps(example))
    done = matador("analyse", path, "--ply", "1", "--budget", "20it", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["seat"] == 1 and result["ply"] == 1
    # RULES.md section 8: at ply 1 the legal moves are R4-0, R4-1, R4-6.
    assert sorted(m["move"] for m in result["moves"]) == ["R4-0", "R4-1", "R4-6"]
    for m in result["moves"]:
        assert 0.0 <= m["win"] <= 1.0 and m["samples"] == 20
    wins = [m["win"] for m in result["moves"]]
    assert wins == sorted(wins, reverse=True)


def test_analyse_is_reproducible_with_a_seed(matador: Run, example: dict[str, Any],
                                             write: Callable[[str, str], Path]) -> None:
    """Same seed and iteration budget: the same numbers."""
    path = write("hand.json", json.dumps(example))
    args = ("analyse", path, "--ply", "3", "--budget", "15it", "--seed", "4", "--json")
    assert matador(*args).stdout == matador(*args).stdout


def test_review_of_a_whole_record(matador: Run, example: dict[str, Any],
                                  write: Callable[[str, str], Path]) -> None:
    """Without --ply, every decision with a choice is reviewed and labelled."""
    path = write("hand.json", json.dumps(example))
    done = matador("analyse", path, "--budget", "5it", "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    # Plies with a single legal move (RULES.md trace: 2, 4, 6, 7, 10, 12, 13) are skipped.
    assert [r["ply"] for r in lines] == [0, 1, 3, 5, 8, 9, 11]
    for r in lines:
        assert r["label"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert r["cost"] >= 0
    table = matador("analyse", path, "--budget", "5it", "--seed", "2", "--seat", "0")
    assert table.returncode == 0 and "verdict" in table.stdout


def test_analyse_errors(matador: Run, example: dict[str, Any],
                        write: Callable[[str, str], Path]) -> None:
    """Bad budgets, plies after the end and bad records are refused with exit 2."""
    path = write("hand.json", json.dumps(example))
    for args, where in [(("--ply", "14"), "--ply"), (("--ply", "99"), "--ply"),
                        (("--budget", "soon"), "--budget"), (("--budget", "0.5it"), "--budget"),
                        (("--seat", "7"), "--seat"), (("--seat", "-1"), "--seat")]:
        done = matador("analyse", path, *args)
        assert done.returncode == 2 and done.stderr.startswith(f"error: {where}"), done.stderr
    bad = write("bad.json", "{")
    done = matador("analyse", bad)
    assert done.returncode == 2 and done.stderr.startswith("error: record")
