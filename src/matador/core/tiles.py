"""Tiles of the double-six set (R1-R4) and sets of tiles as 28-bit masks.

A tile is an :class:`int` from 0 to 27 (``Tile`` is an ``int`` subclass with a
name), in the order ``0-0, 0-1, ..., 0-6, 1-1, ..., 6-6``. A set of tiles (a
hand, the boneyard, the played tiles) is a 28-bit ``int`` with bit ``t`` set
for tile ``t``, which makes copies and legality checks cheap.

>>> Tile.parse("3-4")
Tile.parse('3-4')
>>> str(Tile.of(6, 1)), Tile.of(6, 1).pips
('1-6', 7)
>>> [str(t) for t in tiles_of(mask_of([Tile.parse("0-0"), Tile.parse("2-5")]))]
['0-0', '2-5']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from matador.core.errors import InvalidTileError, quote

TileMask = int
"""A set of tiles: bit ``t`` is set when tile ``t`` is in the set."""

NUM_TILES: Final = 28
ALL_TILES: Final[TileMask] = (1 << NUM_TILES) - 1

#: ``HALVES[t]`` is the pair ``(low, high)`` of tile ``t``.
HALVES: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b) for a in range(7) for b in range(a, 7)
)
#: ``TILE_AT[a][b]`` is the index of the tile with halves ``a`` and ``b`` (either order).
TILE_AT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(HALVES.index((min(a, b), max(a, b))) for b in range(7)) for a in range(7)
)
#: ``PIPS[t]`` is the number of pips of tile ``t`` (R2).
PIPS: Final[tuple[int, ...]] = tuple(a + b for a, b in HALVES)
#: ``NAMES[t]`` is the name of tile ``t``, low half first (R1).
NAMES: Final[tuple[str, ...]] = tuple(f"{a}-{b}" for a, b in HALVES)
#: ``CONTAINS[v]`` is the mask of tiles with a half showing ``v``.
CONTAINS: Final[tuple[TileMask, ...]] = tuple(
    sum(1 << t for t, (a, b) in enumerate(HALVES) if v in (a, b)) for v in range(7)
)
#: The mask of the seven doubles.
DOUBLES: Final[TileMask] = sum(1 << TILE_AT[v][v] for v in range(7))


class Tile(int):
    """One tile of the double-six set, an ``int`` from 0 to 27 with a name.

    ``str(tile)`` is the name low half first (``"1-6"``); ``Tile.parse`` reads
    it back. Build one with ``Tile(index)``, ``Tile.of(a, b)`` or ``Tile.parse``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Tile:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_TILES:
            raise InvalidTileError(f"no tile has index {quote(index)} (0..27)")
        return _TILES[index] if _TILES else int.__new__(cls, index)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b``, in either order."""
        if not all(isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= 6 for h in (a, b)):
            raise InvalidTileError(f"no tile {quote(a)}-{quote(b)}: halves go from 0 to 6")
        return _TILES[TILE_AT[a][b]]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read a tile written low half first, such as ``"2-5"``.

        ``"5-2"`` is refused (R1: a tile is named low half first).
        """
        if (
            not isinstance(text, str)
            or len(text) != 3
            or text[1] != "-"
            or text[0] not in "0123456"
            or text[2] not in "0123456"
        ):
            raise InvalidTileError(
                f"{quote(text)} is not a tile (write it as low-high, e.g. '2-5')")
        a, b = int(text[0]), int(text[2])
        if a > b:
            raise InvalidTileError(f"{quote(text)}: write a tile low half first ('{b}-{a}') (R1)")
        return _TILES[TILE_AT[a][b]]

    @property
    def low(self) -> int:
        """The lower half."""
        return HALVES[self][0]

    @property
    def high(self) -> int:
        """The higher half."""
        return HALVES[self][1]

    @property
    def pips(self) -> int:
        """The sum of both halves (R2)."""
        return PIPS[self]

    @property
    def is_double(self) -> bool:
        """Whether both halves show the same number."""
        return HALVES[self][0] == HALVES[self][1]

    def is_matador(self, target: int = 7) -> bool:
        """Whether this tile is a matador for ``target`` (R4): ``0-0`` or pips equal to it."""
        return self == 0 or PIPS[self] == target

    def other_half(self, half: int) -> int:
        """The half opposite ``half`` (which must be one of this tile's halves)."""
        a, b = HALVES[self]
        if half == a:
            return b
        if half == b:
            return a
        raise InvalidTileError(f"tile {self} has no half {half}")

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Tile.parse('{NAMES[self]}')"

    def __format__(self, spec: str) -> str:
        return format(NAMES[self], spec)


_TILES: list[Tile] = []
_TILES.extend(int.__new__(Tile, i) for i in range(NUM_TILES))
#: The 28 tiles in index order.
TILES: Final[tuple[Tile, ...]] = tuple(_TILES)


def matador_mask(target: int) -> TileMask:
    """The mask of matadors for ``target`` (R4): ``0-0`` and every tile with ``target`` pips."""
    return 1 | sum(1 << t for t in range(NUM_TILES) if PIPS[t] == target)


def mask_of(tiles: Iterable[int]) -> TileMask:
    """The mask of a collection of tiles (given as indices or :class:`Tile`)."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def tiles_of(mask: TileMask) -> list[Tile]:
    """The tiles of a mask, in index order."""
    out: list[Tile] = []
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
    return out


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def pips_of(mask: TileMask) -> int:
    """The pips of a set of tiles (R2)."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


#: ``LEAD_RANK[t]``: an int ordering tiles as :func:`lead_rank` does (R14).
LEAD_RANK: Final[tuple[int, ...]] = tuple(
    100 + a if a == b else (a + b) * 7 + b for a, b in HALVES
)


def lead_rank(tile: int) -> tuple[int, int, int]:
    """How strongly ``tile`` claims the lead under ``highest_double`` (R14).

    Any double beats any other tile; doubles rank by value; other tiles by
    pips, then by their higher half.
    """
    a, b = HALVES[tile]
    if a == b:
        return (1, a, b)
    return (0, a + b, b)
