"""Smoke test of benchmarks/load.py: a tiny run (two tables, one bot table, a few seconds)
prints its figures and writes them as JSON."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


@pytest.mark.slow
def test_the_load_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("matador_benchmark_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        out = tmp_path / "load.json"
        code = module.main(["--tables", "2", "--think", "0.2", "--seconds", "2", "--ramp",
                            "0.2", "--bots", "1", "--bot-workers", "1", "--server-core", "-1",
                            "--client-core", "-1", "--json", str(out)])
    finally:
        del sys.modules[spec.name]
    assert code == 0
    figures = json.loads(out.read_text())
    assert [f["scenario"] for f in figures] == ["tables", "bots"]
    assert figures[0]["moves"] > 0 and figures[0]["errors"] == {}
    assert "round trip ms" in capsys.readouterr().out
