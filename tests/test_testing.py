"""Run the shipped invariant checker over every preset and player count."""

from __future__ import annotations

import random

import pytest

from lanes import classic_fast
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.testing import InvariantViolation, random_sim_test

CASES = [(p, n) for p in PRESETS for n in range(Rules.from_preset(p).players[0],
                                                   Rules.from_preset(p).players[1] + 1)]


@pytest.mark.parametrize(("preset", "players"), classic_fast(CASES))
def test_random_sim_every_preset_and_player_count(preset: str, players: int) -> None:
    """R1-R22 invariants at every position of random hands."""
    report = random_sim_test(Rules.from_preset(preset), players, hands=6,
                             rng=random.Random(hash(preset) % 1000 + players))
    assert report.hands == 6
    assert report.positions > report.hands
    assert report.samples > 0


def test_random_sim_detects_a_broken_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker can fail: break the pass penalty bookkeeping and it notices (R22)."""
    original = HandState.push

    def broken(self: HandState, m: int) -> None:
        original(self, m)
        if m == 127:
            self.points[0] += 1

    monkeypatch.setattr(HandState, "push", broken)
    with pytest.raises(InvariantViolation):
        random_sim_test(Rules.from_preset("six"), 2, hands=30, rng=random.Random(3),
                        check_views=False)
