"""Unit tests for matador.core.tiles: Tile values and 28-bit tile masks (R1, R2, R4, R14)."""

from __future__ import annotations

import pytest

from matador.core.errors import InvalidTileError, MatadorError
from matador.core.tiles import (
    ALL_TILES,
    CONTAINS,
    DOUBLES,
    HALVES,
    NAMES,
    NUM_TILES,
    PIPS,
    TILE_AT,
    TILES,
    Tile,
    iter_bits,
    lead_rank,
    mask_of,
    matador_mask,
    pips_of,
    tiles_of,
)


def test_index_order_is_0_0_0_1_to_6_6() -> None:
    assert NUM_TILES == 28
    assert NAMES[:8] == ("0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1")
    assert NAMES[-3:] == ("5-5", "5-6", "6-6")
    assert [int(t) for t in TILES] == list(range(28))
    assert tuple(sorted(NAMES)) == NAMES  # index order is also string order


@pytest.mark.parametrize("t", TILES, ids=NAMES)
def test_every_tile_round_trips_through_its_name_and_repr(t) -> None:
    assert Tile.parse(str(t)) is t
    assert eval(repr(t)) is t
    assert Tile(int(t)) is t
    assert Tile.of(t.high, t.low) is t is Tile.of(t.low, t.high)
    assert TILE_AT[t.low][t.high] == TILE_AT[t.high][t.low] == t
    assert HALVES[t] == (t.low, t.high) and t.low <= t.high
    assert t.pips == PIPS[t] == t.low + t.high
    assert t.is_double == (t.low == t.high)


def test_tile_properties() -> None:
    t = Tile.parse("2-5")
    assert (t.low, t.high, t.pips, t.is_double) == (2, 5, 7, False)
    assert t.other_half(2) == 5 and t.other_half(5) == 2
    assert Tile.parse("4-4").other_half(4) == 4
    with pytest.raises(InvalidTileError):
        t.other_half(3)
    assert f"{t:>5}|{t}" == "  2-5|2-5"
    assert isinstance(t, int) and t == 16  # 0-0..0-6, 1-1..1-6, 2-2 2-3 2-4 2-5


@pytest.mark.parametrize("text", ["6-1", "7-1", "1-7", "x", "12", "1_2", " 1-2", "1-2 ", "",
                                  "-1-2", "1--", 12, None, b"1-2"])
def test_bad_tile_names_are_refused(text) -> None:
    with pytest.raises(InvalidTileError):
        Tile.parse(text)


@pytest.mark.parametrize("index", [-1, 28, True, False, 1.0, "3"])
def test_bad_tile_indices_are_refused(index) -> None:
    with pytest.raises(InvalidTileError):
        Tile(index)


@pytest.mark.parametrize(("a", "b"), [(7, 0), (0, 7), (-1, 3)])
def test_bad_halves_are_refused(a, b) -> None:
    with pytest.raises(InvalidTileError):
        Tile.of(a, b)


def test_invalid_tile_error_is_a_matador_value_error() -> None:
    with pytest.raises(MatadorError):
        Tile.parse("6-1")
    with pytest.raises(ValueError):
        Tile.parse("6-1")


def test_is_matador() -> None:
    assert [str(t) for t in TILES if t.is_matador()] == ["0-0", "1-6", "2-5", "3-4"]
    assert [str(t) for t in TILES if t.is_matador(6)] == ["0-0", "0-6", "1-5", "2-4", "3-3"]
    for target in range(1, 13):
        assert matador_mask(target) == mask_of(t for t in TILES if t.is_matador(target))


def test_masks() -> None:
    assert ALL_TILES == (1 << 28) - 1 and ALL_TILES.bit_count() == 28
    hand = [Tile.parse(x) for x in ("6-6", "0-0", "2-5")]
    m = mask_of(hand)
    assert m == 1 | 1 << 16 | 1 << 27
    assert tiles_of(m) == sorted(hand)
    assert list(iter_bits(m)) == [0, 16, 27]
    assert pips_of(m) == 19
    assert mask_of([]) == 0 and tiles_of(0) == [] and pips_of(0) == 0
    assert pips_of(ALL_TILES) == 168
    assert tiles_of(ALL_TILES) == list(TILES)


def test_contains_and_doubles() -> None:
    for v in range(7):
        names = {NAMES[t] for t in iter_bits(CONTAINS[v])}
        assert names == {f"{min(v, w)}-{max(v, w)}" for w in range(7)}
    assert {NAMES[t] for t in iter_bits(DOUBLES)} == {f"{v}-{v}" for v in range(7)}


def test_lead_rank_orders_tiles_for_R14() -> None:
    # any double beats any other tile; doubles by value; others by pips, then top half
    order = sorted(TILES, key=lead_rank, reverse=True)
    assert [str(t) for t in order[:7]] == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    # 11 pips 5-6, 10: 4-6, 9: 3-6 before 4-5, 8: 2-6 before 3-5, 7: 1-6, 2-5, 3-4
    assert [str(t) for t in order[7:16]] == [
        "5-6", "4-6", "3-6", "4-5", "2-6", "3-5", "1-6", "2-5", "3-4"]
    assert str(order[-1]) == "0-1"
    assert len({lead_rank(t) for t in TILES}) == 28  # no two tiles tie
