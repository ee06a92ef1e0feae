"""Records of hands and the replay contract (RULES.md section 8).

A :class:`Record` is one hand as JSON: rules, players, deal and moves, enough
to replay it exactly. :func:`parse_record` validates everything and raises
:class:`~matador.core.errors.RecordError` with ``WHERE: WHY``;
:func:`replay` returns the trace and the result the ``replay`` command prints.

>>> import json
>>> text = json.dumps({
...     "rules": {"preset": "classic", "overrides": {}}, "players": 2,
...     "deal": {"hands": [["0-3", "2-4", "1-1", "6-6", "3-3"],
...                        ["2-2", "0-4", "4-6", "0-6", "1-4"]],
...              "boneyard": ["0-0", "2-5", "1-6", "5-6", "4-4", "3-5", "0-2", "2-6", "4-5",
...                           "1-2", "0-5", "2-3", "3-4", "1-3", "5-5", "0-1", "1-5", "3-6"],
...              "set_aside": [], "leader": 0},
...     "moves": ["0-3", "R4-0", "draw", "L0-0", "draw", "R2-5", "R2-4", "draw",
...               "L6-1", "L6-6", "L1-4", "L3-3", "L4-6", "L1-1"]})
>>> replay(parse_record(text)).result
{'winner': 0, 'reason': 'out', 'pips': [0, 10], 'points': [10, 0]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matador.core.errors import (
    InvalidMoveError,
    MatadorError,
    RecordError,
    RulesError,
    field_path,
    json_excerpt,
)
from matador.core.moves import MOVE_NAMES, Move
from matador.core.rules import Rules
from matador.core.state import Deal, HandState, Outcome, move_ids
from matador.core.strictjson import decode_json

_KEYS = ("rules", "players", "deal", "moves", "meta", "result")


@dataclass(frozen=True)
class Record:
    """One hand: rules, players, deal, moves, and optional meta and result."""

    rules: Rules
    """The rules the hand is played under."""
    deal: Deal
    """The deal (hands, boneyard in draw order, set-aside tiles, leader)."""
    moves: tuple[Move, ...] = ()
    """The moves in order."""
    meta: Any = None
    """Free-form information, ignored by the replay: any JSON value (read it with
    :meth:`meta_field`, which copes with a ``meta`` that is not an object)."""
    result: Mapping[str, Any] | None = field(default=None, compare=False)
    """The result written in the record, if any (checked against the replay)."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.deal.players

    def meta_field(self, name: str) -> Any:
        """The value of ``name`` in ``meta``, or ``None`` if it is absent or ``meta`` is not
        an object (``meta`` is free-form: a record may hold ``"meta": 5``)."""
        return self.meta.get(name) if isinstance(self.meta, Mapping) else None

    @property
    def led_by_rule(self) -> bool:
        """Whether the leader may be taken to have been chosen by R14's ``first_leader``.

        What a view infers from it (under ``highest_double``, that the leader held
        the best tile dealt) is inferred only when the record allows it: ``meta``
        does not say this is hand 2 or later of a match (``"hand": 2``, led by
        the previous hand's result), and the deal agrees (the leader does hold
        the best tile). RULES.md section 8 does not check the leader, so a record
        led by anyone is valid, and analysable: nothing is inferred from who led.
        """
        hand = self.meta_field("hand")
        if isinstance(hand, int) and not isinstance(hand, bool) and hand > 1:
            return False
        return self.deal.leader_fits(self.rules)

    def to_json(self, *, with_result: bool = True) -> dict[str, Any]:
        """The record as a JSON object; ``with_result`` adds the replayed result."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "players": self.players,
            "deal": self.deal.to_json(),
            "moves": [str(m) for m in self.moves],
        }
        if self.meta is not None:
            out["meta"] = dict(self.meta) if isinstance(self.meta, Mapping) else self.meta
        if with_result:
            out["result"] = replay(self).result
        return out

    def dumps(self, *, with_result: bool = True) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_json(with_result=with_result), separators=(", ", ": "))

    def state(self) -> HandState:
        """The state after every move of the record (the record must be valid)."""
        state = HandState(self.rules, self.deal)
        for m in self.moves:
            state.push(m)
        return state

    @classmethod
    def of(cls, state: HandState, meta: Mapping[str, Any] | None = None) -> Record:
        """The record of a hand played so far."""
        return cls(state.rules, state.deal, tuple(state.moves), meta)


def parse_record(source: str | bytes | Mapping[str, Any]) -> Record:
    """Read and validate a record from JSON text or an already-decoded object.

    Every move is checked against the rules; a ``result``, if present, must
    equal the replayed one. Raises :class:`RecordError` (``WHERE: WHY``).
    """
    data = decode_json(source) if isinstance(source, (str, bytes)) else source
    if not isinstance(data, Mapping):
        raise RecordError("record", "must be a JSON object")
    for key in data:
        if key not in _KEYS:
            raise RecordError(field_path("", key), f"unknown key (a record has {', '.join(_KEYS)})")
    for key in ("rules", "players", "deal", "moves"):
        if key not in data:
            raise RecordError(key, "missing")
    raw_rules = data["rules"]
    if not isinstance(raw_rules, Mapping):
        raise RecordError("rules", "must be an object with preset and overrides")
    for key in raw_rules:
        if key not in ("preset", "overrides"):
            raise RecordError(field_path("rules", key), "unknown key (expected preset, overrides)")
    if "preset" not in raw_rules:
        raise RecordError("rules.preset", "missing")
    try:
        rules = Rules.from_preset(raw_rules["preset"], raw_rules.get("overrides", {}))
    except RulesError as e:
        raise RecordError(e.where, e.why) from None
    players = data["players"]
    try:
        rules.check_players(players)
    except RulesError as e:
        raise RecordError(e.where, e.why) from None
    deal = Deal.parse(data["deal"], rules, players)
    raw_moves = data["moves"]
    if not isinstance(raw_moves, list):
        raise RecordError("moves", "must be a list of moves")
    meta = data.get("meta")
    state = HandState(rules, deal)
    moves = []
    for i, text in enumerate(raw_moves):
        try:
            m = Move.parse(text)
        except InvalidMoveError as e:
            raise RecordError(f"moves[{i}]", str(e)) from None
        if state.outcome is not None:
            raise RecordError(f"moves[{i}]", f"{m} comes after the end of the hand "
                              f"({state.outcome.reason.value}, R18/R19)")
        if not state.legal_mask() >> m & 1:
            reason = state.explain_illegal(m)
            raise RecordError(f"moves[{i}]", f"{m} is illegal for seat {state.to_move}: "
                              f"{reason.why} ({reason.rule})")
        state.push(m)
        moves.append(m)
    record = Record(rules, deal, tuple(moves), meta, data.get("result"))
    if "result" in data:
        expected = result_of(state)
        if not _same_json(data["result"], expected):
            raise RecordError("result", f"{json_excerpt(data['result'])} does not match the "
                              f"replayed result {json.dumps(expected)}")
    return record



@dataclass(frozen=True)
class RecordLine:
    """One record of a file, or why it was refused (see :func:`parse_records`)."""

    line: int | None
    """Its line number in the file (1-based), or ``None`` when the file is one record."""
    record: Record | None
    """The record, if it was accepted."""
    error: RecordError | None = None
    """Why it was refused; its ``where`` starts with ``line K: `` for a line of a file."""


def parse_records(data: str | bytes) -> list[RecordLine]:
    r"""Every record of a file: one JSON record (pretty-printed or not), or one per line.

    This is how every command that takes records reads a file, so that what one
    writes (``play`` and ``simulate`` write a record per line) the others read.
    The file is one record if it decodes as one JSON value; otherwise, if it has
    several non-blank lines of which one at least is a JSON object on its own,
    each non-blank line is a record (JSONL); otherwise it is one record that is
    not valid JSON. A refused line does not stop the others: its
    :class:`RecordLine` holds the error, ``where`` prefixed with ``line K: ``.

    >>> [r.line for r in parse_records(b'{"a": 1}\n\n{"b": 2}\n')]
    [1, 3]
    >>> print(parse_records(b'{"a": 1}\n{"b": 2}\n')[1].error)
    line 2: b: unknown key (a record has rules, players, deal, moves, meta, result)
    """
    try:
        whole = decode_json(data)
    except RecordError as e:
        raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        numbered = [(k, line) for k, line in enumerate(raw.split(b"\n"), 1) if line.strip()]
        if len(numbered) < 2 or not any(_is_object(line) for _, line in numbered):
            return [RecordLine(None, None, e)]
        return [_line_record(k, line) for k, line in numbered]
    if not isinstance(whole, Mapping):  # (a JSON string would be parsed again as JSON text)
        return [RecordLine(None, None, RecordError("record", "must be a JSON object"))]
    try:
        return [RecordLine(None, parse_record(whole))]
    except RecordError as e:
        return [RecordLine(None, None, e)]


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(decode_json(line), Mapping)
    except RecordError:
        return False


def _line_record(k: int, line: bytes) -> RecordLine:
    try:
        return RecordLine(k, parse_record(line.removesuffix(b"\r")))
    except RecordError as e:
        return RecordLine(k, None, RecordError(f"line {k}: {e.where}", e.why))


def result_of(state: HandState) -> dict[str, Any]:
    """The result line of the replay contract for ``state``."""
    if state.outcome is None:
        return {"over": False, "to_move": state.to_move}
    return state.outcome.to_json()


def position_of(state: HandState) -> dict[str, Any]:
    """One ``--trace`` line: ply, seat to move (``None`` once over), sorted legal moves."""
    legal = [MOVE_NAMES[m] for m in move_ids(state.legal_mask())]
    return {"ply": state.ply, "to_move": None if state.outcome else state.to_move,
            "legal": legal}


@dataclass(frozen=True)
class Replay:
    """What replaying a record gives: a position per ply, the result, the final state."""

    trace: list[dict[str, Any]]
    result: dict[str, Any]
    state: HandState
    outcome: Outcome | None


def replay(record: Record, *, trace: bool = False) -> Replay:
    """Replay ``record`` (already validated); with ``trace``, one position line per ply."""
    state = HandState(record.rules, record.deal)
    lines = [position_of(state)] if trace else []
    for m in record.moves:
        state.push(m)
        if trace:
            lines.append(position_of(state))
    return Replay(lines, result_of(state), state, state.outcome)


def _same_json(a: Any, b: Any) -> bool:
    """Equality of JSON values that does not confuse ``true`` with ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, Sequence) and not isinstance(a, str) and isinstance(b, Sequence) \
            and not isinstance(b, str):
        return len(a) == len(b) and all(
            _same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return False if type(a) is not type(b) else a == b
    return type(a) is type(b) and a == b


__all__ = ["MatadorError", "Record", "RecordLine", "Replay", "decode_json", "parse_record",
           "parse_records", "position_of", "replay", "result_of"]
