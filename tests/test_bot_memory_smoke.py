"""Smoke test of benchmarks/bot_memory.py: a tiny run prints a row per checkpoint and the
growth per hand over the second half."""

from __future__ import annotations

import pytest

from benchscripts import load_benchmark


def test_bot_memory_prints_checkpoints_and_growth(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_benchmark("bot_memory")
    assert script.main(["--bot", "pimc:5it", "--preset", "classic", "--hands", "4",
                        "--every", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if "peak RSS" in line]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4]
    assert all(float(r[4]) > 0 for r in rows)
    assert lines[-1].startswith("pimc:5it (classic, 2 players): growth over hands 2 to 4: ")
    assert lines[-1].endswith(" KB a hand")
