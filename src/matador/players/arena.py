"""The arena: bots play duplicate deals against each other, refereed, and are scored.

The arena is the referee. It deals, keeps the true :class:`HandState`, gives
each seat's :class:`Contestant` only that seat's :class:`PlayerView`, and
checks every move with the validating :meth:`HandState.play`. A contestant
that raises, returns something that is not a :class:`Move`, plays an illegal
move or overruns the move time limit forfeits the game (see
:class:`Forfeit`); the arena itself never crashes on a contestant's fault.

Design of an experiment (:func:`run_arena`):

* **Entries.** Each bot spec given is one entry, named as given; a spec given
  twice gives two entries, ``greedy#1`` and ``greedy#2``.
* **Tables.** With no more entries than seats the entries fill the seats in
  order, the last one repeated (``pimc greedy`` at four seats is pimc against
  three greedy bots). With more entries than seats every combination of
  ``players`` distinct entries gets a table (round robin).
* **Duplicate deals.** Deal ``d`` is the same shuffle (boneyard order included)
  for every table, and each table plays it in every cyclic seat rotation, so
  each entry sits once in each seat, the leader's included.
* **Common random numbers.** The generator handed to seat ``s`` on deal ``d``
  depends on ``(seed, d, s)`` only, not on who sits there. Two copies of the
  same bot therefore replay the same game in each rotation, and their mean
  scores are exactly equal.
* **Scores.** A game is one hand, or with ``match=True`` one whole match
  (R23). The winner of a game scores 1, the losers 0; a game without a
  winner gives each of the N seats 1/N; a forfeit gives the forfeiting seat
  0 and every other seat 1/(N-1). An entry's score in a game is the mean
  over the seats it holds, so every entry's baseline is 1/N.

Everything is reproducible from ``seed``: deal ``d`` of hand ``h`` is
shuffled by a generator seeded from ``(seed, d, h)``, results are gathered
in a fixed order, so ``jobs`` and scheduling change nothing but timings
(with iteration budgets; time budgets are not deterministic).

>>> result = run_arena(["heuristic", "random"], preset="classic", players=2, deals=20, seed=1)
>>> len(result.games), result.names
(40, ['heuristic', 'random'])
>>> result.bot("heuristic").score + result.bot("random").score   # each game gives out 1
1.0
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import math
import multiprocessing
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from matador.core.errors import MatadorError
from matador.core.match import Match
from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import Deal, HandState, Outcome, Seat
from matador.core.view import PlayerView
from matador.players.base import Bot, OracleBot, make_bot
from matador.players.stats import (
    bootstrap_elo,
    bradley_terry,
    elo,
    wilson,
)

MAX_MATCH_HANDS = 500
"""A match still undecided after this many hands ends without a winner (1/N each)."""


class ArenaError(MatadorError):
    """A bad arena setup: too few bots, no deals, a bad job count."""


class ContestantError(Exception):
    """Raised by a contestant that cannot move (a crashed or hung engine, say).

    The arena treats it like any exception from a contestant: a forfeit.
    ``kind`` goes into the :class:`Forfeit` (``"timeout"``, ``"crash"``...).
    """

    def __init__(self, message: str, kind: str = "error") -> None:
        super().__init__(message)
        self.kind = kind


# -- contestants -----------------------------------------------------------------


class Contestant(ABC):
    """Whatever plays a seat in the arena: a built-in bot, or later an engine process.

    The referee calls :meth:`start_game` before each game (a hand, or a whole
    match), then :meth:`move` whenever the contestant's seat is to move,
    :meth:`hand_over` after each hand and :meth:`close` when done with the
    contestant. Only a contestant whose :attr:`sees_truth` is true is called
    through :meth:`move_with_truth`, with a copy of the true state.

    Anything :meth:`move` raises, a return value that is not a
    :class:`Move`, an illegal move, or a move slower than the arena's
    ``move_timeout`` forfeits the game. A contestant that can hang (an
    engine process) should enforce its own deadline and raise
    :class:`ContestantError` with ``kind="timeout"``: the arena cannot
    interrupt a call.
    """

    name: str
    """What the contestant calls itself (for messages)."""

    @property
    def sees_truth(self) -> bool:
        """Whether the referee hands this contestant the true state (the ``cheater``)."""
        return False

    @property
    def asks_forced(self) -> bool:
        """Whether to ask for a move when only one is legal (else the referee plays it)."""
        return True

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:  # noqa: B027
        """A game begins with this contestant at ``seat``; ``seed`` seeds its own randomness.

        ``Random(seed)`` starts in the state of the generator later passed to
        :meth:`move` in this game, so a contestant that searches elsewhere (an
        engine process told ``setoption name Seed value SEED``) draws the same
        numbers as a bot in-process.
        """

    @abstractmethod
    def move(self, view: PlayerView, rng: Random) -> Move:
        """The move for ``view.seat``, which is to move; ``rng`` is this seat's generator."""

    def move_with_truth(self, state: HandState, rng: Random) -> Move:
        """The move for the seat to move in ``state`` (a copy), for contestants that see truth."""
        raise ContestantError(f"{self.name} does not take the true state")

    def hand_over(self, outcome: Outcome) -> None:  # noqa: B027
        """The hand just ended with ``outcome``."""

    def close(self) -> None:  # noqa: B027
        """Release what the contestant holds (a process, a file); it plays no more."""


class BotContestant(Contestant):
    """A built-in :class:`Bot` as a contestant.

    The bot is rebuilt from its spec at each :meth:`start_game`, so nothing a
    bot remembers can leak from one game into the next and results do not
    depend on how the games were split between processes. Only an
    :class:`OracleBot` (the ``cheater``) is given the true state, through
    :meth:`OracleBot.choose_with_truth`; every other bot sees a view.
    """

    def __init__(self, spec: str, make: Callable[[str], Bot] = make_bot) -> None:
        self.spec = spec
        self._make = make
        self.bot = make(spec)
        self.name = self.bot.name

    @property
    def sees_truth(self) -> bool:
        """True for an :class:`OracleBot`."""
        return isinstance(self.bot, OracleBot)

    @property
    def asks_forced(self) -> bool:
        """False: a bot answers a forced move without looking, so the referee plays it."""
        return False

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        """Start from a fresh bot."""
        self.bot = self._make(self.spec)

    def move(self, view: PlayerView, rng: Random) -> Move:
        """The bot's choice for ``view``."""
        return self.bot.choose(view, rng)

    def move_with_truth(self, state: HandState, rng: Random) -> Move:
        """The oracle's choice knowing ``state``: the one place a bot gets the true state."""
        if not isinstance(self.bot, OracleBot):
            return super().move_with_truth(state, rng)
        return self.bot.choose_with_truth(state, rng)


def make_contestant(spec: str) -> Contestant:
    """Build the contestant for a bot spec (``greedy``, ``pimc:500ms``, a level name).

    This is the default ``factory`` of :func:`run_arena`. A factory must be
    a module-level function (it is sent to worker processes) that raises
    :class:`MatadorError` for a spec it does not know.
    """
    return BotContestant(spec)


ContestantFactory = Callable[[str], Contestant]
"""Builds a contestant from a spec; picklable when ``jobs > 1``."""


class _Broken(Contestant):
    """Stands for a contestant whose factory failed in a worker: forfeits every game."""

    def __init__(self, spec: str, error: BaseException) -> None:
        self.name = spec
        self.error = f"could not start: {type(error).__name__}: {error}"

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        raise ContestantError(self.error, "start")

    def move(self, view: PlayerView, rng: Random) -> Move:
        raise ContestantError(self.error, "start")


# -- results of games --------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One bot of the experiment."""

    name: str
    """Its name in the results: the spec as given, ``#k`` added when a spec repeats."""
    spec: str
    """What the factory builds it from."""


@dataclass(frozen=True)
class Forfeit:
    """A game lost by a contestant's fault; the arena carried on."""

    bot: str
    """The entry that forfeited."""
    table: int
    deal: int
    rotation: int
    seat: Seat
    hand: int
    """The hand of the game (1 unless ``match``)."""
    ply: int
    """Moves played in that hand before the fault."""
    kind: str
    """``illegal`` (refused by the rules), ``invalid`` (not a Move), ``error`` (an
    exception), ``timeout``, ``start``, or a :class:`ContestantError`'s kind."""
    message: str

    def __str__(self) -> str:
        return (f"{self.bot} forfeited deal {self.deal} (table {self.table}, rotation "
                f"{self.rotation}, seat {self.seat}, hand {self.hand}, ply {self.ply}): "
                f"{self.kind}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        """A JSON object with every field."""
        return {"bot": self.bot, "table": self.table, "deal": self.deal,
                "rotation": self.rotation, "seat": self.seat, "hand": self.hand,
                "ply": self.ply, "kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class GameResult:
    """One game (a hand, or a match) of one table in one seat rotation."""

    table: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    """The entry (index into the entries) at each seat."""
    leader: Seat
    """The seat that led the (first) hand."""
    winner: Seat | None
    """The winning seat; ``None`` without a winner or after a forfeit."""
    scores: tuple[float, ...]
    """Each seat's score for the game (1, 0, 1/N or 1/(N-1) after a forfeit)."""
    hands: int
    """Hands completed (a forfeited hand is not)."""
    points: tuple[int, ...]
    """Points per seat over the completed hands (R21 + R22)."""
    moves: tuple[int, ...]
    """Moves each seat made, forced ones included (a bot answers those at once)."""
    seconds: tuple[float, ...]
    """Wall time each seat spent inside :meth:`Contestant.move`."""
    forfeit: Forfeit | None = None


# -- playing -------------------------------------------------------------------------


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed derived from ``seed`` and ``parts`` (stable across processes and runs).

    >>> derive_seed(1, "deal", 3, 0) == derive_seed(1, "deal", 3, 0) != derive_seed(1, "deal", 4, 0)
    True
    """
    text = repr((seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def deal_rng(seed: int, deal: int, hand: int = 1) -> Random:
    """The generator that shuffles hand ``hand`` of deal ``deal`` (the same at every table)."""
    return Random(derive_seed(seed, "deal", deal, hand))


def seat_rng(seed: int, deal: int, seat: Seat) -> Random:
    """The generator handed to whoever sits at ``seat`` on deal ``deal`` (common random numbers)."""
    return Random(derive_seed(seed, "seat", deal, seat))


@dataclass(frozen=True)
class _Task:
    """A chunk of work for one process: some deals of one table, all rotations."""

    rules: Rules
    players: int
    table: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    specs: tuple[str, ...]
    deals: tuple[int, ...]
    seed: int
    match: bool
    move_timeout: float | None
    factory: ContestantFactory


@dataclass(frozen=True)
class _Fault:
    """What a contestant did wrong: a :attr:`Forfeit.kind` and a message."""

    kind: str
    message: str


class _Game:
    """The referee of one game: one table, one deal, one rotation."""

    def __init__(self, task: _Task, contestants: Sequence[Contestant], deal: int,
                 rotation: int) -> None:
        n = task.players
        self.task = task
        self.deal = deal
        self.rotation = rotation
        self.slots = [(s - rotation) % n for s in range(n)]
        self.seats = tuple(task.seats[i] for i in self.slots)
        self.players = [contestants[i] for i in self.slots]
        self.moves = [0] * n
        self.seconds = [0.0] * n
        self.points = [0] * n
        self.hands = 0
        self.leader: Seat = -1
        """The leader of the first hand, once dealt."""

    def play(self) -> GameResult:
        """Play the game to its end or to a forfeit; never raises for a contestant's fault."""
        task, n = self.task, self.task.players
        rngs = [seat_rng(task.seed, self.deal, s) for s in range(n)]
        try:
            for s, c in enumerate(self.players):
                try:
                    c.start_game(s, task.rules, n,
                                 derive_seed(task.seed, "seat", self.deal, s))
                except Exception as e:
                    raise _Forfeit(s, _fault_of(e, "start")) from None
            if task.match:
                winner = self._match(rngs)
            else:
                deal = Deal.random(task.rules, n, deal_rng(task.seed, self.deal))
                state = HandState(task.rules, deal)
                self._hand(state, rngs, None)
                winner = state.outcome.winner if state.outcome is not None else None
        except _Forfeit as f:
            s = f.seat
            forfeit = Forfeit(task.names[self.seats[s]], task.table, self.deal, self.rotation,
                              s, self.hands + 1, f.ply, f.fault.kind, f.fault.message)
            return self._result(None, tuple(0.0 if t == s else 1 / (n - 1) for t in range(n)),
                                forfeit)
        scores = (tuple(1.0 if s == winner else 0.0 for s in range(n)) if winner is not None
                  else (1 / n,) * n)
        return self._result(winner, scores, None)

    def _match(self, rngs: list[Random]) -> Seat | None:
        task = self.task
        match = Match(task.rules, task.players, deal_rng(task.seed, self.deal, 1))
        while not match.is_over:
            if match.hand_number >= MAX_MATCH_HANDS:
                return None
            match.rng = deal_rng(task.seed, self.deal, match.hand_number + 1)
            by_rule = match.leader_by_rule
            scores = tuple(match.scores)
            state = match.next_hand()
            self._hand(state, rngs, (by_rule, scores))
            match.finish_hand(state)
        return match.winner

    def _hand(self, state: HandState, rngs: list[Random],
              context: tuple[bool, tuple[int, ...]] | None) -> None:
        """Play ``state`` to its end, every move checked; a fault raises :class:`_Forfeit`."""
        if self.leader < 0:
            self.leader = state.deal.leader
        timeout = self.task.move_timeout
        clock = time.perf_counter
        while state.outcome is None:
            s = state.to_move
            c = self.players[s]
            self.moves[s] += 1  # every move of the seat, forced ones included
            if not c.asks_forced:
                legal = state.legal_mask()
                if not legal & (legal - 1):  # one legal move: play it, no view needed
                    state.push(legal.bit_length() - 1)
                    continue
            # Only a built-in oracle bot (the cheater) may see the true state.
            truth = isinstance(c, BotContestant) and c.sees_truth
            view = None if truth else (PlayerView.of(state, s) if context is None else
                                       PlayerView.of(state, s, leader_by_rule=context[0],
                                                  scores=context[1]))
            start = clock()
            try:
                if view is None:
                    move: object = c.move_with_truth(state.copy(), rngs[s])
                else:
                    move = c.move(view, rngs[s])
            except Exception as e:
                raise _Forfeit(s, _fault_of(e, "error"), state.ply) from None
            finally:
                took = clock() - start
                self.seconds[s] += took
            if timeout is not None and took > timeout:
                raise _Forfeit(s, _Fault("timeout", f"took {took:.3f} s, over the limit of "
                                                    f"{timeout:g} s"), state.ply)
            if not isinstance(move, Move):
                raise _Forfeit(s, _Fault("invalid", f"returned {_short_repr(move)}, not a "
                                                    "Move"), state.ply)
            try:
                state.play(move)
            except MatadorError as e:
                raise _Forfeit(s, _Fault("illegal", str(e)), state.ply) from None
        outcome = state.outcome
        self.hands += 1
        for s, pts in enumerate(outcome.points):
            self.points[s] += pts
        for s, c in enumerate(self.players):
            try:
                c.hand_over(outcome)
            except Exception as e:
                raise _Forfeit(s, _fault_of(e, "error"), state.ply) from None

    def _result(self, winner: Seat | None, scores: tuple[float, ...],
                forfeit: Forfeit | None) -> GameResult:
        if self.leader < 0:  # forfeited before the deal: the leader is the deal's
            self.leader = Deal.random(self.task.rules, self.task.players,
                                      deal_rng(self.task.seed, self.deal)).leader
        return GameResult(self.task.table, self.deal, self.rotation, self.seats, self.leader,
                          winner, scores, self.hands, tuple(self.points), tuple(self.moves),
                          tuple(self.seconds), forfeit)


class _Forfeit(Exception):
    """Raised inside the referee when ``seat`` forfeits: unwinds to :meth:`_Game.play`."""

    def __init__(self, seat: Seat, fault: _Fault, ply: int = 0) -> None:
        super().__init__(fault.message)
        self.seat = seat
        self.fault = fault
        self.ply = ply


def _fault_of(error: Exception, kind: str) -> _Fault:
    if isinstance(error, ContestantError):
        return _Fault(error.kind, str(error))
    return _Fault(kind, f"{type(error).__name__}: {error}")


def _short_repr(value: object, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<unprintable {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _play_task(task: _Task, on_game: Callable[[], None] | None = None) -> list[GameResult]:
    """Play every rotation of every deal of ``task``; the worker function."""
    contestants: list[Contestant] = []
    for spec in task.specs:
        try:
            contestants.append(task.factory(spec))
        except Exception as e:
            contestants.append(_Broken(spec, e))
    results = []
    try:
        for deal in task.deals:
            for rotation in range(task.players):
                results.append(_Game(task, contestants, deal, rotation).play())
                if on_game is not None:
                    on_game()
    finally:
        for c in contestants:
            with contextlib.suppress(Exception):  # failing to close is not a forfeit
                c.close()
    return results


# -- the experiment ----------------------------------------------------------------


@dataclass(frozen=True)
class BotStats:
    """How one entry did."""

    name: str
    spec: str
    games: int
    """Games it played (each counted once however many seats it held)."""
    score: float
    """Mean score per game and seat: 1 a win, 0 a loss, 1/N a game without winner."""
    ci95: tuple[float, float]
    """The 95% Wilson interval of ``score`` with n = ``games``. The duplicate games of
    a deal are correlated, so the interval is approximate (usually conservative)."""
    elo: float
    """The Bradley-Terry rating on the Elo scale, the first entry at 1000."""
    elo_ci95: tuple[float, float] | None
    """A 95% bootstrap interval of ``elo``, resampling deals (``None`` without a bootstrap)."""
    points_per_hand: float
    """Mean points (R21 + R22) per completed hand and seat."""
    ms_per_move: float
    """Mean wall time per move inside the contestant, in milliseconds."""
    moves: int
    forfeits: int


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of :func:`run_arena`: per-bot statistics and every game."""

    rules: Rules
    players: int
    deals: int
    seed: int
    match: bool
    bots: tuple[BotStats, ...]
    """One per entry, in the order given."""
    tables: tuple[tuple[int, ...], ...]
    """The entries at each table, in seat order of rotation 0."""
    games: tuple[GameResult, ...] = field(repr=False)
    """Every game, sorted by table, deal and rotation."""
    first_seat_score: float
    """Mean score of the seat that led the (first) hand."""
    first_seat_ci95: tuple[float, float]
    seat_score: tuple[float, ...]
    """Mean score by seat number."""
    position_score: tuple[float, ...]
    """Mean score by turn order: 0 is the leader, 1 the seat after it..."""
    forfeits: tuple[Forfeit, ...]
    seconds: float
    """Wall time of the whole run."""

    @property
    def preset(self) -> str:
        """The preset the rules start from."""
        return self.rules.preset

    @property
    def names(self) -> list[str]:
        """The entries' names, in order."""
        return [b.name for b in self.bots]

    def bot(self, name: str) -> BotStats:
        """The statistics of the entry called ``name``."""
        for b in self.bots:
            if b.name == name:
                return b
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` report; ``ms_per_move`` and ``seconds`` are the only timing fields."""
        return {
            "preset": self.preset,
            "players": self.players,
            "deals": self.deals,
            "games": len(self.games),
            "bots": self.names,
            "score": {b.name: b.score for b in self.bots},
            "ci95": {b.name: list(b.ci95) for b in self.bots},
            "first_seat_score": self.first_seat_score,
            "ms_per_move": {b.name: b.ms_per_move for b in self.bots},
            "rules": {"preset": self.preset, "overrides": self.rules.overrides()},
            "seed": self.seed,
            "mode": "match" if self.match else "hand",
            "specs": {b.name: b.spec for b in self.bots},
            "tables": [[self.bots[i].name for i in t] for t in self.tables],
            "games_per_bot": {b.name: b.games for b in self.bots},
            "elo": {b.name: b.elo for b in self.bots},
            "elo_ci95": {b.name: list(b.elo_ci95) if b.elo_ci95 else None for b in self.bots},
            "points_per_hand": {b.name: b.points_per_hand for b in self.bots},
            "moves": {b.name: b.moves for b in self.bots},
            "first_seat_ci95": list(self.first_seat_ci95),
            "seat_score": list(self.seat_score),
            "position_score": list(self.position_score),
            "forfeits": {b.name: b.forfeits for b in self.bots},
            "forfeit_log": [f.to_json() for f in self.forfeits],
            "seconds": self.seconds,
        }

    def plot(self, path: str | Path) -> None:
        """Draw the ladder to an image file (needs matplotlib): see :func:`plot_ladder`."""
        plot_ladder(self, path)


def entries_of(specs: Sequence[str]) -> list[Entry]:
    """Name the entries: the spec as given, ``spec#k`` for the k-th copy of a repeated spec.

    >>> [e.name for e in entries_of(["greedy", "random", "greedy"])]
    ['greedy#1', 'random', 'greedy#2']
    """
    specs = [s.strip() for s in specs]
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        if specs.count(s) > 1:
            seen[s] = seen.get(s, 0) + 1
            out.append(Entry(f"{s}#{seen[s]}", s))
        else:
            out.append(Entry(s, s))
    return out


def tables_of(entries: int, players: int) -> list[tuple[int, ...]]:
    """Which entries sit at each table (entry indices, in seat order).

    >>> tables_of(2, 4), tables_of(3, 2)
    ([(0, 1, 1, 1)], [(0, 1), (0, 2), (1, 2)])
    """
    if entries <= players:
        return [tuple(min(i, entries - 1) for i in range(players))]
    return list(itertools.combinations(range(entries), players))


def run_arena(bots: Sequence[str], *, preset: str | Rules = "classic",
              overrides: dict[str, Any] | None = None, players: int = 2, deals: int = 100,
              seed: int | None = None, jobs: int = 1, match: bool = False,
              factory: ContestantFactory = make_contestant, move_timeout: float | None = None,
              bootstrap: int = 200,
              progress: Callable[[int, int], None] | None = None) -> ArenaResult:
    """Play ``deals`` duplicate deals between ``bots`` and score them (see the module doc).

    ``seed`` makes the run reproducible (default: a fresh secret seed, reported
    in the result). ``bots`` are specs for ``factory`` (bot specs such as ``pimc:500ms`` by
    default); ``preset`` a preset name, with ``overrides``, or a
    :class:`Rules`. ``jobs > 1`` plays in that many worker processes.
    ``move_timeout`` (seconds) forfeits a slower move. ``bootstrap`` is the
    number of bootstrap replicates behind the Elo intervals (0: none).
    ``progress(done, total)`` is called as games finish.

    Raises :class:`ArenaError` for a bad setup and the factory's
    :class:`MatadorError` (a :class:`~matador.players.base.BotError` for an
    unknown bot) naming the spec it refuses.
    """
    start = time.perf_counter()
    if seed is None:  # a fresh secret seed: an engine cannot guess the deals
        seed = secrets.randbits(32)
    rules = preset if isinstance(preset, Rules) else Rules.from_preset(preset, overrides)
    if isinstance(preset, Rules) and overrides:
        rules = Rules.from_preset(preset.preset, {**preset.overrides(), **overrides})
    if len(bots) < 2:
        raise ArenaError("the arena needs at least two bots")
    if not rules.allows_players(players):
        lo, hi = rules.players
        raise ArenaError(f"{players} players, but {rules.preset} allows {lo} to {hi}")
    if deals < 1:
        raise ArenaError(f"{deals} deals: play at least one")
    if jobs < 1:
        raise ArenaError(f"{jobs} jobs: use at least one")
    entries = entries_of(bots)
    for e in entries:  # fail early, naming the spec, on anything the factory refuses
        factory(e.spec).close()
    tables = tables_of(len(entries), players)
    names = tuple(e.name for e in entries)
    tasks = [
        _Task(rules, players, t, seats, names, tuple(entries[i].spec for i in seats), chunk,
              seed, match, move_timeout, factory)
        for t, seats in enumerate(tables)
        for chunk in _chunks(deals, jobs)
    ]
    total = len(tables) * deals * players
    games = sorted(_run_tasks(tasks, jobs, total, progress),
                   key=lambda g: (g.table, g.deal, g.rotation))
    return _summarize(rules, players, deals, seed, match, entries, tables, games, bootstrap,
                      time.perf_counter() - start)


def _chunks(deals: int, jobs: int) -> list[tuple[int, ...]]:
    if jobs == 1:
        return [tuple(range(deals))]
    size = max(1, min(50, math.ceil(deals / (jobs * 8))))
    return [tuple(range(i, min(deals, i + size))) for i in range(0, deals, size)]


def _run_tasks(tasks: list[_Task], jobs: int, total: int,
               progress: Callable[[int, int], None] | None) -> Iterator[GameResult]:
    done = 0
    if progress is not None:
        progress(0, total)
    if jobs == 1:
        def tick() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done, total)

        for task in tasks:
            yield from _play_task(task, tick)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: set[Future[list[GameResult]]] = {pool.submit(_play_task, t) for t in tasks}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    results = f.result()
                    done += len(results)
                    if progress is not None:
                        progress(done, total)
                    yield from results
        except BaseException:
            for f in pending:
                f.cancel()
            raise


def _mean(total: float, n: int) -> float:
    return total / n if n else 0.0


def _summarize(rules: Rules, players: int, deals: int, seed: int, match: bool,
               entries: list[Entry], tables: list[tuple[int, ...]], games: list[GameResult],
               bootstrap: int, seconds: float) -> ArenaResult:
    k, n = len(entries), players
    score_parts: list[list[float]] = [[] for _ in range(k)]
    points: list[list[float]] = [[] for _ in range(k)]
    seat_hands = [0] * k
    moves = [0] * k
    think = [0.0] * k
    forfeits = [0] * k
    by_seat: list[list[float]] = [[] for _ in range(n)]
    by_position: list[list[float]] = [[] for _ in range(n)]
    units = [[[0.0] * k for _ in range(k)] for _ in range(deals)]
    for g in games:
        for e in set(g.seats):
            held = [s for s in range(n) if g.seats[s] == e]
            score_parts[e].append(math.fsum(g.scores[s] for s in held) / len(held))
        for s, e in enumerate(g.seats):
            points[e].append(g.points[s])
            seat_hands[e] += g.hands
            moves[e] += g.moves[s]
            think[e] += g.seconds[s]
            by_seat[s].append(g.scores[s])
            by_position[(s - g.leader) % n].append(g.scores[s])
        if g.forfeit is not None:
            forfeits[g.seats[g.forfeit.seat]] += 1
        _add_pairs(units[g.deal], g)
    wins = [[math.fsum(u[i][j] for u in units) for j in range(k)] for i in range(k)]
    ratings = elo(bradley_terry(wins))
    intervals: list[tuple[float, float]] | None = None
    if bootstrap > 0:
        intervals = bootstrap_elo(units, k, Random(derive_seed(seed, "bootstrap")),
                                  reps=bootstrap)
    stats = []
    for e, entry in enumerate(entries):
        played = len(score_parts[e])
        total = math.fsum(score_parts[e])
        stats.append(BotStats(
            entry.name, entry.spec, played, _mean(total, played), wilson(total, played),
            ratings[e], intervals[e] if intervals else None,
            _mean(math.fsum(points[e]), seat_hands[e]),
            _mean(think[e] * 1000, moves[e]), moves[e], forfeits[e]))
    first = by_position[0]
    return ArenaResult(
        rules, players, deals, seed, match, tuple(stats), tuple(tables), tuple(games),
        _mean(math.fsum(first), len(first)), wilson(math.fsum(first), len(first)),
        tuple(_mean(math.fsum(x), len(x)) for x in by_seat),
        tuple(_mean(math.fsum(x), len(x)) for x in by_position),
        tuple(g.forfeit for g in games if g.forfeit is not None), seconds)


def _add_pairs(wins: list[list[float]], g: GameResult) -> None:
    """Pairwise results of one game: the winner beats each loser; a game without a
    winner is half a win each way between every pair; after a forfeit every other seat
    beats the forfeiter and the rest share. Seats of the same entry are not compared."""
    n = len(g.seats)
    loser = g.forfeit.seat if g.forfeit is not None else None
    for s in range(n):
        for t in range(s + 1, n):
            a, b = g.seats[s], g.seats[t]
            if a == b:
                continue
            if g.winner is not None:
                if g.winner == s:
                    wins[a][b] += 1
                elif g.winner == t:
                    wins[b][a] += 1
            elif loser == s:
                wins[b][a] += 1
            elif loser == t:
                wins[a][b] += 1
            else:
                wins[a][b] += 0.5
                wins[b][a] += 0.5


# -- the plot ------------------------------------------------------------------------


def plot_ladder(result: ArenaResult, path: str | Path) -> None:
    """Draw the ladder as horizontal error bars and save it to ``path`` (PNG, SVG...).

    Two bots: their scores with 95% Wilson intervals and the 1/N baseline.
    More: Elo ratings with their bootstrap intervals. Needs matplotlib;
    raises :class:`ArenaError` if it is missing.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ArenaError("--plot needs matplotlib: pip install 'matador[plot]'") from None
    bots = list(result.bots)
    use_elo = len(bots) > 2
    if use_elo:
        bots.sort(key=lambda b: b.elo)
        values = [b.elo for b in bots]
        lows = [b.elo - (b.elo_ci95 or (b.elo, b.elo))[0] for b in bots]
        highs = [(b.elo_ci95 or (b.elo, b.elo))[1] - b.elo for b in bots]
        label = f"Elo (Bradley-Terry, {result.bots[0].name} = 1000; 95% bootstrap interval)"
    else:
        bots.sort(key=lambda b: b.score)
        values = [b.score for b in bots]
        lows = [b.score - b.ci95[0] for b in bots]
        highs = [b.ci95[1] - b.score for b in bots]
        label = "mean score per game and seat (95% Wilson interval)"
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(bots)))
    ys = list(range(len(bots)))
    ax.errorbar(values, ys, xerr=[lows, highs], fmt="o", capsize=4)
    ax.set_yticks(ys, [b.name for b in bots])
    if not use_elo:
        ax.axvline(1 / result.players, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel(label)
    mode = "matches" if result.match else "hands"
    ax.set_title(f"{result.preset}, {result.players} players, {result.deals} deals "
                 f"({len(result.games)} {mode})")
    fig.tight_layout()
    try:
        fig.savefig(path)
    finally:
        plt.close(fig)


__all__ = ["MAX_MATCH_HANDS", "ArenaError", "ArenaResult", "BotContestant", "BotStats",
           "Contestant", "ContestantError", "ContestantFactory", "Entry", "Forfeit",
           "GameResult", "deal_rng", "derive_seed", "entries_of", "make_contestant",
           "plot_ladder", "run_arena", "seat_rng", "tables_of"]
