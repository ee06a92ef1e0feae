"""The world sampler against exhaustive enumeration (issue: "cover all consistent worlds").

For small endgames every deal consistent with a view is enumerated by brute
force, each checked by replaying the public moves through the engine's
validated path (``HandState.play``). The sampler must only produce worlds of
that set, reach all of them, and hit them uniformly (chi-square).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from matador.core.errors import MatadorError
from matador.core.moves import DRAW
from matador.core.rules import FirstLeader, Rules
from matador.core.sampling import flat_worlds, sampler_for
from matador.core.state import Deal, HandState, highest_double_leader
from matador.core.streams import Stream, stream_key
from matador.core.tiles import TILES, mask_of
from matador.core.view import PlayerView

WorldKey = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def _others_facts(view: PlayerView) -> dict[int, tuple[list[int], int]]:
    """For each other seat: its played tiles and how many times it drew."""
    facts: dict[int, tuple[list[int], int]] = {
        s: ([], 0) for s in range(view.players) if s != view.seat
    }
    for s, m in zip(view.movers, view.moves, strict=True):
        if s == view.seat:
            continue
        played, draws = facts[s]
        if m == DRAW:
            facts[s] = (played, draws + 1)
        elif m < DRAW:
            tile = m if m < 28 else view_tile(m)
            played.append(tile)
    return facts


def view_tile(m: int) -> int:
    from matador.core.moves import MOVE_TILE

    return MOVE_TILE[m]


def _public_timeline(view: PlayerView) -> list[tuple[int, int, int, int, int, bool]]:
    """For each move: (seat, move, left, right, boneyard size, drawn this turn) before it."""
    out = []
    left = right = -1
    bone = view.boneyard_size + sum(1 for m in view.moves if m == DRAW)
    drawn = False
    for s, m in zip(view.movers, view.moves, strict=True):
        out.append((s, m, left, right, bone, drawn))
        if m == DRAW:
            bone -= 1
            drawn = True
            continue
        drawn = False
        if m < 28:
            left, right = TILES[m].low, TILES[m].high
        elif m < DRAW:
            from matador.core.moves import MOVE_END, MOVE_EXPOSED

            if MOVE_END[m]:
                right = MOVE_EXPOSED[m]
            else:
                left = MOVE_EXPOSED[m]
    return out


def _seat_ok(view: PlayerView, seat: int, dealt: tuple[int, ...], draws: tuple[int, ...],
             timeline: list[tuple[int, int, int, int, int, bool]]) -> bool:
    """Whether ``seat`` could have made its moves holding ``dealt`` and drawing ``draws``."""
    from matador.core.tables import tables_for

    tb = tables_for(view.rules)
    hand = mask_of(dealt)
    k = 0
    for s, m, left, right, bone, drawn in timeline:
        if s != seat:
            continue
        can_draw = bone > 0 and not (drawn and tb.draw_one)
        if not tb.legal_mask(hand, left, right, can_draw, drawn) >> m & 1:
            return False
        if m == DRAW:
            hand |= 1 << draws[k]
            k += 1
        elif m < DRAW:
            hand &= ~(1 << view_tile(m) if m >= 28 else 1 << m)
    return True


def _seat_configs(cands: int, played: list[int], h: int, d: int
                  ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    tiles = [t for t in range(28) if cands >> t & 1]
    need = set(played)
    for dealt in itertools.combinations(tiles, h):
        rest = [t for t in tiles if t not in dealt]
        missing = need - set(dealt)
        for draws in itertools.permutations(rest, d):
            if missing <= set(draws):
                yield dealt, draws


def enumerate_worlds(view: PlayerView) -> set[WorldKey]:
    """Every (other seats' dealt hands, others' draws in order) consistent with ``view``.

    Each seat's configurations are first filtered one seat at a time (could it
    have made its own moves?), then combined and checked as a whole by the
    engine's validated replay.
    """
    facts = _others_facts(view)
    seats = sorted(facts)
    size = view.rules.hand_size_for(view.players)
    timeline = _public_timeline(view)
    per_seat = {}
    for s in seats:
        played, d = facts[s]
        per_seat[s] = [
            (dealt, draws, mask_of(dealt) | mask_of(draws))
            for dealt, draws in _seat_configs(view.unseen | mask_of(played), played, size, d)
            if _seat_ok(view, s, dealt, draws, timeline)
        ]
    out: set[WorldKey] = set()

    def rec(i: int, pool: int, chosen: dict[int, tuple[tuple[int, ...], tuple[int, ...]]]
            ) -> None:
        if i == len(seats):
            key = _check(view, chosen, pool)
            if key is not None:
                out.add(key)
            return
        s = seats[i]
        played = mask_of(facts[s][0])
        for dealt, draws, used in per_seat[s]:
            if used & ~(pool | played):
                continue
            chosen[s] = (dealt, draws)
            rec(i + 1, pool & ~used, chosen)
        chosen.pop(s, None)

    rec(0, view.unseen, {})
    return out


def _check(view: PlayerView, chosen: dict[int, tuple[tuple[int, ...], tuple[int, ...]]],
           rest: int) -> WorldKey | None:
    hands = []
    for s in range(view.players):
        hands.append(tuple(view.dealt) if s == view.seat else chosen[s][0])
    boneyard: list[int] = []
    next_draw = Counter[int]()
    for ply, (s, m) in enumerate(zip(view.movers, view.moves, strict=True)):
        if m == DRAW:
            if s == view.seat:
                boneyard.append(view.own_draws[ply])
            else:
                boneyard.append(chosen[s][1][next_draw[s]])
                next_draw[s] += 1
    rest_tiles = [t for t in range(28) if rest >> t & 1]
    split = len(rest_tiles) - view.set_aside_size
    boneyard.extend(rest_tiles[:split])
    deal = Deal(tuple(tuple(TILES[t] for t in h) for h in hands),
                tuple(TILES[t] for t in boneyard), tuple(TILES[t] for t in rest_tiles[split:]),
                view.leader)
    if (view.leader_by_rule and view.rules.first_leader is FirstLeader.HIGHEST_DOUBLE
            and highest_double_leader(deal.hands) != view.leader):
        return None
    state = HandState(view.rules, deal)
    try:
        for m in view.moves:
            if state.is_over:
                return None
            state.play(m)
    except MatadorError:
        return None
    if state.is_over and view.outcome is None:
        return None
    return world_key(view, deal)


def world_key(view: PlayerView, deal: Deal) -> WorldKey:
    others = tuple(tuple(sorted(deal.hands[s])) for s in range(view.players) if s != view.seat)
    draws = []
    for ply, (s, m) in enumerate(zip(view.movers, view.moves, strict=True)):
        if m == DRAW and s != view.seat:
            draws.append(int(deal.boneyard[ply_index(view, ply)]))
    return others, tuple(draws)


def ply_index(view: PlayerView, ply: int) -> int:
    """Index in the boneyard of the draw made at ``ply``."""
    return sum(1 for m in view.moves[:ply] if m == DRAW)


def find_positions(rules: Rules, players: int, seed: int, want: int,
                   max_cost: int) -> list[PlayerView]:
    """Views from random games, small enough to enumerate, with a forced draw or pass."""
    rng = random.Random(seed)
    found: list[PlayerView] = []
    for _ in range(20_000):
        if len(found) >= want:
            return found
        state = HandState.new(rules, players, rng)
        while not state.is_over and len(found) < want:
            view = PlayerView.of(state, state.to_move)
            # seats other than the viewer with a forced draw or pass: with 3-4 players
            # ask for two, so the sampler's coupling between seats is exercised
            void_seats = sum(1 for s in range(players) if s != view.seat
                             and any(e.kind == "void" for e in view.events[s]))
            if void_seats >= min(2, players - 1) and _cost(view) <= max_cost:
                found.append(view)
                break
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
    raise AssertionError("no small position found")


def _cost(view: PlayerView) -> int:
    facts = _others_facts(view)
    size = view.rules.hand_size_for(view.players)
    u = view.unseen.bit_count()
    cost = 0
    for played, d in facts.values():
        c = u + len(played)
        cost += math.comb(c, size) * math.perm(c - size, d)
    return cost


# Big hands and a small boneyard keep the hidden part small enough to enumerate.
CASES = [
    ("classic", {"hand_size": 12, "players": [2, 2]}, 2, 1),
    ("classic", {"hand_size": 11, "players": [2, 2], "draw": "one"}, 2, 2),
    ("paluba", {"hand_size": 11}, 2, 3),
    ("russian", {"hand_size": 12, "players": [2, 2]}, 2, 4),
    ("six", {"hand_size": 12, "players": [2, 2], "matador_optional": False}, 2, 5),
    ("classic", {"hand_size": 12, "players": [2, 2], "matador_anytime": False,
                 "first_leader": "lot"}, 2, 6),
    ("classic", {"hand_size": 11, "players": [2, 2], "going_out": "after_boneyard"}, 2, 7),
    ("classic", {"hand_size": 8, "players": [3, 3]}, 3, 8),
    ("six", {"hand_size": 8, "players": [3, 3]}, 3, 9),
    ("classic", {"hand_size": 6, "players": [4, 4], "draw": "one"}, 4, 10),
    ("russian", {"hand_size": 6, "players": [4, 4], "matador_anytime": False}, 4, 11),
]


def with_samplers(cases: list[tuple[Any, ...]], fast: set[tuple[int, str]]
                  ) -> list[Any]:
    """Every case with each sampler (``exact``, ``flat``); only the (seed, sampler) pairs in
    ``fast`` run in the fast lane, the rest are marked slow (seconds each)."""
    return [pytest.param(*case, how, marks=() if (case[-1], how) in fast else pytest.mark.slow)
            for case in cases for how in ("exact", "flat")]


def deals(view: PlayerView, how: str, seed: int, n: int) -> Iterator[Deal]:
    """``n`` deals of ``view`` drawn by the exact sampler (``how="exact"``, from a
    ``random.Random``) or by its flat tables (``"flat"``, deal ``i`` from the stream
    ``stream_key(seed, i)``, as a search draws its worlds)."""
    if how == "exact":
        rng = random.Random(seed)
        sampler = sampler_for(view)
        for _ in range(n):
            yield sampler.sample_deal(rng)
        return
    flat = flat_worlds(view)
    assert flat is not None
    for i in range(n):
        world = flat.world(Stream(stream_key(seed, i)))
        assert world is not None
        yield world.deal


@pytest.mark.parametrize(("preset", "overrides", "players", "seed", "how"),
                         with_samplers(CASES, fast={(3, "exact"), (5, "flat")}))
def test_sampler_matches_enumeration(preset: str, overrides: dict[str, object],
                                     players: int, seed: int, how: str) -> None:
    """R12-R19: samples are consistent, cover every consistent world, and are uniform."""
    rules = Rules.from_preset(preset, overrides)
    cap = {2: 100_000, 3: 30_000, 4: 8_000}[players]
    views = find_positions(rules, players, seed, want=2, max_cost=cap)
    for view in views:
        worlds = enumerate_worlds(view)
        assert worlds, "the true world is always consistent"
        n = min(20_000, max(3000, 20 * len(worlds)))
        counts = Counter(world_key(view, deal)
                         for deal in deals(view, how, seed * 1000 + view.ply, n))
        assert_uniform_over(worlds, counts, n)


def assert_uniform_over(worlds: set[Any], counts: Counter[Any], n: int) -> None:
    """``n`` samples (``counts``) are consistent worlds, reach them all when they are few
    enough, and pass a chi-square test of uniformity over (at most 60) buckets of worlds."""
    assert set(counts) <= worlds, "every sample is a consistent world"
    if len(worlds) * 15 <= n:  # a world missed with probability < e^-15
        assert set(counts) == worlds, "every consistent world is reached"
    order = sorted(worlds)
    buckets = min(60, len(order))
    bucket_of = {w: i * buckets // len(order) for i, w in enumerate(order)}
    sizes = Counter(bucket_of.values())
    observed = Counter(bucket_of[w] for w in counts.elements())
    chi2 = sum((observed[b] - n * sizes[b] / len(order)) ** 2 / (n * sizes[b] / len(order))
               for b in sizes)
    df = len(sizes) - 1
    if df:
        assert chi2 < df + 6 * math.sqrt(2 * df), (chi2, df)


def naive_sample(view: PlayerView, rng: random.Random, tries: int = 200_000) -> Deal:
    """A deal drawn by plain rejection: obviously uniform, slow, independent of the sampler.

    Each other seat's played tiles go to random slots of that seat (dealt or
    drawn), every other unseen tile to a random remaining place; the deal is
    kept only if the engine's validated replay accepts every move.
    """
    facts = _others_facts(view)
    size = view.rules.hand_size_for(view.players)
    unseen = [t for t in range(28) if view.unseen >> t & 1]
    for _ in range(tries):
        slots: dict[int, list[int]] = {}
        for s, (played, d) in facts.items():
            seat_slots = [-1] * (size + d)
            for t, k in zip(played, rng.sample(range(size + d), len(played)), strict=True):
                seat_slots[k] = t
            slots[s] = seat_slots
        rest = unseen[:]
        rng.shuffle(rest)
        it = iter(rest)
        chosen = {}
        for s, seat_slots in slots.items():
            filled = [t if t >= 0 else next(it) for t in seat_slots]
            chosen[s] = (tuple(filled[:size]), tuple(filled[size:]))
        left = mask_of(it)
        if _check(view, chosen, left) is not None:
            hands = [tuple(view.dealt) if s == view.seat else chosen[s][0]
                     for s in range(view.players)]
            return Deal(tuple(tuple(TILES[t] for t in h) for h in hands), (), (), view.leader)
    raise AssertionError("naive rejection found nothing")


@pytest.mark.parametrize(("preset", "overrides", "players", "seed", "how"), with_samplers([
    ("classic", {}, 4, 12),
    ("russian", {"matador_anytime": False}, 3, 14),
], fast={(12, "flat"), (14, "exact")}))
def test_sampler_matches_naive_rejection(preset: str, overrides: dict[str, object],
                                         players: int, seed: int, how: str) -> None:
    """R12-R19, R14 with 3-4 players: the sampler's dealt hands match plain rejection sampling."""
    import zlib

    rules = Rules.from_preset(preset, overrides)
    rng = random.Random(seed)
    view = None
    while view is None:
        state = HandState.new(rules, players, rng)
        for _ in range(12):
            if state.is_over:
                break
            v = PlayerView.of(state, state.to_move)
            if sum(1 for s in range(players) if s != v.seat for e in v.events[s]
                   if e.kind == "void") >= 2:
                view = v
                break
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
    n = 1500
    buckets = 20

    def key(deal: Deal) -> int:
        text = repr([sorted(deal.hands[s]) for s in range(players) if s != view.seat])
        return zlib.crc32(text.encode()) % buckets

    ours = Counter(key(deal) for deal in deals(view, how, seed, n))
    naive = Counter(key(naive_sample(view, rng)) for _ in range(n))
    chi2 = 0.0
    for b in range(buckets):
        pooled = (ours[b] + naive[b]) / 2
        if pooled:
            chi2 += (ours[b] - pooled) ** 2 / pooled + (naive[b] - pooled) ** 2 / pooled
    df = buckets - 1
    assert chi2 < df + 6 * math.sqrt(2 * df), (chi2, df)
