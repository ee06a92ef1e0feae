"""Helpers shared by the subcommands: errors, strict JSON, input and output, rule options.

Every failure a user can cause is a :class:`CliError` (``WHERE: WHY``); the
entry point prints it as the single line ``error: WHERE: WHY`` on standard
error and exits 2, the form the replay contract asks for.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, TextIO, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from matador.core.errors import MatadorError, RecordError, RulesError, printable, quote
from matador.core.record import Record, RecordLine, parse_record, parse_records
from matador.core.rules import Rules, resolve_preset

EXIT_OK = 0
"""Exit status of a command that did its job."""
EXIT_ERROR = 2
"""Exit status of a refused record, an unreadable file or bad arguments (argparse's own)."""
STDIO = "-"
"""The file name that means standard input or standard output."""
T = TypeVar("T")


class CliError(Exception):
    """A failure to report as ``error: WHERE: WHY`` with exit status 2."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why

    @classmethod
    def of(cls, error: MatadorError) -> CliError:
        """The CLI form of a core error; errors without a ``where`` are blamed on the record."""
        where = getattr(error, "where", None)
        why = getattr(error, "why", None)
        if isinstance(where, str) and isinstance(why, str):
            return cls(where, why)
        return cls("record", str(error))


MAX_WHERE = 200
"""The longest WHERE printed, in characters (the core's messages quote short excerpts; this
is the last guard, for names that come from elsewhere, such as file names)."""
MAX_WHY = 2000
"""The longest WHY printed, in characters."""


def message(where: str, why: str) -> str:
    """``WHERE: WHY`` on one printable line, each part cut to its maximum length.

    >>> message("deal", 'bad "a\\nb"')
    'deal: bad "a\\\\nb"'
    """
    where = printable(where) or "input"
    why = printable(why)
    if len(where) > MAX_WHERE:
        where = where[:MAX_WHERE] + "..."
    if len(why) > MAX_WHY:
        why = why[:MAX_WHY] + "..."
    return f"{where}: {why}"


def error_line(where: str, why: str) -> str:
    """The line ``error: WHERE: WHY`` (see :func:`message`)."""
    return "error: " + message(where, why)


def print_error(error: CliError) -> None:
    """Print ``error: WHERE: WHY`` as exactly one line on standard error."""
    sys.stderr.write(error_line(error.where, error.why) + "\n")
    sys.stderr.flush()


def safe_streams() -> None:
    """Make standard output and error escape what they cannot encode instead of failing.

    A lone surrogate in a record's free-form ``meta`` (``"\\ud800"`` is valid JSON)
    would otherwise end a command with ``UnicodeEncodeError``.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the word for one or for several: ``1 deal``, ``2 deals``, ``1 match``.

    >>> plural(1, "deal"), plural(2, "deal"), plural(3, "match", "matches")
    ('1 deal', '2 deals', '3 matches')
    """
    return f"{n} {word if n == 1 else words or word + 's'}"


def dumps(value: Any) -> str:
    """One line of JSON with the default separators (``, `` and ``: ``) of RULES.md."""
    return json.dumps(value)


# -- records -------------------------------------------------------------------


def load_record(data: bytes) -> Record:
    """Decode and validate one record (RULES.md section 8); a refusal raises :class:`CliError`."""
    try:
        return parse_record(data)
    except MatadorError as e:
        raise CliError.of(e) from None


def load_records(path: str) -> list[RecordLine]:
    """The records of ``path`` (``-``: standard input): one record, or one per line.

    See :func:`~matador.core.record.parse_records`: what ``play`` and
    ``simulate`` write (a record per line) reads here, a refused line named by
    its number without stopping the others.
    """
    return parse_records(read_bytes(path))


def refusal(entry: RecordLine) -> CliError:
    """The :class:`CliError` of a refused record."""
    error = entry.error if entry.error is not None else RecordError("record", "refused")
    return CliError(error.where, error.why)


def choose_hand(entries: list[T], hand: int | None, path: str) -> list[T]:
    """The records ``--hand K`` picks (1-based; ``None``: all); a bad K is a CliError."""
    if hand is None:
        return entries
    if not 1 <= hand <= len(entries):
        what = "hand" if len(entries) == 1 else f"hands (1..{len(entries)})"
        raise CliError("--hand", f"{hand} is not a hand of {printable(path)}, which holds "
                                 f"{len(entries)} {what}")
    return [entries[hand - 1]]


def one_record(path: str, hand: int | None) -> Record:
    """The one record a command works on: the file's only record, or ``--hand K`` of many."""
    entries = choose_hand(load_records(path), hand, path)
    if len(entries) > 1:
        raise CliError(path, f"holds {len(entries)} records, one per line: choose one with "
                             f"--hand K (1..{len(entries)})")
    entry = entries[0]
    if entry.record is None:
        raise refusal(entry)
    return entry.record


# -- files ---------------------------------------------------------------------


def _os_error(path: str, error: OSError) -> CliError:
    return CliError(path, (error.strerror or str(error)).lower())


def read_bytes(path: str) -> bytes:
    """The whole content of ``path`` (``-``: standard input); an unreadable file is a CliError."""
    if path == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise _os_error(path, e) from None


@contextmanager
def open_input(path: str) -> Iterator[BinaryIO]:
    """``path`` opened for reading bytes (``-``: standard input, left open afterwards)."""
    if path == STDIO:
        yield sys.stdin.buffer
        return
    try:
        file = open(path, "rb")  # noqa: SIM115 -- closed below; open errors become CliError
    except OSError as e:
        raise _os_error(path, e) from None
    with file:
        yield file


@contextmanager
def open_output(path: str | None) -> Iterator[TextIO]:
    """``path`` opened for writing text with ``\\n`` line ends (``None`` or ``-``: stdout)."""
    if path is None or path == STDIO:
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        file = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
    except OSError as e:
        raise _os_error(path, e) from None
    with file:
        yield file


# -- rule options ----------------------------------------------------------------


def preset_name(text: str) -> str:
    """An argparse type: a preset name or alias (``spanish``, ``czech``...), resolved."""
    try:
        return resolve_preset(text)
    except RulesError as e:
        raise argparse.ArgumentTypeError(e.why) from None


def override(text: str) -> tuple[str, Any]:
    """An argparse type for ``--set NAME=VALUE``: VALUE is read as JSON, else as a plain string.

    >>> override("draw=one"), override('hand_size={"2": 7}'), override("matador_anytime=false")
    (('draw', 'one'), ('hand_size', {'2': 7}), ('matador_anytime', False))
    """
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise argparse.ArgumentTypeError(
            f"{quote(text)} is not NAME=VALUE (e.g. draw=one or hand_size='{{\"2\": 7}}')")
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return name, value


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--preset``, ``--players`` and ``--set`` to ``parser``."""
    parser.add_argument(
        "--preset", required=True, type=preset_name, metavar="P",
        help="rule preset: classic, paluba, russian or six (aliases: spanish, matador, "
             "czech, six-matador, sixes)")
    parser.add_argument("--players", required=True, type=integer, metavar="N",
                        help="number of players (the preset says which counts it allows)")
    parser.add_argument(
        "--set", action="append", default=[], type=override, metavar="NAME=VALUE",
        dest="overrides",
        help="override a rule parameter (RULES.md section 7); VALUE is JSON, or a plain "
             "string: --set draw=one --set 'hand_size={\"2\": 7}'. Repeatable")


def rules_of(preset: str, overrides: Sequence[tuple[str, Any]], players: int) -> Rules:
    """The validated rules for the rule options; a bad override or player count is a CliError."""
    try:
        rules = Rules.from_preset(preset, dict(overrides))
    except RulesError as e:
        raise CliError.of(e) from None
    try:
        rules.check_players(players)
    except RulesError as e:
        lo, hi = rules.players
        if not lo <= players <= hi:  # outside the range: say how to change it
            raise CliError(e.where, f"{e.why} (change --players, or the range with --set "
                                    "players=[MIN,MAX])") from None
        raise CliError.of(e) from None
    return rules


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A ``progress(done, total)`` callback drawing a bar with an ETA on stderr.

    ``None`` when stderr is not a terminal (logs and pipes get no bar).
    """
    if not sys.stderr.isatty():
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


_INTEGER = re.compile(r"-?[0-9]{1,100}", re.ASCII)


def integer(text: str) -> int:
    """An argparse type: an integer in ASCII digits (``int`` would also take ``'٣'`` or ``'1_0'``).

    >>> integer("-7")
    -7
    """
    if not _INTEGER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number")
    return int(text)


def count(text: str) -> int:
    """An argparse type: a whole number, zero or more."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def positive(text: str) -> int:
    """An argparse type: a whole number, one or more."""
    value = count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def seed_of(seed: int | None) -> int:
    """``seed``, or a fresh one from :mod:`secrets` when none was given."""
    return secrets.randbits(63) if seed is None else seed
