"""Sampling full hand states consistent with one seat's view (determinization).

The hidden part of a hand is its deal: the other seats' dealt hands, the
boneyard order and the set-aside tiles. Every deal is equally likely a
priori, so the posterior given a view is uniform over the deals under which
everything the seat saw is legal. :class:`WorldSampler` draws from it
exactly.

How. For each other seat the tiles it ever held fill *slots*: its dealt
hand and one slot per draw. A tile held from its slot's acquisition until
now must avoid every tile set that a later forced draw or pass proved absent
(R15-R17, and R10's non-joining matadors); a tile it played must have been
acquired before it was played and avoid those sets in between. Within one
seat the allowed sets of held slots are nested (an earlier slot has more
constraints), so the fillings can be counted as a product and sampled slot
by slot; which slot each played tile came from is counted by a walk over the
seat's events (:class:`_SeatModel`), in which open slots with the same
future are interchangeable. Seats are sampled one after the other; a later
seat's count uses an upper bound on the tiles left, corrected by acceptance,
which keeps the joint draw exactly uniform.

The leader rule (R14: another seat led because it held the best dealt tile)
couples the seats, and with three or four players most deals break it. It
is sampled directly: for each tile ``B`` the leader may have led by, ``B`` is
forced into the leader's dealt hand and every better tile out of all dealt
hands, the seats are counted under those constraints, and ``B`` is drawn in
proportion to its count. Finally the candidate deal is replayed: a world in
which the hand would have ended earlier (blocked, R19) is rejected. Views
whose count would be too large to memoise fall back to plain rejection
sampling, which is exact too, only slower.

:class:`FlatWorlds` lays the same counts out as flat tables and draws from a
counter-based :class:`~matador.core.streams.Stream` instead of a
``random.Random``: the searches draw world ``b`` from a stream of its own, so
that the compiled kernel (:mod:`matador.fast.worlds`) can draw the very same
worlds from the same tables.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from math import comb

from matador.core.errors import MatadorError, ViewError
from matador.core.moves import DRAW, MOVE_TILE
from matador.core.rules import FirstLeader
from matador.core.state import Deal, HandState, highest_double_leader
from matador.core.streams import Stream
from matador.core.tiles import LEAD_RANK, NAMES, NUM_TILES, TILES, iter_bits, mask_of
from matador.core.view import PlayerView

MAX_ATTEMPTS = 100_000
"""Rejections tolerated in one call to :meth:`WorldSampler.sample` before giving up."""

GIVE_UP_AFTER = 1_000
"""Candidates :meth:`WorldSampler.sample` always draws before it asks ``give_up``: a caller
whose clock ran out before the first candidate (a stalled process, a long garbage
collection) must not make a possible view look impossible (a search then forfeits). About
a tenth of a second (some 90 us a candidate, replay included)."""

GiveUp = Callable[[], bool]
"""A function that says when a sampler should stop looking (a caller's time budget)."""


class _SeatModel:
    """The slots of one other seat, which tiles may fill them, and how many ways there are.

    Events of the seat, in order: a *draw* acquires a slot; a *play* releases
    a known tile, which came from the dealt hand or from an earlier draw slot
    (one whose tile no void between the two excludes); a *void* excludes
    tiles from everything held at that moment. A slot not released by a play
    is *held* now, and its tile must avoid every void after its acquisition.

    :meth:`_count` walks the events keeping the set of draw slots still
    *open* (to be released by a later play), how many draw slots are held and
    how many plays came from the dealt hand. A held draw slot multiplies the
    count by the number of tiles it may take; for seats after the first the
    factor uses ``min(|allowed|, pool size)``, an upper bound that
    :meth:`WorldSampler._candidate` corrects by acceptance.
    """

    __slots__ = (
        "cap",
        "dealt",
        "draw_allowed",
        "events",
        "forced_held",
        "future",
        "held_count",
        "init_allowed",
        "init_ok",
        "memo",
        "n_plays",
        "next_play",
        "pool",
        "seat",
        "slot_ok",
        "totals",
    )

    def __init__(self, view: PlayerView, seat: int, not_dealt: int, pool: int, cap: int,
                 forced: int = -1, excluded: int = 0,
                 memos: dict[tuple[object, ...], dict[tuple[int, int, tuple[int, ...], int, int],
                                                      int]] | None = None) -> None:
        self.seat = seat
        self.dealt = len(view.dealt)
        self.cap = cap
        self.pool = pool
        events = view.events[seat]
        draws: list[int] = []  # event index of each draw slot
        for i, ev in enumerate(events):
            if ev.kind == "draw":
                draws.append(i)
        full = (1 << NUM_TILES) - 1
        # Allowed tiles for a slot held until now: avoid every void after acquisition.
        suffix = [0] * (len(events) + 1)
        for i in range(len(events) - 1, -1, -1):
            ev = events[i]
            suffix[i] = suffix[i + 1] | (ev.tiles if ev.kind == "void" else 0)
        # ``excluded``: tiles the seat cannot hold now, whenever it got them (see _tight).
        self.init_allowed = full & ~(suffix[0] | not_dealt | excluded)
        self.draw_allowed = [full & ~(suffix[a + 1] | excluded) for a in draws]
        # The walk: ("draw", slot), ("play", index); voids only shape eligibility.
        walk: list[tuple[str, int, int]] = []
        self.init_ok: list[bool] = []
        self.slot_ok: list[int] = []  # mask of draw slots each play may come from
        slot_of = {a: k for k, a in enumerate(draws)}
        self.forced_held = forced
        """A tile that must be in the dealt hand and is still held (-1: none)."""
        for p, ev in enumerate(events):
            if ev.kind == "draw":
                walk.append(("draw", slot_of[p], -1))
            elif ev.kind == "play":
                tile = ev.tile
                acc = 0
                ok = 0
                for i in range(p - 1, -1, -1):
                    e = events[i]
                    if e.kind == "void":
                        acc |= e.tiles
                    elif e.kind == "draw" and not acc >> tile & 1:
                        ok |= 1 << slot_of[i]
                acc |= not_dealt
                if tile == forced:  # a forced dealt tile that was played: not from a draw
                    ok = 0
                    self.forced_held = -1
                walk.append(("play", len(self.init_ok), tile))
                self.init_ok.append(not acc >> tile & 1)
                self.slot_ok.append(ok)
        self.events = walk
        self.n_plays = len(self.init_ok)
        # For each draw slot, the plays that may release it (bit i = play i); and, for each
        # event, the index of the next play: an open slot is known by its future.
        self.future = [sum(1 << i for i, ok in enumerate(self.slot_ok) if ok >> k & 1)
                       for k in range(len(draws))]
        self.next_play: list[int] = []
        count = 0
        for kind, _, _ in walk:
            self.next_play.append(count)
            count += kind == "play"
        self.held_count = view.hand_sizes[seat]
        # Models whose walks are the same (same eligibility of each play) share one memo.
        key = (seat, tuple(self.init_ok), tuple(self.slot_ok))
        memo = None if memos is None else memos.get(key)
        if memo is None:
            memo = {}
            if memos is not None:
                memos[key] = memo
        self.memo: dict[tuple[int, int, tuple[int, ...], int, int], int] = memo
        # Weight of each number of dealt tiles still held (outer choice of the walk).
        self.totals: list[tuple[int, int]] = []
        if forced >= 0 and self.forced_held >= 0 and not (self.init_allowed & pool) >> forced & 1:
            return  # the forced tile cannot be held
        n_init = min((self.init_allowed & pool).bit_count(), cap)
        for held in range(max(0, self.dealt - self.n_plays), self.dealt + 1):
            w = self._dealt_ways(n_init, held) * self._count(held, 0, (), 0, 0)
            if w:
                self.totals.append((held, w))

    def _dealt_ways(self, n: int, held: int) -> int:
        """Ways to choose the ``held`` dealt tiles still held among ``n`` allowed tiles."""
        if self.forced_held < 0:
            return comb(n, held)
        return comb(n - 1, held - 1) if held and n else 0

    @property
    def weight(self) -> int:
        """The number of configurations counted (an upper bound for seats after the first)."""
        return sum(w for _, w in self.totals)

    def _factor(self, held: int, k: int, j: int) -> int:
        """Tiles draw slot ``k`` may take when ``j`` earlier draw slots are held too."""
        n = min((self.draw_allowed[k] & self.pool).bit_count(), self.cap)
        return n - held - j

    def _moves(self, held: int, e: int, open_: tuple[int, ...], j: int, u: int
               ) -> list[tuple[int, tuple[int, ...], int, int, int]]:
        """The steps from a state of the walk: (weight, open slots, held draws, dealt used, choice).

        ``open_`` lists the futures of the open slots (sorted): slots with the
        same future are interchangeable, so a play choosing among them counts
        them once with their multiplicity. ``choice`` is -1 (held or from the
        dealt hand), or the future of the open slot taken.
        """
        kind, k, _ = self.events[e]
        out: list[tuple[int, tuple[int, ...], int, int, int]] = []
        if kind == "draw":
            f = self._factor(held, k, j)
            if f > 0:
                out.append((f, open_, j + 1, u, -1))
            future = self.future[k] >> self.next_play[e]
            if future:
                out.append((1, tuple(sorted((*open_, future))), j, u, future))
            return out
        shifted = [x >> 1 for x in open_]
        if self.init_ok[k] and u < self.dealt - held and all(shifted):
            out.append((1, tuple(shifted), j, u + 1, -1))
        seen: set[int] = set()
        for index, x in enumerate(open_):
            if x & 1 and x not in seen:
                seen.add(x)
                rest = shifted[:index] + shifted[index + 1:]
                if all(rest):
                    out.append((open_.count(x), tuple(rest), j, u, x))
        return out

    def _count(self, held: int, e: int, open_: tuple[int, ...], j: int, u: int) -> int:
        """Weighted completions of the walk from event ``e`` (see the class docstring)."""
        key = (held, e, open_, j, u)
        got = self.memo.get(key)
        if got is not None:
            return got
        if e == len(self.events):
            total = 1 if not open_ and u == self.dealt - held else 0
        else:
            total = sum(w * self._count(held, e + 1, o, jj, uu)
                        for w, o, jj, uu, _ in self._moves(held, e, open_, j, u))
        self.memo[key] = total
        if len(self.memo) > MAX_MEMO:
            raise _TooMany
        return total

    def draw_config(self, rng: random.Random, pool: int
                    ) -> tuple[list[int], list[int], int, int]:
        """Sample a configuration: (dealt tiles, draw tiles, bound, actual).

        ``bound`` and ``actual`` are the numbers of fillings under the capped
        count and from the real ``pool``: the caller accepts with their ratio.
        """
        r = rng.randrange(sum(w for _, w in self.totals))
        held = self.totals[-1][0]
        for h, w in self.totals:
            if r < w:
                held = h
                break
            r -= w
        dealt_tiles: list[int] = []
        draw_tiles = [-1] * len(self.draw_allowed)
        held_slots: list[int] = []
        open_: tuple[int, ...] = ()
        by_future: dict[int, list[int]] = {}  # open slots by their future (relative to now)
        j = u = 0
        for e, (kind, k, tile) in enumerate(self.events):
            steps = [(w * self._count(held, e + 1, o, jj, uu), o, jj, uu, choice)
                     for w, o, jj, uu, choice in self._moves(held, e, open_, j, u)]
            r = rng.randrange(sum(step[0] for step in steps))
            pick = steps[-1]
            for step in steps:
                if r < step[0]:
                    pick = step
                    break
                r -= step[0]
            _, open_, j, u, choice = pick
            if kind == "draw":
                if choice < 0:
                    held_slots.append(k)
                else:
                    by_future.setdefault(choice, []).append(k)
                continue
            if choice < 0:
                dealt_tiles.append(tile)
            else:  # any open slot with that future: they are interchangeable
                slots = by_future[choice]
                draw_tiles[slots.pop(rng.randrange(len(slots)))] = tile
            shifted: dict[int, list[int]] = {}
            for future, slots in by_future.items():
                if slots:
                    shifted.setdefault(future >> 1, []).extend(slots)
            by_future = shifted
        # Fill: the dealt tiles still held, then each held draw slot in order (nested sets).
        forced = self.forced_held
        bound = self._dealt_ways(min((self.init_allowed & self.pool).bit_count(), self.cap),
                                 held)
        if forced >= 0 and not pool >> forced & 1:
            actual = 0  # an earlier seat drew the tile this seat must hold
        else:
            actual = self._dealt_ways((self.init_allowed & pool).bit_count(), held)
        for i, k in enumerate(held_slots):
            bound *= self._factor(held, k, i)
            actual *= max(0, (self.draw_allowed[k] & pool).bit_count() - held - i)
        if not actual:
            return dealt_tiles, draw_tiles, bound, 0
        if forced >= 0:
            chosen = [forced, *rng.sample(list(iter_bits(self.init_allowed & pool
                                                         & ~(1 << forced))), held - 1)]
        else:
            chosen = rng.sample(list(iter_bits(self.init_allowed & pool)), held)
        dealt_tiles.extend(chosen)
        taken = mask_of(chosen)
        for k in held_slots:
            candidates = list(iter_bits(self.draw_allowed[k] & pool & ~taken))
            t = candidates[rng.randrange(len(candidates))]
            draw_tiles[k] = t
            taken |= 1 << t
        return dealt_tiles, draw_tiles, bound, actual


MAX_MEMO = 1_500_000
"""States the counting walk of one seat may memoise before the sampler falls back."""


class _TooMany(Exception):
    """The counting walk grew too large (see :data:`MAX_MEMO`)."""


def _check_holders(view: PlayerView, others: list[int]) -> None:
    """Refuse a view whose unseen tiles cannot be shared out as the hands are now (Hall).

    Each unseen tile is now in another seat's hand (only if that seat may hold
    it: :meth:`PlayerView.might_hold`), in the boneyard or set aside. Some
    seats may together be the only possible holders of more tiles than they
    hold: then no deal gives the view. Checking every set of seats (at most
    three, so eight sets) is Hall's condition for such a sharing; the
    counting of each seat's history does the rest.
    """
    spare = view.boneyard_size + view.set_aside_size  # takes any unseen tile
    holders = [view.might_hold(s) for s in others]
    only: dict[int, int] = {}  # set of seats (bits) -> tiles only they may hold
    for t in iter_bits(view.unseen):
        key = sum(1 << i for i, mask in enumerate(holders) if mask >> t & 1)
        only[key] = only.get(key, 0) + 1
    if spare:
        return  # the boneyard or the set-aside tiles may take any tile
    if only.get(0):
        nowhere = [NAMES[t] for t in iter_bits(view.unseen)
                   if not any(mask >> t & 1 for mask in holders)]
        raise ViewError(f"no deal fits the view: {', '.join(nowhere)} can be in no hand (the "
                        "boneyard is empty and forced draws and passes exclude them, R15-R17)")
    for group in range(1, 1 << len(others)):
        need = sum(k for key, k in only.items() if key & ~group == 0)
        room = sum(view.hand_sizes[s] for i, s in enumerate(others) if group >> i & 1)
        if need > room:
            seats = ", ".join(str(s) for i, s in enumerate(others) if group >> i & 1)
            raise ViewError(f"no deal fits the view: {need} unseen tiles can only be in the "
                            f"hands of seat(s) {seats}, which hold {room} (forced draws and "
                            "passes, R15-R17)")


def _tight(view: PlayerView, others: list[int]) -> dict[int, int]:
    """Tiles each other seat cannot hold now because other tiles fill its hand (Hall, tight).

    With an empty boneyard and nothing set aside every unseen tile is in
    another seat's hand. When the tiles that only some seats may hold are
    exactly as many as those seats hold, their hands are those tiles and
    nothing else: every other tile is excluded from them. The exclusions are
    implied by the view (every consistent deal obeys them), so the posterior
    is unchanged; without them the counting walks of the seats sampled first
    give those seats hands that leave a later seat nothing it may hold, and
    almost every candidate is rejected (seen with four players under ``six``:
    one world in 27,000 candidates). Repeated until nothing changes.
    """
    excluded = dict.fromkeys(others, 0)
    if view.boneyard_size + view.set_aside_size:
        return excluded
    changed = True
    while changed:
        changed = False
        holders = [view.might_hold(s) & ~excluded[s] for s in others]
        only: dict[int, int] = {}  # set of seats (bits) -> the tiles only they may hold
        for t in iter_bits(view.unseen):
            key = sum(1 << i for i, mask in enumerate(holders) if mask >> t & 1)
            only[key] = only.get(key, 0) | 1 << t
        for group in range(1, (1 << len(others)) - 1):
            need = 0
            for key, tiles in only.items():
                if key & ~group == 0:
                    need |= tiles
            room = sum(view.hand_sizes[s] for i, s in enumerate(others) if group >> i & 1)
            if need.bit_count() != room:
                continue
            for i, s in enumerate(others):
                extra = holders[i] & ~need
                if group >> i & 1 and extra:
                    excluded[s] |= extra
                    holders[i] &= need
                    changed = True
    return excluded


def _order(view: PlayerView, others: list[int], excluded: dict[int, int]) -> list[int]:
    """The other seats in the order the sampler counts and draws them: fewest spare tiles
    first (tiles a seat may hold beyond its hand size), then by seat.

    A seat drawn after others is counted with an upper bound on what they left
    it, corrected by rejection, so the most constrained seat goes first: a
    four-player ``six`` view whose last seat could hold 7 tiles for its 5 found
    one world in 2,500 candidates in seat order, and one in 8 in this order.
    Any order is exact; this one wastes fewest candidates.
    """
    return sorted(others, key=lambda s: (
        (view.might_hold(s) & ~excluded[s]).bit_count() - view.hand_sizes[s], s))


class WorldSampler:
    """Draws deals, and the states they lead to, uniformly among those consistent with a view."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.others = [s for s in range(view.players) if s != view.seat]
        self.pool = view.unseen
        expected = sum(view.hand_sizes[s] for s in self.others) + view.boneyard_size \
            + view.set_aside_size
        if self.pool.bit_count() != expected:
            raise ViewError(f"{self.pool.bit_count()} unseen tiles, but other hands, boneyard "
                            f"and set-aside need {expected}")
        _check_holders(view, self.others)
        self.excluded = _tight(view, self.others)
        """Tiles each other seat cannot hold now, implied by the view (:func:`_tight`)."""
        self.order = _order(view, self.others, self.excluded)
        """The other seats in the order they are counted and drawn (:func:`_order`)."""
        self.check_leader = (view.leader_by_rule and view.leader != view.seat
                             and view.rules.first_leader is FirstLeader.HIGHEST_DOUBLE)
        self.variants: list[tuple[int, list[_SeatModel]]] | None = None
        """Exact sampling: per tile the leader may have led by (R14), the number of deals
        counted with it (an upper bound) and the seat models; ``None``: rejection only."""
        with contextlib.suppress(_TooMany):  # too many ways to count: rejection sampling
            self.variants = self._variants()
        self.total_weight = sum(w for w, _ in self.variants or ())
        self.attempts = 0
        """Candidate worlds drawn so far (accepted or not), for diagnostics."""
        self.flat: FlatWorlds | bool | None = False
        """The flat tables (:func:`flat_worlds`): False until built."""
        self.accepted = 0

    def _variants(self) -> list[tuple[int, list[_SeatModel]]]:
        """The seat models, one list per case of the leader rule (R14).

        Without R14 to check there is one case. With it, the leader held the
        best dealt tile ``B``: every case is one tile ``B`` that ranks above
        this seat's dealt tiles and that the leader may have been dealt. In it
        the leader's dealt hand holds ``B`` and no better tile, and every other
        seat's dealt hand holds only worse tiles, which the counting walks
        take as constraints (no rejection). Cases are drawn in proportion to
        their counts, so the mixture stays exactly uniform.
        """
        view = self.view
        memos: dict[tuple[object, ...], dict[tuple[int, int, tuple[int, ...], int, int],
                                             int]] = {}

        def models(not_dealt: dict[int, int], forced: int) -> list[_SeatModel]:
            out = []
            size = self.pool.bit_count()
            for s in self.order:
                # A later seat sees a pool smaller by the tiles held by the seats before it.
                model = _SeatModel(view, s, not_dealt[s], self.pool, size,
                                   forced if s == view.leader else -1, self.excluded[s], memos)
                if not model.totals:
                    return []
                out.append(model)
                size -= view.hand_sizes[s]
            return out

        if not self.check_leader:
            lead_void = view.lead_excluded()
            found = models(dict.fromkeys(self.others, lead_void), -1)
            if not found:
                raise ViewError("no hand of the other seats is consistent with the moves "
                                "(forced draws and passes, R15-R17)")
            return [(0, found)]
        mine = max(LEAD_RANK[t] for t in view.dealt)
        led = 0  # tiles the leader played: its dealt best may be among them
        for ev in view.events[view.leader]:
            if ev.kind == "play":
                led |= 1 << ev.tile
        variants = []
        for best in sorted(iter_bits((self.pool | led) & ~view.hand_mask),
                           key=LEAD_RANK.__getitem__):
            rank = LEAD_RANK[best]
            if rank <= mine:
                continue
            above = mask_of(t for t in range(NUM_TILES) if LEAD_RANK[t] > rank)
            not_dealt = {s: above if s == view.leader else above | 1 << best
                         for s in self.others}
            found = models(not_dealt, best)
            if found:
                weight = 1
                for model in found:
                    weight *= model.weight
                variants.append((weight, found))
        if not variants:
            raise ViewError(f"no deal lets seat {view.leader} lead by the best tile (R14) "
                            "with these moves (forced draws and passes, R15-R17)")
        return variants

    def sample_deal(self, rng: random.Random, give_up: GiveUp | None = None) -> Deal:
        """A deal drawn uniformly among those consistent with the view (see :meth:`sample`)."""
        return self._sample(rng, give_up)[0]

    def sample(self, rng: random.Random, give_up: GiveUp | None = None) -> HandState:
        """A full state, drawn uniformly among those consistent with the view (by their deals).

        Candidates are drawn until one fits, at most :data:`MAX_ATTEMPTS` of them,
        and only while ``give_up()`` (asked before each candidate after the first
        :data:`GIVE_UP_AFTER`) is false: a searcher passes its time budget, so that
        a view no deal can produce is found impossible within that budget. Either limit raises
        :class:`~matador.core.errors.ViewError`. (The core reads no clock: the
        caller's ``give_up`` does.)
        """
        return self._sample(rng, give_up)[1]

    def _sample(self, rng: random.Random, give_up: GiveUp | None) -> tuple[Deal, HandState]:
        view = self.view
        for attempt in range(MAX_ATTEMPTS):
            if attempt >= GIVE_UP_AFTER and give_up is not None and give_up():
                raise ViewError(f"no consistent world found in {attempt} attempts within the "
                                "time budget: the view is probably impossible")
            self.attempts += 1
            if self.variants is None:
                deal = self._naive_candidate(rng)
                state = _replay_checked(view, deal)
                if state is None:
                    continue
            else:
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
                if not ok or (state.outcome is not None and not view.is_over):
                    continue
            self.accepted += 1
            return deal, state
        raise ViewError(f"no consistent world found in {MAX_ATTEMPTS} attempts: the view is "
                        "probably impossible (e.g. the hand would already be blocked, R19)")

    def _candidate(self, rng: random.Random) -> Deal | None:
        variants = self.variants
        assert variants is not None
        models = variants[0][1]
        if len(variants) > 1:
            r = rng.randrange(self.total_weight)
            for weight, found in variants:
                if r < weight:
                    models = found
                    break
                r -= weight
        pool = self.pool
        dealt: dict[int, list[int]] = {}
        drawn: dict[int, list[int]] = {}
        for model in models:
            init_tiles, draw_tiles, bound, actual = model.draw_config(rng, pool)
            # The walk counted fillings with an upper bound; correct by acceptance.
            if not actual or (actual < bound and rng.randrange(bound) >= actual):
                return None
            dealt[model.seat] = init_tiles
            drawn[model.seat] = draw_tiles
            for t in init_tiles:
                pool &= ~(1 << t)
            for t in draw_tiles:
                pool &= ~(1 << t)
        return self._deal(rng, dealt, drawn, pool)

    def _naive_candidate(self, rng: random.Random) -> Deal:
        """Each seat's played tiles in random slots of its own, unseen tiles anywhere else."""
        view = self.view
        size = len(view.dealt)
        played: dict[int, list[int]] = {s: [] for s in self.others}
        draws = dict.fromkeys(self.others, 0)
        for s, m in zip(view.movers, view.moves, strict=True):
            if s == view.seat:
                continue
            if m == DRAW:
                draws[s] += 1
            elif m < DRAW:
                played[s].append(MOVE_TILE[m])
        rest = list(iter_bits(self.pool))
        rng.shuffle(rest)
        it = iter(rest)
        dealt: dict[int, list[int]] = {}
        drawn: dict[int, list[int]] = {}
        for s in self.others:
            slots = [-1] * (size + draws[s])
            for t, k in zip(played[s], rng.sample(range(len(slots)), len(played[s])),
                            strict=True):
                slots[k] = t
            filled = [t if t >= 0 else next(it) for t in slots]
            dealt[s], drawn[s] = filled[:size], filled[size:]
        return self._deal(rng, dealt, drawn, mask_of(it))

    def _deal(self, rng: random.Random, dealt: dict[int, list[int]],
              drawn: dict[int, list[int]], pool: int) -> Deal:
        """The deal from other seats' dealt and drawn tiles, the rest shuffled."""
        view = self.view
        dealt[view.seat] = list(view.dealt)
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


def _replay_checked(view: PlayerView, deal: Deal) -> HandState | None:
    """The state after the view's moves under ``deal``, or ``None`` if any move is illegal."""
    if (view.leader_by_rule and view.rules.first_leader is FirstLeader.HIGHEST_DOUBLE
            and highest_double_leader(deal.hands) != view.leader):
        return None
    state = HandState(view.rules, deal)
    try:
        for m in view.moves:
            if state.outcome is not None:
                return None
            state.play(m)
    except MatadorError:
        return None
    if state.outcome is not None and not view.is_over:
        return None
    return state


MAX_FLAT_NODES = 60_000
"""Walk states the flat tables of one view may hold (:class:`FlatWorlds`); past it there are
no flat tables and searches use :meth:`WorldSampler.sample`."""
FLAT_ATTEMPTS = 20_000
"""Candidates :meth:`FlatWorlds.world` (and the kernel's copy) draw for one world at most."""
COMB = tuple(tuple(float(comb(n, k)) for k in range(NUM_TILES + 1)) for n in range(NUM_TILES + 1))
"""``float(comb(n, k))`` for ``n, k`` up to 28: the flat sampler counts in floats."""
DRAW_EVENT, PLAY_EVENT = 0, 1
"""The kinds of a seat's walk events in :class:`FlatSeat` (and in the kernel's tables)."""


class FlatSeat:
    """One other seat's part of :class:`FlatWorlds` (one case of the leader rule).

    ``ev_*`` describe the seat's walk (a draw acquires slot ``ev_k``; a play
    releases ``ev_tile``, play number ``ev_k``); ``held`` lists the numbers of
    dealt tiles still held that have ways, ``held_cum`` their cumulative
    probabilities and ``roots`` the walk state each starts from.
    """

    __slots__ = ("dealt", "draw_allowed", "ev_k", "ev_kind", "ev_tile", "forced", "held",
                 "held_cum", "init_allowed", "n_init", "nk", "roots", "seat")

    def __init__(self, model: _SeatModel, nodes: _FlatNodes) -> None:
        self.seat = model.seat
        self.dealt = model.dealt
        self.init_allowed = model.init_allowed
        self.forced = model.forced_held
        pool, cap = model.pool, model.cap
        self.n_init = min((model.init_allowed & pool).bit_count(), cap)
        self.draw_allowed = list(model.draw_allowed)
        self.nk = [min((a & pool).bit_count(), cap) for a in model.draw_allowed]
        self.ev_kind = [DRAW_EVENT if kind == "draw" else PLAY_EVENT
                        for kind, _, _ in model.events]
        self.ev_k = [k for _, k, _ in model.events]
        self.ev_tile = [t for _, _, t in model.events]
        self.held = [h for h, _ in model.totals]
        self.held_cum = _cumulative([w for _, w in model.totals])
        self.roots = [nodes.flatten(model, h) for h in self.held]


def _cumulative(weights: list[int]) -> list[float]:
    """Cumulative probabilities of integer ``weights`` (exact prefix sums, rounded once; the
    last is exactly 1.0)."""
    total = sum(weights)
    out = []
    acc = 0
    for w in weights:
        acc += w
        out.append(acc / total)
    return out


class _FlatNodes:
    """The walk states of every seat model, numbered, with their weighted steps."""

    def __init__(self) -> None:
        self.first: list[int] = []
        self.count: list[int] = []
        self.cum: list[float] = []
        self.next: list[int] = []
        self.choice: list[int] = []

    def flatten(self, model: _SeatModel, held: int) -> int:
        """Number the walk states reachable from the start of ``model``'s walk with ``held``
        dealt tiles still held; the start's number."""
        ids: dict[tuple[int, tuple[int, ...], int, int], int] = {}
        start: tuple[int, tuple[int, ...], int, int] = (0, (), 0, 0)
        queue = [start]
        ids[start] = self._new()
        while queue:
            state = queue.pop()
            node = ids[state]
            e, open_, j, u = state
            if e == len(model.events):
                continue
            steps = []
            for w, o, jj, uu, choice in model._moves(held, e, open_, j, u):
                weight = w * model._count(held, e + 1, o, jj, uu)
                if weight:
                    steps.append((weight, (e + 1, o, jj, uu), choice))
            self.first[node] = len(self.cum)
            self.count[node] = len(steps)
            cum = _cumulative([w for w, _, _ in steps])
            for (_, child, choice), c in zip(steps, cum, strict=True):
                got = ids.get(child)
                if got is None:
                    got = ids[child] = self._new()
                    queue.append(child)
                self.cum.append(c)
                self.next.append(got)
                self.choice.append(choice)
        return ids[start]

    def _new(self) -> int:
        if len(self.first) >= MAX_FLAT_NODES:
            raise _TooMany
        self.first.append(0)
        self.count.append(0)
        return len(self.first) - 1


class FlatWorlds:
    """The exact sampler of one view as flat tables, drawing from counter-based streams.

    The same distribution as :meth:`WorldSampler.sample` (the counts of the
    seat models, drawn with their probabilities as floats), but every random
    choice comes from a :class:`~matador.core.streams.Stream`, so that the
    compiled kernel (:mod:`matador.fast`) can run the very same draws on the
    same tables: a search samples world ``b`` from its own stream, in either
    path. Build with :meth:`of` (``None`` when the view has no flat tables:
    too many walk states, or a view only rejection sampling can serve).
    """

    def __init__(self, sampler: WorldSampler) -> None:
        view = sampler.view
        assert sampler.variants is not None
        self.view = view
        self.pool = sampler.pool
        self.others = sampler.others
        self.nodes = _FlatNodes()
        self.var_cum = _cumulative([w or 1 for w, _ in sampler.variants])
        self.variants = [[FlatSeat(m, self.nodes) for m in models]
                         for _, models in sampler.variants]
        self.check_leader = sampler.check_leader
        # The boneyard's first tiles: the draws of the view, in order (-1: another seat's).
        self.draw_seats: list[int] = []
        self.own_draws: list[int] = []
        for ply, (seat, m) in enumerate(zip(view.movers, view.moves, strict=True)):
            if m == DRAW:
                self.draw_seats.append(seat)
                self.own_draws.append(int(view.own_draws[ply]) if seat == view.seat else -1)

    @classmethod
    def of(cls, sampler: WorldSampler) -> FlatWorlds | None:
        """The flat tables of ``sampler``'s view, or ``None`` if it has none."""
        if sampler.variants is None:
            return None
        try:
            return cls(sampler)
        except _TooMany:
            return None

    @property
    def size(self) -> int:
        """The number of walk states in the tables."""
        return len(self.nodes.first)

    def candidate(self, s: Stream) -> tuple[dict[int, list[int]], dict[int, list[int]],
                                            list[int]] | None:
        """One candidate: each other seat's dealt and drawn tiles and the rest, shuffled
        (boneyard tiles first, then the set-aside ones); ``None`` if rejected."""
        seats = self.variants[0]
        if len(self.variants) > 1:
            u = s.random()
            for v, c in enumerate(self.var_cum):
                if u < c:
                    seats = self.variants[v]
                    break
        pool = self.pool
        dealt: dict[int, list[int]] = {}
        drawn: dict[int, list[int]] = {}
        for seat in seats:
            got = self._seat(seat, s, pool)
            if got is None:
                return None
            dealt[seat.seat], drawn[seat.seat] = got
            for t in got[0]:
                pool &= ~(1 << t)
            for t in got[1]:
                pool &= ~(1 << t)
        rest = list(iter_bits(pool))
        for i in range(len(rest) - 1, 0, -1):
            j = s.below(i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        return dealt, drawn, rest

    def _seat(self, seat: FlatSeat, s: Stream, pool: int) -> tuple[list[int], list[int]] | None:
        """Sample one seat's configuration (see :meth:`_SeatModel.draw_config`)."""
        nodes = self.nodes
        h = 0
        if len(seat.held) > 1:
            u = s.random()
            while seat.held_cum[h] <= u:
                h += 1
        held = seat.held[h]
        node = seat.roots[h]
        n_slots = len(seat.draw_allowed)
        future = [-1] * n_slots  # an open slot's future; -1: not open
        draws = [-1] * n_slots
        held_slots: list[int] = []
        dealt: list[int] = []
        for e, kind in enumerate(seat.ev_kind):
            step = nodes.first[node]
            if nodes.count[node] > 1:
                u = s.random()
                while nodes.cum[step] <= u:
                    step += 1
            choice = nodes.choice[step]
            node = nodes.next[step]
            k = seat.ev_k[e]
            if kind == DRAW_EVENT:
                if choice < 0:
                    held_slots.append(k)
                else:
                    future[k] = choice
                continue
            if choice < 0:
                dealt.append(seat.ev_tile[e])
            else:  # any open slot with that future: they are interchangeable
                same = [q for q in range(n_slots) if future[q] == choice]
                q = same[s.below(len(same))] if len(same) > 1 else same[0]
                draws[q] = seat.ev_tile[e]
                future[q] = -1
            for q in range(n_slots):
                if future[q] > 0:
                    future[q] >>= 1
        # Fill: the dealt tiles still held, then each held draw slot (nested sets).
        forced = seat.forced
        if forced >= 0:
            bound = COMB[seat.n_init - 1][held - 1] if held and seat.n_init else 0.0
        else:
            bound = COMB[seat.n_init][held]
        avail = seat.init_allowed & pool
        n_avail = avail.bit_count()
        if forced >= 0 and not pool >> forced & 1:
            actual = 0.0
        elif forced >= 0:
            actual = COMB[n_avail - 1][held - 1] if held and n_avail else 0.0
        else:
            actual = COMB[n_avail][held]
        for i, k in enumerate(held_slots):
            bound *= seat.nk[k] - held - i
            actual *= max(0, (seat.draw_allowed[k] & pool).bit_count() - held - i)
        if actual == 0.0 or (actual < bound and s.random() * bound >= actual):
            return None
        need = held
        if forced >= 0:
            avail &= ~(1 << forced)
            dealt.append(forced)
            need -= 1
        cands = list(iter_bits(avail))
        for i in range(need):
            j = i + s.below(len(cands) - i)
            cands[i], cands[j] = cands[j], cands[i]
        dealt.extend(cands[:need])
        taken = mask_of(dealt)
        for k in held_slots:
            left = seat.draw_allowed[k] & pool & ~taken
            t = _nth_bit(left, s.below(left.bit_count()))
            draws[k] = t
            taken |= 1 << t
        return dealt, draws

    def deal(self, s: Stream) -> Deal | None:
        """One candidate deal (its draws follow the view's), or ``None`` if rejected."""
        got = self.candidate(s)
        if got is None:
            return None
        dealt, drawn, rest = got
        view = self.view
        dealt[view.seat] = list(view.dealt)
        boneyard: list[int] = []
        next_draw = dict.fromkeys(self.others, 0)
        for seat, own in zip(self.draw_seats, self.own_draws, strict=True):
            if own >= 0:
                boneyard.append(own)
            else:
                boneyard.append(drawn[seat][next_draw[seat]])
                next_draw[seat] += 1
        split = len(rest) - view.set_aside_size
        boneyard.extend(rest[:split])
        hands = tuple(tuple(TILES[t] for t in dealt[seat]) for seat in range(view.players))
        return Deal(hands, tuple(TILES[t] for t in boneyard),
                    tuple(TILES[t] for t in rest[split:]), view.leader)

    def world(self, s: Stream) -> HandState | None:
        """A world drawn from stream ``s``: candidates until one replays the view's moves
        (at most :data:`FLAT_ATTEMPTS`; ``None`` if none did)."""
        for _ in range(FLAT_ATTEMPTS):
            deal = self.deal(s)
            if deal is None:
                continue
            state = _replay_checked(self.view, deal)
            if state is not None:
                return state
        return None


def _nth_bit(mask: int, r: int) -> int:
    """The index of the ``r``-th lowest set bit of ``mask`` (from 0)."""
    for _ in range(r):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def flat_worlds(view: PlayerView) -> FlatWorlds | None:
    """The flat tables of ``view``'s sampler (built once per view), or ``None``."""
    sampler = sampler_for(view)
    if sampler.flat is False:
        sampler.flat = FlatWorlds.of(sampler)
    return sampler.flat if isinstance(sampler.flat, FlatWorlds) else None


SAMPLERS_KEPT = 8
"""Samplers :func:`sampler_for` keeps, the most recently used (each holds its view, its
counts and its flat tables, up to tens of megabytes with four players)."""
_SAMPLERS: OrderedDict[PlayerView, WorldSampler] = OrderedDict()
_SAMPLERS_LOCK = threading.Lock()


def sampler_for(view: PlayerView) -> WorldSampler:
    """The sampler of ``view``, built once and kept while ``view`` is among the
    :data:`SAMPLERS_KEPT` views sampled most recently.

    Building a sampler counts the consistent deals, which costs more than a
    sample: a search that draws many worlds from one view calls this. The cache
    is bounded because a sampler holds its view: a long-lived process (a server, a
    data run) searching view after view keeps only the last few.
    """
    with _SAMPLERS_LOCK:
        sampler = _SAMPLERS.get(view)
        if sampler is not None:
            _SAMPLERS.move_to_end(view)
            return sampler
    sampler = WorldSampler(view)  # outside the lock: counting may take a while
    with _SAMPLERS_LOCK:
        sampler = _SAMPLERS.setdefault(view, sampler)
        _SAMPLERS.move_to_end(view)
        while len(_SAMPLERS) > SAMPLERS_KEPT:
            _SAMPLERS.popitem(last=False)
    return sampler


def sample_world(view: PlayerView, rng: random.Random) -> HandState:
    """A full state consistent with everything ``view``'s seat has seen, drawn uniformly.

    Uniform over the deals (other hands, boneyard order, set-aside tiles)
    under which the public history is legal, forced draws and passes
    included (R15-R19), and the leader rule (R14) when it chose the leader.
    Raises :class:`ViewError` for a view no deal can produce.
    """
    return sampler_for(view).sample(rng)


__all__ = ["FLAT_ATTEMPTS", "MAX_ATTEMPTS", "SAMPLERS_KEPT", "FlatSeat", "FlatWorlds",
           "WorldSampler", "flat_worlds", "sample_world", "sampler_for"]
