"""benchmarks/variants.py: each variant is sage with exactly its one piece changed, and the
script runs the real arena with them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benchscripts import BENCHMARKS, load_benchmark
from matador.players import SageBot
from matador.players.base import Budget

SCRIPT = BENCHMARKS / "variants.py"


def pieces(bot: SageBot) -> dict[str, object]:
    return {"endgame": bot.endgame, "early_stop": bot.early_stop, "epsilon": bot.epsilon,
            "kernel": bot.kernel, "budget": bot.budget}


def test_each_variant_changes_one_piece_of_sage() -> None:
    plain = pieces(SageBot(Budget(iterations=50)))
    changed = {"sage-e0": {"endgame": 0}, "sage-e12": {"endgame": 12},
               "sage-full": {"early_stop": False}}
    variants = load_benchmark("variants").VARIANTS
    assert set(variants) == set(changed)
    for kind, factory in variants.items():
        assert pieces(factory(Budget(iterations=50))) == {**plain, **changed[kind]}, kind


@pytest.mark.slow  # a subprocess with an arena: the whole run only
def test_the_script_runs_the_arena_with_its_variants() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "sage-e0:20it", "sage-full:20it", "--preset", "classic",
         "--players", "2", "--deals", "2", "--seed", "3", "--bootstrap", "0"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "sage-e0:20it" in done.stdout and "sage-full:20it" in done.stdout
    assert "played 4 hands (2 deals x 2 rotations x 1 table)" in done.stdout + done.stderr
