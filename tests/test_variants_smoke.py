"""benchmarks/variants.py: each variant is sage with exactly its one piece changed, and the
script runs the real arena with them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

from matador.players import SageBot
from matador.players.base import Budget

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "variants.py"


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("matador_benchmark_variants", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # registers nothing: that happens under __main__ only
    return module


def pieces(bot: SageBot) -> dict[str, object]:
    return {"endgame": bot.endgame, "early_stop": bot.early_stop, "epsilon": bot.epsilon,
            "kernel": bot.kernel, "budget": bot.budget}


def test_each_variant_changes_one_piece_of_sage() -> None:
    plain = pieces(SageBot(Budget(iterations=50)))
    changed = {"sage-e0": {"endgame": 0}, "sage-e12": {"endgame": 12},
               "sage-full": {"early_stop": False}}
    variants = load_script().VARIANTS
    assert set(variants) == set(changed)
    for kind, factory in variants.items():
        assert pieces(factory(Budget(iterations=50))) == {**plain, **changed[kind]}, kind


def test_the_script_runs_the_arena_with_its_variants() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "sage-e0:20it", "sage-full:20it", "--preset", "classic",
         "--players", "2", "--deals", "2", "--seed", "3", "--bootstrap", "0"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "sage-e0:20it" in done.stdout and "sage-full:20it" in done.stdout
    assert "played 4 hands (2 deals x 2 rotations x 1 table)" in done.stdout + done.stderr
