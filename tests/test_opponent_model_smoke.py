"""benchmarks/opponent_model.py: its searches are deterministic for a seed and the script runs
the arena (the policies and playouts it uses are tested in tests/players/test_opponent_model.py)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from benchscripts import BENCHMARKS, load_benchmark
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.base import Budget

model = load_benchmark("opponent_model")
SCRIPT = BENCHMARKS / "opponent_model.py"


@pytest.mark.parametrize("kind", sorted(model.KINDS))
def test_each_kind_is_deterministic_for_a_seed(kind: str) -> None:
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(8))
    while len(state.legal_move_ids()) == 1 or state.ply < 4:
        state.push(state.legal_move_ids()[0])
    view = PlayerView.of(state, state.to_move)
    make = model.KINDS[kind]
    first = make(Budget(iterations=20)).choose(view, random.Random(5))
    assert first in view.legal_move_ids()
    assert make(Budget(iterations=20)).choose(view, random.Random(5)) == first


@pytest.mark.slow  # a subprocess with an arena: the whole run only
def test_the_script_runs_the_arena_with_its_kinds() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "knows-infers-greedy:20it", "greedy", "--preset",
         "classic", "--players", "2", "--deals", "2", "--seed", "3", "--bootstrap", "0",
         "--jobs", "2"],  # spawned workers must know the kinds too
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "knows-infers-greedy" in done.stdout  # the table may cut the budget off
    assert "forfeited" not in done.stdout + done.stderr
    assert "played 4 hands (2 deals x 2 rotations x 1 table)" in done.stdout + done.stderr
