"""The fast playout makes exactly the plain loop's choices (it only inlines legality)."""

from __future__ import annotations

import random

import pytest

from matador.core.playout import random_playout
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState


def _plain(state: HandState, rng: random.Random) -> int:
    n = 0
    while not state.is_over:
        ids = state.legal_move_ids()
        state.push(ids[int(rng.random() * len(ids))])
        n += 1
    return n


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("overrides", [{}, {"matador_anytime": False, "matador_optional": True},
                                       {"draw": "one", "matador_optional": True},
                                       {"going_out": "after_boneyard"}])
def test_random_playout_equals_plain_loop(preset: str, overrides: dict[str, object]) -> None:
    """R9-R19: every legal-move set computed inline equals HandState.legal_move_ids."""
    rules = Rules.from_preset(preset, overrides)
    deal_rng = random.Random(7)
    lo, hi = rules.players
    for i in range(150):
        state = HandState.new(rules, lo + i % (hi - lo + 1), deal_rng)
        a, b = state.copy(), state.copy()
        na = random_playout(a, random.Random(i))
        nb = _plain(b, random.Random(i))
        assert na == nb == a.ply
        assert a.moves == b.moves
        assert a.outcome == b.outcome
