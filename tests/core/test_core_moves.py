"""Unit tests for matador.core.moves: the 128 move ids and their notation (section 8)."""

from __future__ import annotations

import pytest
from rulekit import make_state

from matador.core.errors import InvalidMoveError, MatadorError
from matador.core.moves import (
    DRAW,
    MOVE_NAMES,
    MOVES,
    NUM_MOVES,
    PASS,
    PLAY_BASE,
    Move,
    play_id,
)
from matador.core.state import LegalMoves, move_ids
from matador.core.tiles import NAMES, Tile

EXPECTED_NOTATION = (
    list(NAMES)
    + [f"L{a}-{b}" for a in range(7) for b in range(7)]
    + [f"R{a}-{b}" for a in range(7) for b in range(7)]
    + ["draw", "pass"]
)


def test_there_are_128_moves() -> None:
    assert NUM_MOVES == len(MOVES) == len(MOVE_NAMES) == 128
    assert len(set(MOVE_NAMES)) == 128
    assert sorted(MOVE_NAMES) == sorted(EXPECTED_NOTATION)


@pytest.mark.parametrize("m", MOVES, ids=MOVE_NAMES)
def test_every_move_round_trips_through_its_notation(m) -> None:
    assert Move.parse(str(m)) is m
    assert Move(int(m)) is m
    assert eval(repr(m), {"Move": Move}) is m
    assert format(m, "") == str(m)


def test_sorted_ids_are_plain_string_order_of_the_notation() -> None:
    names = [str(m) for m in MOVES]
    assert names == sorted(names)  # digits, then L..., R..., draw, pass
    assert names == EXPECTED_NOTATION
    assert sorted(MOVES, key=str) == list(MOVES)


def test_id_layout() -> None:
    assert Move.parse("0-0") == 0 and Move.parse("6-6") == 27
    assert Move.parse("L0-0") == PLAY_BASE == 28
    assert Move.parse("L5-4") == play_id(0, 5, 4) == 28 + 7 * 5 + 4
    assert Move.parse("R0-0") == 28 + 49
    assert Move.parse("R6-6") == 125
    assert Move.parse("draw") == DRAW == 126 and Move.DRAW is MOVES[126]
    assert Move.parse("pass") == PASS == 127 and Move.PASS is MOVES[127]


def test_move_properties() -> None:
    m = Move.parse("L5-4")
    assert (m.is_opening, m.is_play, m.is_draw, m.is_pass) == (False, True, False, False)
    assert (m.tile, m.end, m.touching, m.exposed) == (Tile.parse("4-5"), "L", 5, 4)
    r = Move.parse("R4-5")
    assert (r.tile, r.end, r.touching, r.exposed) == (Tile.parse("4-5"), "R", 4, 5)
    o = Move.parse("2-4")
    assert (o.is_opening, o.is_play, o.tile, o.end, o.touching, o.exposed) == (
        True, True, Tile.parse("2-4"), None, None, None)
    for special in (Move.DRAW, Move.PASS):
        assert not special.is_play and not special.is_opening
        assert (special.tile, special.end, special.touching, special.exposed) == (
            None, None, None, None)
    assert Move.DRAW.is_draw and Move.PASS.is_pass
    # a double: one tile, distinct L and R moves, L4-4 and R4-4
    assert Move.parse("L4-4") != Move.parse("R4-4")
    assert Move.parse("L4-4").tile == Move.parse("R4-4").tile


def test_constructors() -> None:
    assert Move.play("L", 5, 4) is Move.parse("L5-4")
    assert Move.play(1, 0, 6) is Move.parse("R0-6")
    assert Move.opening(Tile.parse("2-4")) is Move.parse("2-4")
    assert Move.opening(27) is Move.parse("6-6")
    for bad in (("X", 1, 2), ("L", 7, 0), ("R", 0, -1), (2, 1, 1)):
        with pytest.raises(InvalidMoveError):
            Move.play(*bad)


@pytest.mark.parametrize("text", ["6-1", "5-2", "L7-0", "L0-7", "X1-2", "l1-2", "L1-2 ", "L12",
                                  "Draw", "PASS", "draw ", "", "play", "1-2-3", 3, None, 1.0])
def test_malformed_moves_are_refused(text) -> None:
    with pytest.raises(InvalidMoveError) as err:
        Move.parse(text)
    assert isinstance(err.value, MatadorError)


def test_an_opening_written_high_half_first_says_so() -> None:
    with pytest.raises(InvalidMoveError, match="'4-6'"):
        Move.parse("6-4")


@pytest.mark.parametrize("bad", [-1, 128, True, "3"])
def test_bad_move_ids_are_refused(bad) -> None:
    with pytest.raises(InvalidMoveError):
        Move(bad)


def test_moves_of_a_mask_in_id_order() -> None:
    ids = [Move.parse(x) for x in ("pass", "R1-1", "draw", "L6-0", "3-3")]
    mask = sum(1 << m for m in ids)
    assert [str(m) for m in LegalMoves(mask)] == ["3-3", "L6-0", "R1-1", "draw", "pass"]
    assert [MOVE_NAMES[m] for m in move_ids(mask)] == ["3-3", "L6-0", "R1-1", "draw", "pass"]
    assert list(LegalMoves(0)) == []


def test_legal_moves_view() -> None:
    # section 8 example, ply 1: seat 1 may lay R4-0, R4-1, R4-6
    s = make_state("classic", ["0-3 2-4 1-1 6-6 3-3", "2-2 0-4 4-6 0-6 1-4"], "0-0 2-5",
                   moves=["0-3"])
    view = s.legal_moves
    assert isinstance(view, LegalMoves)
    assert len(view) == 3 and bool(view)
    assert [str(m) for m in view] == ["R4-0", "R4-1", "R4-6"]
    assert "R4-0" in view and Move.parse("R4-1") in view and int(Move.parse("R4-6")) in view
    assert "L4-0" not in view and "draw" not in view and "nonsense" not in view
    assert 500 not in view and None not in view and True not in view
    assert s.legal_move_ids() == tuple(int(m) for m in view)
    assert "R4-0" in repr(view)
    assert not LegalMoves(0) and len(LegalMoves(0)) == 0
