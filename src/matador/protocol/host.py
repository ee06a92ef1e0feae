"""The host side of MEP: start an engine process and talk to it, surviving whatever it does.

:class:`EngineProcess` starts a command, does the ``mep`` handshake, then
sends views and reads moves, each answer awaited with a deadline. An engine
that crashes, falls silent, overruns its time, answers garbage, refuses a
command or plays an illegal move raises :class:`ProtocolError` (a
:class:`~matador.core.errors.MatadorError`) whose ``kind`` says which and
whose message says what happened, with the end of the engine's standard
error when it died. The host itself never hangs and never crashes on an
engine's fault.

An engine that timed out, crashed or broke the protocol is killed (its
later answers could not be told apart from answers to new questions); one
that only refused a command or played an illegal move is brought back in
step with ``isready`` and can go on. :attr:`EngineProcess.alive` tells.

Every line sent and received can be recorded in a :class:`Transcript`.

>>> import sys
>>> with EngineProcess([sys.executable, "-m", "matador.cli.main", "engine", "greedy"]) as e:
...     e.id["name"], sorted(e.options)
('matador greedy', ['budget', 'iterations', 'level', 'seed'])
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, TextIO

from matador.core.errors import InvalidMoveError, MatadorError
from matador.core.moves import Move
from matador.core.view import PlayerView

GRACE = 1.0
"""Seconds a host waits beyond ``movetime`` for ``bestmove`` (PROTOCOL.md: 1000 ms)."""
DEFAULT_THINK = 10.0
"""Seconds allowed for a ``go`` without ``movetime`` when the engine announces no Budget."""
HANDSHAKE_TIMEOUT = 10.0
"""Seconds allowed for starting up and answering ``mep``."""
SYNC_TIMEOUT = 5.0
"""Seconds allowed for ``readyok``."""

KINDS = ("start", "crash", "timeout", "invalid", "refused", "illegal")
"""What can go wrong with an engine (:attr:`ProtocolError.kind`):

* ``start`` -- the command could not be run, or the handshake failed;
* ``crash`` -- the process exited or closed its output;
* ``timeout`` -- no answer in time;
* ``invalid`` -- an answer that breaks the protocol (garbage, a move that
  does not parse);
* ``refused`` -- the engine answered ``error ...``;
* ``illegal`` -- a well-formed move that is not legal in the position."""


class ProtocolError(MatadorError):
    """An engine failed: see :data:`KINDS` for ``kind``; the message says what happened."""

    def __init__(self, message: str, kind: str = "invalid") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class Transcript:
    """Every line exchanged with one engine, in order: ``(">", line)`` sent, ``("<", line)`` read.

    With ``file``, each line is also written there as it happens
    (``> mep``, ``< mepok``), which makes a debugging log of a session.
    """

    file: TextIO | None = None
    lines: list[tuple[str, str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False,
                                  compare=False)

    def record(self, direction: str, line: str) -> None:
        """Add one line; ``direction`` is ``">"`` (to the engine) or ``"<"`` (from it)."""
        with self._lock:
            self.lines.append((direction, line))
            if self.file is not None:
                self.file.write(f"{direction} {line}\n")
                self.file.flush()

    def sent(self) -> list[str]:
        """The lines sent to the engine."""
        with self._lock:
            return [line for d, line in self.lines if d == ">"]

    def received(self) -> list[str]:
        """The lines the engine wrote."""
        with self._lock:
            return [line for d, line in self.lines if d == "<"]


@dataclass(frozen=True)
class EngineOption:
    """An option an engine announced: ``option name NAME type TYPE default ...``."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> EngineOption:
        """Read an ``option`` line; raises :class:`ProtocolError` if it has no name or type.

        >>> EngineOption.parse("option name Budget type spin default 200 min 1 max 60000")
        EngineOption(name='Budget', type='spin', default='200', min=1, max=60000, vars=())
        """
        fields: dict[str, list[str]] = {}
        vars_: list[str] = []
        key = ""
        words: list[str] = []
        for word in [*line.split()[1:], "var"]:
            if word in ("name", "type", "default", "min", "max", "var"):
                if key == "var":
                    vars_.append(" ".join(words))
                elif key:
                    fields[key] = words
                key, words = word, []
            else:
                words.append(word)
        vars_ = vars_[:-1] if vars_ and vars_[-1] == "" else vars_
        if not fields.get("name") or not fields.get("type"):
            raise ProtocolError(f"option line without a name or type: {line!r}")

        def number(key: str) -> int | None:
            text = " ".join(fields.get(key, []))
            try:
                return int(text) if text else None
            except ValueError:
                return None

        default = " ".join(fields["default"]) if "default" in fields else None
        return cls(" ".join(fields["name"]), " ".join(fields["type"]), default,
                   number("min"), number("max"), tuple(vars_))


@dataclass(frozen=True)
class GoResult:
    """The answer to ``go``: the move and the ``info`` lines before it."""

    move: Move
    info: tuple[str, ...] = ()
    seconds: float = 0.0
    """Wall time from sending ``go`` to reading ``bestmove``."""


@dataclass(frozen=True)
class MoveValue:
    """One line of an ``analyse`` answer: a legal move's estimated value."""

    move: Move
    win: float
    """Estimated probability that the seat wins the hand (no winner: 1/N)."""
    points: float
    """Expected points of the hand for the seat (R21 + R22)."""
    samples: int
    """Sampled worlds behind the estimate."""


_EOF = None


class EngineProcess:
    """One running engine, handshake done: ``command`` is a string (split like a shell) or argv.

    ``name`` is used in messages (default: the command). ``think`` is the
    time allowed for a ``go`` without ``movetime`` (default: the engine's
    announced ``Budget`` option, else :data:`DEFAULT_THINK`), to which
    :data:`GRACE` is added. Raises :class:`ProtocolError` (kind ``start``)
    if the command cannot run or does not complete the handshake.
    """

    def __init__(self, command: str | Sequence[str], *, name: str | None = None,
                 transcript: Transcript | None = None, think: float | None = None,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT, cwd: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.command = command if isinstance(command, str) else shlex.join(argv)
        self.name = name or self.command
        self.transcript = transcript
        self.think = think
        self.id: dict[str, str] = {}
        """What the engine said of itself: ``name``, ``author``."""
        self.options: dict[str, EngineOption] = {}
        """The announced options, by lower-case name."""
        self.failure: ProtocolError | None = None
        """The error that killed this engine, if one did."""
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._eof = False
        self._asked_at = time.monotonic()
        if not argv:
            raise ProtocolError(f"engine {self.name!r}: empty command", "start")
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1, cwd=cwd,
                env=None if env is None else dict(env), start_new_session=True)
        except OSError as e:
            raise ProtocolError(f"engine {self.name!r}: cannot run {argv[0]!r}: "
                                f"{e.strerror or e}", "start") from None
        self._finalizer = weakref.finalize(self, _kill, self._proc)
        assert self._proc.stdout is not None and self._proc.stderr is not None
        for target, stream in ((self._read_stdout, self._proc.stdout),
                               (self._read_stderr, self._proc.stderr)):
            threading.Thread(target=target, args=(stream,), daemon=True,
                             name=f"mep-{self._proc.pid}").start()
        try:
            self._handshake(handshake_timeout)
        except ProtocolError as e:
            self._fail(e)
            raise ProtocolError(f"{e} (during the handshake)", "start") from None

    # -- plumbing ------------------------------------------------------------------------

    def _read_stdout(self, stream: IO[str]) -> None:
        with contextlib.suppress(Exception):
            for raw in stream:
                line = raw.rstrip("\r\n")
                if self.transcript is not None:
                    self.transcript.record("<", line)
                self._lines.put(line)
        self._lines.put(_EOF)

    def _read_stderr(self, stream: IO[str]) -> None:
        with contextlib.suppress(Exception):
            for raw in stream:
                self._stderr.append(raw.rstrip("\r\n"))

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._proc.pid

    @property
    def alive(self) -> bool:
        """Whether the engine is running and in step (no failure killed it)."""
        return self.failure is None and self._proc.poll() is None and not self._eof

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to standard error (at most 20)."""
        return list(self._stderr)

    def send(self, line: str) -> None:
        """Send one command line; :class:`ProtocolError` (``crash``) if the engine is gone."""
        if "\n" in line or "\r" in line:
            raise ValueError(f"a command is one line: {line!r}")
        self._check_usable()
        if self.transcript is not None:
            self.transcript.record(">", line)
        stdin = self._proc.stdin
        assert stdin is not None
        self._asked_at = time.monotonic()
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise self._fail(self._died(f"before reading {_quote(line)}")) from None

    def _check_usable(self) -> None:
        if self.failure is not None:
            raise ProtocolError(f"engine {self.name!r} is out of play after an earlier "
                                f"failure: {self.failure}", self.failure.kind)

    def _read(self, deadline: float, command: str) -> str:
        """The next line answering ``command``; :class:`ProtocolError` at ``deadline`` or exit."""
        if self._eof:
            raise self._fail(self._died(f"before answering {command!r}"))
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, remaining)) if remaining > 0 else \
                self._lines.get_nowait()
        except queue.Empty:
            raise self._fail(ProtocolError(
                f"engine {self.name!r} did not answer {command!r} within "
                f"{deadline - self._asked_at:.1f} s", "timeout")) from None
        if line is _EOF:
            self._eof = True
            raise self._fail(self._died(f"before answering {command!r}"))
        return line

    def _died(self, doing: str) -> ProtocolError:
        try:
            code = self._proc.wait(timeout=1.0)
            how = f"exited with status {code}" if code >= 0 else \
                f"was killed by signal {-code}"
        except subprocess.TimeoutExpired:
            how = "closed its output"
        time.sleep(0.05)  # let the stderr reader catch the last words
        tail = [line for line in self._stderr if line.strip()]
        last = f"; its last words: {tail[-1].strip()!r}" if tail else ""
        return ProtocolError(f"engine {self.name!r} {how} {doing}{last}", "crash")

    def _fail(self, error: ProtocolError) -> ProtocolError:
        """Take the engine out of play after ``error`` and return ``error``."""
        self.failure = error
        self.kill()
        return error

    # -- commands ------------------------------------------------------------------------

    def _handshake(self, timeout: float) -> None:
        self.send("mep")
        deadline = time.monotonic() + timeout
        while True:
            line = self._read(deadline, "mep")
            words = line.split()
            if not words:
                continue
            if words[0] == "mepok":
                return
            if words[0] == "id" and len(words) > 1:
                self.id[words[1]] = " ".join(words[2:])
            elif words[0] == "option":
                option = EngineOption.parse(line)
                self.options[option.name.lower()] = option
            elif words[0] == "error":
                raise ProtocolError(f"engine {self.name!r} answered 'mep' with {line!r}",
                                    "refused")
            # anything else before mepok (a banner) is ignored, as UCI hosts do

    def is_ready(self, timeout: float = SYNC_TIMEOUT) -> None:
        """``isready``, and wait for ``readyok``; an ``error`` line on the way raises ``refused``.

        An error line that comes before ``readyok`` answers an earlier
        command (``setoption``, ``position``); the engine stays usable.
        """
        errors = self._sync(timeout)
        if errors:
            raise ProtocolError(f"engine {self.name!r} refused: {errors[0]}", "refused")

    def _sync(self, timeout: float = SYNC_TIMEOUT) -> list[str]:
        """Send ``isready``, read up to ``readyok``; return the ``error`` lines read on the way."""
        self.send("isready")
        deadline = time.monotonic() + timeout
        errors: list[str] = []
        while True:
            line = self._read(deadline, "isready")
            if line.strip() == "readyok":
                return errors
            if line.startswith("error"):
                errors.append(line)
            elif line.strip() and not line.startswith("info"):
                raise self._fail(ProtocolError(
                    f"engine {self.name!r} answered {_quote(line)} to 'isready'"))

    def set_option(self, name: str, value: object) -> None:
        """``setoption name NAME value VALUE``, checked with ``isready`` (``refused`` on error)."""
        self.send(f"setoption name {name} value {value}")
        self.is_ready()
        if name.lower() == "budget":
            with contextlib.suppress(ValueError, TypeError):
                self.think = int(str(value)) / 1000 or None

    def new_hand(self) -> None:
        """``newhand``: the engine forgets the previous hand."""
        self.send("newhand")

    def position(self, view: PlayerView | Mapping[str, Any] | str) -> None:
        """``position VIEW``: a :class:`PlayerView`, an MEP view object, or its JSON text."""
        if isinstance(view, PlayerView):
            text = view.dumps()
        elif isinstance(view, str):
            text = view
        else:
            text = json.dumps(view)
        self.send(f"position {text}")

    def _deadline(self, movetime: int | None, timeout: float | None) -> float:
        if timeout is None:
            if movetime is not None:
                think = movetime / 1000
            elif self.think is not None:
                think = self.think
            else:
                think = _announced_budget(self.options) or DEFAULT_THINK
            timeout = think + GRACE
        return time.monotonic() + timeout

    def go(self, *, movetime: int | None = None, iterations: int | None = None,
           timeout: float | None = None) -> GoResult:
        """``go`` for the last position; the engine's ``bestmove``, parsed (not checked legal).

        Waits ``timeout`` seconds, by default ``movetime`` (or the default
        think time) plus :data:`GRACE`. Raises :class:`ProtocolError`.
        """
        start = time.monotonic()
        deadline = self._deadline(movetime, timeout)
        self.send(f"go{_budget_args(movetime, iterations)}")
        info: list[str] = []
        while True:
            line = self._read(deadline, "go")
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word == "info":
                info.append(line)
            elif word == "bestmove":
                text = line.split(maxsplit=1)[1].strip() if len(line.split()) > 1 else ""
                try:
                    move = Move.parse(text)
                except InvalidMoveError:
                    raise self._fail(ProtocolError(
                        f"engine {self.name!r} answered {_quote(line)}: not a move in record "
                        "notation", "invalid")) from None
                return GoResult(move, tuple(info), time.monotonic() - start)
            elif word == "error":
                self._resync()
                raise ProtocolError(f"engine {self.name!r} refused to move: {_quote(line)}",
                                    "refused")
            elif word:
                raise self._fail(ProtocolError(
                    f"engine {self.name!r} answered {_quote(line)} to 'go' (expected "
                    "'info ...' or 'bestmove MOVE')", "invalid"))

    def play(self, view: PlayerView, *, movetime: int | None = None,
             iterations: int | None = None, timeout: float | None = None) -> Move:
        """Send ``view`` and ``go``; the move, checked legal for ``view`` (else ``illegal``)."""
        self.position(view)
        result = self.go(movetime=movetime, iterations=iterations, timeout=timeout)
        if result.move not in view.legal_moves:
            legal = " ".join(str(m) for m in view.legal_moves)
            raise ProtocolError(
                f"engine {self.name!r} played {result.move}, which is illegal at ply "
                f"{view.ply} for seat {view.seat} (legal: {legal})", "illegal")
        return result.move

    def analyse(self, view: PlayerView | Mapping[str, Any] | str | None = None, *,
                movetime: int | None = None, iterations: int | None = None,
                timeout: float | None = None) -> list[MoveValue]:
        """``analyse`` (after sending ``view``, if given): every legal move's value, in order."""
        if view is not None:
            self.position(view)
        deadline = self._deadline(movetime, timeout)
        self.send(f"analyse{_budget_args(movetime, iterations)}")
        out: list[MoveValue] = []
        while True:
            line = self._read(deadline, "analyse")
            words = line.split()
            if not words:
                continue
            if words[0] == "analysisok":
                return out
            if words[0] == "error":
                self._resync()
                raise ProtocolError(f"engine {self.name!r} refused to analyse: {_quote(line)}",
                                    "refused")
            if words[0] != "info":
                raise self._fail(ProtocolError(
                    f"engine {self.name!r} answered {_quote(line)} to 'analyse'"))
            if len(words) > 1 and words[1] == "move":
                out.append(self._move_value(line))

    def _move_value(self, line: str) -> MoveValue:
        words = line.split()
        fields = dict(zip(words[1::2], words[2::2], strict=False))
        try:
            return MoveValue(Move.parse(fields["move"]), float(fields["win"]),
                             float(fields["points"]), int(fields["samples"]))
        except (KeyError, ValueError):
            raise self._fail(ProtocolError(
                f"engine {self.name!r}: {_quote(line)} is not 'info move MOVE win P points X "
                "samples N'")) from None

    def _resync(self) -> None:
        """After an ``error`` answer, drain any further error lines up to ``readyok``."""
        with contextlib.suppress(ProtocolError):
            self._sync()

    # -- ending ----------------------------------------------------------------------------

    def quit(self, timeout: float = 2.0) -> None:
        """``quit``, wait for the engine to exit (killing it after ``timeout`` seconds)."""
        if self._proc.poll() is None and self.failure is None:
            with contextlib.suppress(ProtocolError):
                self.send("quit")
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=timeout)
        self.kill()

    def kill(self) -> None:
        """Kill the engine (and any process it started) now; harmless if it is gone."""
        self._finalizer()
        if self._proc.stdin is not None:
            with contextlib.suppress(Exception):
                self._proc.stdin.close()

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        state = "alive" if self.alive else "dead"
        return f"<EngineProcess {self.name!r} pid {self.pid} {state}>"


def _kill(proc: subprocess.Popen[str]) -> None:
    """Kill ``proc``'s process group (it leads its own session) and reap it."""
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(Exception):
        proc.wait(timeout=5)


def _announced_budget(options: Mapping[str, EngineOption]) -> float | None:
    """The engine's default think time from its ``Budget`` option, in seconds, if positive."""
    option = options.get("budget")
    if option is None or option.default is None:
        return None
    try:
        millis = int(option.default)
    except ValueError:
        return None
    return millis / 1000 if millis > 0 else None


def _budget_args(movetime: int | None, iterations: int | None) -> str:
    args = ""
    if movetime is not None:
        args += f" movetime {int(movetime)}"
    if iterations is not None:
        args += f" iterations {int(iterations)}"
    return args


def _quote(line: str, limit: int = 80) -> str:
    return repr(line if len(line) <= limit else line[:limit - 3] + "...")


__all__ = ["DEFAULT_THINK", "GRACE", "HANDSHAKE_TIMEOUT", "KINDS", "SYNC_TIMEOUT",
           "EngineOption", "EngineProcess", "GoResult", "MoveValue", "ProtocolError",
           "Transcript"]
