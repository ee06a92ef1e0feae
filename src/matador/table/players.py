"""Who sits at a seat: a built-in bot, an MEP engine process, or a person (in the UI layers).

The drivers of :mod:`matador.table.drive` call :meth:`Player.start_game`
before each game (a hand, or a whole match), then :meth:`Player.move` (or
:meth:`Player.amove` from an event loop) whenever the player's seat is to
move, with that seat's :class:`~matador.core.view.PlayerView` only,
:meth:`Player.hand_over` after each hand and :meth:`Player.close` when done.
Only a player whose :attr:`Player.sees_truth` is true (the arena's
``cheater``) is called through :meth:`Player.move_with_truth`.

Engines in a table (PROTOCOL.md, "A session"): an :class:`EnginePlayer` is
one process per seat, so it never learns more than that seat knows. It is
started (with its handshake) when built and kept for every game of the seat
(``newhand`` before each hand); a failed process is replaced at the next
game. At the start of each game it sends ``setoption name Seed value SEED``
(if the engine has a ``Seed`` option) with the seat's seed, reduced into the
option's range: a deterministic engine then plays exactly what the same bot
plays in-process. For each move, ``position VIEW`` and ``go`` (with
``movetime`` or ``iterations`` when given), even when one move is legal,
waiting ``movetime`` + 1 s, the engine's announced ``Budget`` + 1 s, or
:data:`~matador.protocol.host.DEFAULT_THINK` + 1 s. A crash, silence,
garbage, an ``error`` answer or an illegal move raises :class:`PlayerError`
with the :class:`~matador.protocol.host.ProtocolError`'s kind and message.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from random import Random

from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import HandState, Outcome, Seat
from matador.core.view import PlayerView
from matador.players.base import Bot, OracleBot, make_bot
from matador.protocol.host import (
    HANDSHAKE_TIMEOUT,
    EngineOption,
    EngineProcess,
    ProtocolError,
    Transcript,
)

ENGINE_PREFIX = "engine:"
"""The prefix of an engine spec: ``engine:COMMAND``, the command split like a shell's."""


class PlayerError(Exception):
    """Raised by a player that cannot move (a crashed or hung engine, say).

    A driver treats it like any exception from a player: a fault of its seat.
    ``kind`` names the fault (``"timeout"``, ``"crash"``...).
    """

    def __init__(self, message: str, kind: str = "error") -> None:
        super().__init__(message)
        self.kind = kind


class Player(ABC):
    """Whatever plays a seat: a bot, an engine, a person at a terminal or in a browser.

    Anything :meth:`move` raises, a return value that is not a :class:`Move`,
    an illegal move, or a move slower than a driver's time limit is a fault
    of the seat. A player that can hang (an engine process) enforces its own
    deadline and raises :class:`PlayerError` with ``kind="timeout"``: a
    driver cannot interrupt a call.
    """

    name: str
    """What the player calls itself (for messages)."""

    @property
    def sees_truth(self) -> bool:
        """Whether the referee hands this player the true state (the ``cheater``)."""
        return False

    @property
    def asks_forced(self) -> bool:
        """Whether to ask for a move when only one is legal (else the driver plays it)."""
        return True

    @property
    def blocking(self) -> bool:
        """Whether :meth:`move` computes for a while, so that an event loop runs it in an
        executor (bots, engines); a person's :meth:`amove` awaits input instead."""
        return True

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:  # noqa: B027
        """A game begins with this player at ``seat``; ``seed`` seeds its own randomness.

        ``Random(seed)`` starts in the state of the generator later passed to
        :meth:`move` in this game, so a player that searches elsewhere (an
        engine process told ``setoption name Seed value SEED``) draws the same
        numbers as a bot in-process.
        """

    @abstractmethod
    def move(self, view: PlayerView, rng: Random) -> Move:
        """The move for ``view.seat``, which is to move; ``rng`` is this seat's generator."""

    async def amove(self, view: PlayerView, rng: Random) -> Move:
        """The move, awaited from an event loop (by default :meth:`move` in a thread)."""
        return await asyncio.to_thread(self.move, view, rng)

    def move_with_truth(self, state: HandState, rng: Random) -> Move:
        """The move for the seat to move in ``state`` (a copy), for players that see truth."""
        raise PlayerError(f"{self.name} does not take the true state")

    def hand_over(self, outcome: Outcome) -> None:  # noqa: B027
        """The hand just ended with ``outcome``."""

    def close(self) -> None:  # noqa: B027
        """Release what the player holds (a process, a file); it plays no more."""


class BotPlayer(Player):
    """A built-in :class:`~matador.players.base.Bot` at a seat.

    The bot is rebuilt from its spec at each :meth:`start_game`, so nothing a
    bot remembers can leak from one game into the next and results do not
    depend on how games were split between processes. Only an
    :class:`~matador.players.base.OracleBot` (the ``cheater``) is given the
    true state; every other bot sees a view.
    """

    def __init__(self, spec: str, make: Callable[[str], Bot] = make_bot) -> None:
        self.spec = spec
        self._make = make
        self.bot = make(spec)
        self.name = self.bot.name

    @property
    def sees_truth(self) -> bool:
        """True for an :class:`~matador.players.base.OracleBot`."""
        return isinstance(self.bot, OracleBot)

    @property
    def asks_forced(self) -> bool:
        """False: a bot answers a forced move without looking, so the driver plays it."""
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


class EnginePlayer(Player):
    """An MEP engine process at a seat (see the module docstring).

    ``movetime`` (ms) and ``iterations`` are sent with every ``go`` (default:
    none, so the engine uses its own default budget); ``timeout`` (seconds)
    replaces the default wait for ``bestmove``. ``transcript`` records every
    line exchanged, across restarts. The process is started (and its
    handshake done) here, so a command that does not work raises
    :class:`~matador.protocol.host.ProtocolError` at once.
    """

    def __init__(self, command: str, *, name: str | None = None, movetime: int | None = None,
                 iterations: int | None = None, timeout: float | None = None,
                 transcript: Transcript | None = None,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT) -> None:
        self.command = command
        self.name = name or f"{ENGINE_PREFIX}{command}"
        self.movetime = movetime
        self.iterations = iterations
        self.timeout = timeout
        self.transcript = transcript
        self.handshake_timeout = handshake_timeout
        self.restarts = 0
        """How many times a failed process was replaced."""
        self.engine = self._start()
        self._new_hand = True

    def _start(self) -> EngineProcess:
        return EngineProcess(self.command, name=self.name, transcript=self.transcript,
                             handshake_timeout=self.handshake_timeout)

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        """Restart a failed process, seed the engine with the seat's seed, await a new hand."""
        self._new_hand = True
        try:
            if not self.engine.alive:
                self.engine.kill()
                self.restarts += 1
                self.engine = self._start()
            option = self.engine.options.get("seed")
            if option is not None:
                self.engine.set_option("Seed", fit_seed(seed, option))
        except ProtocolError as e:
            raise PlayerError(str(e), e.kind) from None

    def move(self, view: PlayerView, rng: Random) -> Move:
        """``position`` and ``go``; the engine's move, checked legal for ``view``."""
        try:
            if self._new_hand:
                self.engine.new_hand()
                self._new_hand = False
            return self.engine.play(view, movetime=self.movetime, iterations=self.iterations,
                                    timeout=self.timeout)
        except ProtocolError as e:
            raise PlayerError(str(e), e.kind) from None

    def hand_over(self, outcome: Outcome) -> None:
        """The next move belongs to a new hand: send ``newhand`` first."""
        self._new_hand = True

    def close(self) -> None:
        """``quit`` the engine (killing it if it does not exit)."""
        self.engine.quit()


def fit_seed(seed: int, option: EngineOption) -> int:
    """``seed`` brought into the range a ``Seed`` spin announces (unchanged if it fits).

    >>> fit_seed(2**40 + 5, EngineOption("Seed", "spin", "0", 0, 2**31 - 1)) == (
    ...     2**40 + 5) % 2**31
    True
    """
    low = option.min if option.min is not None else 0
    if option.max is None or low <= seed <= option.max or option.max < low:
        return seed
    return low + (seed - low) % (option.max - low + 1)


def make_player(spec: str) -> Player:
    """A player for a bot spec (``greedy``, ``pimc:500ms``, a level) or ``engine:COMMAND``.

    A module-level function, so it can be sent to worker processes. Raises
    :class:`~matador.core.errors.MatadorError` for an unknown bot, an empty
    command, or an engine that does not start.
    """
    text = spec.strip()
    if text.startswith(ENGINE_PREFIX):
        command = text[len(ENGINE_PREFIX):].strip()
        if not command:
            raise ProtocolError(f"{spec!r}: give the command after 'engine:' "
                                "(engine:python3 my_bot.py)", "start")
        return EnginePlayer(command, name=text)
    return BotPlayer(spec)


__all__ = ["ENGINE_PREFIX", "BotPlayer", "EnginePlayer", "Player", "PlayerError", "fit_seed",
           "make_player"]
