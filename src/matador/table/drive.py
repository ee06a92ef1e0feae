"""Drivers: play a game at a :class:`~matador.table.referee.Table` by asking its players.

One set of rules for running a game, written once (:func:`_game`, a
generator that yields each call to a player and receives its answer), and
two ways to drive it:

* :func:`play_game`, synchronous: the arena and the terminal game;
* :func:`aplay_game`, from an asyncio event loop: a person's move is awaited
  (:meth:`~matador.table.players.Player.amove`) without blocking other
  tables, and a bot's or engine's move runs in an executor, off the loop
  (threads by default, or a process pool: the seat's generator then travels
  with the call and comes back, so the game is the same as in-process).

The policy, identical in both: the seats' ``start_game`` is called first; a
player that does not ask for forced moves (a bot) has a lone legal move
played for it without being asked; only a player that sees truth (the
arena's ``cheater``) gets the true state, every other one its own
:class:`~matador.core.view.PlayerView`; a move that raises, is not a
:class:`~matador.core.moves.Move`, is illegal or overruns ``move_timeout``
forfeits the game for that seat (:meth:`Table.forfeit`), as does an
exception from ``start_game`` or from ``hand_over`` while the game goes on (a
game already decided by its last hand stands). A driver never raises for a
player's fault; it does let through what is not a fault of play (a person
leaving, Ctrl-C), leaving the table as it was before the move.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.table.players import BotPlayer
>>> from matador.table.referee import Table
>>> table = Table(Rules.from_preset("classic"), 2, single_hand=True)
>>> report = play_game(table, [BotPlayer("greedy"), BotPlayer("random")],
...                    deal_rng=lambda hand: random.Random(hand), seed=5)
>>> table.is_over, report.hands, len(table.records)
(True, 1, 1)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import Any

from matador.core.moves import Move
from matador.core.state import Seat
from matador.table.events import Event
from matador.table.players import Player, PlayerError
from matador.table.referee import Forfeit, Phase, Table, TableError

EventSink = Callable[[Sequence[Event]], None]
"""Called with the events of each step (a deal, a move, a forfeit), as they happen."""


@dataclass
class GameReport:
    """What happened in one game, per seat (for the arena's statistics)."""

    winner: Seat | None = None
    """The winning seat (``None``: no winner, or a forfeit)."""
    fault: Forfeit | None = None
    """How the game was forfeited, if it was (the table's :attr:`Table.forfeit_info`)."""
    hands: int = 0
    """Hands completed (a forfeited hand is not)."""
    leader: Seat = -1
    """The leader of the first hand (-1 if no hand was dealt)."""
    points: list[int] = field(default_factory=list)
    """Points per seat over the completed hands (R21 + R22)."""
    moves: list[int] = field(default_factory=list)
    """Moves each seat made, forced ones included."""
    seconds: list[float] = field(default_factory=list)
    """Wall time each seat spent in its player's move calls."""


@dataclass(frozen=True)
class _Call:
    """A call the game needs made to one seat's player."""

    seat: Seat
    what: str
    """``start``, ``move``, ``truth`` or ``hand_over``."""
    args: tuple[Any, ...]


@dataclass(frozen=True)
class _Answer:
    value: Any = None
    error: BaseException | None = None
    seconds: float = 0.0


class _Forfeited(Exception):
    def __init__(self, seat: Seat, kind: str, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.kind = kind


def seat_seeds(seed: int, players: int) -> list[int]:
    """Default per-seat seeds of a game: ``seed * 1000 + seat`` (see :func:`play_game`)."""
    return [seed * 1000 + s for s in range(players)]


def _game(table: Table, players: Sequence[Player], rngs: Sequence[Random],
          seeds: Sequence[int], deal_rng: Callable[[int], Random],
          move_timeout: float | None, on_event: EventSink | None,
          ) -> Generator[_Call, _Answer, GameReport]:
    """The rules of running a game; the drivers make the calls it yields."""
    n = table.players
    report = GameReport(points=[0] * n, moves=[0] * n, seconds=[0.0] * n)

    def emit(events: Sequence[Event]) -> None:
        if on_event is not None and events:
            on_event(events)

    def fault(seat: Seat, kind: str, message: str) -> _Forfeited:
        return _Forfeited(seat, kind, message)

    def kind_of(error: BaseException, default: str) -> tuple[str, str]:
        if isinstance(error, PlayerError):
            return error.kind, str(error)
        return default, f"{type(error).__name__}: {error}"

    try:
        for s in range(n):
            answer = yield _Call(s, "start", (s, table.rules, n, seeds[s]))
            if answer.error is not None:
                raise fault(s, *kind_of(answer.error, "start"))
        while not table.is_over:
            dealt = table.deal(deal_rng(table.hand_number + 1))
            emit(dealt)
            if report.leader < 0:
                report.leader = dealt[0].public["leader"]
            while table.phase is Phase.PLAYING:
                mover = table.to_move
                assert mover is not None
                s = mover
                player = players[s]
                report.moves[s] += 1  # every move of the seat, forced ones included
                legal = table.legal_mask()
                if not player.asks_forced and not legal & (legal - 1):
                    emit(table.submit(s, legal.bit_length() - 1))  # the lone legal move
                    continue
                if player.sees_truth:
                    answer = yield _Call(s, "truth", (table.truth(), rngs[s]))
                else:
                    answer = yield _Call(s, "move", (table.view(s), rngs[s]))
                report.seconds[s] += answer.seconds
                if answer.error is not None:
                    raise fault(s, *kind_of(answer.error, "error"))
                if move_timeout is not None and answer.seconds > move_timeout:
                    raise fault(s, "timeout", f"took {answer.seconds:.3f} s, over the limit "
                                f"of {move_timeout:g} s")
                move = answer.value
                if not isinstance(move, Move):
                    raise fault(s, "invalid", f"returned {_short_repr(move)}, not a Move")
                try:
                    events = table.submit(s, move)
                except TableError as e:
                    raise fault(s, "illegal", e.why) from None
                emit(events)
            record = table.records[-1]
            report.hands += 1
            outcome = record.state().outcome
            assert outcome is not None
            for s, pts in enumerate(outcome.points):
                report.points[s] += pts
            for s in range(n):
                answer = yield _Call(s, "hand_over", (outcome,))
                if answer.error is not None and not table.is_over:  # a decided game stands
                    raise fault(s, *kind_of(answer.error, "error"))
        report.winner = table.winner
    except _Forfeited as f:
        emit(table.forfeit(f.seat, f.kind, str(f)))
        report.fault = table.forfeit_info
    return report


def _call(player: Player, call: _Call) -> Any:
    """Make ``call`` on ``player`` (in this thread)."""
    if call.what == "move":
        return player.move(*call.args)
    if call.what == "truth":
        return player.move_with_truth(*call.args)
    if call.what == "start":
        player.start_game(*call.args)
        return None
    player.hand_over(*call.args)
    return None


def _answer(player: Player, call: _Call) -> _Answer:
    start = time.perf_counter()
    try:
        value = _call(player, call)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except Exception as e:
        if _passes_through(e):
            raise
        return _Answer(None, e, time.perf_counter() - start)
    return _Answer(value, None, time.perf_counter() - start)


def _passes_through(error: BaseException) -> bool:
    """Errors that are not a fault of play but the end of the session (a person leaving)."""
    return getattr(error, "ends_session", False) is True


def play_game(table: Table, players: Sequence[Player], *, deal_rng: Callable[[int], Random],
              rngs: Sequence[Random] | None = None, seeds: Sequence[int] | None = None,
              seed: int = 0, move_timeout: float | None = None,
              on_event: EventSink | None = None) -> GameReport:
    """Play ``table``'s whole game with ``players`` (one per seat), synchronously.

    ``deal_rng(k)`` shuffles hand ``k`` (1-based). ``rngs`` are the seats'
    generators and ``seeds`` the seeds announced to their ``start_game``
    (default: :func:`seat_seeds` of ``seed``, and ``Random(seed_s)``).
    ``move_timeout`` (seconds) forfeits a slower move. ``on_event`` gets the
    events as they happen. An exception that marks the end of a session
    (``ends_session = True``, e.g. a person quitting) propagates and leaves
    the table as it was before the move.
    """
    seeds, rngs = _seeds_and_rngs(table, seed, seeds, rngs)
    if len(players) != table.players:
        raise TableError("not_a_seat", f"{len(players)} players for {table.players} seats")
    steps = _game(table, players, rngs, seeds, deal_rng, move_timeout, on_event)
    try:
        call = next(steps)
        while True:
            call = steps.send(_answer(players[call.seat], call))
    except StopIteration as stop:
        report: GameReport = stop.value
        return report


async def aplay_game(table: Table, players: Sequence[Player], *,
                     deal_rng: Callable[[int], Random], rngs: Sequence[Random] | None = None,
                     seeds: Sequence[int] | None = None, seed: int = 0,
                     move_timeout: float | None = None, on_event: EventSink | None = None,
                     executor: Executor | None = None) -> GameReport:
    """Play ``table``'s whole game from an event loop (see :func:`play_game`).

    A player whose :attr:`~matador.table.players.Player.blocking` is false (a
    remote person) is awaited through ``amove``; every other call runs in
    ``executor`` (default: the loop's thread pool). With a
    :class:`~concurrent.futures.ProcessPoolExecutor` a move is computed in
    another process from a copy of the player and of the seat's generator,
    whose state is then brought back, so the game is the one :func:`play_game`
    plays (players must be picklable; their own memory stays in this process).
    """
    seeds, rngs = _seeds_and_rngs(table, seed, seeds, rngs)
    if len(players) != table.players:
        raise TableError("not_a_seat", f"{len(players)} players for {table.players} seats")
    loop = asyncio.get_running_loop()
    steps = _game(table, players, rngs, seeds, deal_rng, move_timeout, on_event)
    remote = isinstance(executor, ProcessPoolExecutor)
    try:
        call = next(steps)
        while True:
            player = players[call.seat]
            if call.what == "move" and not player.blocking:
                answer = await _await_move(player, call)
            elif remote and call.what in ("move", "truth"):
                start = time.perf_counter()
                try:
                    value, state = await loop.run_in_executor(executor, _remote, player, call)
                    rngs[call.seat].setstate(state)
                    answer = _Answer(value, None, time.perf_counter() - start)
                except Exception as e:
                    if _passes_through(e):
                        raise
                    answer = _Answer(None, e, time.perf_counter() - start)
            else:
                answer = await loop.run_in_executor(executor, _answer, player, call)
            call = steps.send(answer)
    except StopIteration as stop:
        report: GameReport = stop.value
        return report


async def _await_move(player: Player, call: _Call) -> _Answer:
    start = time.perf_counter()
    view, rng = call.args
    try:
        value = await player.amove(view, rng)
    except asyncio.CancelledError:
        raise
    except Exception as e:
        if _passes_through(e):
            raise
        return _Answer(None, e, time.perf_counter() - start)
    return _Answer(value, None, time.perf_counter() - start)


def _remote(player: Player, call: _Call) -> tuple[Any, Any]:
    """Run in a worker process: the move, and the generator's state after it."""
    rng: Random = call.args[-1]
    return _call(player, call), rng.getstate()


def _seeds_and_rngs(table: Table, seed: int, seeds: Sequence[int] | None,
                    rngs: Sequence[Random] | None) -> tuple[list[int], list[Random]]:
    seeds = list(seeds) if seeds is not None else seat_seeds(seed, table.players)
    rngs = list(rngs) if rngs is not None else [Random(s) for s in seeds]
    if len(seeds) != table.players or len(rngs) != table.players:
        raise TableError("not_a_seat", f"seeds and generators for {table.players} seats")
    return seeds, rngs


def _short_repr(value: object, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<unprintable {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


__all__ = ["EventSink", "GameReport", "aplay_game", "play_game", "seat_seeds"]
