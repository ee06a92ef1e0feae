"""Perfect-information Monte Carlo (``pimc``) and its measuring stick, the ``cheater``.

PIMC samples worlds consistent with the view (:meth:`PlayerView.sample`),
plays every legal move in each world and values it by a greedy playout, or
exactly (:class:`EndgameSolver`) once few tiles are left; the averages over
worlds rank the moves. The same worlds serve every move (common random
numbers), so differences between moves are measured with less noise.

The ``cheater`` runs the same search on the true hands (only the boneyard
order stays unknown): a ceiling for measurement that only the arena can run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING

from matador.core.errors import ViewError
from matador.core.rules import Rules
from matador.core.sampling import FLAT_ATTEMPTS, FlatWorlds, flat_worlds, sampler_for
from matador.core.state import HandState
from matador.core.streams import Stream, stream_key
from matador.core.view import PlayerView
from matador.fast.layout import ROW_TO_MOVE
from matador.players.base import Bot, Budget, OracleBot
from matador.players.rollout import (
    EPSILON,
    EndgameSolver,
    RandomSource,
    greedy_rollout,
    kernel_policy,
    tiles_in_play,
    win_values,
)

if TYPE_CHECKING:
    import numpy as np

    from matador.players.valuenet import ValueNet

ENDGAME_TILES = 9
"""Solve a determinized world exactly once at most this many tiles are held or in the boneyard."""
BATCH_FIRST = 16
"""Worlds in a time-budgeted search's first kernel batch (later ones follow the rate seen)."""
BATCH_MAX = 256
"""Most worlds in one kernel batch."""


@dataclass
class MoveStats:
    """Running estimates for one move: win value and points for the mover's seat."""

    move: int
    n: int = 0
    win: float = 0.0
    points: float = 0.0
    win_sq: float = 0.0
    wins: list[float] = field(default_factory=list)
    """The win value in each world, in order (worlds are shared by all moves: paired)."""

    def add(self, win: float, points: float) -> None:
        """Add one sample."""
        self.n += 1
        self.win += win
        self.win_sq += win * win
        self.points += points
        self.wins.append(win)

    @property
    def win_mean(self) -> float:
        """Mean win value (the probability of winning, no-winner hands counting 1/N)."""
        return self.win / self.n if self.n else 0.0

    @property
    def points_mean(self) -> float:
        """Mean points of the hand (R21 + R22) for the seat."""
        return self.points / self.n if self.n else 0.0


@dataclass
class SearchResult:
    """What a search found: statistics per legal move and how many worlds it looked at."""

    stats: dict[int, MoveStats]
    worlds: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    def best(self) -> int:
        """The move with the highest win value, then the most points, then the lowest id."""
        return max(self.stats.values(),
                   key=lambda s: (round(s.win_mean, 9), s.points_mean, -s.move)).move


def evaluate_worlds(make_world: Callable[[Random], HandState], seat: int,
                    legal: tuple[int, ...], rng: Random, budget: Budget,
                    solver: EndgameSolver | None = None, kernel: bool | None = None
                    ) -> SearchResult:
    """Value each legal move over determinized worlds until ``budget`` is spent.

    ``make_world(rng)`` returns a fresh world at the current position. An
    iteration is one world, in which every legal move is tried once: solved
    exactly when few tiles are left, else played out greedily on the stream
    ``stream_key(seed, world, move)``, ``seed`` being the search's first draw
    from ``rng``. The rollouts run in the compiled kernel (``matador[fast]``)
    when ``kernel`` is true, or is ``None`` and the kernel is installed;
    worlds then go to it in batches. Both paths give identical statistics
    for an iteration budget.
    A :class:`~matador.core.errors.ViewError` from ``make_world`` (no world found
    in time, see :func:`view_worlds`) ends the search with the worlds so far,
    or, before the first, is raised.
    """
    stats = {m: MoveStats(m) for m in legal}
    solver = solver or EndgameSolver()
    use_kernel = kernel_enabled(kernel)
    seed = rng.getrandbits(64)
    plan = _Batches(budget, use_kernel)
    i = 0
    while True:
        size = plan.next_size(i)
        if not size:
            break
        got = value_batch(make_world, range(i, i + size), legal, stats, seat, rng, seed, solver,
                          use_kernel)
        i += got
        if got < size:  # no world found in time
            break
    return SearchResult(stats, i)


class ViewWorlds:
    """``make_world`` for :func:`evaluate_worlds`: worlds sampled from ``view``.

    Called with an ``rng`` it draws from the exact sampler, looking only as
    long as ``budget`` allows (see :meth:`Budget.give_up`). When the view has
    flat tables (:func:`~matador.core.sampling.flat_worlds`, almost always),
    :func:`value_batch` draws world ``b`` of a search with seed ``seed`` from
    them instead, on the stream ``stream_key(seed, b, WORLD_STREAM)``: in the
    compiled kernel, with the rollouts, when the search uses it, else in pure
    Python; the same worlds either way.
    """

    def __init__(self, view: PlayerView, budget: Budget) -> None:
        self.view = view
        self.sampler = sampler_for(view)
        self.flat = flat_worlds(view)
        """The flat tables, or ``None`` (the exact sampler then serves every world)."""
        self.budget = budget
        self.give_up = budget.give_up()
        self.found = False

    def __call__(self, rng: Random) -> HandState:
        world = self.sampler.sample(rng, self.give_up if not self.found
                                    or self.budget.millis is not None else None)
        self.found = True
        return world

    def probe(self) -> None:
        """Make sure the view has a world at all, as the exact sampler finds it within the
        budget (raises :class:`~matador.core.errors.ViewError` if not), once: the flat tables
        then serve the search."""
        if not self.found:
            self.sampler.sample(Random(0), self.give_up)
            self.found = True

    def tiles_in_play(self) -> int:
        """Tiles held or in the boneyard in every world (public)."""
        return sum(self.view.hand_sizes) + self.view.boneyard_size


def view_worlds(view: PlayerView, budget: Budget) -> ViewWorlds:
    """``make_world`` for :func:`evaluate_worlds`: the worlds of ``view`` (:class:`ViewWorlds`)."""
    return ViewWorlds(view, budget)


WORLD_STREAM = 1 << 20
"""The last index of a world's stream key (a move id, the last index of a rollout's, is
never this large)."""


@dataclass(frozen=True)
class Finish:
    """How a search finishes a world after each move: exactly once at most ``exact_tiles``
    tiles are in play, else by a playout of ``kind`` (``greedy``: :func:`greedy_rollout`,
    ``table``: :func:`matador.players.playouts.table_rollout`, or with ``seats``
    :func:`matador.players.playouts.seat_rollout` of those seat policies) with ``epsilon``,
    mixed with ``net``'s value in the kernel. ``rollout`` is the pure-Python playout, the
    kernel plays ``kind`` and ``seats``."""

    rollout: Callable[[HandState, RandomSource, float], None] = greedy_rollout
    kind: str = "greedy"
    epsilon: float = EPSILON
    exact_tiles: int = ENDGAME_TILES
    seats: tuple[str, ...] = ()
    net: ValueNet | None = field(default=None, compare=False)
    """A value network for the table (the kernel only): a world's value of a move is then
    ``(1 - mix)`` times its playout's outcome plus ``mix`` times the network's chance to win
    right after the move (:mod:`matador.players.valuenet`)."""
    mix: float = 0.0


GREEDY_FINISH = Finish()
"""``pimc``'s: greedy playouts, exact below :data:`ENDGAME_TILES`."""


def value_batch(make_world: Callable[[Random], HandState], worlds: range, moves: Sequence[int],
                stats: dict[int, MoveStats], seat: int, rng: Random, seed: int,
                solver: EndgameSolver, use_kernel: bool, finish: Finish = GREEDY_FINISH
                ) -> int:
    """Sample the worlds numbered ``worlds`` and add each move's value in each to ``stats``.

    World ``b`` comes from ``make_world(rng)``, or, when ``make_world`` is a
    :class:`ViewWorlds` with flat tables, from the stream
    ``stream_key(seed, b, WORLD_STREAM)`` (drawn in the kernel with the
    rollouts when ``use_kernel`` and no endgame is solved). In world ``b``
    move ``m`` is solved exactly (few tiles left) or played out on the stream
    ``stream_key(seed, b, m)``: in the kernel, all the batch's playouts at
    once, when ``use_kernel``, else one by one; the same numbers, added in
    world order. Returns the number of worlds valued: fewer than asked when no
    world was found (:class:`~matador.core.errors.ViewError`, see
    :func:`view_worlds`), which is raised for world 0.
    """
    flat = make_world.flat if isinstance(make_world, ViewWorlds) else None
    if flat is not None:  # worlds from the flat tables (see ViewWorlds)
        assert isinstance(make_world, ViewWorlds)
        make_world.probe()
        if use_kernel and make_world.tiles_in_play() > finish.exact_tiles:
            return _kernel_batch(flat, worlds, moves, stats, seat, seed, finish)
    pending: list[tuple[HandState, int, int]] = []  # world, move, world index
    samples: list[tuple[int, int, float, float]] = []  # world index, move, win, points
    done = 0
    for b in worlds:
        try:
            if flat is None:
                world = make_world(rng)
            else:
                found = flat.world(Stream(stream_key(seed, b, WORLD_STREAM)))
                if found is None:
                    raise ViewError(f"no consistent world found in {FLAT_ATTEMPTS} attempts: "
                                    "the view is probably impossible")
                world = found
        except ViewError:
            if b == 0:
                raise
            break
        done += 1
        exact = tiles_in_play(world) <= finish.exact_tiles
        for m in moves:
            value = None
            child = None
            if exact:
                child = world.copy()
                child.push(m)
                if len(solver.memo) > 200_000:
                    solver.memo.clear()
                value = solver.solve(child)
            if value is not None:
                assert child is not None
                samples.append((b, m, value[seat], points_estimate(child, seat)))
            elif use_kernel:
                pending.append((world, m, b))
            else:
                if child is None:
                    child = world.copy()
                    child.push(m)
                finish.rollout(child, Stream(stream_key(seed, b, m)), finish.epsilon)
                samples.append((b, m, win_values(child)[seat], _points(child, seat)))
    if pending:
        samples.extend(_kernel_rollouts(pending, seat, seed, finish))
        samples.sort(key=lambda x: x[0])  # world order, as the pure path adds them
    for _, m, win, points in samples:
        stats[m].add(win, points)
    return done


def _kernel_batch(flat: FlatWorlds, worlds: range, moves: Sequence[int],
                  stats: dict[int, MoveStats], seat: int, seed: int, finish: Finish) -> int:
    """:func:`value_batch` all in the kernel: the worlds drawn from the flat tables, every
    move played out in each; the same numbers as the pure path, added in the same order."""
    import numpy as np

    from matador import fast

    bs = np.arange(worlds.start, worlds.stop, dtype=np.int64)
    keys = fast.stream_keys(seed, bs, np.full(len(bs), WORLD_STREAM, dtype=np.int64))
    rows, ok = fast.sample_worlds(flat, keys)
    done = len(bs) if ok.all() else int(np.argmin(ok))
    if not done:
        if worlds.start == 0:
            raise ViewError(f"no consistent world found in {FLAT_ATTEMPTS} attempts: the view "
                            "is probably impossible")
        return 0
    nm = len(moves)
    first = np.tile(np.asarray(moves, dtype=np.int64), done)
    b_of = np.repeat(bs[:done], nm)
    for (m, win, points) in _kernel_values(np.repeat(rows[:done], nm, axis=0), first,
                                           fast.stream_keys(seed, b_of, first), flat.view.rules,
                                           flat.view.players, seat, finish):
        stats[m].add(win, points)
    return done


def _kernel_values(rows: np.ndarray, first: np.ndarray, keys: np.ndarray, rules: Rules,
                   players: int, seat: int, finish: Finish
                   ) -> list[tuple[int, float, float]]:
    """Row ``i`` after move ``first[i]``, valued in the kernel by a playout on the stream
    ``keys[i]`` (mixed with ``finish.net`` where the move did not end the hand): (move, win,
    points) of each."""
    from matador import fast

    policy = kernel_policy(finish.epsilon, finish.kind, finish.seats)
    if finish.net is None:
        out = fast.play_rows(rows, rules, players, keys, policy, first_moves=first)
        net = None
    else:
        fast.push_rows(rows, rules, players, first)
        net = fast.net_values(rows, seat, finish.net.w).tolist()
        going = (rows[:, ROW_TO_MOVE] >= 0).tolist()  # the hand went on after the move
        out = fast.play_rows(rows, rules, players, keys, policy)
    share = 1.0 / players
    winners = out.winner.tolist()
    points = out.points[:, seat].tolist()
    values = []
    mix = finish.mix
    for i, m in enumerate(first.tolist()):
        w = winners[i]
        win = share if w < 0 else float(w == seat)
        if net is not None and going[i]:
            win = (1.0 - mix) * win + mix * net[i]
        values.append((m, win, float(points[i])))
    return values


def kernel_enabled(kernel: bool | None) -> bool:
    """Whether a search uses the compiled kernel: ``kernel``, or (``None``) if installed.

    The environment variable ``MATADOR_KERNEL=0`` turns the automatic choice off.
    """
    if kernel is not None:
        return kernel
    if os.environ.get("MATADOR_KERNEL", "1") == "0":
        return False
    from matador import fast

    return fast.available()


def _kernel_rollouts(pending: list[tuple[HandState, int, int]], seat: int, seed: int,
                     finish: Finish) -> list[tuple[int, int, float, float]]:
    """Playouts of ``world + move`` in the kernel: (world index, move, win, points)."""
    import numpy as np

    from matador import fast
    from matador.fast.encode import state_rows

    worlds = [w for w, _, _ in pending]
    first = np.array([m for _, m, _ in pending], dtype=np.int64)
    keys = fast.stream_keys(seed, [b for _, _, b in pending], first)
    values = _kernel_values(state_rows(worlds), first, keys, worlds[0].rules, worlds[0].players,
                            seat, finish)
    return [(b, m, win, points) for (_, _, b), (m, win, points) in zip(pending, values,
                                                                         strict=True)]


class _Batches:
    """How many worlds the next round samples: one at a time in pure Python; in batches
    for the kernel, never past an iteration limit, sized to a fraction of the time left."""

    def __init__(self, budget: Budget, batched: bool) -> None:
        self.limit = budget.iterations
        self.deadline = None if budget.millis is None else \
            time.perf_counter() + budget.millis / 1000
        if self.limit is None and self.deadline is None:
            self.limit = 1
        self.batched = batched
        self.start = time.perf_counter()

    def next_size(self, done: int) -> int:
        left = BATCH_MAX if self.limit is None else self.limit - done
        if left <= 0:
            return 0
        now = time.perf_counter()
        if self.deadline is not None and done > 0 and now >= self.deadline:
            return 0
        if not self.batched:
            return 1
        size = min(left, BATCH_MAX)
        if self.deadline is not None:
            if done == 0:
                size = min(size, BATCH_FIRST)
            else:  # a quarter of the time left at the rate seen so far
                rate = done / max(now - self.start, 1e-6)
                size = min(size, max(1, int(rate * (self.deadline - now) / 4)))
        return size


def _points(state: HandState, seat: int) -> float:
    assert state.outcome is not None
    return float(state.outcome.points[seat])


def points_estimate(state: HandState, seat: int) -> float:
    """``seat``'s points in ``state`` once over, after a greedy finish of a copy if need be.

    The exact endgame search values wins, not points, so the points of a
    solved world come from this finish.
    """
    if state.outcome is None:
        state = state.copy()
        greedy_rollout(state, Stream(0), 0.0)
    return _points(state, seat)


class PIMCBot(Bot):
    """Determinized search: sampled worlds, every move played out in each (``pimc``)."""

    kind = "pimc"
    default_budget = Budget(millis=150)

    def __init__(self, budget: Budget | None = None, kernel: bool | None = None) -> None:
        super().__init__(budget)
        self.kernel = kernel
        """Roll out in the compiled kernel: True, False, or None for "when installed"."""

    def search(self, view: PlayerView, rng: Random, budget: Budget | None = None
               ) -> SearchResult:
        """Statistics for every legal move of ``view.seat`` (which must be to move)."""
        budget = budget or self.budget or self.default_budget
        result = evaluate_worlds(view_worlds(view, budget), view.seat, view.legal_move_ids(),
                                 rng, budget, kernel=self.kernel)
        self.last_search = result
        return result

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        return self.search(view, rng).best()


class CheaterBot(OracleBot):
    """PIMC on the true hands, the boneyard order still unknown: a ceiling, never an opponent."""

    kind = "cheater"
    default_budget = PIMCBot.default_budget

    def _choose_truth(self, state: HandState, view: PlayerView, legal: tuple[int, ...],
                      rng: Random) -> int:
        return evaluate_worlds(true_worlds(state), state.to_move, legal, rng,
                               self.budget or self.default_budget).best()


def true_worlds(state: HandState) -> Callable[[Random], HandState]:
    """``make_world`` for :func:`evaluate_worlds`: ``state`` itself, every hand known, with
    the order of the tiles no seat has seen (the boneyard and the tiles set aside) shuffled:
    the worlds of the ``cheater``."""
    hidden = list(state.boneyard) + list(state.deal.set_aside)

    def make_world(r: Random) -> HandState:
        world = state.copy()
        order = hidden[:]
        r.shuffle(order)
        world._bone = world._bone[:world._bpos] + tuple(order[:state.boneyard_size])
        return world

    return make_world
