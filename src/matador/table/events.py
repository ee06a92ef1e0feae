"""What happens at a table, as a versioned sequence of events, each worded per recipient.

A recipient is a seat number or :data:`SPECTATOR`. Every event has a
``public`` part that everyone at the table may know, and ``private`` parts
that only one seat may know (its own dealt tiles, the tile it drew). An event
with an ``audience`` is shown only to those recipients; everyone else gets a
bare version bump (``{"version": 7, "kind": "hidden"}``), so that every
recipient sees one gap-free sequence of versions and can ask for what it
missed.

>>> e = Event(3, "move", {"seat": 1, "move": "draw"}, {1: {"tile": "2-5"}})
>>> e.for_recipient(1)
{'version': 3, 'kind': 'move', 'seat': 1, 'move': 'draw', 'tile': '2-5'}
>>> e.for_recipient(0) == e.for_recipient(SPECTATOR) == {
...     'version': 3, 'kind': 'move', 'seat': 1, 'move': 'draw'}
True
>>> Event(4, "chat", {"text": "gg"}, audience=frozenset({0, 1})).for_recipient(SPECTATOR)
{'version': 4, 'kind': 'hidden'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

SPECTATOR: Final = -1
"""The recipient that sits at no seat: it sees the public part of every event."""

Recipient = int
"""A seat number (0..players-1) or :data:`SPECTATOR`."""


class EventKind(StrEnum):
    """The kinds of events the referee emits (the server may add its own kinds)."""

    MATCH_START = "match_start"
    """The table is set: rules, players, match or single hand."""
    HAND_START = "hand_start"
    """A hand is dealt: leader, sizes, scores; each seat privately gets its tiles."""
    MOVE = "move"
    """A seat moved: a play, a draw (the tile is private to the drawer) or a pass."""
    HAND_END = "hand_end"
    """A hand ended: the result, every hand revealed, points by rule, the record."""
    MATCH_END = "match_end"
    """The game is over: the winner (or none) and the final scores."""
    FORFEIT = "forfeit"
    """A seat lost the game by a fault (an illegal move, a crash, a timeout...)."""


@dataclass(frozen=True)
class Event:
    """One thing that happened, numbered by the table's event sequence."""

    version: int
    """Its place in the table's sequence: 1, 2, 3... with no gaps."""
    kind: str
    """An :class:`EventKind` value, or a kind the server added (``chat``, ``presence``...)."""
    public: Mapping[str, Any]
    """What every recipient at the table may know (JSON values)."""
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """What one seat alone may know, added to the public part for that seat."""
    audience: frozenset[int] | None = None
    """The recipients who see this event at all (``None``: everyone)."""

    def visible_to(self, recipient: Recipient) -> bool:
        """Whether ``recipient`` sees this event (else only its version bump)."""
        return self.audience is None or recipient in self.audience

    def for_recipient(self, recipient: Recipient) -> dict[str, Any]:
        """The event as ``recipient`` may see it, as a JSON object."""
        if not self.visible_to(recipient):
            return {"version": self.version, "kind": "hidden"}
        out: dict[str, Any] = {"version": self.version, "kind": self.kind, **self.public}
        mine = self.private.get(recipient)
        if mine:
            out.update(mine)
        return out


__all__ = ["SPECTATOR", "Event", "EventKind", "Recipient"]
