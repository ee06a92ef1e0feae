"""Engines in the arena: the ``engine:COMMAND`` contestant spec.

``matador arena pimc "engine:python3 my_bot.py"`` seats an engine process
next to built-in bots: :func:`make_contestant` is the arena's factory that
knows both kinds of spec. The arena stays the referee: it deals, keeps the
true state, hands :class:`EngineContestant` one seat's
:class:`~matador.core.view.PlayerView` at a time, and checks every move.

What an engine contestant does with its process (PROTOCOL.md, "A session"):

* The arena makes one contestant per seat of a table, so each process plays
  exactly one seat of any hand and never learns more than that seat knows.
  The process is started once and kept for all the games of that seat of
  the table (``newhand`` before each hand); one that failed is replaced by a
  fresh process at the next game.
* At the start of each game it sends ``setoption name Seed value SEED`` (if
  the engine has a ``Seed`` option), with the seed of the seat's generator
  (reduced into the option's announced range if it does not fit): a
  deterministic engine then plays exactly what the same bot plays in-process
  (see :mod:`matador.protocol.engine`).
* For each move: ``position VIEW`` then ``go`` (with ``movetime`` or
  ``iterations`` if the contestant was given them), even when only one move
  is legal. It waits ``movetime`` + 1 s, or the engine's announced
  ``Budget`` + 1 s, or :data:`~matador.protocol.host.DEFAULT_THINK` + 1 s.
* A crash, silence, garbage, an ``error`` answer or an illegal move raises
  :class:`~matador.players.arena.ContestantError` with the
  :class:`~matador.protocol.host.ProtocolError`'s kind and message: the
  arena scores it as a forfeit of that game and carries on.

>>> import sys
>>> from matador.players.arena import run_arena
>>> engine = f"engine:{sys.executable} -m matador.cli.main engine greedy"
>>> result = run_arena(["greedy", engine], deals=2, seed=1, factory=make_contestant,
...                    bootstrap=0)
>>> result.bot("greedy").score, result.bot(engine).score, len(result.forfeits)
(0.5, 0.5, 0)
"""

from __future__ import annotations

from random import Random

from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import Outcome, Seat
from matador.core.view import PlayerView
from matador.players import arena
from matador.players.arena import Contestant, ContestantError
from matador.protocol.host import (
    HANDSHAKE_TIMEOUT,
    EngineOption,
    EngineProcess,
    ProtocolError,
    Transcript,
)

ENGINE_PREFIX = "engine:"
"""The prefix of an engine spec: ``engine:COMMAND``, the command split like a shell's."""


class EngineContestant(Contestant):
    """An MEP engine process in the arena (see the module docstring).

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
                self.engine.set_option("Seed", _fit(seed, option))
        except ProtocolError as e:
            raise ContestantError(str(e), e.kind) from None

    def move(self, view: PlayerView, rng: Random) -> Move:
        """``position`` and ``go``; the engine's move, checked legal for ``view``."""
        try:
            if self._new_hand:
                self.engine.new_hand()
                self._new_hand = False
            return self.engine.play(view, movetime=self.movetime, iterations=self.iterations,
                                    timeout=self.timeout)
        except ProtocolError as e:
            raise ContestantError(str(e), e.kind) from None

    def hand_over(self, outcome: Outcome) -> None:
        """The next move belongs to a new hand: send ``newhand`` first."""
        self._new_hand = True

    def close(self) -> None:
        """``quit`` the engine (killing it if it does not exit)."""
        self.engine.quit()


def _fit(seed: int, option: EngineOption) -> int:
    """``seed`` brought into the range a ``Seed`` spin announces (unchanged if it fits).

    >>> _fit(2**40 + 5, EngineOption("Seed", "spin", "0", 0, 2**31 - 1)) == (2**40 + 5) % 2**31
    True
    """
    low = option.min if option.min is not None else 0
    if option.max is None or low <= seed <= option.max or option.max < low:
        return seed
    return low + (seed - low) % (option.max - low + 1)


def make_contestant(spec: str) -> Contestant:
    """The arena's factory for built-in bots and ``engine:COMMAND`` specs.

    Pass it as ``run_arena(..., factory=make_contestant)`` (``matador arena``
    does). Raises :class:`~matador.core.errors.MatadorError` for an unknown
    bot, an empty command, or an engine that does not start.
    """
    if spec.strip().startswith(ENGINE_PREFIX):
        command = spec.strip()[len(ENGINE_PREFIX):].strip()
        if not command:
            raise ProtocolError(f"{spec!r}: give the command after 'engine:' "
                                "(engine:python3 my_bot.py)", "start")
        return EngineContestant(command, name=spec.strip())
    return arena.make_contestant(spec)


__all__ = ["ENGINE_PREFIX", "EngineContestant", "make_contestant"]
