"""Moves and their record notation (RULES.md section 8).

A move is a dense ``int`` id from 0 to 127 (:class:`Move` is an ``int``
subclass with a name); the player is not part of the id:

* ``0..27`` -- the opening play of tile ``t`` (notation ``"2-4"``);
* ``28 + 49 * end + 7 * touching + exposed`` -- a play on the left
  (``end = 0``, ``"L5-4"``) or right (``end = 1``, ``"R5-4"``) end;
* ``126`` -- ``draw``; ``127`` -- ``pass``.

Sorting ids sorts notations in plain string order (digits, ``L``, ``R``,
``draw``, ``pass``), the order ``replay --trace`` prints.

>>> Move.parse("L5-4")
Move.parse('L5-4')
>>> Move.parse("L5-4").tile, Move.parse("L5-4").touching, Move.parse("L5-4").exposed
(Tile.parse('4-5'), 5, 4)
>>> sorted(Move.parse(m) for m in ["pass", "R1-1", "draw", "L6-0"]) == [
...     Move.parse("L6-0"), Move.parse("R1-1"), Move.DRAW, Move.PASS]
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import ClassVar, Final

from matador.core.errors import InvalidMoveError, quote
from matador.core.tiles import HALVES, NAMES, TILE_AT, TILES, Tile

MoveId = int
"""A move as a dense integer id (see the module docstring)."""

NUM_MOVES: Final = 128
PLAY_BASE: Final = 28
DRAW: Final = 126
PASS: Final = 127
LEFT: Final = 0
RIGHT: Final = 1


def play_id(end: int, touching: int, exposed: int) -> MoveId:
    """The id of a play on ``end`` (0 = L, 1 = R) with the given touching and exposed halves."""
    return PLAY_BASE + 49 * end + 7 * touching + exposed


#: For each move id: the tile it lays (-1 for draw and pass).
MOVE_TILE: Final[tuple[int, ...]] = tuple(
    m if m < PLAY_BASE else
    TILE_AT[(m - PLAY_BASE) % 49 // 7][(m - PLAY_BASE) % 7] if m < DRAW else -1
    for m in range(NUM_MOVES)
)
#: For each play id: the end (0 or 1); -1 for openings, draw and pass.
MOVE_END: Final[tuple[int, ...]] = tuple(
    (m - PLAY_BASE) // 49 if PLAY_BASE <= m < DRAW else -1 for m in range(NUM_MOVES)
)
#: For each play id: the touching half; -1 otherwise.
MOVE_TOUCH: Final[tuple[int, ...]] = tuple(
    (m - PLAY_BASE) % 49 // 7 if PLAY_BASE <= m < DRAW else -1 for m in range(NUM_MOVES)
)
#: For each play id: the exposed half; -1 otherwise.
MOVE_EXPOSED: Final[tuple[int, ...]] = tuple(
    (m - PLAY_BASE) % 7 if PLAY_BASE <= m < DRAW else -1 for m in range(NUM_MOVES)
)


def _notation(m: int) -> str:
    if m < PLAY_BASE:
        return NAMES[m]
    if m == DRAW:
        return "draw"
    if m == PASS:
        return "pass"
    return f"{'LR'[MOVE_END[m]]}{MOVE_TOUCH[m]}-{MOVE_EXPOSED[m]}"


#: ``MOVE_NAMES[m]`` is the record notation of move ``m``.
MOVE_NAMES: Final[tuple[str, ...]] = tuple(_notation(m) for m in range(NUM_MOVES))
_BY_NAME: dict[str, int] = {name: m for m, name in enumerate(MOVE_NAMES)}
_HALF = "0123456"
"""The digits of a half, ASCII only: ``str.isdigit`` would accept ``'²'``."""


class Move(int):
    """A move, an ``int`` id from 0 to 127 with its record notation.

    ``str(move)`` is the notation (``"2-4"``, ``"L5-4"``, ``"draw"``,
    ``"pass"``); :meth:`parse` reads it back.
    """

    __slots__ = ()

    DRAW: ClassVar[Move]
    PASS: ClassVar[Move]

    def __new__(cls, move_id: int) -> Move:
        if (isinstance(move_id, bool) or not isinstance(move_id, int)
                or not 0 <= move_id < NUM_MOVES):
            raise InvalidMoveError(f"no move has id {quote(move_id)} (0..127)")
        return _MOVES[move_id] if _MOVES else int.__new__(cls, move_id)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in record notation.

        Raises :class:`InvalidMoveError` naming what is wrong, e.g. a half out
        of range or an opening tile not written low half first.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"{quote(text)} is not a move (expected a string)")
        m = _BY_NAME.get(text)
        if m is not None:
            return _MOVES[m]
        if len(text) == 3 and text[1] == "-" and text[0] in _HALF and text[2] in _HALF:
            a, b = _HALF.index(text[0]), _HALF.index(text[2])  # ASCII digits only
            if a > b:
                raise InvalidMoveError(
                    f"{quote(text)}: write the opening tile low half first ('{b}-{a}')"
                )
        raise InvalidMoveError(
            f"{quote(text)} is not a move (expected a tile such as '2-4', "
            "L or R then touching-exposed halves such as 'L5-4', 'draw' or 'pass')"
        )

    @classmethod
    def opening(cls, tile: int) -> Move:
        """The opening play of ``tile`` (R6)."""
        return _MOVES[Tile(tile)]

    @classmethod
    def play(cls, end: str | int, touching: int, exposed: int) -> Move:
        """A play on ``end`` (``"L"``/``"R"`` or 0/1) with the given halves (R7)."""
        e = {"L": 0, "R": 1, 0: 0, 1: 1}.get(end) if isinstance(end, (str, int)) else None
        if e is None or not all(
                isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= 6
                for h in (touching, exposed)):
            raise InvalidMoveError(f"no play {quote(end)} {quote(touching)}-{quote(exposed)}")
        return _MOVES[play_id(e, touching, exposed)]

    @property
    def is_opening(self) -> bool:
        """Whether this is the opening play of a tile (R6)."""
        return self < PLAY_BASE

    @property
    def is_play(self) -> bool:
        """Whether this lays a tile (opening or play on an end)."""
        return self < DRAW

    @property
    def is_draw(self) -> bool:
        """Whether this is ``draw`` (R16)."""
        return self == DRAW

    @property
    def is_pass(self) -> bool:
        """Whether this is ``pass`` (R17)."""
        return self == PASS

    @property
    def tile(self) -> Tile | None:
        """The tile laid, or ``None`` for draw and pass."""
        t = MOVE_TILE[self]
        return TILES[t] if t >= 0 else None

    @property
    def end(self) -> str | None:
        """``"L"`` or ``"R"`` for a play on an end, else ``None``."""
        e = MOVE_END[self]
        return "LR"[e] if e >= 0 else None

    @property
    def touching(self) -> int | None:
        """The half that touches the end, for a play on an end."""
        v = MOVE_TOUCH[self]
        return v if v >= 0 else None

    @property
    def exposed(self) -> int | None:
        """The half that becomes the new end value, for a play on an end."""
        v = MOVE_EXPOSED[self]
        return v if v >= 0 else None

    def __str__(self) -> str:
        return MOVE_NAMES[self]

    def __repr__(self) -> str:
        if self == DRAW:
            return "Move.DRAW"
        if self == PASS:
            return "Move.PASS"
        return f"Move.parse('{MOVE_NAMES[self]}')"

    def __format__(self, spec: str) -> str:
        return format(MOVE_NAMES[self], spec)


_MOVES: list[Move] = []
_MOVES.extend(int.__new__(Move, m) for m in range(NUM_MOVES))
#: The 128 moves in id order.
MOVES: Final[tuple[Move, ...]] = tuple(_MOVES)
Move.DRAW = MOVES[DRAW]
Move.PASS = MOVES[PASS]


def line_of(moves: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """The line the plays among ``moves`` build, left to right, each tile as (left, right) halves.

    >>> line_of([Move.parse(m) for m in ["0-3", "R4-0", "draw", "L0-0"]])
    ((0, 0), (0, 3), (4, 0))
    """
    line: deque[tuple[int, int]] = deque()
    for m in moves:
        if m < PLAY_BASE:
            line.append(HALVES[m])
        elif m < DRAW:
            if MOVE_END[m]:
                line.append((MOVE_TOUCH[m], MOVE_EXPOSED[m]))
            else:
                line.appendleft((MOVE_EXPOSED[m], MOVE_TOUCH[m]))
    return tuple(line)
