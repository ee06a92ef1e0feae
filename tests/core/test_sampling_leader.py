"""The leader rule (R14) in the world sampler: sampled directly, exactly, without rejection.

When another seat led because it held the best dealt tile (``first_leader =
highest_double``), every consistent deal gives that seat the best tile. The
sampler draws the leader's best tile in proportion to the number of deals
with it and constrains the dealt hands accordingly, so no candidate deal is
rejected for breaking R14, and the draw stays exactly uniform (checked against
exhaustive enumeration with 3 and 4 players).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_sampling_exact import (
    assert_uniform_over,
    deals,
    enumerate_worlds,
    with_samplers,
    world_key,
)

from matador.core.rules import Rules
from matador.core.sampling import WorldSampler, sampler_for
from matador.core.state import HandState, highest_double_leader
from matador.core.tiles import LEAD_RANK, Tile
from matador.core.view import PlayerView


def _views_behind_the_leader(rules: Rules, players: int, seed: int, plies: int
                             ) -> list[PlayerView]:
    """Views of seats other than the leader after ``plies`` random moves."""
    rng = random.Random(seed)
    out: list[PlayerView] = []
    while len(out) < 6:
        state = HandState.new(rules, players, rng)
        for _ in range(plies):
            if state.is_over:
                break
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
        if state.is_over:
            continue
        for seat in range(players):
            if seat != state.deal.leader:
                out.append(PlayerView.of(state, seat))
    return out


@pytest.mark.parametrize(("preset", "players"), [
    ("classic", 2), ("classic", 3), ("classic", 4), ("russian", 3), ("six", 4),
])
def test_no_deal_is_rejected_for_the_leader_rule(preset: str, players: int) -> None:
    """R14: every candidate deal gives the leader the best dealt tile (no rejection for it)."""
    rules = Rules.from_preset(preset)
    for view in _views_behind_the_leader(rules, players, seed=players, plies=2):
        sampler = WorldSampler(view)
        assert sampler.check_leader
        rng = random.Random(1)
        for _ in range(30):
            candidate = sampler._candidate(rng)
            if candidate is not None:  # None: a later seat's count bound, not R14
                assert highest_double_leader(candidate.hands) == view.leader


def test_two_players_behind_the_leader_accept_every_candidate() -> None:
    """R14 with two players: no draw has happened yet, so every candidate deal is accepted.

    (Before R14 was sampled directly, about a third of them broke it.)
    """
    rules = Rules.from_preset("classic")
    for view in _views_behind_the_leader(rules, 2, seed=5, plies=1):
        sampler = WorldSampler(view)
        rng = random.Random(2)
        for _ in range(50):
            sampler.sample(rng)
        assert sampler.attempts == sampler.accepted == 50


def test_leader_cases_are_the_tiles_above_this_seats_best() -> None:
    """R14: each case is a tile the leader may have led by, above every tile dealt to this seat."""
    rules = Rules.from_preset("classic")
    view = _views_behind_the_leader(rules, 4, seed=9, plies=0)[0]
    sampler = WorldSampler(view)
    assert sampler.variants is not None
    mine = max(LEAD_RANK[t] for t in view.dealt)
    forced = [models[[m.seat for m in models].index(view.leader)].forced_held
              for _, models in sampler.variants]
    assert forced and all(LEAD_RANK[t] > mine for t in forced)
    assert all(view.unseen >> t & 1 for t in forced)  # nothing played yet: all still held
    assert forced == sorted(forced, key=LEAD_RANK.__getitem__)
    total = sum(w for w, _ in sampler.variants)
    assert sampler.total_weight == total > 0


def test_a_played_tile_can_be_the_leaders_best() -> None:
    """R14: the opening tile came from the leader's dealt hand, so it may be the best one."""
    rules = Rules.from_preset("classic")
    rng = random.Random(3)
    state = HandState.new(rules, 3, rng)
    leader = state.deal.leader
    best = max(state.deal.hands[leader], key=LEAD_RANK.__getitem__)
    state.play(str(Tile(best)))  # the leader opens with its best tile
    view = PlayerView.of(state, (leader + 1) % 3)
    sampler = sampler_for(view)
    for _ in range(20):
        deal = sampler.sample_deal(rng)
        assert best in deal.hands[leader]
        assert highest_double_leader(deal.hands) == leader


# Small hands keep the hidden part small enough to enumerate.
LEADER_CASES = [  # seconds each: slow lane only (the fast lane's naive-rejection test has R14)
    ("classic", {"hand_size": 7, "players": [3, 3]}, 3, 21),
    ("six", {"hand_size": 7, "players": [3, 3]}, 3, 22),
    ("classic", {"hand_size": 6, "players": [4, 4], "draw": "one"}, 4, 23),
    ("russian", {"hand_size": 6, "players": [4, 4]}, 4, 24),
]


def _small_views_behind_the_leader(rules: Rules, players: int, seed: int, cap: int
                                   ) -> list[PlayerView]:
    """Views of a seat other than the leader, late enough to enumerate (``cap`` bounds it)."""
    from test_sampling_exact import _cost

    rng = random.Random(seed)
    found: list[PlayerView] = []
    for _ in range(20_000):
        state = HandState.new(rules, players, rng)
        while not state.is_over and len(found) < 2:
            view = PlayerView.of(state, state.to_move)
            if view.seat != view.leader and state.ply >= 4 and _cost(view) <= cap:
                found.append(view)
                break
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
        if len(found) >= 2:
            return found
    raise AssertionError("no small position found")


@pytest.mark.parametrize(("preset", "overrides", "players", "seed", "how"),
                         with_samplers(LEADER_CASES, fast=set()))
def test_leader_rule_sampling_matches_enumeration(preset: str, overrides: dict[str, object],
                                                  players: int, seed: int, how: str) -> None:
    """R12-R19 with R14 deciding the leader: only consistent worlds, all of them, uniformly."""
    rules = Rules.from_preset(preset, overrides)
    cap = {3: 30_000, 4: 8_000}[players]
    for view in _small_views_behind_the_leader(rules, players, seed, cap):
        worlds = enumerate_worlds(view)
        assert worlds
        sampler = sampler_for(view)
        assert sampler.check_leader and sampler.variants is not None
        n = min(20_000, max(3000, 20 * len(worlds)))
        counts = Counter(world_key(view, deal) for deal in deals(view, how, seed, n))
        assert_uniform_over(worlds, counts, n)
