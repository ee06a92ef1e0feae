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
  Python. Under ``six`` with four players, where the card counter plays no
  better than ``greedy``, the playouts are ``pimc``'s greedy ones
  (:data:`AUTO_PLAYOUTS`).
* **A learned evaluation** (:mod:`matador.players.valuenet`): where the package
  ships a value network for the table (classic, russian and six with two players;
  with three and four a network measured no gain) or one is given for the table's
  size, and the kernel runs the playouts, a world's value of a move is half its playout's
  outcome and half the network's chance to win right after the move
  (:data:`MIX`); the network, trained on ``sage``'s self-play, runs in the
  kernel beside the playouts. ``sage-po`` is ``sage`` without it.
* **Exact endgames**: once few tiles are left, a world is solved exactly
  (:class:`~matador.players.rollout.EndgameSolver`, max^n: every seat
  maximises its own chance), with two players only: with more, the solver's
  perfect-information opponents play another game than the real ones.
* **Positions with nothing hidden**: with two players, once the boneyard is
  empty (and nothing was set aside) the view determines the world, and a
  decision is solved exactly whatever the number of tiles, within a node limit
  (:func:`solve_known`); playouts chose a worse move in some of those positions
  (``benchmarks/determined.py``).
* **Opponents** (``sage-om`` only, ``model_opponents``): each other seat's
  observed choices are weighed, over :data:`MODEL_WORLDS` worlds, under the
  table policy and under the ``greedy`` bot's (:func:`opponent_policies`);
  a seat whose choices make ``greedy`` likelier (:data:`MODEL_ODDS`) is
  played as ``greedy`` in the playouts (the kernel's per-seat policies, or
  :func:`~matador.players.playouts.seat_rollout`) and in the exact endgames,
  which are then solved with any number of players once every other seat is
  so modelled (the searching seat is the only one left to maximise). It pays
  against ``greedy`` seats and changes nothing against ``heuristic`` or
  ``pimc`` seats (``docs/bots.md``, "A model of the opponent").
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
from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random

from matador.core.errors import ViewError
from matador.core.sampling import sampler_for
from matador.core.state import HandState
from matador.core.streams import Stream
from matador.core.view import PlayerView
from matador.players.base import Bot, Budget
from matador.players.pimc import (
    Finish,
    MoveStats,
    SearchResult,
    kernel_enabled,
    points_estimate,
    value_batch,
    view_worlds,
)
from matador.players.playouts import (
    CHOOSERS,
    EPSILON,
    choice_log_likelihoods,
    seat_rollout,
    table_rollout,
)
from matador.players.rollout import EndgameSolver, RandomSource, greedy_rollout
from matador.players.timing import MIN_SAMPLES, ThinkClock, distinct_moves, settled
from matador.players.valuenet import ValueNet, shipped_net

ENDGAME_TILES = 9
"""Solve a world exactly once at most this many tiles are held or in the boneyard (2 players)."""
MAX_FACTOR = 1.5
"""The most one decision may use, in multiples of the budget, drawing on time saved earlier."""
CHECK_EVERY = 8
"""Fewest worlds between two checks of whether a decision is settled (then a quarter of
the worlds seen so far, so that checking stays cheap)."""
BATCH_MAX = 256
"""Most worlds in one batch of playouts."""
PLAYOUTS: dict[str, Callable[[HandState, RandomSource, float], None]] = {
    "table": table_rollout, "greedy": greedy_rollout}
"""The playout policies a search can finish its worlds with, by name (``playout``)."""
MODEL_WORLDS = 64
"""Worlds over which the other seats' observed choices are weighed (``model_opponents``)."""
MODEL_ODDS = 1.0
"""How many times likelier a seat's choices must be under ``greedy`` than under the table
policy for the playouts to play it as ``greedy`` (1: the likelier policy; measured against
4 and 0.25 in ``docs/bots.md``)."""
MODEL_TRUST = 0.95
"""A modelled policy's chance of making its own choice (else a uniformly random move)."""
MODEL_SETTLED = 1000.0
"""Odds (either way) past which a seat's policy is settled for the rest of the hand: its
choices are no longer weighed at later decisions (``sage-om``)."""
KNOWN_NODES = 20_000
"""Most positions the exact search visits to solve a decision whose view determines the
world (two players, empty boneyard, nothing set aside) for an iteration budget; a time
budget allows :data:`KNOWN_NODES_PER_MS` a millisecond of it (about half its time)."""
KNOWN_NODES_PER_MS = 100
"""Positions of the exact search allowed per millisecond of a time budget (some 5 us each)."""
MIX = 0.5
"""The share of a world's value of a move that comes from the value network, where one is
used (the rest is the playout's outcome; ``docs/bots.md``, "A learned evaluation")."""
_LOADED: dict[str, ValueNet] = {}
AUTO_PLAYOUTS: dict[tuple[str, int], str] = {("six", 4): "greedy"}
"""Tables (preset, players) where ``playout="auto"`` (the default) plays ``pimc``'s greedy
playouts instead of the table policy: under ``six`` with four players the card counter is
no better a player than ``greedy`` (the round robin in ``docs/bots.md``), and ``sage`` with
table playouts measured behind ``pimc`` seats, with greedy ones level (docs/bots.md)."""


def playout_for(preset: str, players: int) -> str:
    """The playout policy of ``playout="auto"`` at a table: :data:`AUTO_PLAYOUTS`, else
    ``table``.

    >>> playout_for("six", 4), playout_for("six", 3), playout_for("classic", 4)
    ('greedy', 'table', 'table')
    """
    return AUTO_PLAYOUTS.get((preset, players), "table")


def known_world(view: PlayerView) -> bool:
    """Whether ``view`` determines the world: two players, an empty boneyard and nothing set
    aside, so the tiles the seat has not seen are exactly the other hand (the hand is then a
    game of perfect information)."""
    return view.players == 2 and view.boneyard_size == 0 and view.set_aside_size == 0


def known_nodes(budget: Budget) -> int:
    """The exact search's node limit for a determined decision under ``budget``:
    :data:`KNOWN_NODES_PER_MS` a millisecond of a time budget, else :data:`KNOWN_NODES`.

    >>> known_nodes(Budget(millis=100)), known_nodes(Budget(iterations=300))
    (10000, 20000)
    """
    if budget.millis is not None:
        return int(min(KNOWN_NODES, budget.millis * KNOWN_NODES_PER_MS))
    return KNOWN_NODES


def solve_known(view: PlayerView, moves: Sequence[int], nodes: int
                ) -> dict[int, MoveStats] | None:
    """Each of ``moves`` solved exactly in the one world of a determined ``view``
    (:func:`known_world`): its win value under perfect play, and the points of a greedy
    finish to break ties; ``None`` when the exact search needs more than ``nodes`` positions
    in all."""
    world = sampler_for(view).sample(Random(0))
    solver = EndgameSolver(node_limit=nodes, stop_at_win=True)
    out: dict[int, MoveStats] = {}
    for m in moves:
        child = world.copy()
        child.push(m)
        solver.node_limit = nodes
        value = solver.solve(child)
        if value is None:
            return None
        nodes -= solver.nodes
        stats = out[m] = MoveStats(m)
        stats.add(value[view.seat], points_estimate(child, view.seat))
    return out


def opponent_policies(view: PlayerView, rng: Random, worlds: int = MODEL_WORLDS,
                      odds: float = MODEL_ODDS) -> tuple[str, ...]:
    """The policy (a name of :data:`~matador.players.playouts.CHOOSERS`) to play each seat
    with in the playouts of a search from ``view``: the view's own seat and every seat whose
    choices do not make ``greedy`` more than ``odds`` times as likely as ``table``
    (:func:`opponent_log_odds`), ``table``."""
    return _policies(view.players, opponent_log_odds(view, rng, worlds), odds)


def _policies(players: int, ratios: dict[int, float], odds: float = MODEL_ODDS
              ) -> tuple[str, ...]:
    """``greedy`` for each seat whose log odds (:func:`opponent_log_odds`) pass ``odds``."""
    return tuple("greedy" if ratios.get(s, 0.0) > math.log(odds) else "table"
                 for s in range(players))


def opponent_log_odds(view: PlayerView, rng: Random, worlds: int = MODEL_WORLDS,
                      seats: Sequence[int] | None = None) -> dict[int, float]:
    """For each other seat (or each of ``seats``), the log of how many times likelier its
    observed choices are under ``greedy`` than under ``table`` (0 when none tells them apart).

    The likelihood of a seat's observed choices under a policy is their
    likelihood in each of ``worlds`` worlds drawn from the view (the exponential
    of :func:`~matador.players.playouts.choice_log_likelihoods` at
    :data:`MODEL_TRUST`), averaged over the worlds: the hands are unknown, so the
    evidence is what the choices say in all of them together.
    """
    make = view_worlds(view, Budget(iterations=1))
    flat = make.flat
    logs: dict[tuple[int, str], list[float]] = {}
    for _ in range(worlds):
        try:
            world: HandState | None = flat.world(Stream(rng.getrandbits(64))) \
                if flat is not None else make(rng)
        except ViewError:  # none found in time: the search itself will say so
            break
        if world is None:
            continue
        for key, value in choice_log_likelihoods(view, world, MODEL_TRUST, seats).items():
            logs.setdefault(key, []).append(value)
    return {s: _log_mean_exp(logs[s, "greedy"]) - _log_mean_exp(logs[s, "table"])
            for s in range(view.players) if (s, "greedy") in logs}


def _log_mean_exp(values: list[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values) / len(values))


class SageBot(Bot):
    """Determinized search with table-wise playouts, exact endgames and managed time (``sage``).

    ``early_stop`` lets a decision end once settled (and bank the time it
    saved); ``epsilon`` is the share of random moves in the playouts;
    ``endgame`` the number of tiles in play below which a two-player world is
    solved exactly (0: never), and with ``endgame_all`` a world of any number
    of players; ``playout`` is ``table`` (every seat plays the card counter,
    :func:`~matador.players.playouts.table_rollout`), ``greedy`` (``pimc``'s,
    :func:`~matador.players.rollout.greedy_rollout`) or ``auto``, the measured better
    of the two at the view's table (:func:`playout_for`);
    ``solve_known`` solves a decision exactly when the view determines the world
    (:func:`known_world`) and the exact search needs at most the budget's nodes
    (:func:`known_nodes`); ``model_opponents`` plays the other seats in the
    playouts as the policy their choices point to (:func:`opponent_policies`;
    the ``sage-om`` kind); ``kernel`` plays the playouts in the compiled
    kernel: True, False, or None for "when installed" (the statistics are the
    same either way for an iteration budget, without a value network);
    ``evaluation`` is the value network mixed into the kernel's playouts, ``mix``
    of each value (:meth:`value_net`): ``auto`` (the one shipped for the table,
    if any), ``off``, or the path of saved weights.
    """

    kind = "sage"
    default_budget = Budget(millis=150)

    def __init__(self, budget: Budget | None = None, *, early_stop: bool = True,
                 epsilon: float = EPSILON, endgame: int = ENDGAME_TILES,
                 model_opponents: bool = False, kernel: bool | None = None,
                 playout: str = "auto", endgame_all: bool = False,
                 solve_known: bool = True, evaluation: str = "auto", mix: float = MIX) -> None:
        super().__init__(budget)
        if evaluation not in ("auto", "off") and not evaluation.endswith(".npz"):
            raise ValueError(f"unknown evaluation {evaluation!r}: expected 'auto', 'off' or "
                             "the path of a value network's weights (.npz)")
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix {mix!r} is not a share between 0 and 1")
        self.evaluation = evaluation
        self.mix = mix
        self.solve_known = solve_known
        if playout not in PLAYOUTS and playout != "auto":
            raise ValueError(f"unknown playout {playout!r}: expected one of "
                             f"{', '.join(sorted([*PLAYOUTS, 'auto']))}")
        self.playout = playout
        self.endgame_all = endgame_all
        self.early_stop = early_stop
        self.model_opponents = model_opponents
        self.epsilon = epsilon
        self.endgame = endgame
        self.kernel = kernel
        self.clock: ThinkClock | None = None
        """The hand's time bank (``None`` for an iteration budget); a new one whenever the
        time budget changes (an engine sets the budget before each move)."""
        self._solver = EndgameSolver()
        self._solvers: dict[tuple[str, ...], EndgameSolver] = {}
        self._model: tuple[int, tuple[int, ...], dict[int, float]] | None = None
        """The seat, the moves seen and the settled seats' log odds at the last model."""
        self._time_bank()

    def _opponent_policies(self, view: PlayerView, rng: Random) -> tuple[str, ...]:
        """:func:`opponent_policies`, the seats whose odds passed :data:`MODEL_SETTLED`
        earlier in the same hand (the moves seen then begin this view's) kept as they were."""
        moves = tuple(view.moves)
        settled: dict[int, float] = {}
        if self._model is not None:
            seat, seen, before = self._model
            if seat == view.seat and moves[:len(seen)] == seen:
                settled = before
        open_seats = [s for s in range(view.players) if s != view.seat and s not in settled]
        ratios = {**settled,
                  **(opponent_log_odds(view, rng, seats=open_seats) if open_seats else {})}
        settled = {s: r for s, r in ratios.items() if abs(r) > math.log(MODEL_SETTLED)}
        self._model = (view.seat, moves, settled)
        return _policies(view.players, ratios)

    def _modelled_solver(self, policies: tuple[str, ...]) -> EndgameSolver:
        """The endgame solver in which each seat modelled as a policy other than ``table``
        makes that policy's move (the others, ``table``, still play perfectly)."""
        solver = self._solvers.get(policies)
        if solver is None:
            solver = self._solvers[policies] = EndgameSolver(
                fixed=[None if p == "table" else CHOOSERS[p] for p in policies])
        return solver

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
        seat = view.seat
        playout = (playout_for(view.rules.preset, view.players) if self.playout == "auto"
                   else self.playout)
        finish = Finish(PLAYOUTS[playout], playout, self.epsilon,
                        self.endgame if view.players == 2 or self.endgame_all else 0)
        use_kernel = kernel_enabled(self.kernel)
        net = self.value_net(view) if use_kernel else None
        if net is not None:
            finish = replace(finish, net=net, mix=self.mix)
        solver = self._solver
        begin = time.perf_counter()
        if self.solve_known and len(moves) > 1 and known_world(view):
            exact = solve_known(view, moves, known_nodes(spec))
            if exact is not None:
                result = SearchResult(_with_twins(exact, legal, view), 1, {"exact": 1.0})
                self.last_search = result
                return result
        if self.model_opponents and len(moves) > 1:
            policies = self._opponent_policies(view, rng)
            if any(p != "table" for p in policies):
                alone = all(p != "table" for s, p in enumerate(policies) if s != seat)
                finish = Finish(seat_rollout(policies), "table", self.epsilon,
                                self.endgame if alone else finish.exact_tiles, policies,
                                finish.net, finish.mix)
                solver = self._modelled_solver(policies)
        make_world = self.worlds(view, spec)  # after the model: its wait for a world starts now
        seed = rng.getrandbits(64)
        limit = spec.iterations
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
                              seed, solver, use_kernel, finish)
            done += got
            if got < size:  # no world found in time
                break
            if stop and len(moves) > 1 and done >= MIN_SAMPLES \
                    and settled([stats[m].wins for m in moves]):
                break
        result = SearchResult(_with_twins(stats, legal, view), done)
        self.last_search = result
        return result

    def value_net(self, view: PlayerView) -> ValueNet | None:
        """The value network mixed into the playouts at ``view``'s table (``evaluation``):
        the shipped one for the table (``auto``, :func:`~matador.players.valuenet.shipped_net`),
        none (``off``), or the one saved at a path, used only at a table of the number of
        players it was trained for (else ``None``: playouts alone)."""
        if self.evaluation == "off":
            return None
        if self.evaluation == "auto":
            return shipped_net(view.rules, view.players)
        net = _LOADED.get(self.evaluation)
        if net is None:
            net = _LOADED[self.evaluation] = ValueNet.load(self.evaluation)
        return net if net.players == view.players else None

    def worlds(self, view: PlayerView, budget: Budget) -> Callable[[Random], HandState]:
        """Where the search's worlds come from: :func:`~matador.players.pimc.view_worlds`,
        the worlds consistent with ``view`` (a measuring stick may search others)."""
        return view_worlds(view, budget)

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


class SagePlayoutsBot(SageBot):
    """``sage`` valuing worlds by playouts alone (``sage-po``): ``SageBot(evaluation="off")``,
    the ``sage`` of before the learned evaluation, kept for comparison."""

    kind = "sage-po"

    def __init__(self, budget: Budget | None = None) -> None:
        super().__init__(budget, evaluation="off")


class SageOMBot(SageBot):
    """``sage`` that models its opponents (``sage-om``): ``SageBot(model_opponents=True,
    evaluation="off")``, as it was measured."""

    kind = "sage-om"

    def __init__(self, budget: Budget | None = None, *, early_stop: bool = True,
                 epsilon: float = EPSILON, endgame: int = ENDGAME_TILES,
                 kernel: bool | None = None) -> None:
        super().__init__(budget, early_stop=early_stop, epsilon=epsilon, endgame=endgame,
                         model_opponents=True, kernel=kernel, evaluation="off")


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


__all__ = ["AUTO_PLAYOUTS", "BATCH_MAX", "CHECK_EVERY", "ENDGAME_TILES", "KNOWN_NODES",
           "KNOWN_NODES_PER_MS", "MAX_FACTOR",
           "MIX", "MODEL_ODDS", "MODEL_SETTLED", "MODEL_TRUST", "MODEL_WORLDS", "SageBot",
           "SageOMBot", "SagePlayoutsBot",
           "known_nodes", "known_world", "opponent_log_odds", "opponent_policies",
           "playout_for", "solve_known"]
