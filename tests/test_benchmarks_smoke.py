"""Smoke test of benchmarks/playout.py: a tiny in-process run, no peers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchscripts import BENCHMARKS, load_benchmark

SCRIPT = BENCHMARKS / "playout.py"


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], preset: str) -> tuple[dict, str]:
    out_file = tmp_path / "figures.json"
    code = load_benchmark("playout").main(
        ["--seconds", "0.05", "--presets", preset, "--no-peers", "--no-compile-time", "--json",
         str(out_file)]
    )
    assert code == 0
    return json.loads(out_file.read_text()), capsys.readouterr().out


def check_numeric(value: object) -> None:
    assert isinstance(value, float | int) and not isinstance(value, bool)
    assert value > 0


def test_benchmark_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    figures, out = run(tmp_path, capsys, "paluba")
    rows = figures["matador"]
    assert [(r["preset"], r["players"]) for r in rows] == [("paluba", 2)]
    for key in ("decisions_per_second", "hands_per_second", "mean_decisions_per_hand",
                "copies_per_second"):
        check_numeric(rows[0][key])
    assert figures["peers"]["openspiel"]["installed"] is None  # skipped
    assert "decisions/s" in out and "paluba" in out and "skipped (--no-peers)" in out


@pytest.mark.slow  # the kernel beside the fast path: the whole run only
def test_benchmark_times_the_fast_path_and_the_kernel(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "figures.json"
    code = load_benchmark("playout").main(["--seconds", "0.06", "--presets", "paluba", "--no-peers",
                               "--no-compile-time", "--json", str(out_file)])
    assert code == 0
    figures, out = json.loads(out_file.read_text()), capsys.readouterr().out
    row = figures["matador"][0]
    check_numeric(row["fast_path"]["decisions_per_second"])
    for key in ("random_1_core", "random_2_cores", "greedy_1_core", "greedy_python"):
        check_numeric(row["kernel"][key])
    assert figures["targets"]["kernel_random_1_core_slowest"]["value"] > 0
    assert "fast dec/s" in out and "kernel 2 cores" in out and "M greedy dec/s" in out


def test_benchmark_without_the_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "figures.json"
    code = load_benchmark("playout").main(["--seconds", "0.03", "--presets", "paluba", "--no-peers",
                               "--no-kernel", "--json", str(out_file)])
    assert code == 0
    figures, out = json.loads(out_file.read_text()), capsys.readouterr().out
    assert figures["matador"][0]["kernel"] is None
    assert "kernel 2 cores" not in out and "skipped (--no-kernel)" in out
