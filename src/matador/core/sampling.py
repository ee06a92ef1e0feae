"""Sampling full hand states consistent with one seat's view (determinization).

The hidden part of a hand is its deal: the other seats' dealt hands, the
boneyard order and the set-aside tiles. Every deal is equally likely a
priori, so the posterior given a view is uniform over the deals under which
everything the seat saw is legal. :class:`WorldSampler` draws from it
exactly.

How. For each other seat the tiles it ever held fill *slots*: its dealt
hand and one slot per draw. A tile held from slot acquisition until now must
avoid every tile set that a later forced draw or pass proved absent (R15-R17,
and R10's non-joining matadors); a tile it played must have been acquired
before it was played and avoid those sets in between. Within one seat the
allowed sets of held slots are nested (an earlier slot has more
constraints), so the number of ways to fill them is a product and can be
sampled slot by slot. Which slot each played tile came from is enumerated
(with memoisation) and weighted by how many fillings it leaves. Seats are
sampled one after the other; a later seat is accepted with probability
(its count for the tiles left) / (an upper bound of that count), which makes
the joint draw exactly uniform. Finally the candidate deal is replayed: a
world in which the hand would have ended earlier (blocked, R19) or in which
the leader did not hold the best tile (R14) is rejected.
"""

from __future__ import annotations

import bisect
import random
from math import comb
from typing import TYPE_CHECKING

from matador.core.errors import ViewError
from matador.core.moves import DRAW
from matador.core.rules import FirstLeader
from matador.core.state import Deal, HandState, highest_double_leader
from matador.core.tiles import NUM_TILES, TILES, iter_bits, mask_of

if TYPE_CHECKING:
    from matador.core.view import PlayerView

MAX_ATTEMPTS = 100_000
"""Rejections tolerated in one call to :meth:`WorldSampler.sample` before giving up."""


class _SeatModel:
    """The slots of one other seat and which tiles may fill them."""

    __slots__ = (
        "dealt",
        "draw_allowed",
        "finals",
        "finals_counts",
        "held_count",
        "init_allowed",
        "init_ok",
        "memo",
        "plays",
        "seat",
        "slot_ok",
    )

    def __init__(self, view: PlayerView, seat: int, lead_void: int) -> None:
        self.seat = seat
        self.dealt = len(view.dealt)
        events = view.events[seat]
        draws: list[int] = []  # event index of each draw slot
        plays: list[tuple[int, int]] = []  # (tile, event index)
        for i, ev in enumerate(events):
            if ev.kind == "draw":
                draws.append(i)
            elif ev.kind == "play":
                plays.append((ev.tile, i))
        full = (1 << NUM_TILES) - 1
        # Allowed tiles for a slot held until now: avoid every void after acquisition.
        suffix = [0] * (len(events) + 1)
        for i in range(len(events) - 1, -1, -1):
            ev = events[i]
            suffix[i] = suffix[i + 1] | (ev.tiles if ev.kind == "void" else 0)
        self.init_allowed = full & ~(suffix[0] | lead_void)
        self.draw_allowed = [full & ~suffix[a + 1] for a in draws]
        # Where may each played tile have come from?
        self.plays = [t for t, _ in plays]
        self.init_ok: list[bool] = []
        self.slot_ok: list[list[int]] = []
        for tile, p in plays:
            acc = 0
            ok: list[int] = []
            for k in range(len(draws) - 1, -1, -1):
                a = draws[k]
                if a > p:
                    continue
                for i in range(a + 1, p):
                    if events[i].kind == "void":
                        acc |= events[i].tiles
                if not acc >> tile & 1:
                    ok.append(k)
                p = a  # the window for earlier slots extends from here
            for i in range(0, p):
                if events[i].kind == "void":
                    acc |= events[i].tiles
            acc |= lead_void
            self.init_ok.append(not acc >> tile & 1)
            self.slot_ok.append(ok)
        self.held_count = view.hand_sizes[seat]
        self.memo: dict[tuple[int, int], dict[int, int]] = {}
        table = self._count(0, 0)
        self.finals = list(table)
        self.finals_counts = [table[f] for f in self.finals]

    def _count(self, i: int, used: int) -> dict[int, int]:
        """Ways to assign plays i.. to slots, by the final mask of draw slots used by plays."""
        key = (i, used)
        got = self.memo.get(key)
        if got is not None:
            return got
        out: dict[int, int] = {}
        if i == len(self.plays):
            out[used] = 1
        else:
            if self.init_ok[i] and i - used.bit_count() < self.dealt:
                for f, c in self._count(i + 1, used).items():
                    out[f] = out.get(f, 0) + c
            for k in self.slot_ok[i]:
                if not used >> k & 1:
                    for f, c in self._count(i + 1, used | 1 << k).items():
                        out[f] = out.get(f, 0) + c
        self.memo[key] = out
        return out

    def held_init(self, final: int) -> int:
        """Dealt tiles still held, when the plays used the draw slots in ``final``."""
        return self.dealt - (len(self.plays) - final.bit_count())

    def fill_count(self, final: int, pool: int, cap: int | None = None) -> int:
        """Ways to fill the held slots from ``pool``.

        With ``cap``: an upper bound over all sub-pools of ``cap`` tiles.
        """
        h = self.held_init(final)
        n = (self.init_allowed & pool).bit_count()
        if cap is not None:
            n = min(n, cap)
        total = comb(n, h)
        j = h
        for k, allowed in enumerate(self.draw_allowed):
            if final >> k & 1:
                continue
            n = (allowed & pool).bit_count()
            if cap is not None:
                n = min(n, cap)
            if n - j <= 0:
                return 0
            total *= n - j
            j += 1
        return total

    def weights(self, pool: int, cap: int | None = None) -> list[int]:
        """Weight of each final mask: assignments of plays times fillings."""
        return [c * self.fill_count(f, pool, cap) for f, c in
                zip(self.finals, self.finals_counts, strict=True)]

    def draw_config(self, rng: random.Random, final: int, pool: int
                    ) -> tuple[list[int], list[int]]:
        """Sample plays-to-slots given ``final``, then the fill: (dealt tiles, draw tiles)."""
        dealt_tiles: list[int] = []
        draw_tiles = [-1] * len(self.draw_allowed)
        used = 0
        for i, tile in enumerate(self.plays):
            options: list[tuple[int, int]] = []
            if self.init_ok[i] and i - used.bit_count() < self.dealt:
                c = self._count(i + 1, used).get(final, 0)
                if c:
                    options.append((-1, c))
            for k in self.slot_ok[i]:
                if not used >> k & 1:
                    c = self._count(i + 1, used | 1 << k).get(final, 0)
                    if c:
                        options.append((k, c))
            r = rng.randrange(sum(c for _, c in options))
            k = options[-1][0]
            for option, c in options:
                if r < c:
                    k = option
                    break
                r -= c
            if k < 0:
                dealt_tiles.append(tile)
            else:
                draw_tiles[k] = tile
                used |= 1 << k
        h = self.held_init(final)
        candidates = list(iter_bits(self.init_allowed & pool))
        chosen = rng.sample(candidates, h)
        dealt_tiles.extend(chosen)
        taken = mask_of(chosen)
        for k, allowed in enumerate(self.draw_allowed):
            if final >> k & 1:
                continue
            candidates = list(iter_bits(allowed & pool & ~taken))
            t = candidates[rng.randrange(len(candidates))]
            draw_tiles[k] = t
            taken |= 1 << t
        return dealt_tiles, draw_tiles


class WorldSampler:
    """Draws deals, and the states they lead to, uniformly among those consistent with a view."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        lead_void = view._lead_excluded()
        self.others = [s for s in range(view.players) if s != view.seat]
        self.models = [_SeatModel(view, s, lead_void) for s in self.others]
        self.pool = view.unseen
        expected = sum(view.hand_sizes[s] for s in self.others) + view.boneyard_size \
            + view.set_aside_size
        if self.pool.bit_count() != expected:
            raise ViewError(f"{self.pool.bit_count()} unseen tiles, but other hands, boneyard "
                            f"and set-aside need {expected}")
        self.check_leader = (view.leader_by_rule and view.leader != view.seat
                             and view.rules.first_leader is FirstLeader.HIGHEST_DOUBLE)
        # The first seat draws from the whole pool: precompute its weights.
        first = self.models[0]
        self.first_cumulative = _cumulative(first.weights(self.pool))
        if not self.first_cumulative or self.first_cumulative[-1] == 0:
            raise ViewError(f"no hand of seat {first.seat} is consistent with the moves "
                            "(forced draws and passes, R15-R17)")
        # Later seats: an upper bound of their weight over pools of the size they will see.
        self.bounds: list[int] = [0]
        size = self.pool.bit_count()
        for prev, model in zip(self.models, self.models[1:], strict=False):
            size -= view.hand_sizes[prev.seat]
            bound = sum(model.weights(self.pool, size))
            if bound == 0:
                raise ViewError(f"no hand of seat {model.seat} is consistent with the moves "
                                "(forced draws and passes, R15-R17)")
            self.bounds.append(bound)
        self.attempts = 0
        """Candidate worlds drawn so far (accepted or not), for diagnostics."""
        self.accepted = 0

    def sample_deal(self, rng: random.Random) -> Deal:
        """A deal drawn uniformly among those consistent with the view."""
        return self._sample(rng)[0]

    def sample(self, rng: random.Random) -> HandState:
        """A full state, drawn uniformly among those consistent with the view (by their deals)."""
        return self._sample(rng)[1]

    def _sample(self, rng: random.Random) -> tuple[Deal, HandState]:
        view = self.view
        for _ in range(MAX_ATTEMPTS):
            self.attempts += 1
            candidate = self._candidate(rng)
            if candidate is None:
                continue
            deal = candidate
            if self.check_leader and highest_double_leader(deal.hands) != view.leader:
                continue
            state = HandState(view.rules, deal)
            ok = True
            for m in view.moves:
                if state.outcome is not None:
                    ok = False
                    break
                state.push(m)
            if not ok or (view.outcome is None and state.outcome is not None):
                continue
            self.accepted += 1
            return deal, state
        raise ViewError(f"no consistent world found in {MAX_ATTEMPTS} attempts: the view is "
                        "probably impossible (e.g. the hand would already be blocked, R19)")

    def _candidate(self, rng: random.Random) -> Deal | None:
        view = self.view
        pool = self.pool
        dealt: dict[int, list[int]] = {view.seat: list(view.dealt)}
        drawn: dict[int, list[int]] = {}
        for index, model in enumerate(self.models):
            if index == 0:
                cumulative = self.first_cumulative
            else:
                weights = model.weights(pool)
                cumulative = _cumulative(weights)
                total = cumulative[-1] if cumulative else 0
                if total == 0 or rng.randrange(self.bounds[index]) >= total:
                    return None
            pick = bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))
            final = model.finals[pick]
            init_tiles, draw_tiles = model.draw_config(rng, final, pool)
            dealt[model.seat] = init_tiles
            drawn[model.seat] = draw_tiles
            for t in init_tiles:
                pool &= ~(1 << t)
            for t in draw_tiles:
                pool &= ~(1 << t)
        # Played tiles were never in the pool; held ones are now out of it.
        boneyard: list[int] = []
        next_draw = dict.fromkeys(self.others, 0)
        for ply, (s, m) in enumerate(zip(view.movers, view.moves, strict=True)):
            if m != DRAW:
                continue
            if s == view.seat:
                boneyard.append(view.own_draws[ply])
            else:
                boneyard.append(drawn[s][next_draw[s]])
                next_draw[s] += 1
        rest = list(iter_bits(pool))
        rng.shuffle(rest)
        split = len(rest) - view.set_aside_size
        boneyard.extend(rest[:split])
        hands = tuple(tuple(TILES[t] for t in dealt[s]) for s in range(view.players))
        return Deal(hands, tuple(TILES[t] for t in boneyard),
                    tuple(TILES[t] for t in rest[split:]), view.leader)


def _cumulative(weights: list[int]) -> list[int]:
    out: list[int] = []
    total = 0
    for w in weights:
        total += w
        out.append(total)
    return out

