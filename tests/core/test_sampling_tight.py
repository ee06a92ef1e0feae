"""Hands filled by the only tiles that may be in them (Hall, tight) in the world sampler.

With an empty boneyard every unseen tile is in another seat's hand. When some
seats together hold exactly as many tiles as only they may hold, their hands
are those tiles: the sampler excludes every other tile from them
(``sampling._tight``). Without it, a view of ``six`` with four players (two
seats passed on the blank and the matadors, so the third holds all six such
tiles) found one world in 27,000 candidates and the search forfeited the hand
(deal 1086 of ``matador arena sage-g:300it pimc:300it --preset six --players 4
--seed 1433``). R12-R19.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from test_sampling_exact import assert_uniform_over, deals

from matador.core.rules import Rules
from matador.core.sampling import WorldSampler, _tight
from matador.core.state import Deal, HandState
from matador.core.tiles import Tile, iter_bits, mask_of
from matador.core.view import PlayerView

HANDS = (
    "2-4 1-5 0-2 3-3 0-3 0-6 0-4",
    "2-2 1-4 3-5 4-6 2-6 5-5 2-5",
    "1-3 1-2 6-6 3-4 4-4 3-6 4-5",
    "2-3 1-6 0-0 1-1 5-6 0-5 0-1",
)
MOVES = ("6-6", "L0-5", "L6-0", "pass", "pass")


def forfeit_view() -> PlayerView:
    """Seat 3's view after 6-6, 0-5, 0-6 and two passes (``six``, four players, no boneyard)."""
    rules = Rules.from_preset("six")
    hands = tuple(tuple(Tile.parse(t) for t in hand.split()) for hand in HANDS)
    state = HandState(rules, Deal(hands, (), (), 2))
    for m in MOVES:
        state.play(m)
    return PlayerView.of(state, 3)


def _mask(text: str) -> int:
    return mask_of(Tile.parse(t) for t in text.split())


def test_the_forfeited_view_excludes_what_the_passes_imply() -> None:
    """R17 (passes with an empty boneyard): seats 1 and 2 cannot hold a blank or a matador,
    so seat 0 holds all six left and nothing else."""
    view = forfeit_view()
    excluded = _tight(view, [0, 1, 2])
    forced = _mask("0-2 0-3 0-4 1-5 2-4 3-3")
    assert excluded[0] == view.unseen & ~forced
    assert excluded[1] == excluded[2] == 0


@pytest.mark.parametrize("how", [pytest.param("exact", marks=pytest.mark.slow), "flat"])
def test_the_forfeited_view_is_sampled_without_rejection_and_uniformly(how: str) -> None:
    """Every candidate is a consistent world, and the 1,716 worlds (seat 2's six tiles out of
    the 13 that seats 1 and 2 share) come up uniformly, from either sampler."""
    view = forfeit_view()
    sampler = WorldSampler(view)
    rng = random.Random(5)
    for _ in range(200):
        sampler.sample(rng)
    assert sampler.attempts == sampler.accepted == 200
    forced = _mask("0-2 0-3 0-4 1-5 2-4 3-3") | _mask("0-6")
    shared = view.unseen & ~forced
    worlds = {frozenset(c) for c in combinations(iter_bits(shared), 6)}
    assert len(worlds) == 1716
    counts: Counter[frozenset[int]] = Counter()
    n = 20_000
    for deal in deals(view, how, 7, n):
        assert mask_of(deal.hands[0]) == forced
        assert mask_of(deal.hands[1] + deal.hands[2]) | _mask("6-6") \
            == shared | _mask("6-6")
        counts[frozenset(deal.hands[2]) - {Tile.parse("6-6")}] += 1
    assert_uniform_over(worlds, counts, n)


@pytest.mark.parametrize(("preset", "players", "overrides"), [
    pytest.param("six", 4, {}, marks=pytest.mark.slow),
    ("classic", 4, {}),
    pytest.param("classic", 3, {"draw": "one"}, marks=pytest.mark.slow),
    pytest.param("russian", 3, {"hand_size": {"3": 9}}, marks=pytest.mark.slow),
])
def test_exclusions_hold_in_the_true_world(preset: str, players: int,
                                           overrides: dict[str, object]) -> None:
    """The exclusions are implied by the view: in random games the true hands never hold an
    excluded tile, and exclusions do arise (the check is not empty)."""
    rules = Rules.from_preset(preset, overrides)
    rng = random.Random(players)
    found = 0
    for _ in range(150):
        state = HandState.new(rules, players, rng)
        while not state.is_over:
            for seat in range(players):
                view = PlayerView.of(state, seat)
                others = [s for s in range(players) if s != seat]
                for s, mask in _tight(view, others).items():
                    assert not mask & state.hands[s], (preset, state.ply, seat, s)
                    found += mask != 0
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
    assert found >= 5


CONSTRAINED_LAST = (
    '{"rules": {"preset": "six", "overrides": {}}, "players": 4, "seat": 1, "hand": ["0-5", '
    '"3-6", "3-4", "0-3", "0-6", "2-2", "1-5"], "leader": 2, "moves": ["6-6", "L3-3", "L3-5", '
    '"L0-6", "L0-2", "pass", "L4-0", "R0-3", "pass", "R3-1", "R5-6"]}')
"""A view of ``benchmarks/sampler.py`` (six, hand 750 of seed 1): seat 3 may hold 7 tiles
for its 5, seat 2 11 for 5, seat 0 14 for 4."""


def test_the_most_constrained_seat_is_drawn_first() -> None:
    """Seats in order of spare tiles (``_order``): drawn in seat order, seat 3 came last and
    one candidate in about 2,500 was a world; drawn first, about one in 8."""
    view = PlayerView.from_json(CONSTRAINED_LAST)
    sampler = WorldSampler(view)
    assert sampler.order == [3, 2, 0]
    rng = random.Random(2)
    for _ in range(100):
        state = sampler.sample(rng)
        assert PlayerView.of(state, 1).to_json() == view.to_json()
    assert sampler.attempts < 100 * 30
