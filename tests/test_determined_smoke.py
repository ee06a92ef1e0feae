"""benchmarks/determined.py: which positions are determined, their exact values, and the
regrets of a tiny run (none for a bot that plays the exact move, some for ``random``)."""

from __future__ import annotations

import random

import pytest

from benchscripts import load_benchmark
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.players.rollout import EndgameSolver

determined = load_benchmark("determined")


def _empty_boneyard(preset: str, players: int, seed: int) -> HandState | None:
    """A random hand played on until its boneyard is empty (None if it ends first)."""
    state = HandState.new(Rules.from_preset(preset), players, random.Random(seed))
    rng = random.Random(seed)
    while not state.is_over and state.boneyard_size:
        state.push(rng.choice(state.legal_move_ids()))
    return None if state.is_over else state


def test_only_two_player_hands_with_nothing_hidden_are_determined() -> None:
    seen = set()
    for seed in range(40):
        for preset, players in (("russian", 2), ("russian", 3), ("paluba", 2)):
            state = _empty_boneyard(preset, players, seed)
            if state is not None:
                seen.add((preset, players))
                assert determined.determined(state) == ((preset, players) == ("russian", 2))
    assert seen == {("russian", 2), ("russian", 3), ("paluba", 2)}
    fresh = HandState.new(Rules.from_preset("russian"), 2, random.Random(1))
    assert not determined.determined(fresh)  # a full boneyard hides its order


def test_exact_values_are_the_solvers_and_a_small_limit_gives_up() -> None:
    state = next(s for seed in range(100) if (s := _empty_boneyard("russian", 2, seed))
                 is not None and len(s.legal_move_ids()) > 1)
    values = determined.exact_values(state, 1_000_000)
    assert values is not None and set(values) == set(state.legal_move_ids())
    for m, v in values.items():
        child = state.copy()
        child.push(m)
        solved = EndgameSolver(node_limit=1_000_000).solve(child)
        assert solved is not None and solved[state.to_move] == v
        assert v in (0.0, 0.5, 1.0)
    assert determined.exact_values(state, 0) is None  # no position may be visited


def test_random_play_has_regret() -> None:
    found, unsolved = determined.regrets("random", "russian", 60, 1, 4, 100_000)
    assert len(found) > 30 and not unsolved and all(r >= 0 for r in found)
    assert sum(found) > 0  # random moves lose won positions


def test_a_tiny_run_prints_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert determined.main(["random", "--hands", "3", "--min-tiles", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("random, russian, 2 players, 3 hands, seed 1: ")
    assert "determined decisions with 4+ tiles solved" in out
    with pytest.raises(SystemExit):
        determined.main(["nobody"])
    assert "unknown bot 'nobody'" in capsys.readouterr().err
