"""The error hierarchy of the rules core.

Every error the core raises is a :class:`MatadorError`, itself a
:class:`ValueError`, so callers can catch one type. Messages quote the input
and, for an illegal move, name the rule of ``RULES.md`` that forbids it.
"""

from __future__ import annotations


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
