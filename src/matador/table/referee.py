"""The referee: one table's game (a match, or a single hand), with no I/O of its own.

:class:`Table` owns the true state. It deals (:meth:`Table.deal`), tells whose
turn it is, gives each seat only its :class:`~matador.core.view.PlayerView`,
validates every move (:meth:`Table.submit`), records forfeits, and emits a
versioned sequence of :class:`~matador.table.events.Event` values worded per
recipient. It never waits for anyone: the drivers of :mod:`matador.table.drive`
ask seats for moves (synchronously for the arena and the terminal, or from an
asyncio loop), and the server feeds it moves that arrive over the network.
Everything the terminal game, the arena, the records and the server show or
store comes from here, so there is one referee for every kind of table.

>>> import random
>>> from matador.core.rules import Rules
>>> table = Table(Rules.from_preset("classic"), 2, single_hand=True)
>>> events = table.deal(random.Random(7))
>>> [e.kind for e in events], table.to_move
(['hand_start'], 1)
>>> view = table.view(1)                    # what seat 1 knows, and nothing more
>>> events = table.submit(1, view.legal_move_ids()[0])
>>> events[0].for_recipient(0)["move"], table.version
('2-3', 3)
>>> table.submit(1, "draw")
Traceback (most recent call last):
...
matador.table.referee.TableError: not_your_turn: seat 1 is not to move (seat 0 is)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from matador.core.errors import InvalidMoveError, MatadorError
from matador.core.match import Match
from matador.core.moves import DRAW, MOVE_END, MOVE_TILE, PASS, Move
from matador.core.record import Record
from matador.core.rules import Rules
from matador.core.score import breakdown
from matador.core.state import Deal, HandState, Seat
from matador.core.tiles import NAMES
from matador.core.view import PlayerView
from matador.table.events import SPECTATOR, Event, EventKind, Recipient


class TableError(MatadorError):
    """A move or request the referee refuses; nothing changed.

    ``code`` is stable, for programs: ``not_a_seat``, ``no_hand`` (no hand is
    being played), ``game_over``, ``not_your_turn``, ``invalid_move`` (does not
    parse), ``illegal`` (``rule`` names the rule of RULES.md), ``hand_in_play``
    (a deal while a hand is on), ``bad_deal``.
    """

    def __init__(self, code: str, why: str, rule: str = "") -> None:
        super().__init__(f"{code}: {why}")
        self.code = code
        self.why = why
        self.rule = rule


class Phase(StrEnum):
    """Where the game stands."""

    WAITING = "waiting"
    """No hand is being played: the next one can be dealt."""
    PLAYING = "playing"
    """A hand is on."""
    OVER = "over"
    """The game is over (match decided, single hand played, hand limit, or a forfeit)."""


@dataclasses.dataclass(frozen=True)
class Forfeit:
    """A seat lost the game by a fault; the game is over."""

    seat: Seat
    kind: str
    """``illegal``, ``invalid``, ``error``, ``timeout``, ``start``, ``crash``, ``abandoned``..."""
    message: str
    hand: int
    """Hands finished before the fault, plus one: the hand being played, or the next one
    for a fault between hands."""
    ply: int
    """Moves of the hand being played (or of the last one, between hands) before the fault."""


class Table:
    """The referee of one game at one table (see the module docstring).

    ``single_hand`` ends the game after one hand, won by its winner (the
    arena's default game); otherwise it is a match to ``rules.match_target``
    (R23). ``max_hands`` ends a match still undecided after that many hands,
    without a winner. ``meta`` is added to the ``meta`` of every record (for
    example the seats' specs).
    """

    def __init__(self, rules: Rules, players: int, *, single_hand: bool = False,
                 max_hands: int | None = None, meta: Mapping[str, Any] | None = None) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.single_hand = single_hand
        self.max_hands = max_hands
        self.meta = dict(meta or {})
        self._match = Match(rules, players, random.Random(0))
        self._events: list[Event] = []
        self._state: HandState | None = None
        self._last: HandState | None = None
        self._context: tuple[bool, tuple[int, ...]] = (True, (0,) * players)
        self._hand_meta: dict[str, Any] = {}
        self._over = False
        self._winner: Seat | None = None
        self._end_reason = ""
        self.forfeit_info: Forfeit | None = None
        """The forfeit that ended the game, if one did."""
        self._emit(EventKind.MATCH_START, {
            "rules": rules.to_json(), "players": players, "single_hand": single_hand,
            "match_target": 0 if single_hand else rules.match_target})

    # -- reading -----------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The version of the last event (the table's state version)."""
        return len(self._events)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, in order (event ``k`` has version ``k + 1``)."""
        return tuple(self._events)

    def events_since(self, version: int, recipient: Recipient) -> list[dict[str, Any]]:
        """The events after ``version``, as ``recipient`` may see them."""
        return [e.for_recipient(recipient) for e in self._events[max(0, version):]]

    @property
    def phase(self) -> Phase:
        """Whether a hand can be dealt, is being played, or the game is over."""
        if self._over:
            return Phase.OVER
        return Phase.PLAYING if self._state is not None else Phase.WAITING

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self._over

    @property
    def winner(self) -> Seat | None:
        """The seat that won the game, once over (``None``: no winner, or a forfeit)."""
        return self._winner

    @property
    def end_reason(self) -> str:
        """Why the game ended: ``target``, ``single_hand``, ``hand_limit``, ``forfeit``
        (empty while it goes on)."""
        return self._end_reason

    @property
    def to_move(self) -> Seat | None:
        """The seat whose turn it is, or ``None`` when no hand is being played."""
        return self._state.to_move if self._state is not None else None

    @property
    def hand_number(self) -> int:
        """The hand being played or last played (1-based; 0 before the first deal)."""
        done = self._match.hand_number
        return done + 1 if self._state is not None else done

    @property
    def scores(self) -> tuple[int, ...]:
        """Match totals over the finished hands."""
        return tuple(self._match.scores)

    @property
    def scores_before(self) -> tuple[int, ...]:
        """Totals before the current (or last) hand."""
        return self._context[1]

    @property
    def next_leader(self) -> Seat | None:
        """The leader the rules give the next hand (R23), or ``None`` when R14's
        ``first_leader`` chooses it from the deal (before the first hand).

        A host that deals itself (a provably fair shuffle) builds its
        :class:`~matador.core.state.Deal` with this leader.
        """
        return self._match.next_leader

    @property
    def leader_by_rule(self) -> bool:
        """Whether R14's ``first_leader`` chose the current (or last) hand's leader."""
        return self._context[0]

    @property
    def records(self) -> tuple[Record, ...]:
        """The finished hands, as records (their ``meta`` has the hand number, the scores
        before it and the table's ``meta``)."""
        return tuple(self._match.records)

    def unfinished_record(self) -> Record | None:
        """The hand being played, as a record without result (``None`` between hands)."""
        if self._state is None:
            return None
        return Record(self.rules, self._state.deal, tuple(self._state.moves),
                      self._record_meta(unfinished=True))

    def view(self, seat: Seat) -> PlayerView:
        """What ``seat`` knows of the current hand (or of the last one, between hands)."""
        self._check_seat(seat)
        state = self._state or self._last
        if state is None:
            raise TableError("no_hand", "no hand has been dealt yet")
        by_rule, scores = self._context
        return PlayerView.of(state, seat, leader_by_rule=by_rule,
                             scores=None if self.single_hand else scores)

    def brief(self, recipient: Recipient) -> dict[str, Any]:
        """The current (or last) hand at a glance for ``recipient``, cheaply (no replay):
        ``hand``, ``to_move``, ``ply``, ``ends`` (``None`` before the opening),
        ``hand_sizes``, ``boneyard``, ``points``; for a seat also its ``tiles`` and
        ``legal`` move ids (empty unless it is to move). Empty before the first deal.

        A host that sends a view with every event uses this, and the full
        :func:`~matador.table.snapshot.snapshot` when a client (re)connects.

        >>> import random
        >>> from matador.core.rules import Rules
        >>> t = Table(Rules.from_preset("classic"), 2, single_hand=True)
        >>> _ = t.deal(random.Random(7))
        >>> b = t.brief(1)
        >>> b["to_move"], len(b["tiles"]), b["legal"] == list(t.view(1).legal_move_ids())
        (1, 5, True)
        >>> "tiles" in t.brief(SPECTATOR), t.brief(0)["legal"]
        (False, [])
        """
        if recipient != SPECTATOR:
            self._check_seat(recipient)
        state = self._state or self._last
        if state is None:
            return {}
        playing = state is self._state
        out: dict[str, Any] = {
            "hand": self.hand_number,
            "to_move": state.to_move if playing else None,
            "ply": state.ply,
            "ends": None if state.left < 0 else [state.left, state.right],
            "hand_sizes": list(state.hand_sizes()),
            "boneyard": state.boneyard_size,
            "points": list(state.points),
        }
        if recipient != SPECTATOR:
            out["tiles"] = [NAMES[t] for t in state.hand(recipient)]
            out["legal"] = (list(state.legal_move_ids())
                            if playing and state.to_move == recipient else [])
        return out

    @property
    def ply(self) -> int:
        """Moves played in the current hand (0 between hands)."""
        return self._state.ply if self._state is not None else 0

    def legal_mask(self) -> int:
        """The move mask of the seat to move (0 between hands): a fast path for drivers."""
        return self._state.legal_mask() if self._state is not None else 0

    def legal_moves(self, seat: Seat) -> tuple[Move, ...]:
        """The moves ``seat`` may make now (empty unless it is to move)."""
        if self._state is None or self._state.to_move != seat:
            return ()
        return tuple(self._state.legal_moves)

    def truth(self) -> HandState:
        """A copy of the true state of the current hand: hidden information.

        Only for the arena's ``cheater`` (a measuring stick that sees every
        hand) and for tests; never shown to a seat.
        """
        if self._state is None:
            raise TableError("no_hand", "no hand is being played")
        return self._state.copy()

    # -- acting ------------------------------------------------------------------------

    def deal(self, rng: random.Random | None = None, *, deal: Deal | None = None,
             meta: Mapping[str, Any] | None = None) -> list[Event]:
        """Deal the next hand: shuffled by ``rng`` (R12, R14), or the given ``deal``.

        A given deal (a stored one, or a provably fair shuffle) must have the
        leader the rules choose (R14, R23). ``meta`` is added to this hand's
        record. Returns the events it emitted (``hand_start``).
        """
        if self._over:
            raise TableError("game_over", "the game is over")
        if self._state is not None:
            raise TableError("hand_in_play", f"hand {self.hand_number} is still being played")
        by_rule = self._match.leader_by_rule
        scores = tuple(self._match.scores)
        try:
            if deal is not None:
                state = self._match.start_hand(deal)
            else:
                self._match.rng = rng if rng is not None else random.Random()
                state = self._match.next_hand()
        except MatadorError as e:
            raise TableError("bad_deal", str(e)) from None
        self._state = state
        self._context = (by_rule, scores)
        self._hand_meta = dict(meta or {})
        d = state.deal
        return [self._emit(EventKind.HAND_START, {
            "hand": self.hand_number, "leader": d.leader, "leader_by_rule": by_rule,
            "scores": list(scores), "hand_sizes": [len(h) for h in d.hands],
            "boneyard": len(d.boneyard), "set_aside": len(d.set_aside),
            "to_move": state.to_move,
        }, {s: {"tiles": [NAMES[t] for t in d.hands[s]]} for s in range(self.players)})]

    def submit(self, seat: Seat, move: Move | int | str) -> list[Event]:
        """Validate and apply ``seat``'s move; return the events it caused.

        Raises :class:`TableError` (``not_a_seat``, ``game_over``, ``no_hand``,
        ``not_your_turn``, ``invalid_move``, ``illegal`` with the rule) and
        changes nothing when it refuses.
        """
        self._check_seat(seat)
        if self._over:
            raise TableError("game_over", "the game is over")
        state = self._state
        if state is None:
            raise TableError("no_hand", "no hand is being played")
        if state.to_move != seat:
            raise TableError("not_your_turn",
                             f"seat {seat} is not to move (seat {state.to_move} is)")
        m = _parse_move(move)
        if not state.legal_mask() >> m & 1:
            reason = state.explain_illegal(m)
            raise TableError("illegal", f"{m} is illegal: {reason.why} ({reason.rule})",
                             reason.rule)
        before = (state.left, state.right)
        points = list(state.points)
        public: dict[str, Any] = {"hand": self.hand_number, "ply": state.ply, "seat": seat,
                                  "move": str(m), "id": int(m)}
        private: dict[int, dict[str, Any]] = {}
        if m == DRAW:
            public["type"] = "draw"
            private[seat] = {"tile": NAMES[state.boneyard[0]]}
        elif m == PASS:
            public["type"] = "pass"
        else:
            public["type"] = "play"
            public["tile"] = NAMES[MOVE_TILE[m]]
            public["end"] = None if before[0] < 0 else "LR"[MOVE_END[m]]
        public["before"] = list(before)
        state.push(m)
        public["ends"] = [state.left, state.right]
        public["scored"] = [b - a for a, b in zip(points, state.points, strict=True)]
        public["to_move"] = state.to_move if state.outcome is None else None
        events = [self._emit(EventKind.MOVE, public, private)]
        if state.outcome is not None:
            events.extend(self._finish_hand(state))
        return events

    def forfeit(self, seat: Seat, kind: str, message: str) -> list[Event]:
        """End the game: ``seat`` loses it by a fault of kind ``kind`` (see :class:`Forfeit`)."""
        self._check_seat(seat)
        if self._over:
            raise TableError("game_over", "the game is over")
        last = self._state or self._last
        info = Forfeit(seat, kind, message, self._match.hand_number + 1,
                       last.ply if last is not None else 0)
        self.forfeit_info = info
        self._over = True
        self._winner = None
        self._end_reason = "forfeit"
        return [
            self._emit(EventKind.FORFEIT, {"seat": seat, "reason": kind, "message": message,
                                           "hand": info.hand, "ply": info.ply}),
            self._emit(EventKind.MATCH_END, {"winner": None, "reason": "forfeit",
                                             "scores": list(self._match.scores)}),
        ]

    def add_event(self, kind: str, public: Mapping[str, Any],
                  private: Mapping[int, Mapping[str, Any]] | None = None,
                  audience: Iterable[Recipient] | None = None) -> Event:
        """Append an event of the table's host (a chat line, presence, a clock...) to the
        sequence, so that every recipient sees one versioned stream."""
        return self._emit(kind, public, private or {},
                          frozenset(audience) if audience is not None else None)

    # -- inside ------------------------------------------------------------------------

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise TableError("not_a_seat", f"{seat!r:.20} is not a seat (0..{self.players - 1})")

    def _emit(self, kind: str, public: Mapping[str, Any],
              private: Mapping[int, Mapping[str, Any]] | None = None,
              audience: frozenset[int] | None = None) -> Event:
        event = Event(len(self._events) + 1, str(kind), dict(public), dict(private or {}),
                      audience)
        self._events.append(event)
        return event

    def _record_meta(self, *, unfinished: bool = False) -> dict[str, Any]:
        meta: dict[str, Any] = {"hand": self.hand_number, "scores_before": list(self._context[1])}
        meta.update(self.meta)
        meta.update(self._hand_meta)
        if unfinished:
            meta["unfinished"] = True
        return meta

    def _finish_hand(self, state: HandState) -> list[Event]:
        match = self._match
        number = self.hand_number
        match.finish_hand(state)
        record = match.records[-1]
        extra = {**self.meta, **self._hand_meta}
        if extra:
            record = dataclasses.replace(record, meta={**dict(record.meta or {}), **extra})
            match.records[-1] = record
        self._last = state
        self._state = None
        outcome = state.outcome
        assert outcome is not None
        events = [self._emit(EventKind.HAND_END, {
            "hand": number,
            "result": outcome.to_json(),
            "tiles": [[NAMES[t] for t in state.hand(s)] for s in range(self.players)],
            "breakdown": [b.to_json() for b in breakdown(record)],
            "scores_before": list(self._context[1]),
            "scores": list(match.scores),
            "record": record.to_json(),
        })]
        if self.single_hand:
            self._end(outcome.winner, "single_hand")
        elif match.is_over:
            self._end(match.winner, "target")
        elif self.max_hands is not None and match.hand_number >= self.max_hands:
            self._end(None, "hand_limit")
        if self._over:
            events.append(self._emit(EventKind.MATCH_END, {
                "winner": self._winner, "reason": self._end_reason,
                "scores": list(match.scores)}))
        return events

    def _end(self, winner: Seat | None, reason: str) -> None:
        self._over = True
        self._winner = winner
        self._end_reason = reason


def _parse_move(move: Move | int | str) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        try:
            return Move.parse(move)
        except InvalidMoveError as e:
            raise TableError("invalid_move", str(e)) from None
    if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < 128:
        raise TableError("invalid_move", f"{move!r:.40} is not a move")
    try:
        return Move(move)
    except (InvalidMoveError, ValueError) as e:
        raise TableError("invalid_move", str(e)) from None


def recipients(players: int) -> Sequence[Recipient]:
    """Every recipient at a table of ``players``: each seat, then :data:`SPECTATOR`."""
    return [*range(players), SPECTATOR]


__all__ = ["Forfeit", "Phase", "Table", "TableError", "recipients"]
