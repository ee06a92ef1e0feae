"""Smoke test of benchmarks/playout.py: a tiny in-process run, no peers."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from matador.core.state import HandState

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "playout.py"


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("matador_benchmark_playout", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], preset: str) -> tuple[dict, str]:
    out_file = tmp_path / "figures.json"
    code = load_script().main(
        ["--seconds", "0.05", "--presets", preset, "--no-peers", "--json", str(out_file)]
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


def test_benchmark_times_a_fast_path(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def random_playout(state: HandState, rng: random.Random) -> int:
        n = 0
        while state.outcome is None:
            state.push(rng.choice(state.legal_move_ids()))
            n += 1
        return n

    fake = types.ModuleType("matador.core.playout")
    fake.random_playout = random_playout  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "matador.core.playout", fake)
    figures, out = run(tmp_path, capsys, "paluba")
    fast = figures["matador"][0]["fast_path"]
    assert fast is not None
    check_numeric(fast["decisions_per_second"])
    check_numeric(fast["hands_per_second"])
    assert "fast dec/s" in out
