"""The levels' bot (``sage``): determinized search with table-wise playouts and managed time.

``sage`` is a perfect-information Monte Carlo search, like ``pimc``, with the
pieces that measured stronger (``docs/bots.md``):

* **Worlds** come from the exact sampler (:func:`~matador.core.sampling.sampler_for`),
  which draws the leader rule (R14) directly, so that with three and four
  players a search sees many more worlds in the same time.
* **Playouts model every seat** (:func:`~matador.players.playouts.table_rollout`):
  each seat plays the card-counting heuristic, blocking every other seat and
  spending its last matador only when it pays, which is how the opponents a
  bot meets play; the ``pimc`` playouts block the next seat only. They run
  in the compiled kernel when it is installed (``matador[fast]``, the
  ``table`` policy), in batches of worlds, with the same moves as in pure
  Python.
* **Exact endgames**: once few tiles are left, a world is solved exactly
  (:class:`~matador.players.rollout.EndgameSolver`, max^n: every seat
  maximises its own chance), with two players only: with more, the solver's
  perfect-information opponents play another game than the real ones.
* **Inference**: the other seats' choices between plays say something about
  their hands. Worlds are drawn in rounds of :data:`POOL` candidates, each
  weighted by how likely the other seats' observed plays were under a
  softmax of the playout policy's evaluation
  (:func:`~matador.players.ismcts.choice_log_likelihood`, at ``trust``),
  and resampled in proportion to the weights (systematic resampling), so the
  search plays out the plausible worlds more often.
* **Time** (:mod:`matador.players.timing`): none on forced moves and on
  moves that lead to the same position as another; a decision stops early
  once its best move is settled (checked at the end of each batch), and the
  time saved goes to later, closer decisions of the hand (at most
  ``MAX_FACTOR`` times the budget for one move, so the mean time per move
  stays within the budget).

Every legal move is played in the same worlds (paired comparisons); the
move with the highest mean win value wins, points breaking ties. The search
statistics (:attr:`Bot.last_search`) have the form of ``pimc``'s.

It sees only its :class:`~matador.core.view.PlayerView`, and for a seed and an
iteration budget it always plays the same move:

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> from matador.core.view import PlayerView
>>> state = HandState.new(Rules.from_preset("classic"), 3, random.Random(4))
>>> view = PlayerView.of(state, state.to_move)
>>> bot = SageBot(Budget(iterations=30))
>>> bot.choose(view, random.Random(1)) == SageBot(Budget(iterations=30)).choose(
...     view, random.Random(1))
True
"""

from __future__ import annotations

import math
import time
from random import Random

from matador.core.errors import ViewError
from matador.core.moves import DRAW
from matador.core.sampling import FLAT_ATTEMPTS
from matador.core.state import HandState
from matador.core.streams import Stream
from matador.core.view import PlayerView
from matador.players.base import Bot, Budget
from matador.players.pimc import (
    Finish,
    MoveStats,
    SearchResult,
    ViewWorlds,
    kernel_enabled,
    value_batch,
    view_worlds,
)
from matador.players.playouts import EPSILON, choice_log_likelihood, table_rollout
from matador.players.rollout import EndgameSolver
from matador.players.timing import MIN_SAMPLES, ThinkClock, distinct_moves, settled

ENDGAME_TILES = 9
"""Solve a world exactly once at most this many tiles are held or in the boneyard (2 players)."""
MAX_FACTOR = 1.5
"""The most one decision may use, in multiples of the budget, drawing on time saved earlier."""
CHECK_EVERY = 8
"""Fewest worlds between two checks of whether a decision is settled (then a quarter of
the worlds seen so far, so that checking stays cheap)."""
BATCH_MAX = 256
"""Most worlds in one batch of playouts."""
POOL = 64
"""Candidate worlds drawn and weighted together before resampling (with inference)."""


class WeightedWorlds:
    """``make_world`` for :func:`~matador.players.pimc.value_batch`: worlds of a view,
    resampled by how likely the other seats' observed plays were in each.

    Each round draws :data:`POOL` candidates from ``worlds`` (from the flat
    tables on streams drawn from the search's ``rng``, or from the exact
    sampler), weighs candidate ``w`` by ``exp(choice_log_likelihood(view, w))``
    at ``trust`` and keeps :data:`POOL` of them by systematic resampling
    (a likely world may be kept several times, an unlikely one not at all);
    calls then hand them out in order. A :class:`~matador.core.errors.ViewError`
    is raised when no candidate is found.
    """

    flat = None
    """Never flat tables: :func:`~matador.players.pimc.value_batch` takes each world from a
    call."""

    def __init__(self, worlds: ViewWorlds, trust: float) -> None:
        self.worlds = worlds
        self.view = worlds.view
        self.trust = trust
        self._ready: list[HandState] = []

    def __call__(self, rng: Random) -> HandState:
        if not self._ready:
            self._ready = self._round(rng)
        return self._ready.pop()

    def _candidate(self, rng: Random) -> HandState:
        flat = self.worlds.flat
        if flat is None:
            return self.worlds(rng)
        self.worlds.probe()
        world = flat.world(Stream(rng.getrandbits(64)))
        if world is None:
            raise ViewError(f"no consistent world found in {FLAT_ATTEMPTS} attempts: "
                            "the view is probably impossible")
        return world

    def _round(self, rng: Random) -> list[HandState]:
        pool: list[HandState] = []
        logs: list[float] = []
        for _ in range(POOL):
            try:
                world = self._candidate(rng)
            except ViewError:
                if not pool:
                    raise
                break
            pool.append(world)
            logs.append(choice_log_likelihood(self.view, world, self.trust))
        top = max(logs)
        weights = [math.exp(v - top) for v in logs]
        total = sum(weights)
        step = total / len(pool)
        point = rng.random() * step
        kept: list[HandState] = []
        acc = 0.0
        for world, w in zip(pool, weights, strict=True):
            acc += w
            while point < acc and len(kept) < len(pool):
                kept.append(world)
                point += step
        while len(kept) < len(pool):  # rounding at the very end
            kept.append(pool[-1])
        kept.reverse()  # handed out by pop(): in the order drawn
        return kept


def has_choices(view: PlayerView) -> bool:
    """Whether another seat has played a tile (its choice between plays may say something)."""
    return any(s != view.seat and m < DRAW for s, m in zip(view.movers, view.moves, strict=True))


class SageBot(Bot):
    """Determinized search with table-wise playouts, exact endgames and managed time (``sage``).

    ``early_stop`` lets a decision end once settled (and bank the time it
    saved); ``epsilon`` is the share of random moves in the playouts;
    ``endgame`` the number of tiles in play below which a two-player world is
    solved exactly (0: never); ``trust`` weighs worlds by the other
    seats' observed plays (see :class:`WeightedWorlds`; ``None``: uniform
    worlds, as ``pimc``'s); ``kernel`` plays the playouts in the compiled
    kernel: True, False, or None for "when installed" (the statistics are the
    same either way for an iteration budget).
    """

    kind = "sage"
    default_budget = Budget(millis=150)

    def __init__(self, budget: Budget | None = None, *, early_stop: bool = True,
                 epsilon: float = EPSILON, endgame: int = ENDGAME_TILES,
                 trust: float | None = None, kernel: bool | None = None) -> None:
        super().__init__(budget)
        self.early_stop = early_stop
        self.trust = trust
        self.epsilon = epsilon
        self.endgame = endgame
        self.kernel = kernel
        self.clock: ThinkClock | None = None
        """The hand's time bank (``None`` for an iteration budget); a new one whenever the
        time budget changes (an engine sets the budget before each move)."""
        self._solver = EndgameSolver()
        self._time_bank()

    def search(self, view: PlayerView, rng: Random, budget: Budget | None = None,
               *, early_stop: bool | None = None) -> SearchResult:
        """Statistics for every legal move of ``view.seat`` (which must be to move).

        Runs until ``budget`` (default: the bot's) is spent, or, with
        ``early_stop`` (default: the bot's), until the best move is settled.
        Moves that lead to the same position share their statistics. Worlds
        are sampled and played out in batches; in world ``b`` move ``m`` is
        played out on the stream ``stream_key(seed, b, m)``, ``seed`` being the
        search's first draw from ``rng``, in the kernel or in pure Python.
        """
        spec = budget or self.budget or self.default_budget
        stop = self.early_stop if early_stop is None else early_stop
        legal = view.legal_move_ids()
        moves = distinct_moves(legal, view.left, view.right)
        stats = {m: MoveStats(m) for m in moves}
        uniform = view_worlds(view, spec)
        make_world: ViewWorlds | WeightedWorlds = uniform
        if self.trust is not None and has_choices(view):
            make_world = WeightedWorlds(uniform, self.trust)
        seat = view.seat
        finish = Finish(table_rollout, "table", self.epsilon,
                        self.endgame if view.players == 2 else 0)
        use_kernel = kernel_enabled(self.kernel)
        seed = rng.getrandbits(64)
        limit = spec.iterations
        begin = time.perf_counter()
        deadline = None if spec.millis is None else begin + spec.millis / 1000
        if limit is None and deadline is None:
            limit = 1
        done = 0
        while True:
            size = BATCH_MAX if limit is None else min(BATCH_MAX, limit - done)
            if stop and len(moves) > 1:  # settled? checked at the ends of batches
                size = min(size, max(MIN_SAMPLES - done, CHECK_EVERY, done // 4))
            if deadline is not None and done:
                now = time.perf_counter()
                if now >= deadline:
                    break
                rate = done / max(now - begin, 1e-6)  # a quarter of the time left
                size = min(size, max(1, int(rate * (deadline - now) / 4)))
            elif deadline is not None:
                size = min(size, CHECK_EVERY)
            if size <= 0:
                break
            got = value_batch(make_world, range(done, done + size), moves, stats, seat, rng,
                              seed, self._solver, use_kernel, finish)
            done += got
            if got < size:  # no world found in time
                break
            if stop and len(moves) > 1 and done >= MIN_SAMPLES \
                    and settled([stats[m].wins for m in moves]):
                break
        result = SearchResult(_with_twins(stats, legal, view), done)
        self.last_search = result
        return result

    def _time_bank(self) -> ThinkClock | None:
        """The clock for the current budget: kept while the budget's time stays the same."""
        spec = self.budget or self.default_budget
        if not spec.millis:
            self.clock = None
        elif self.clock is None or self.clock.millis != spec.millis:
            self.clock = ThinkClock(spec.millis, MAX_FACTOR)
        return self.clock

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        clock = self._time_bank()
        if clock is None:
            return self.search(view, rng).best()
        spec = self.budget or self.default_budget
        start = time.perf_counter()
        result = self.search(view, rng, Budget(clock.allowance(), spec.iterations))
        clock.spend((time.perf_counter() - start) * 1000)
        return result.best()


def _with_twins(stats: dict[int, MoveStats], legal: tuple[int, ...], view: PlayerView
                ) -> dict[int, MoveStats]:
    """Statistics for every legal move: a move not searched gets its twin's numbers."""
    if len(stats) == len(legal):
        return stats
    out: dict[int, MoveStats] = {}
    for m in legal:
        s = stats.get(m)
        if s is None:
            twin = next(x for x in stats if distinct_moves((x, m), view.left, view.right) == [x])
            s = stats[twin]
            s = MoveStats(m, s.n, s.win, s.points, s.win_sq, s.wins)
        out[m] = s
    return out


__all__ = ["BATCH_MAX", "CHECK_EVERY", "ENDGAME_TILES", "MAX_FACTOR", "POOL", "SageBot",
           "WeightedWorlds", "has_choices"]
