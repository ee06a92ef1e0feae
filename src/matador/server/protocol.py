"""The table protocol's vocabulary: client messages, error codes, close codes.

Every frame is one JSON object with a ``type``. :func:`parse_client` reads a
client frame into a :class:`ClientMessage` or raises :class:`ProtocolError`
with a stable ``code``; the server answers it with an ``error`` message and
keeps the connection, unless a limit was broken (then it closes with one of
the ``CLOSE_*`` codes). docs/server.md describes every message.

>>> parse_client('{"type": "move", "move": "L3-4", "version": 7}').fields["move"]
'L3-4'
>>> parse_client('{"type": "dance"}')
Traceback (most recent call last):
...
matador.server.protocol.ProtocolError: unknown_type: unknown message type 'dance' (one of \
hello, move, contribute, chat, mute, rematch, sync, ping)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from matador.core.errors import MatadorError

PROTOCOL_VERSION: Final = 1
"""The version of the table protocol this server speaks (in ``welcome``)."""
MAX_FRAME: Final = 4096
"""The largest client frame, in bytes; a larger one closes the connection with 1009."""
MAX_RATE: Final = 20
"""Client messages allowed per second on one connection; more closes it with 1008."""

CLOSE_NORMAL: Final = 1000
CLOSE_UNSUPPORTED: Final = 1003
"""A binary frame (the protocol is JSON text)."""
CLOSE_POLICY: Final = 1008
"""Too many messages a second."""
CLOSE_TOO_BIG: Final = 1009
"""A frame over :data:`MAX_FRAME` bytes."""
CLOSE_GOING_AWAY: Final = 1001
"""The server is shutting down."""
CLOSE_BAD_TOKEN: Final = 4401
"""The ``hello`` had no valid token for this table."""
CLOSE_NO_TABLE: Final = 4404
"""There is no such table."""
CLOSE_HELLO_TIMEOUT: Final = 4408
"""No ``hello`` in time."""
CLOSE_TAKEN_OVER: Final = 4409
"""The same seat was opened on another connection (the newest one keeps it)."""
CLOSE_SLOW: Final = 4429
"""The client did not read its messages fast enough."""

ERROR_CODES: Final[dict[str, str]] = {
    "bad_json": "the frame is not a JSON object",
    "bad_message": "a field is missing or has the wrong type (the message says which)",
    "unknown_type": "the message type is not one of the protocol's",
    "bad_token": "no seat or spectator link of this table has this token",
    "no_table": "there is no table with this id",
    "hello_first": "the first message must be hello",
    "already_joined": "hello was already accepted on this connection",
    "taken_over": "the same seat was opened on another connection (then close 4409)",
    "spectator": "a spectator cannot do this (move, contribute, mute, rematch)",
    "stale": "the move was chosen at an older version: the position has changed since",
    "bad_version": "the version is newer than the table's",
    "not_your_turn": "another seat is to move",
    "illegal": "the rules forbid this move (rule names the rule of RULES.md)",
    "invalid_move": "the move does not parse",
    "no_hand": "no hand is being played",
    "game_over": "the game is over",
    "conflict": "another server process stored a move first; the table has been reloaded",
    "no_contribution_needed": "no deal is waiting for this seat's contribution",
    "bad_contribution": "a contribution is 32 to 128 hex digits",
    "chat_empty": "the chat line is empty",
    "chat_too_long": "the chat line is too long",
    "chat_flood": "too many chat lines: wait a little",
    "unknown_phrase": "no canned phrase has this id",
    "not_over": "a rematch is asked for once the game is over",
    "internal": "the server failed; the table is unchanged",
}
"""Every ``code`` of an ``error`` message, with what it means."""

TYPES: Final = ("hello", "move", "contribute", "chat", "mute", "rematch", "sync", "ping")
"""The client message types."""


class ProtocolError(MatadorError):
    """A client message the server refuses; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, why: str, rule: str = "") -> None:
        super().__init__(f"{code}: {why}")
        self.code = code
        self.why = why
        self.rule = rule


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message: its type, its fields and its optional ``ref``."""

    type: str
    fields: dict[str, Any]
    ref: str | int | None = None
    """Echoed in the answer (``ack`` or ``error``), so a client can match them."""


def _field(data: dict[str, Any], name: str, kinds: tuple[type, ...], *, required: bool = True,
           what: str = "") -> Any:
    value = data.get(name)
    if value is None:
        if required:
            raise ProtocolError("bad_message", f"{data.get('type')}: {name} is missing")
        return None
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise ProtocolError("bad_message",
                            f"{data.get('type')}: {name} must be {what or kinds[0].__name__}")
    return value


def parse_client(frame: str) -> ClientMessage:
    """Read one client frame (see the module docstring)."""
    try:
        data = json.loads(frame)
    except ValueError:
        raise ProtocolError("bad_json", "the frame is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "the frame is not a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r:.40} "
                                            f"(one of {', '.join(TYPES)})")
    ref = data.get("ref")
    if ref is not None and (isinstance(ref, bool) or not isinstance(ref, str | int)
                            or (isinstance(ref, str) and len(ref) > 64)):
        raise ProtocolError("bad_message", f"{kind}: ref must be a string (64 characters "
                                           "at most) or a number")
    fields: dict[str, Any] = {}
    if kind == "hello":
        fields["token"] = _field(data, "token", (str,), what="the table's seat or "
                                 "spectator token")
        fields["version"] = _field(data, "version", (int,), required=False,
                                   what="the last version seen")
        fields["name"] = _field(data, "name", (str,), required=False)
        fields["lang"] = _field(data, "lang", (str,), required=False)
    elif kind == "move":
        fields["move"] = _field(data, "move", (str, int), what="a move (L3-4, draw, pass) "
                                "or a move id")
        fields["version"] = _field(data, "version", (int,), what="the version the move was "
                                   "chosen at")
    elif kind == "contribute":
        fields["hand"] = _field(data, "hand", (int,), what="the hand number")
        fields["value"] = _field(data, "value", (str,), what="hex digits")
    elif kind == "chat":
        fields["text"] = _field(data, "text", (str,), required=False)
        fields["phrase"] = _field(data, "phrase", (str,), required=False)
        if (fields["text"] is None) == (fields["phrase"] is None):
            raise ProtocolError("bad_message", "chat: give text or phrase (one of them)")
    elif kind == "mute":
        fields["seat"] = _field(data, "seat", (int,), what="a seat number")
        muted = data.get("muted", True)
        if not isinstance(muted, bool):
            raise ProtocolError("bad_message", "mute: muted must be true or false")
        fields["muted"] = muted
    elif kind == "sync":
        fields["version"] = _field(data, "version", (int,), what="the last version seen")
    return ClientMessage(kind, fields, ref)


def error_message(code: str, why: str, *, rule: str = "", ref: str | int | None = None,
                  version: int | None = None) -> dict[str, Any]:
    """An ``error`` message."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": why}
    if rule:
        out["rule"] = rule
    if ref is not None:
        out["ref"] = ref
    if version is not None:
        out["version"] = version
    return out


__all__ = ["CLOSE_BAD_TOKEN", "CLOSE_GOING_AWAY", "CLOSE_HELLO_TIMEOUT", "CLOSE_NORMAL",
           "CLOSE_NO_TABLE", "CLOSE_POLICY", "CLOSE_SLOW", "CLOSE_TAKEN_OVER", "CLOSE_TOO_BIG",
           "CLOSE_UNSUPPORTED", "ERROR_CODES", "MAX_FRAME", "MAX_RATE", "PROTOCOL_VERSION",
           "TYPES", "ClientMessage", "ProtocolError", "error_message", "parse_client"]
