"""What one seat knows: :class:`PlayerView` (RULES.md R12-R22, PROTOCOL.md "The view").

A view holds the seat's dealt hand and the public history, with the seat's
own draws revealed. Everything else (hand sizes, ends, the line, the
boneyard size, points so far, whose turn) is derived by replaying the public
history, which also validates it: a view that cannot be the view of a legal
hand raises :class:`~matador.core.errors.ViewError`. It never contains other
seats' tiles, the boneyard order or the set-aside tiles.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(3))
>>> view = PlayerView.of(state, state.to_move)
>>> sorted(view.hand) == sorted(state.hand(state.to_move)), view.boneyard_size
(True, 18)
>>> from matador.core.sampling import sample_world
>>> world = sample_world(view, random.Random(1))   # a full state consistent with the view
>>> world.hands[view.seat] == state.hands[view.seat]
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matador.core.errors import (
    InvalidMoveError,
    InvalidTileError,
    RecordError,
    RulesError,
    ViewError,
    field_path,
    quote,
)
from matador.core.moves import (
    DRAW,
    MOVE_END,
    MOVE_EXPOSED,
    MOVE_TILE,
    MOVE_TOUCH,
    MOVES,
    PLAY_BASE,
    Move,
    line_of,
)
from matador.core.rules import FirstLeader, Rules
from matador.core.state import (
    HandState,
    Illegal,
    LegalMoves,
    Outcome,
    Seat,
    explain_illegal,
    move_ids,
)
from matador.core.strictjson import decode_json
from matador.core.tables import RuleTables, tables_for
from matador.core.tiles import (
    HALVES,
    NAMES,
    NUM_TILES,
    Tile,
    TileMask,
    lead_rank,
    mask_of,
    tiles_of,
)

_VIEW_KEYS = ("rules", "players", "seat", "hand", "leader", "leader_by_rule", "moves", "scores")


@dataclass(frozen=True)
class SeatEvent:
    """A public fact about one seat, in the order it happened (for card counting and sampling).

    ``kind`` is ``"draw"`` (the seat drew an unseen tile), ``"play"`` (it laid
    ``tile``) or ``"void"`` (its hand at that moment held none of ``tiles``:
    proved by a forced draw or pass, or by a non-joining matador under
    ``matador_anytime = false``).
    """

    kind: str
    ply: int
    tile: int = -1
    tiles: TileMask = 0


@dataclass(frozen=True, eq=False)
class PlayerView:
    """Everything one seat knows about a hand, and nothing more.

    Build it with :meth:`PlayerView.of` from a live state, or
    :meth:`PlayerView.from_json` from an MEP view. ``moves`` are the public
    moves; ``own_draws`` maps the ply of each of this seat's draws to the
    tile drawn. The remaining attributes are derived and validated on
    construction.
    """

    rules: Rules
    players: int
    seat: Seat
    dealt: tuple[Tile, ...]
    """The tiles dealt to this seat, before any draw."""
    leader: Seat
    moves: tuple[Move, ...] = ()
    own_draws: Mapping[int, Tile] = field(default_factory=dict)
    leader_by_rule: bool = True
    """Whether the leader was chosen by ``first_leader`` (R14), which tells who held what."""
    scores: tuple[int, ...] | None = None
    """Match totals before this hand, if known."""
    outcome: Outcome | None = None
    """The result, once the hand is over (everything is then revealed)."""

    # derived
    hand_mask: TileMask = field(init=False)
    """This seat's tiles now, as a mask."""
    hand_sizes: tuple[int, ...] = field(init=False)
    """How many tiles each seat holds now."""
    left: int = field(init=False)
    """The left end's number, -1 before the opening."""
    right: int = field(init=False)
    """The right end's number, -1 before the opening."""
    line: tuple[tuple[int, int], ...] = field(init=False)
    """The line from left to right, each tile as (left half, right half)."""
    boneyard_size: int = field(init=False)
    """Tiles left in the boneyard."""
    set_aside_size: int = field(init=False)
    """Tiles set aside unseen (R12)."""
    to_move: Seat = field(init=False)
    """The seat to move, -1 once the hand is over."""
    drawn_this_turn: bool = field(init=False)
    """Whether the seat to move has drawn this turn."""
    points: tuple[int, ...] = field(init=False)
    """Points scored so far in this hand (R22), public."""
    movers: tuple[Seat, ...] = field(init=False)
    """The seat that made each move."""
    played: TileMask = field(init=False)
    """Tiles on the line."""
    unseen: TileMask = field(init=False)
    """Tiles this seat has not seen: other hands, the boneyard and the set-aside tiles."""
    events: tuple[tuple[SeatEvent, ...], ...] = field(init=False)
    """For each seat, the public facts about it in order (empty for this seat)."""
    empty_at: tuple[int, ...] = field(init=False)
    """Ply at which each hand last became empty, -1 if it holds tiles (R18)."""

    def __post_init__(self) -> None:
        _replay_public(self)

    # -- construction ----------------------------------------------------------

    @classmethod
    def of(cls, state: HandState, seat: Seat, *, leader_by_rule: bool = True,
           scores: Sequence[int] | None = None) -> PlayerView:
        """The view of ``seat`` in ``state``: its own tiles and the public history only.

        ``leader_by_rule`` says whether R14's ``first_leader`` chose the leader
        (false for hand 2 and later of a match); it is taken as false whatever it
        says when the deal's leader is not one R14 could have chosen
        (:meth:`Deal.leader_fits`), so a state dealt with any leader gives a view.
        ``scores`` are the match totals before this hand, if any.
        """
        if not 0 <= seat < state.players:
            raise ViewError(f"seat {seat} is not a seat of this hand (0..{state.players - 1})")
        history = state.history()
        own_draws: dict[int, Tile] = {}
        draws = 0
        for i, (s, m) in enumerate(history):
            if m == DRAW:
                if s == seat:
                    own_draws[i] = state.deal.boneyard[draws]
                draws += 1
        moves = [m for _, m in history]
        return cls(
            state.rules, state.players, seat, state.deal.hands[seat], state.deal.leader,
            tuple(moves), own_draws, leader_by_rule and state.deal.leader_fits(state.rules),
            tuple(scores) if scores is not None else None, state.outcome,
        )

    @classmethod
    def from_json(cls, source: str | Mapping[str, Any]) -> PlayerView:
        """Read an MEP view (PROTOCOL.md): own draws are written ``draw TILE``.

        Raises :class:`ViewError` naming what is wrong.
        """
        if isinstance(source, str):
            try:
                data = decode_json(source)  # strict: no NaN, no duplicate keys
            except RecordError as e:
                raise ViewError(e.why) from None
        else:
            data = source
        if not isinstance(data, Mapping):
            raise ViewError("a view is a JSON object")
        for key in data:
            if key not in _VIEW_KEYS:
                raise ViewError(f"{field_path('', key)}: unknown key "
                                f"(a view has {', '.join(_VIEW_KEYS)})")
        for key in ("rules", "players", "seat", "hand", "leader", "moves"):
            if key not in data:
                raise ViewError(f"{key}: missing")
        raw_rules = data["rules"]
        if not isinstance(raw_rules, Mapping) or "preset" not in raw_rules or any(
            k not in ("preset", "overrides") for k in raw_rules
        ):
            raise ViewError("rules: expected {\"preset\": ..., \"overrides\": {...}}")
        try:
            rules = Rules.from_preset(raw_rules["preset"], raw_rules.get("overrides", {}))
        except RulesError as e:
            raise ViewError(str(e)) from None
        players = _int(data["players"], "players")
        try:
            rules.check_players(players)
        except RulesError as e:
            raise ViewError(str(e)) from None
        seat = _int(data["seat"], "seat")
        leader = _int(data["leader"], "leader")
        for name, value in (("seat", seat), ("leader", leader)):
            if not 0 <= value < players:
                raise ViewError(f"{name}: {value} is not a seat (0..{players - 1})")
        if not isinstance(data["hand"], list):
            raise ViewError("hand: expected a list of tiles")
        try:
            dealt = tuple(Tile.parse(t) for t in data["hand"])
        except InvalidTileError as e:
            raise ViewError(f"hand: {e}") from None
        if not isinstance(data["moves"], list):
            raise ViewError("moves: expected a list of moves")
        moves: list[Move] = []
        own_draws: dict[int, Tile] = {}
        for i, text in enumerate(data["moves"]):
            if isinstance(text, str) and text.startswith("draw "):
                try:
                    own_draws[i] = Tile.parse(text[5:])
                except InvalidTileError as e:
                    raise ViewError(f"moves[{i}]: {e}") from None
                moves.append(Move.DRAW)
                continue
            try:
                moves.append(Move.parse(text))
            except InvalidMoveError as e:
                raise ViewError(f"moves[{i}]: {e}") from None
        by_rule = data.get("leader_by_rule", True)
        if not isinstance(by_rule, bool):
            raise ViewError("leader_by_rule: expected true or false")
        scores = data.get("scores")
        if scores is not None:
            if not isinstance(scores, list) or len(scores) != players or any(
                isinstance(v, bool) or not isinstance(v, int) for v in scores
            ):
                raise ViewError(f"scores: expected {players} integers")
            scores = tuple(scores)
        return cls(rules, players, seat, dealt, leader, tuple(moves), own_draws, by_rule, scores)

    def to_json(self) -> dict[str, Any]:
        """This view as an MEP view object (PROTOCOL.md)."""
        moves = [
            f"draw {self.own_draws[i]}" if i in self.own_draws else str(m)
            for i, m in enumerate(self.moves)
        ]
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "players": self.players,
            "seat": self.seat,
            "hand": [str(t) for t in self.dealt],
            "leader": self.leader,
            "moves": moves,
        }
        if not self.leader_by_rule:
            out["leader_by_rule"] = False
        if self.scores is not None:
            out["scores"] = list(self.scores)
        return out

    def dumps(self) -> str:
        """This view as one line of JSON."""
        return json.dumps(self.to_json())

    # -- reading ---------------------------------------------------------------

    @property
    def hand(self) -> list[Tile]:
        """This seat's tiles now, in index order."""
        return tiles_of(self.hand_mask)

    @property
    def ply(self) -> int:
        """How many moves have been made."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        """Whether the hand is known to be over."""
        return self.to_move < 0

    @property
    def ends(self) -> tuple[int, int] | None:
        """The left and right end values, or ``None`` before the opening."""
        return None if self.left < 0 else (self.left, self.right)

    @property
    def tables(self) -> RuleTables:
        """The legality tables of this view's rules."""
        return tables_for(self.rules)

    def legal_mask(self) -> int:
        """The move mask of this seat's legal moves (0 unless it is this seat's turn)."""
        if self.to_move != self.seat:
            return 0
        tb = tables_for(self.rules)
        can_draw = self.boneyard_size > 0 and not (self.drawn_this_turn and tb.draw_one)
        return tb.legal_mask(self.hand_mask, self.left, self.right, can_draw,
                             self.drawn_this_turn)

    def explain_illegal(self, m: Move | str | int) -> Illegal:
        """Why move ``m`` (a :class:`Move`, id or notation) is not legal for this seat now.

        See :class:`Illegal`; a move that does not parse raises ``InvalidMoveError``.
        """
        m = Move.parse(m) if isinstance(m, str) else Move(m)
        tb = tables_for(self.rules)
        return explain_illegal(tb, self.seat, self.hand_mask, self.left, self.right,
                               self.boneyard_size, self.drawn_this_turn, m)

    def legal_move_ids(self) -> tuple[int, ...]:
        """This seat's legal move ids, sorted (empty unless it is this seat's turn)."""
        return move_ids(self.legal_mask())

    @property
    def legal_moves(self) -> LegalMoves:
        """This seat's legal moves (empty unless it is this seat's turn)."""
        return LegalMoves(self.legal_mask())

    def might_hold(self, seat: Seat) -> TileMask:
        """Tiles ``seat`` may hold now, from what this seat has seen (a superset).

        Counts every unseen tile except those that a forced draw or pass
        proved absent after that seat last drew (R15-R17).
        """
        if seat == self.seat:
            return self.hand_mask
        excluded = 0
        for event in reversed(self.events[seat]):
            if event.kind == "draw":
                break
            if event.kind == "void":
                excluded |= event.tiles
        else:
            excluded |= self.lead_excluded()
        return self.unseen & ~excluded

    def lead_excluded(self) -> TileMask:
        """Tiles no other seat was dealt, proved by this seat leading by rule (R14).

        Empty unless this seat led and ``first_leader`` (highest double) chose it.
        """
        if (self.leader != self.seat or not self.leader_by_rule
                or self.rules.first_leader is not FirstLeader.HIGHEST_DOUBLE):
            return 0
        best = max(lead_rank(t) for t in self.dealt)
        return mask_of(t for t in range(NUM_TILES) if lead_rank(t) > best)

    def history(self) -> list[tuple[Seat, str]]:
        """The public history as ``(seat, notation)``, own draws shown as ``draw TILE``."""
        return [
            (s, f"draw {self.own_draws[i]}" if i in self.own_draws else str(m))
            for i, (s, m) in enumerate(zip(self.movers, self.moves, strict=True))
        ]

    def __repr__(self) -> str:
        return (f"<PlayerView seat {self.seat} ply {self.ply} hand "
                f"{' '.join(NAMES[t] for t in tiles_of(self.hand_mask))}>")


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ViewError(f"{name}: {quote(value)} is not an integer")
    return value


def _set(view: PlayerView, name: str, value: Any) -> None:
    object.__setattr__(view, name, value)


def _replay_public(view: PlayerView) -> None:
    """Replay the public history of ``view``, filling its derived fields; validate it.

    Tiles of other seats are unknown, so their plays are checked against
    what is public (ends, tiles seen, turn order, R9's blank ends, R16-R17's
    draw rules); what a move proves about a hidden hand becomes a
    :class:`SeatEvent` for the sampler, which checks the rest.
    """
    rules = view.rules
    tb = tables_for(rules)
    n = view.players
    seat = view.seat
    size = rules.hand_size_for(n)
    if len(view.dealt) != size:
        raise ViewError(f"hand: {len(view.dealt)} tiles, but hand_size is {size} (R12)")
    hand = mask_of(view.dealt)
    if hand.bit_count() != size:
        raise ViewError("hand: a tile is repeated")
    seen = hand  # every tile this seat has seen
    sizes = [size] * n
    bone = NUM_TILES - rules.set_aside - n * size
    left = right = -1
    to_move = view.leader
    drawn = False
    points = [0] * n
    empty_at = [-1] * n
    played = 0
    movers: list[int] = []
    events: list[list[SeatEvent]] = [[] for _ in range(n)]
    over = False
    passes = 0  # passes in a row that prove a seat could not play (R19)
    for key in view.own_draws:
        if not 0 <= key < len(view.moves) or view.moves[key] != DRAW:
            raise ViewError(f"moves[{key}]: an own draw must be a draw")
    for ply, m in enumerate(view.moves):
        where = f"moves[{ply}]"
        if over:
            raise ViewError(f"{where}: {MOVES[m]} comes after the end of the hand")
        s = to_move
        movers.append(s)
        own = s == seat
        if own:
            can_draw = bone > 0 and not (drawn and tb.draw_one)
            if not tb.legal_mask(hand, left, right, can_draw, drawn) >> m & 1:
                reason = explain_illegal(tb, s, hand, left, right, bone, drawn, m)
                raise ViewError(f"{where}: {MOVES[m]} is illegal: {reason.why} ({reason.rule})")
        if m < DRAW:
            t = MOVE_TILE[m]
            if not own:
                if seen >> t & 1:
                    raise ViewError(f"{where}: seat {s} cannot hold {NAMES[t]}, already seen")
                if sizes[s] == 0:
                    raise ViewError(f"{where}: seat {s} holds no tile")
                void = _check_public_play(tb, s, m, t, left, right, where)
                if void:
                    events[s].append(SeatEvent("void", ply, tiles=void))
                events[s].append(SeatEvent("play", ply, tile=t))
            else:
                hand &= ~(1 << t)
            seen |= 1 << t
            played |= 1 << t
            sizes[s] -= 1
            drawn = False
            passes = 0
            points[s] += tb.play_points(m, left, right)  # R22
            if m < PLAY_BASE:
                left, right = HALVES[t]
            elif MOVE_END[m]:
                right = MOVE_EXPOSED[m]
            else:
                left = MOVE_EXPOSED[m]
            if sizes[s] == 0:
                if tb.ends_hand:
                    over = True
                    to_move = -1
                    continue
                empty_at[s] = ply + 1
            if bone == 0 and _public_end(tb, sizes, left, right, played):
                over = True
                to_move = -1
                continue
            to_move = _next(tb, s, n, sizes, bone)
        elif m == DRAW:
            if bone == 0:
                raise ViewError(f"{where}: draw from an empty boneyard (R16)")
            if drawn and tb.draw_one:
                raise ViewError(f"{where}: a second draw in one turn under draw = one (R16)")
            if left < 0:
                raise ViewError(f"{where}: the leader must open, not draw (R15)")
            if own:
                if ply not in view.own_draws:
                    raise ViewError(f"{where}: this seat's draw must name its tile ('draw 2-5')")
                t = view.own_draws[ply]
                if seen >> t & 1:
                    raise ViewError(f"{where}: drew {NAMES[t]}, which was already seen")
                hand |= 1 << t
                seen |= 1 << t
            else:
                if ply in view.own_draws:
                    raise ViewError(f"{where}: only this seat's own draws name a tile")
                events[s].append(SeatEvent("void", ply, tiles=tb.forced_free(left, right,
                                                                              tb.optional)))
                events[s].append(SeatEvent("draw", ply))
            bone -= 1
            sizes[s] += 1
            drawn = True
            passes = 0
            empty_at[s] = -1
            if bone == 0 and _public_end(tb, sizes, left, right, played):
                over = True
                to_move = -1
        else:
            if left < 0:
                raise ViewError(f"{where}: the leader must open, not pass (R15)")
            if bone > 0 and not (drawn and tb.draw_one):
                raise ViewError(f"{where}: seat {s} may draw, so may not pass (R17)")
            optional = tb.optional and drawn and tb.draw_one
            if bone == 0 and not optional:
                # This pass proves the seat could not play at all. After the last play or
                # draw someone could (else the hand was blocked then, R19), and passes change
                # no hand: a pass by every seat holding tiles is one too many.
                passes += 1
                if passes >= sum(1 for size in sizes if size):
                    raise ViewError(f"{where}: every seat holding tiles has now passed in turn "
                                    "with the boneyard empty, so the hand was already blocked "
                                    "(R19)")
            if not own:
                events[s].append(SeatEvent("void", ply, tiles=tb.forced_free(left, right,
                                                                              optional)))
            points[s] -= tb.pass_penalty
            drawn = False
            to_move = _next(tb, s, n, sizes, bone)
    for key in view.own_draws:
        if movers[key] != seat:
            raise ViewError(f"moves[{key}]: names a drawn tile, but seat {movers[key]} drew")
    _check_leader(view, seen, events, sizes)
    if view.outcome is not None:
        to_move = -1
        points = list(view.outcome.points)  # R21's end-of-hand points included
    _set(view, "hand_mask", hand)
    _set(view, "hand_sizes", tuple(sizes))
    _set(view, "left", left)
    _set(view, "right", right)
    _set(view, "line", line_of(view.moves))
    _set(view, "boneyard_size", bone)
    _set(view, "set_aside_size", rules.set_aside)
    _set(view, "to_move", to_move)
    _set(view, "drawn_this_turn", drawn)
    _set(view, "points", tuple(points))
    _set(view, "movers", tuple(movers))
    _set(view, "played", played)
    _set(view, "unseen", ((1 << NUM_TILES) - 1) & ~seen)
    _set(view, "events", tuple(tuple(e) for e in events))
    _set(view, "empty_at", tuple(empty_at))


def _check_leader(view: PlayerView, seen: TileMask, events: Sequence[Sequence[SeatEvent]],
                  sizes: Sequence[int]) -> None:
    """R14: a leader chosen by ``highest_double`` held the best tile dealt.

    If this seat leads, every better tile than its best was left undealt. If
    another seat leads, some tile better than this seat's best is one the
    leader could have been dealt: one it played that no earlier void of its
    excluded, or an unseen one no void of its excludes (if it still holds
    tiles). Without one, no deal gives this view (a later hand of a match says
    ``leader_by_rule`` false).
    """
    if not view.leader_by_rule or view.rules.first_leader is not FirstLeader.HIGHEST_DOUBLE:
        return
    if view.leader == view.seat:
        # No other seat was dealt a tile better than this seat's best: they were all in the
        # boneyard or set aside.
        best = max(view.dealt, key=lead_rank)
        better = sum(lead_rank(t) > lead_rank(best) for t in range(NUM_TILES))
        undealt = NUM_TILES - view.players * len(view.dealt)
        if better > undealt:
            raise ViewError(
                f"leader: seat {view.seat} cannot have led by R14 (highest_double) with "
                f"{NAMES[best]}: {better} better tiles would have been left undealt, but only "
                f"{undealt} are; for a leader chosen otherwise (a later hand of a match) the "
                "view says \"leader_by_rule\": false")
        return
    possible = 0
    voids = 0
    for event in events[view.leader]:
        if event.kind == "void":
            voids |= event.tiles
        elif event.kind == "play" and not voids >> event.tile & 1:
            possible |= 1 << event.tile
    if sizes[view.leader]:
        possible |= ((1 << NUM_TILES) - 1) & ~seen & ~voids
    best = max(view.dealt, key=lead_rank)
    if not any(lead_rank(t) > lead_rank(best) for t in range(NUM_TILES) if possible >> t & 1):
        raise ViewError(
            f"leader: seat {view.leader} cannot have led by R14 (highest_double): it would "
            f"have held a better tile than {NAMES[best]}, dealt to seat {view.seat}, and no "
            "such tile is one it could have held; for a leader chosen otherwise (a later "
            "hand of a match) the view says \"leader_by_rule\": false")


def _check_public_play(tb: RuleTables, s: int, m: int, t: int, left: int, right: int,
                       where: str) -> TileMask:
    """Check what is public about another seat's play; return tiles it proves absent."""
    if m < PLAY_BASE:
        if left >= 0:
            raise ViewError(f"{where}: an opening after the opening (R6)")
        return 0
    if left < 0:
        raise ViewError(f"{where}: the hand starts with an opening play (R6)")
    e = MOVE_END[m]
    v = right if e else left
    is_mat = bool(tb.matadors >> t & 1)
    joins = MOVE_TOUCH[m] + v == tb.target and (v != 0 or is_mat)
    if not joins and not is_mat:
        rule = "R9"
        raise ViewError(f"{where}: {MOVES[m]} is illegal against {left}|{right} ({rule})")
    if not joins and not tb.anytime:
        # R10: a non-joining matador proves the mover had no joining play at all.
        void = tb.join[left] | tb.join[right]
        if void >> t & 1:
            raise ViewError(f"{where}: {MOVES[m]} does not join although {NAMES[t]} could "
                            "(R10, matador_anytime = false)")
        return void
    return 0


def _public_end(tb: RuleTables, sizes: Sequence[int], left: int, right: int,
                played: TileMask) -> bool:
    """With the boneyard empty, is the hand over by what everyone can see?

    R18 ``after_boneyard``: some hand is empty. R19: no tile off the line can be
    played on the ends (so no hand holds one; for instance both ends blank and
    every matador on the line). Other blocks depend on hidden hands.
    """
    return (tb.after_boneyard and 0 in sizes) or not (
        tb.playable_against[left][right] & ~played & ((1 << NUM_TILES) - 1))


def _next(tb: RuleTables, s: int, n: int, sizes: Sequence[int], bone: int) -> int:
    s = (s + 1) % n
    if tb.never_out and bone == 0:
        for _ in range(n):
            if sizes[s]:
                break
            s = (s + 1) % n
    return s


__all__ = ["PlayerView", "SeatEvent"]
