"""Load a script of ``benchmarks/`` as a module, for the smoke tests of the benchmarks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> Any:
    """``benchmarks/NAME.py`` as a fresh module (its ``__main__`` part does not run)."""
    spec = importlib.util.spec_from_file_location(f"matador_benchmark_{name}",
                                                  BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module
