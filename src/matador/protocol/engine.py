"""The engine side of MEP: one of our bots answering a host on standard input and output.

:class:`Engine` is one session of the protocol (docs/protocol.md): it takes
one command line at a time (:meth:`Engine.handle`) and returns the answer
lines, which :func:`serve` writes and flushes. Whatever a host sends, the
engine answers ``error WHY`` and carries on; only ``quit`` (or the end of
its input) stops it. It knows only what the views it is sent say: it builds
a :class:`~matador.core.view.PlayerView` from each ``position`` and never
needs more.

Options (``setoption name NAME value VALUE``):

* ``Budget`` (spin, milliseconds, 0 = no time limit) and ``Iterations``
  (spin, 0 = no limit): the default budget of ``go`` and ``analyse``. With
  both 0 the bot's own default applies.
* ``Level`` (combo): ``easy``, ``normal``, ``strong``, ``max`` (the bots of
  :data:`~matador.players.LEVELS`, with their budgets), or ``custom``, the
  bot named on the command line. Choosing a level resets ``Budget`` and
  ``Iterations`` to its budget.
* ``Seed`` (spin): reseeds the engine's one random generator,
  ``random.Random(seed)``. Every ``go`` and ``analyse`` draws from that
  generator in turn, exactly as a bot in the arena draws from its seat's
  generator, and ``newhand`` does not reseed it. So with an iteration
  budget, the same ``Seed`` followed by the same commands gives the same
  answers; and the arena, which sends its seat seed as ``Seed`` at the start
  of each game, gets the very moves the same bot plays in-process.

>>> engine = Engine("greedy")
>>> engine.handle("isready")
['readyok']
>>> engine.handle("position {")[0]
'error position: not valid JSON (Expecting property name enclosed in double quotes: \
line 1 column 2 (char 1))'
>>> engine.handle("fly")
["error unknown command 'fly'"]

Every answer is one line of printable UTF-8, whatever came in: what an error
quotes from the input is a short excerpt with line breaks, other control
characters and lone surrogates escaped; :func:`serve` answers a line that is
not UTF-8 with an ``error`` line too.

>>> engine.handle("fly\\raway")
["error unknown command 'fly\\\\raway'"]
"""

from __future__ import annotations

import io
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import IO, TextIO, cast

from matador import __version__
from matador.core.errors import RecordError, ViewError, printable, quote
from matador.core.moves import Move
from matador.core.record import decode_json
from matador.core.sampling import sampler_for
from matador.core.view import PlayerView
from matador.players import LEVELS, Bot, BotError, Budget, OracleBot, PIMCBot, make_bot
from matador.players.analysis import analyse
from matador.players.pimc import SearchResult, kernel_enabled

AUTHOR = "the matador project"
"""What ``id author`` says."""
MAX_MILLIS = 600_000
"""The largest ``Budget`` and ``movetime`` accepted, in milliseconds (ten minutes)."""
MAX_ITERATIONS = 10_000_000
"""The largest ``Iterations`` and ``iterations`` accepted."""
MAX_SEED = 2**64 - 1
"""The largest ``Seed`` (the arena's seeds are 64-bit)."""
CUSTOM = "custom"
"""The ``Level`` that means the bot named on the command line."""


@dataclass(frozen=True)
class Option:
    """An option the engine announces in reply to ``mep``, in UCI's shape."""

    name: str
    type: str
    """``spin``, ``check``, ``combo`` or ``string``."""
    default: str
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    def line(self) -> str:
        """The ``option ...`` line.

        >>> Option("Budget", "spin", "200", 0, 600000).line()
        'option name Budget type spin default 200 min 0 max 600000'
        """
        parts = [f"option name {self.name} type {self.type} default {self.default}"]
        if self.min is not None:
            parts.append(f"min {self.min} max {self.max}")
        parts.extend(f"var {v}" for v in self.vars)
        return " ".join(parts)


class Refused(Exception):
    """A command the engine cannot accept: becomes the answer ``error WHY``."""


MAX_ANSWER = 2000
"""The longest answer line, in characters (a last guard: errors quote short excerpts)."""


def _answer(text: str) -> str:
    """One answer line: printable (line breaks and control characters escaped), not too long."""
    text = printable(text)
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER] + "..."


class Engine:
    """One MEP session serving a built-in bot (``greedy``, ``pimc:500ms``, a level name).

    Raises :class:`~matador.players.BotError` at construction for an unknown
    bot, or for the ``cheater``, which needs the true state and so cannot be
    an engine.

    With ``background_kernel`` (what ``matador engine`` does), the compiled
    playout kernel (``matador[fast]``), if installed, is compiled in a thread
    from the start, and searches use it only once it is ready: compiling takes
    a second or more (much more without Numba's disk cache), which a search
    with a ``movetime`` cannot wait for. Until then they take the pure Python
    path, which gives the same statistics for an iteration budget (only fewer
    worlds within a time budget). Without it, searches use the kernel as bots
    do everywhere (compiled at the first search).
    """

    def __init__(self, spec: str, *, background_kernel: bool = False) -> None:
        spec = spec.strip()
        bot = make_bot(spec, oracles=False)
        if isinstance(bot, OracleBot):
            raise BotError(f"{quote(bot.kind)} needs the true state, which an engine never sees")
        self.spec = spec
        """The bot named on the command line."""
        self.level = spec if spec in LEVELS else CUSTOM
        self.bot: Bot = bot
        self.millis, self.iterations = _budget_values(bot.budget)
        self.seed = 0
        self.rng = Random(self.seed)
        """The engine's one generator: reseeded by ``Seed`` only."""
        self.view: PlayerView | None = None
        """The last accepted position, forgotten by ``newhand`` and by a refused position."""
        self.done = False
        """Set by ``quit``."""
        self.clock: Callable[[], float] = time.perf_counter
        self._kernel = _KernelInBackground() if background_kernel else None
        self._commands: dict[str, Callable[[str], list[str]]] = {
            "mep": self._mep, "isready": self._isready, "setoption": self._setoption,
            "newhand": self._newhand, "position": self._position, "go": self._go,
            "analyse": self._analyse, "analyze": self._analyse, "quit": self._quit,
        }

    # -- the loop --------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Answer one command line: the lines to send back, in order (maybe none).

        Never raises for anything a host sends: a command it cannot accept
        gets ``error WHY``, and so does a failure of the bot itself. Every line
        returned is one printable line (see :func:`_answer`).
        """
        return [_answer(a) for a in self._handle(line)]

    def _handle(self, line: str) -> list[str]:
        command, _, rest = line.strip().partition(" ")
        if not command:
            return []
        handler = self._commands.get(command)
        if handler is None:
            return [f"error unknown command {quote(command)}"]
        try:
            return handler(rest.strip())
        except Refused as e:
            return [f"error {command}: {e}"]
        except ViewError as e:  # found impossible while searching (within the budget)
            return [f"error {command}: position: {e}"]
        except Exception as e:  # the bot failed: report it, keep serving
            return [f"error {command}: internal error: {type(e).__name__}: {e}"]

    # -- commands ----------------------------------------------------------------------

    def options(self) -> list[Option]:
        """The options announced in reply to ``mep``, with their current values as defaults."""
        return [
            Option("Budget", "spin", str(self.millis), 0, MAX_MILLIS),
            Option("Iterations", "spin", str(self.iterations), 0, MAX_ITERATIONS),
            Option("Level", "combo", self.level, vars=(CUSTOM, *LEVELS)),
            Option("Seed", "spin", str(self.seed), 0, MAX_SEED),
        ]

    def _mep(self, rest: str) -> list[str]:
        return [f"id name matador {self.bot.name}",
                f"id author {AUTHOR} (matador {__version__})",
                *(o.line() for o in self.options()), "mepok"]

    def _isready(self, rest: str) -> list[str]:
        return ["readyok"]

    def _quit(self, rest: str) -> list[str]:
        self.done = True
        return []

    def _newhand(self, rest: str) -> list[str]:
        self.view = None
        self.bot = make_bot(self.bot.kind)  # a fresh bot; the generator runs on
        return []

    def _setoption(self, rest: str) -> list[str]:
        words = rest.split()
        if not words or words[0] != "name":
            raise Refused("expected 'setoption name NAME value VALUE'")
        if "value" in words:
            i = words.index("value")
            name, value = " ".join(words[1:i]), " ".join(words[i + 1:])
        else:
            name, value = " ".join(words[1:]), ""
        key = name.lower()
        if key == "budget":
            self.millis = _whole(value, "Budget", MAX_MILLIS)
        elif key == "iterations":
            self.iterations = _whole(value, "Iterations", MAX_ITERATIONS)
        elif key == "seed":
            self.seed = _whole(value, "Seed", MAX_SEED)
            self.rng = Random(self.seed)
        elif key == "level":
            if value not in (CUSTOM, *LEVELS):
                raise Refused(f"Level: {quote(value)} is not one of "
                              f"{', '.join((CUSTOM, *LEVELS))}")
            bot = make_bot(self.spec if value == CUSTOM else value)
            self.level, self.bot = value, bot
            self.millis, self.iterations = _budget_values(bot.budget)
        else:
            known = ", ".join(o.name for o in self.options())
            raise Refused(f"unknown option {quote(name)} (the options are {known})")
        return []

    def _position(self, rest: str) -> list[str]:
        self.view = None
        if not rest:
            raise Refused("expected 'position VIEW', the view as one line of JSON")
        try:
            view = PlayerView.from_json(decode_json(rest))
            if not view.is_over:
                sampler_for(view)  # counts the other hands: refuses views no deal can give
        except RecordError as e:
            raise Refused(e.why) from None
        except ViewError as e:
            raise Refused(str(e)) from None
        self.view = view
        return []

    def _to_move(self, command: str) -> PlayerView:
        """The current view, which must have this engine's seat to move."""
        view = self.view
        if view is None:
            raise Refused("no position (send 'position VIEW' first)")
        if view.is_over:
            raise Refused("the hand is over")
        if view.to_move != view.seat:
            raise Refused(f"seat {view.seat} is not to move")
        return view

    def _budget(self, rest: str, command: str) -> Budget | None:
        """The budget of a ``go`` or ``analyse``: its arguments, else the options, else None."""
        words = rest.split()
        if len(words) % 2:
            raise Refused(f"expected '{command} [movetime MS] [iterations N]'")
        millis: int | None = None
        iterations: int | None = None
        for key, value in zip(words[::2], words[1::2], strict=True):
            if key == "movetime":
                millis = _whole(value, "movetime", MAX_MILLIS, low=1)
            elif key == "iterations":
                iterations = _whole(value, "iterations", MAX_ITERATIONS, low=1)
            else:
                raise Refused(f"unknown argument {quote(key)} (movetime MS, iterations N)")
        if millis is None and iterations is None:
            millis = self.millis or None
            iterations = self.iterations or None
        if millis is None and iterations is None:
            return None
        return Budget(None if millis is None else float(millis), iterations)

    def _go(self, rest: str) -> list[str]:
        budget = self._budget(rest, "go")
        view = self._to_move("go")
        start = self.clock()
        move, result = self._choose(view, budget)
        lines = [] if result is None else [f"info samples {result.worlds}"]
        lines.append(f"info time {round((self.clock() - start) * 1000)}")
        lines.append(f"bestmove {move}")
        return lines

    def _choose(self, view: PlayerView, budget: Budget | None) -> tuple[Move, SearchResult | None]:
        """The bot's move, exactly as :meth:`Bot.choose` picks it, and its search if it searched."""
        bot = self.bot
        bot.budget = budget if budget is not None else type(bot).default_budget
        bot.last_search = None
        if self._kernel is not None and hasattr(bot, "kernel"):
            bot.kernel = self._kernel.ready()
        move = bot.choose(view, self.rng)
        found = bot.last_search
        return move, found if isinstance(found, SearchResult) else None

    def _analyse(self, rest: str) -> list[str]:
        budget = self._budget(rest, "analyse")
        view = self._to_move("analyse")
        if budget is None:
            budget = type(self.bot).default_budget or PIMCBot.default_budget
        kernel = None if self._kernel is None else self._kernel.ready()
        report = analyse(view, budget, self.rng, kernel=kernel)
        return [*(f"info move {a.move} win {a.win:.4f} points {a.points:.2f} "
                  f"samples {a.samples}" for a in report.moves), "analysisok"]


class _KernelInBackground:
    """The compiled playout kernel, compiled by a thread so that no search waits for it."""

    def __init__(self) -> None:
        self._done = threading.Event()
        if kernel_enabled(None):
            threading.Thread(target=self._compile, name="kernel", daemon=True).start()

    def _compile(self) -> None:
        try:
            from matador import fast

            fast.compile_kernels()
        except Exception:  # no kernel then: searches keep to the pure Python path
            return
        self._done.set()

    def ready(self) -> bool:
        """Whether searches may use the kernel now."""
        return self._done.is_set()


def _budget_values(budget: Budget | None) -> tuple[int, int]:
    """``Budget`` and ``Iterations`` option values for a bot budget (0: no limit)."""
    if budget is None:
        return 0, 0
    millis = 0 if budget.millis is None else max(1, round(budget.millis))
    return min(millis, MAX_MILLIS), min(budget.iterations or 0, MAX_ITERATIONS)


def _whole(text: str, name: str, high: int, low: int = 0) -> int:
    """``text`` as a whole number in ``low..high``, else :class:`Refused` naming ``name``.

    ASCII digits only, and no more of them than ``high`` has (before converting:
    a 5,000-digit number is out of range, not an internal error).
    """
    digits = text.lstrip("0") or "0"
    if not (text.isascii() and text.isdigit()) or len(digits) > len(str(high)) \
            or not low <= int(digits) <= high:
        raise Refused(f"{name}: {quote(text)} is not a whole number in {low}..{high}")
    return int(digits)


def serve(engine: Engine, stdin: IO[bytes] | TextIO | None = None,
          stdout: IO[bytes] | TextIO | None = None) -> int:
    """Run ``engine`` on ``stdin`` and ``stdout`` until ``quit`` or the end of input; return 0.

    The streams are binary (the default: the process's standard input and
    output as bytes) or text. Binary input is decoded line by line as strict
    UTF-8, so whatever the locale or ``PYTHONIOENCODING``, a line that is not
    UTF-8 gets the answer ``error line N is not valid UTF-8 (...)`` and the
    engine goes on. Answers are written as UTF-8 and flushed at once, as MEP
    requires. A host that goes away (a broken pipe) ends the session quietly.
    """
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    number = 0
    while not engine.done:
        raw = stdin.readline()
        if not raw:
            break
        number += 1
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                answers = [f"error line {number} is not valid UTF-8 ({e.reason} at byte "
                           f"{e.start}); it is ignored"]
            else:
                answers = engine.handle(line)
        else:
            answers = engine.handle(raw)
        if answers:
            text = "".join(a + "\n" for a in answers)
            try:
                if isinstance(stdout, io.TextIOBase):
                    stdout.write(text)
                else:
                    cast("IO[bytes]", stdout).write(text.encode("utf-8"))
                stdout.flush()
            except BrokenPipeError:
                break
    return 0


__all__ = ["AUTHOR", "CUSTOM", "MAX_ITERATIONS", "MAX_MILLIS", "MAX_SEED", "Engine", "Option",
           "Refused", "serve"]
