"""One hand of Matador: the deal, the state, its legal moves and its outcome (R5-R22).

:class:`HandState` is mutable, like a python-chess ``Board``, and offers two
paths:

* :meth:`HandState.play` parses and validates (for user input), raising
  :class:`~matador.core.errors.IllegalMoveError` that names the rule;
* :meth:`HandState.push` trusts the caller (for search), with
  :meth:`HandState.copy` to branch.

>>> from matador.core.rules import Rules
>>> deal = Deal.parse({"hands": [["0-3", "2-4", "1-1", "6-6", "3-3"],
...                              ["2-2", "0-4", "4-6", "0-6", "1-4"]],
...                    "boneyard": ["0-0", "2-5", "1-6", "5-6", "4-4", "3-5", "0-2", "2-6",
...                                 "4-5", "1-2", "0-5", "2-3", "3-4", "1-3", "5-5", "0-1",
...                                 "1-5", "3-6"],
...                    "set_aside": [], "leader": 0}, Rules.from_preset("classic"), 2)
>>> state = HandState(Rules.from_preset("classic"), deal)
>>> [str(m) for m in state.legal_moves]
['0-3', '1-1', '2-4', '3-3', '6-6']
>>> state.play("0-3")
Move.parse('0-3')
>>> [str(m) for m in state.legal_moves]
['R4-0', 'R4-1', 'R4-6']
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from matador.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    RulesError,
    field_path,
    quote,
)
from matador.core.moves import (
    DRAW,
    MOVE_END,
    MOVE_EXPOSED,
    MOVE_NAMES,
    MOVE_TILE,
    MOVE_TOUCH,
    MOVES,
    PASS,
    PLAY_BASE,
    Move,
    line_of,
)
from matador.core.rules import FirstLeader, Rules, resolve_preset
from matador.core.tables import RuleTables, tables_for
from matador.core.tiles import (
    HALVES,
    LEAD_RANK,
    NAMES,
    NUM_TILES,
    TILES,
    Tile,
    TileMask,
    mask_of,
    pips_of,
    tiles_of,
)

Seat = int
"""A seat number, 0..players-1 (R13)."""


class Reason(StrEnum):
    """Why a hand ended."""

    OUT = "out"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class Outcome:
    """The result of a finished hand (RULES.md section 8)."""

    winner: Seat | None
    """The winning seat, or ``None`` for a hand with no winner (R20)."""
    reason: Reason
    """``out`` (a player went out, R18) or ``blocked`` (R19)."""
    pips: tuple[int, ...]
    """The pips left in each hand (R2)."""
    points: tuple[int, ...]
    """What each seat scored in this hand (R21 + R22)."""

    def to_json(self) -> dict[str, Any]:
        """The result object of the replay contract."""
        return {
            "winner": self.winner,
            "reason": self.reason.value,
            "pips": list(self.pips),
            "points": list(self.points),
        }


@dataclass(frozen=True)
class Deal:
    """A dealt hand (R12, R14): each seat's tiles, the boneyard in draw order, the leader."""

    hands: tuple[tuple[Tile, ...], ...]
    """The tiles dealt to each seat."""
    boneyard: tuple[Tile, ...]
    """The boneyard; draws take its first remaining tile (R12)."""
    set_aside: tuple[Tile, ...]
    """Tiles removed unseen (R12)."""
    leader: Seat
    """The seat that opens (R14 already applied)."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hands)

    @classmethod
    def random(cls, rules: Rules | str, players: int, rng: random.Random | int,
               leader: Seat | None = None) -> Deal:
        """Shuffle and deal (R12); the leader is ``leader`` or chosen by ``first_leader`` (R14).

        ``rules`` may be a preset name, ``rng`` a seed (see :func:`rules_of`,
        :func:`rng_of`). A player count the rules cannot deal raises
        :class:`~matador.core.errors.RulesError`.
        """
        rules, rng = rules_of(rules), rng_of(rng)
        rules.check_players(players)
        if leader is not None and (isinstance(leader, bool) or not isinstance(leader, int)
                                   or not 0 <= leader < players):
            raise RulesError(f"{quote(leader)} is not a seat (0..{players - 1})", "leader")
        tiles = list(TILES)
        rng.shuffle(tiles)
        k = rules.set_aside
        size = rules.hand_size_for(players)
        end = k + players * size
        hands = tuple([tuple(tiles[i:i + size]) for i in range(k, end, size)])
        if leader is None:
            if rules.first_leader is FirstLeader.LOT:
                leader = rng.randrange(players)
            else:  # R14: the holder of the best tile dealt
                best = max(tiles[k:end], key=LEAD_RANK.__getitem__)
                leader = (tiles.index(best) - k) // size
        return cls(hands, tuple(tiles[end:]), tuple(tiles[:k]), leader)

    @classmethod
    def parse(cls, data: Any, rules: Rules, players: int, where: str = "deal") -> Deal:
        """Read and validate the ``deal`` object of a record (RULES.md section 8).

        Raises :class:`RecordError` naming the field: every tile exactly once,
        ``hand_size`` tiles per hand, ``set_aside`` tiles set aside, a valid
        leader.
        """
        if not isinstance(data, Mapping):
            raise RecordError(where, "must be an object")
        for key in data:
            if key not in ("hands", "boneyard", "set_aside", "leader"):
                raise RecordError(field_path(where, key), "unknown key (expected hands, boneyard, "
                                  "set_aside, leader)")
        for key in ("hands", "boneyard", "set_aside", "leader"):
            if key not in data:
                raise RecordError(f"{where}.{key}", "missing")
        seen: dict[int, str] = {}

        def tiles(value: Any, path: str) -> tuple[Tile, ...]:
            if not isinstance(value, list):
                raise RecordError(path, "must be a list of tiles")
            out = []
            for i, text in enumerate(value):
                p = f"{path}[{i}]"
                try:
                    tile = Tile.parse(text)
                except ValueError as e:
                    raise RecordError(p, str(e)) from None
                if tile in seen:
                    raise RecordError(p, f"tile {tile} is used twice (also at {seen[tile]})")
                seen[tile] = p
                out.append(tile)
            return tuple(out)

        raw_hands = data["hands"]
        if not isinstance(raw_hands, list):
            raise RecordError(f"{where}.hands", "must be a list of hands")
        if len(raw_hands) != players:
            raise RecordError(f"{where}.hands",
                              f"{len(raw_hands)} hands for {players} players")
        size = rules.hand_size_for(players)
        hands = []
        for i, raw in enumerate(raw_hands):
            hand = tiles(raw, f"{where}.hands[{i}]")
            if len(hand) != size:
                raise RecordError(f"{where}.hands[{i}]",
                                  f"{len(hand)} tiles, but hand_size is {size} (R12)")
            hands.append(hand)
        set_aside = tiles(data["set_aside"], f"{where}.set_aside")
        if len(set_aside) != rules.set_aside:
            raise RecordError(f"{where}.set_aside",
                              f"{len(set_aside)} tiles, but set_aside is {rules.set_aside} (R12)")
        boneyard = tiles(data["boneyard"], f"{where}.boneyard")
        if len(seen) != NUM_TILES:
            missing = [NAMES[t] for t in range(NUM_TILES) if t not in seen]
            raise RecordError(where, f"tile{'s' if len(missing) > 1 else ''} "
                              f"{', '.join(missing)} missing: the deal must use each "
                              "of the 28 tiles exactly once (R1)")
        leader = data["leader"]
        if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < players:
            raise RecordError(f"{where}.leader",
                              f"{quote(leader)} is not a seat (0..{players - 1})")
        return cls(tuple(hands), boneyard, set_aside, leader)

    def leader_fits(self, rules: Rules) -> bool:
        """Whether R14's ``first_leader`` could have chosen this deal's leader: under
        ``highest_double``, the leader holds the best tile dealt (a draw by lot fits anyone)."""
        return (rules.first_leader is not FirstLeader.HIGHEST_DOUBLE
                or highest_double_leader(self.hands) == self.leader)

    def to_json(self) -> dict[str, Any]:
        """The ``deal`` object of a record."""
        return {
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "boneyard": [str(t) for t in self.boneyard],
            "set_aside": [str(t) for t in self.set_aside],
            "leader": self.leader,
        }


def highest_double_leader(hands: Sequence[Sequence[int]]) -> Seat:
    """The seat holding the highest double, else the tile with most pips (R14)."""
    best = [max(LEAD_RANK[t] for t in hand) for hand in hands]
    return best.index(max(best))


def rules_of(rules: Rules | str) -> Rules:
    """``rules`` itself, or the preset it names (``"classic"``, or an alias such as ``"czech"``).

    Anything else raises :class:`~matador.core.errors.RulesError`.

    >>> rules_of("czech").preset
    'paluba'
    """
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.from_preset(resolve_preset(rules))
    raise RulesError(f"expected Rules or a preset name, got {quote(rules)}", "rules")


def rng_of(rng: random.Random | int) -> random.Random:
    """``rng`` itself, or ``random.Random(rng)`` for an integer seed.

    Anything else (``None`` included: randomness is always injected) raises
    :class:`~matador.core.errors.RulesError`.
    """
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return random.Random(rng)
    raise RulesError(f"expected a random.Random or an integer seed, got {quote(rng)}", "rng")


class LegalMoves:
    """The legal moves of a position: a cheap view with ``in``, ``len``, ``bool``, iteration.

    Iteration yields :class:`Move` values in id order, which is the plain
    string order of their notation.
    """

    __slots__ = ("_mask",)

    def __init__(self, mask: int) -> None:
        self._mask = mask

    @property
    def mask(self) -> int:
        """The 128-bit move mask (bit ``m`` set for move id ``m``)."""
        return self._mask

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 128:
            return False
        return bool(self._mask >> move & 1)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self._mask)

    def __iter__(self) -> Iterator[Move]:
        mask = self._mask
        while mask:
            low = mask & -mask
            yield MOVES[low.bit_length() - 1]
            mask ^= low

    def __repr__(self) -> str:
        return f"<LegalMoves {' '.join(MOVE_NAMES[m] for m in self)}>"


_MASK_CACHE: dict[int, tuple[int, ...]] = {}


def move_ids(mask: int) -> tuple[int, ...]:
    """The move ids of a move mask, sorted (cached: masks repeat a lot in playouts)."""
    ids = _MASK_CACHE.get(mask)
    if ids is None:
        out = []
        m = mask
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        ids = tuple(out)
        if len(_MASK_CACHE) < 200_000:
            _MASK_CACHE[mask] = ids
    return ids


_NO_HISTORY: tuple[()] = ()
#: For each play id: (bit of its tile, end (-1 for an opening), exposed half).
_PLAY_INFO: tuple[tuple[int, int, int], ...] = tuple(
    (1 << MOVE_TILE[m], MOVE_END[m], MOVE_EXPOSED[m]) for m in range(DRAW)
)
#: ``_NEXT_SEAT[n][s]`` is the seat after ``s`` at a table of ``n`` (R13).
_NEXT_SEAT: tuple[tuple[int, ...], ...] = tuple(
    tuple((s + 1) % n for s in range(n)) if n else () for n in range(5)
)


class HandState:
    """The full state of one hand: every hand, the boneyard, the line's ends, the history.

    It holds hidden information: give players a :meth:`view`, never the
    state. ``push`` is the unchecked fast path; ``play`` validates.
    """

    __slots__ = (
        "_bone",
        "_bpos",
        "_empty_at",
        "_hist",
        "_tb",
        "deal",
        "drawn",
        "hands",
        "left",
        "outcome",
        "played",
        "players",
        "ply",
        "points",
        "right",
        "rules",
        "to_move",
    )

    rules: Rules
    deal: Deal
    players: int
    hands: list[TileMask]
    left: int
    right: int
    to_move: int
    drawn: bool
    points: list[int]
    ply: int
    outcome: Outcome | None
    played: TileMask
    _tb: RuleTables
    _bone: tuple[Tile, ...]
    _bpos: int
    _hist: Any
    _empty_at: list[int]

    def __init__(self, rules: Rules, deal: Deal) -> None:
        """Start a hand from ``deal`` (already validated; see :meth:`Deal.parse`).

        ``hands`` are tile masks per seat; ``left``/``right`` the end values
        (-1 before the opening); ``to_move`` the seat to move (-1 once over);
        ``drawn`` whether the mover has drawn this turn; ``points`` the
        points scored so far in this hand (R22); ``played`` the mask of tiles
        on the line.
        """
        self.rules = rules
        self.deal = deal
        self.players = deal.players
        self.hands = [mask_of(h) for h in deal.hands]
        self.left = -1
        self.right = -1
        self.to_move = deal.leader
        self.drawn = False
        self.points = [0] * deal.players
        self.ply = 0
        self.outcome = None
        self.played = 0
        self._tb = tables_for(rules)
        self._bone = deal.boneyard
        self._bpos = 0
        self._hist = _NO_HISTORY
        self._empty_at = [-1] * deal.players

    @classmethod
    def new(cls, rules: Rules | str, players: int, rng: random.Random | int,
            leader: Seat | None = None) -> HandState:
        """A freshly dealt hand (R12, R14).

        ``rules`` may be a preset name and ``rng`` an integer seed:
        ``HandState.new("classic", 2, 7)``.
        """
        rules = rules_of(rules)
        return cls(rules, Deal.random(rules, players, rng, leader))

    # -- reading ---------------------------------------------------------------

    def copy(self) -> HandState:
        """An independent copy (cheap: the deal and history are shared, immutably)."""
        new = object.__new__(HandState)
        new.rules = self.rules
        new.deal = self.deal
        new.players = self.players
        new.hands = self.hands[:]
        new.left = self.left
        new.right = self.right
        new.to_move = self.to_move
        new.drawn = self.drawn
        new.points = self.points[:]
        new.ply = self.ply
        new.outcome = self.outcome
        new.played = self.played
        new._tb = self._tb
        new._bone = self._bone
        new._bpos = self._bpos
        new._hist = self._hist
        new._empty_at = self._empty_at[:]
        return new

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (R18, R19)."""
        return self.outcome is not None

    @property
    def ends(self) -> tuple[int, int] | None:
        """The numbers shown by the left and right ends, or ``None`` before the opening."""
        return None if self.left < 0 else (self.left, self.right)

    @property
    def line(self) -> tuple[tuple[int, int], ...]:
        """The line from left to right, each tile as (left half, right half)."""
        return line_of(self.moves)

    @property
    def boneyard_size(self) -> int:
        """Tiles left in the boneyard."""
        return len(self._bone) - self._bpos

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles left in the boneyard, in draw order (hidden information)."""
        return self._bone[self._bpos:]

    @property
    def emptied_at(self) -> tuple[int, ...]:
        """Per seat, the ply at which its hand last became empty, -1 while it holds tiles.

        Only kept when going out does not end the hand at once (R18
        ``after_boneyard``: the earliest emptying wins).
        """
        return tuple(self._empty_at)

    def hand(self, seat: Seat) -> list[Tile]:
        """The tiles ``seat`` holds now (hidden information), in index order."""
        return tiles_of(self.hands[seat])

    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds."""
        return tuple(h.bit_count() for h in self.hands)

    def pips(self) -> tuple[int, ...]:
        """The pips in each hand (R2)."""
        return tuple(pips_of(h) for h in self.hands)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, in order."""
        out: list[Move] = []
        node = self._hist
        while node:
            out.append(MOVES[node[0]])
            node = node[2]
        out.reverse()
        return out

    def history(self) -> list[tuple[Seat, Move]]:
        """The moves played so far with the seat that made each, in order."""
        out: list[tuple[Seat, Move]] = []
        node = self._hist
        while node:
            out.append((node[1], MOVES[node[0]]))
            node = node[2]
        out.reverse()
        return out

    def legal_mask(self) -> int:
        """The 128-bit mask of legal move ids (0 once the hand is over)."""
        if self.outcome is not None:
            return 0
        tb = self._tb
        return tb.legal_mask(
            self.hands[self.to_move], self.left, self.right,
            self._bpos < len(self._bone) and not (self.drawn and tb.draw_one), self.drawn,
        )

    def legal_move_ids(self) -> tuple[int, ...]:
        """The legal move ids, sorted (the fast path for search)."""
        return move_ids(self.legal_mask())

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves: ``in`` (a :class:`Move`, id or notation), ``len``, iteration."""
        return LegalMoves(self.legal_mask())

    # -- playing ---------------------------------------------------------------

    def push(self, m: int) -> None:
        """Play move id ``m`` without checking it (it must be legal)."""
        s = self.to_move
        tb = self._tb
        self._hist = (m, s, self._hist)
        self.ply += 1
        hands = self.hands
        if m < DRAW:
            bit, end, x = _PLAY_INFO[m]
            h = hands[s] ^ bit
            hands[s] = h
            self.played |= bit
            self.drawn = False
            if tb.scores_plays:  # R22
                self.points[s] += tb.play_points(m, self.left, self.right)
            if end < 0:  # R6: the opening, low half on the left
                self.left, self.right = HALVES[m]
            elif end:  # R7
                self.right = x
            else:
                self.left = x
            if not h:
                if tb.ends_hand:  # R18 ends_hand
                    self._finish(s, Reason.OUT)
                    return
                self._empty_at[s] = self.ply
            if self._bpos == len(self._bone) and self._check_end():
                return
        elif m == DRAW:  # R16
            t = self._bone[self._bpos]
            self._bpos += 1
            hands[s] |= 1 << t
            self.drawn = True
            self._empty_at[s] = -1
            if self._bpos == len(self._bone):
                self._check_end()
            return
        else:  # R17
            self.points[s] -= tb.pass_penalty
            self.drawn = False
        # R13: the turn passes on; R18 never: empty-handed players are skipped.
        s = _NEXT_SEAT[self.players][s]
        if tb.never_out and self._bpos == len(self._bone):
            while not hands[s]:
                s = _NEXT_SEAT[self.players][s]
        self.to_move = s

    def _check_end(self) -> bool:
        """With the boneyard empty: apply R18 (after_boneyard), then R19. True if the hand ended."""
        tb = self._tb
        hands = self.hands
        if tb.after_boneyard:
            out = [s for s in range(self.players) if not hands[s]]
            if out:
                self._finish(min(out, key=lambda s: self._empty_at[s]), Reason.OUT)
                return True
        playable = tb.playable_against[self.left][self.right]
        for h in hands:
            if h & playable:
                return False
        pips = [pips_of(h) for h in hands]
        low = min(pips)
        winner = pips.index(low) if pips.count(low) == 1 else None  # R20
        self._finish(winner, Reason.BLOCKED)
        return True

    def _finish(self, winner: int | None, reason: Reason) -> None:
        pips = tuple(pips_of(h) for h in self.hands)
        points = self.points
        if winner is not None and self._tb.pips_to_winner:  # R21
            points[winner] += sum(pips) - pips[winner]
        self.outcome = Outcome(winner, reason, pips, tuple(points))
        self.to_move = -1

    def play(self, move: Move | str | int) -> Move:
        """Validate and play ``move`` (a :class:`Move`, id or notation); return it.

        Raises :class:`InvalidMoveError` if it does not parse and
        :class:`IllegalMoveError`, naming the rule, if it is not legal here.
        """
        m = Move.parse(move) if isinstance(move, str) else Move(move)
        if not self.legal_mask() >> m & 1:
            reason = self.explain_illegal(m)
            raise IllegalMoveError(f"{m} is illegal: {reason.why} ({reason.rule})", reason.rule)
        self.push(m)
        return m

    def explain_illegal(self, m: Move | str | int) -> Illegal:
        """Why move ``m`` (a :class:`Move`, id or notation) is illegal here (see :class:`Illegal`).

        A move that does not parse raises :class:`InvalidMoveError`.
        """
        m = Move.parse(m) if isinstance(m, str) else Move(m)
        if self.outcome is not None:
            rule = "R18" if self.outcome.reason is Reason.OUT else "R19"
            return Illegal(rule, "the hand is over", "over")
        return explain_illegal(
            self._tb, self.to_move, self.hands[self.to_move], self.left, self.right,
            self.boneyard_size, self.drawn, m,
        )

    def __repr__(self) -> str:
        ends = "empty line" if self.left < 0 else f"ends {self.left}|{self.right}"
        status = f"over: {self.outcome}" if self.outcome else f"seat {self.to_move} to move"
        return f"<HandState ply {self.ply}, {ends}, boneyard {self.boneyard_size}, {status}>"


class Illegal(NamedTuple):
    """Why a move is illegal: the rule, an English reason, and a code with arguments.

    ``code`` and ``args`` let a user interface word the reason in its own
    language: ``open_first``, ``boneyard_empty``, ``drawn_once``,
    ``must_play``, ``must_play_non_matador``, ``must_draw``, ``name_an_end``
    (``a``, ``b``), ``not_held`` (``tile``), ``open_with_tile`` (``tile``),
    ``blank_end`` (``end``: ``L``/``R``), ``no_join`` (``touch``, ``value``,
    ``target``, ``tile``), ``matador_not_anytime`` (``tile``), ``not_legal``;
    ``legal`` and ``over`` when the move is legal or the hand has ended.
    """

    rule: str
    why: str
    code: str
    args: Mapping[str, int | str] = {}


def explain_illegal(tb: RuleTables, seat: int, hand: int, left: int, right: int,
                    boneyard: int, drawn: bool, m: int) -> Illegal:
    """Why move id ``m`` is illegal for ``seat`` holding ``hand`` (see :class:`Illegal`)."""
    can_draw = boneyard > 0 and not (drawn and tb.draw_one)
    legal = tb.legal_mask(hand, left, right, can_draw, drawn)
    plays = tb.play_mask(hand, left, right)
    if legal >> m & 1:
        return Illegal("", "legal", "legal")
    if m >= DRAW:
        if left < 0:
            return Illegal("R15", "the leader must open with a tile of their hand", "open_first")
        if m == DRAW and boneyard == 0:
            return Illegal("R16", "the boneyard is empty", "boneyard_empty")
        if m == DRAW and drawn and tb.draw_one:
            return Illegal("R16", "under draw = one a player draws at most once per turn",
                           "drawn_once")
        if m == PASS and not plays:
            return Illegal("R17", "a player who may draw must draw (R16), not pass", "must_draw")
        if m == DRAW and tb.optional:
            return Illegal("R15", f"seat {seat} has a legal play that is not a matador and "
                           "must play", "must_play_non_matador")
        return Illegal("R15", f"seat {seat} has a legal play and must play it", "must_play")
    t = MOVE_TILE[m]
    name = NAMES[t]
    if m < PLAY_BASE:
        if left >= 0:
            a, b = HALVES[t]
            return Illegal("R7", f"the line is open; a play names an end, e.g. 'L{name}'",
                           "name_an_end", {"a": a, "b": b})
        return Illegal("R6", f"seat {seat} does not hold {name}", "not_held", {"tile": name})
    if left < 0:
        return Illegal("R6", "the line is empty: the hand starts with an opening play (a "
                       "tile, e.g. '2-4')", "open_with_tile", {"tile": name})
    if not hand >> t & 1:
        return Illegal("R7", f"seat {seat} does not hold {name}", "not_held", {"tile": name})
    e = MOVE_END[m]
    v = right if e else left
    touch = MOVE_TOUCH[m]
    side = "right" if e else "left"
    is_mat = bool(tb.matadors >> t & 1)
    if v == 0 and not is_mat:
        return Illegal("R9", f"the {side} end is blank: only a matador may be played there",
                       "blank_end", {"end": "LR"[e]})
    if touch + v != tb.target and not is_mat:
        return Illegal("R9", f"{touch} does not join the {side} end's {v} "
                       f"({touch} + {v} != {tb.target}) and {name} is not a matador", "no_join",
                       {"touch": touch, "value": v, "target": tb.target, "tile": name})
    if is_mat and not tb.anytime:
        return Illegal("R10", f"{name} does not join here and seat {seat} has a joining play "
                       "(matador_anytime is false)", "matador_not_anytime", {"tile": name})
    return Illegal("R9", "not a legal play here", "not_legal")
