"""The error hierarchy of the rules core.

Every error the core raises is a :class:`MatadorError`, itself a
:class:`ValueError`, so callers can catch one type. Messages quote the input
and, for an illegal move, name the rule of ``RULES.md`` that forbids it.
"""

from __future__ import annotations

import json
import re
import reprlib


class MatadorError(ValueError):
    """Base class of every error raised by the matador package."""


class RulesError(MatadorError):
    """An unknown preset or parameter, or a parameter value of the wrong type or range.

    ``where`` names the parameter (``rules.overrides.draw``) when known.
    """

    def __init__(self, why: str, where: str = "rules") -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


class InvalidTileError(MatadorError):
    """A tile that does not parse, such as ``7-1``, ``6-1`` or ``x``."""


class InvalidMoveError(MatadorError):
    """A move that does not parse, such as ``L7-0`` or ``play``."""


class IllegalMoveError(MatadorError):
    """A well-formed move that the rules forbid in this position.

    ``rule`` is the id of the rule that forbids it (``R9``, ``R15``...).
    """

    def __init__(self, why: str, rule: str) -> None:
        super().__init__(why)
        self.rule = rule


class RecordError(MatadorError):
    """A refused record: ``where`` names the field or move, ``why`` says what is wrong.

    ``str(error)`` is ``WHERE: WHY``, the form the replay contract prints after
    ``error:``.
    """

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


class ViewError(MatadorError):
    """A player view that cannot be the view of a legal hand."""


# -- quoting input in messages -------------------------------------------------------

EXCERPT = 40
"""How many characters of a bad input an error message quotes at most."""

_KEY = re.compile(r"[A-Za-z0-9_]{1,40}", re.ASCII)
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    r"""``text`` with every unprintable character escaped, so it prints as one line.

    Line breaks (``\n``, ``\r``, ``\u2028``...), other control characters and
    lone surrogates become Python-style escapes; printable characters, accented
    and Cyrillic letters included, are kept.

    >>> print(printable("a\nb\rc\u2028d\ud800 Tú"))
    a\nb\rc\u2028d\ud800 Tú
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _ESCAPES.get(c) or _escape(c) for c in text)


def _escape(c: str) -> str:
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def quote(value: object, limit: int = EXCERPT) -> str:
    """A short, escaped excerpt of a bad input, for an error message.

    A string is quoted as Python quotes it, every unprintable character
    escaped; one longer than ``limit`` is cut, and its length given. Other
    values are shown as Python shows them, long lists, objects and numbers
    cut the same way. The result is always one printable line of at most a
    few times ``limit`` characters, whatever the input: a 10 MB key gives a
    short message.

    >>> quote("two"), quote(""), quote(None), quote(1)
    ("'two'", "''", 'None', '1')
    >>> print(quote("a\\rb"))
    'a\\rb'
    >>> print(quote("x" * 100_000))
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100000 characters)
    >>> print(quote(10 ** 60))
    1000000000000000000000000000000000000000... (61 digits)
    >>> print(quote(list(range(100))))
    [0, 1, 2, 3, 4, 5, ...]
    """
    if isinstance(value, str):
        head = printable(repr(value[:limit]))
        if len(value) <= limit and len(head) <= 3 * limit:
            return head
        # Cut after ``limit`` characters, and after 3 x ``limit`` once escaped.
        return f"{head[:-1][:3 * limit]}...{head[-1]} ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        return _quote_int(value, limit)
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # an int too long to print, nesting too deep
        text = f"<{type(value).__name__}>"
    text = printable(text)
    return text if len(text) <= 4 * limit else text[:4 * limit] + "..."


def _quote_int(value: int, limit: int) -> str:
    digits = len(str(abs(value))) if value.bit_length() < 10_000 else None
    if digits is not None and digits <= limit:
        return str(value)
    if digits is None:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    return f"{str(value)[:limit + (value < 0)]}... ({digits} digits)"


class _Repr(reprlib.Repr):
    """reprlib's cut reprs, whose integers never fail (``str`` of a huge int raises)."""

    def repr_int(self, x: int, level: int) -> str:
        return _quote_int(x, self.maxlong)


_REPR = _Repr()
_REPR.maxstring = EXCERPT
_REPR.maxother = EXCERPT
_REPR.maxlong = EXCERPT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = 6
_REPR.maxdict = 4
_REPR.maxlevel = 3


def field_path(parent: str, key: object) -> str:
    """The WHERE of ``key`` inside ``parent``, never empty; odd keys are quoted visibly.

    >>> field_path("rules.overrides", "draw"), field_path("", "extra")
    ('rules.overrides.draw', 'extra')
    >>> field_path("", ""), field_path("deal", "a b\\n")
    ("record['']", "deal['a b\\\\n']")
    """
    if isinstance(key, str) and _KEY.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent or 'record'}[{quote(key)}]"


def json_excerpt(value: object, limit: int = 5 * EXCERPT) -> str:
    """``value`` as one line of JSON (non-ASCII escaped), cut after ``limit`` characters.

    >>> json_excerpt({"winner": 1})
    '{"winner": 1}'
    >>> json_excerpt(["x" * 1000], limit=10)
    '["xxxxxxxx... (1004 characters)'
    """
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # not JSON (from Python), or too deep
        return quote(value, limit)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
