"""Smoke test of benchmarks/think_time.py: a tiny run prints a row per preset and player
count, the summary with the bound of the level, and what the levels are."""

from __future__ import annotations

import sys

import pytest

from benchscripts import BENCHMARKS, load_benchmark
from matador.core.rules import PRESETS, Rules

SCRIPT = BENCHMARKS / "think_time.py"


def test_think_time_prints_every_table_and_the_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_benchmark("think_time")
    script.BOUNDS["normal:6it"] = 10_000.0  # an iteration budget keeps well within it
    script.main(["--levels", "normal:6it", "--hands", "1"])
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("normal:6it ")]
    tables = {(r[2], int(r[3])) for r in rows if len(r) == 8}
    counts = {p: Rules.from_preset(p).players for p in PRESETS}
    expected = {(p, n) for p, (lo, hi) in counts.items() for n in range(lo, hi + 1)}
    assert tables <= expected and len(tables) >= len(expected) - 2  # a hand may be all forced
    assert all(r[1] == "sage:6it" for r in rows if len(r) == 8)
    assert "(bound 10000 ms: held)" in out
    assert out.splitlines()[-1].startswith("levels: easy = greedy, normal = sage:")
    assert sys.modules.get("matador_benchmark_think_time") is None
