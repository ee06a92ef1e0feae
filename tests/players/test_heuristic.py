"""Unit tests of the one-ply bots (``greedy_move``, ``play_score``, ``greedy``, ``heuristic``).

Positions are built by hand: every tile not named in a hand or the boneyard
is set aside, and the rules are overridden so that the deal is a legal one
(``players``, ``hand_size``, ``set_aside``), which views require.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from matador.core.moves import DRAW, MOVE_TILE, MOVES, PASS, Move
from matador.core.rules import Rules
from matador.core.state import Deal, HandState
from matador.core.tables import RuleTables, tables_for
from matador.core.tiles import NAMES, Tile, mask_of
from matador.core.view import PlayerView
from matador.players import heuristic
from matador.players.heuristic import (
    DRAW_COST,
    W_OUT,
    GreedyBot,
    HeuristicBot,
    block_value,
    greedy_move,
    play_score,
    void_probability,
)


def position(preset: str, hands: list[str], boneyard: str = "", moves: tuple[str, ...] = (),
             leader: int = 0, **overrides: Any) -> HandState:
    """A hand after ``moves`` (each validated); tiles not named are set aside."""
    named = [h.split() for h in hands]
    bone = boneyard.split()
    used = {t for h in named for t in h} | set(bone)
    aside = [t for t in NAMES if t not in used]
    n = len(named)
    rules = Rules.from_preset(preset, {"players": [n, n], "hand_size": len(named[0]),
                                       "set_aside": len(aside), **overrides})
    deal = Deal(tuple(tuple(Tile.parse(t) for t in h) for h in named),
                tuple(Tile.parse(t) for t in bone), tuple(Tile.parse(t) for t in aside), leader)
    state = HandState(rules, deal)
    for m in moves:
        state.play(m)
    return state


def masks(preset: str, hand: str, left: int, right: int, can_draw: bool = False,
          drawn: bool = False, **overrides: Any) -> tuple[RuleTables, int, tuple[int, ...]]:
    """Tables, hand mask and legal move ids of ``hand`` against ends ``left``/``right``."""
    tb = tables_for(Rules.from_preset(preset, overrides))
    mask = mask_of(Tile.parse(t) for t in hand.split())
    legal = tb.legal_mask(mask, left, right, can_draw, drawn)
    return tb, mask, tuple(m for m in range(128) if legal >> m & 1)


def names(moves: tuple[int, ...]) -> list[str]:
    """Move ids as notation."""
    return [str(MOVES[m]) for m in moves]


def tile_of(move: Move | int) -> str:
    """The tile a play lays, as ``"2-5"``."""
    return NAMES[MOVE_TILE[move]]


def choose(kind: str, view: PlayerView) -> str:
    """The move of a fresh ``greedy`` or ``heuristic`` bot, as notation."""
    bot = GreedyBot() if kind == "greedy" else HeuristicBot()
    return str(bot.choose(view, random.Random(0)))


# --------------------------------------------------------------------------- going out (R18)


def test_R18_going_out_scores_w_out_only_when_it_ends_the_hand() -> None:
    """Laying one's last tile is worth ``W_OUT`` under ``ends_hand``, not under ``never``."""
    m = Move.parse("L2-5")
    tb, hand, _ = masks("classic", "2-5", 1, 3)
    assert play_score(tb, hand, m, 1, 3) == W_OUT
    tb, hand, _ = masks("russian", "2-5", 1, 3)
    assert play_score(tb, hand, m, 1, 3) < W_OUT
    tb, hand, _ = masks("classic", "2-5 6-6", 1, 3)
    assert play_score(tb, hand, m, 1, 3) < W_OUT  # a tile is left: not out


def test_R18_after_boneyard_going_out_wins_only_with_an_empty_boneyard() -> None:
    """Under ``after_boneyard`` the last tile ends the hand only once the boneyard is empty."""
    m = Move.parse("L2-5")
    tb, hand, _ = masks("paluba", "2-5", 1, 3)
    assert play_score(tb, hand, m, 1, 3, boneyard=0) == W_OUT
    assert play_score(tb, hand, m, 1, 3, boneyard=4) < W_OUT


@pytest.mark.parametrize("kind", ["greedy", "heuristic"])
def test_R18_after_boneyard_bots_lay_the_last_drawn_tile_and_win(kind: str) -> None:
    """Out of tiles, seat 0 draws the last boneyard tile; laying it wins (R18), passing loses.

    Paluba with ``draw = one`` and optional matadors: after the draw both the
    play and a pass are legal, and the drawn tile is a matador.
    """
    state = position("paluba", ["6-6 1-3", "1-4 2-2"], "3-3 2-5",
                     ("6-6", "L1-4", "R1-3", "draw", "L3-3"), draw="one",
                     matador_optional=True)
    assert state.hands[0] == 0 and state.to_move == 0
    state.play("draw")
    view = PlayerView.of(state, 0)
    assert view.boneyard_size == 0 and set(map(str, view.legal_moves)) >= {"pass"}
    move = choose(kind, view)
    assert move != "pass"
    state.play(move)
    assert state.outcome is not None and state.outcome.winner == 0


def test_R18_greedy_move_goes_out_even_with_its_last_matador() -> None:
    """R18 beats R15's option: a last tile that is the last matador is played, not drawn past."""
    tb, hand, legal = masks("classic", "2-5", 1, 3, can_draw=True)
    assert DRAW in legal  # R15: every play is a matador, so drawing is allowed
    assert tile_of(greedy_move(tb, hand, 1, 3, legal)) == "2-5"


def _out_with_last_matador() -> PlayerView:
    """Seat 0 holds only ``2-5`` at 1|3; seat 1 drew to 5 tiles; 9 tiles in the boneyard."""
    state = position("classic", ["1-1 2-5", "0-2 0-3"],
                     "4-4 3-3 0-4 3-6 0-5 1-2 1-3 1-4 2-2 2-3 2-4 4-5 5-5",
                     ("1-1", "draw", "draw", "draw", "draw", "R6-3"))
    view = PlayerView.of(state, 0)
    assert view.hand_sizes == (1, 5) and view.boneyard_size == 9
    assert "draw" in view.legal_moves
    return view


@pytest.mark.parametrize("kind", ["greedy", "heuristic"])
def test_R18_bots_go_out_when_they_can(kind: str) -> None:
    """Both bots lay their last tile (R18 ends the hand) rather than draw (R15).

    The next seat holds 5 tiles and the boneyard 9, so the heuristic's own
    "spend the last matador only when it pays" rule would draw: going out
    must take precedence.
    """
    move = choose(kind, _out_with_last_matador())
    assert move != "draw" and tile_of(Move.parse(move)) == "2-5"


# --------------------------------------------------------------------------- shedding pips (R20)


def test_R20_greedy_sheds_the_heavier_of_two_otherwise_equal_tiles() -> None:
    """``4-5`` and ``4-6`` both join 3|3 and leave one follower: the 10-pip tile goes first."""
    tb, hand, legal = masks("classic", "4-5 4-6 6-6", 3, 3)
    assert names(legal) == ["L4-5", "L4-6", "R4-5", "R4-6"]
    s45 = play_score(tb, hand, Move.parse("L4-5"), 3, 3)
    s46 = play_score(tb, hand, Move.parse("L4-6"), 3, 3)
    assert s46 - s45 == pytest.approx(heuristic.W_PIPS * 1)  # only the pips differ
    assert tile_of(greedy_move(tb, hand, 3, 3, legal)) == "4-6"


@pytest.mark.parametrize("kind", ["greedy", "heuristic"])
def test_R20_bots_shed_the_heavier_tile(kind: str) -> None:
    """The same choice from a view: both bots lay ``4-6`` rather than ``4-5``."""
    state = position("classic", ["4-5 4-6 6-6", "3-3 0-1 0-2"], "5-6 1-1 0-6 0-3", ("3-3",),
                     leader=1)
    assert tile_of(Move.parse(choose(kind, PlayerView.of(state, 0)))) == "4-6"


# --------------------------------------------------------------------------- matadors (R10)


def test_R10_greedy_keeps_its_matadors_when_a_plain_tile_fits() -> None:
    """At 3|3 with ``2-5 3-4 1-4``: the plain ``1-4`` is laid, though a matador has more pips."""
    tb, hand, legal = masks("classic", "2-5 3-4 1-4", 3, 3)
    assert DRAW not in legal  # a plain tile joins: no R15 option
    plain = play_score(tb, hand, Move.parse("L4-1"), 3, 3)
    assert all(plain > play_score(tb, hand, m, 3, 3) for m in legal if tile_of(m) != "1-4")
    assert tile_of(greedy_move(tb, hand, 3, 3, legal)) == "1-4"


def test_R10_spending_the_last_matador_costs_extra() -> None:
    """The same matador play scores ``W_LAST_MATADOR`` less when no other matador is kept."""
    m = Move.parse("L5-2")  # 2|3 afterwards: neither 6-6 nor a matador counts as a follower
    tb, last, _ = masks("classic", "2-5 6-6", 1, 3)
    _, kept, _ = masks("classic", "2-5 0-0", 1, 3)
    cost = play_score(tb, kept, m, 1, 3) - play_score(tb, last, m, 1, 3)
    assert cost > 0
    assert cost == pytest.approx(heuristic.W_LAST_MATADOR)


@pytest.mark.parametrize("kind", ["greedy", "heuristic"])
def test_R10_bots_keep_their_matadors_when_a_plain_tile_fits(kind: str) -> None:
    """From a view (seat 1 opened 3-3): both bots lay ``1-4``, not a matador."""
    state = position("classic", ["2-5 3-4 1-4", "3-3 0-1 0-2"], "5-6 6-6 0-6 1-1", ("3-3",),
                     leader=1)
    view = PlayerView.of(state, 0)
    assert any(tile_of(m) == "3-4" for m in view.legal_move_ids())
    assert tile_of(Move.parse(choose(kind, view))) == "1-4"


def test_R9_blank_ends_are_valued_by_rule_of_thumb_without_card_counting() -> None:
    """Exposing a blank (only matadors follow, R9) earns ``W_BLANK`` while a matador is kept,
    ``W_BLANK_NO_MATADOR`` otherwise; with the next seat's tiles known, neither applies."""
    m = Move.parse("L4-0")  # 3|3 -> 0|3
    tb, keeps, _ = masks("classic", "0-4 2-5", 3, 3)
    _, plain, _ = masks("classic", "0-4 6-6", 3, 3)  # 6-6 follows neither 0 nor 3
    with_matador = play_score(tb, keeps, m, 3, 3)
    without = play_score(tb, plain, m, 3, 3)
    assert with_matador - without == pytest.approx(
        heuristic.W_BLANK - heuristic.W_BLANK_NO_MATADOR)
    assert without == pytest.approx(4 + heuristic.W_BLANK_NO_MATADOR)
    unseen = tb.non_matadors & ~keeps & ~plain
    assert play_score(tb, keeps, m, 3, 3, unseen, 3, 0) == pytest.approx(
        play_score(tb, plain, m, 3, 3, unseen, 3, 0))


# --------------------------------------------------------------------------- R15 option


@pytest.mark.parametrize("optional", [True, False])
def test_R15_greedy_draws_rather_than_spend_its_last_matador(optional: bool) -> None:
    """Every play uses the last matador: it draws if R15's option allows, else plays it."""
    tb, hand, legal = masks("classic", "2-5 5-5", 1, 3, can_draw=True,
                            matador_optional=optional)
    assert (DRAW in legal) is optional
    move = greedy_move(tb, hand, 1, 3, legal)
    if optional:
        assert move == DRAW
    else:
        assert tile_of(move) == "2-5"


def test_R15_greedy_spends_a_matador_when_it_keeps_another() -> None:
    """With two matadors (``0-0 2-5``) and a draw allowed, greedy plays one of them."""
    tb, hand, legal = masks("classic", "0-0 2-5", 1, 3, can_draw=True)
    assert DRAW in legal
    move = greedy_move(tb, hand, 1, 3, legal)
    assert move != DRAW and tile_of(move) in ("0-0", "2-5")


def _last_matador(opponent: str, boneyard: str, moves: tuple[str, ...]) -> PlayerView:
    """Seat 0 holds ``2-5 5-5`` at 1|3, so its only plays spend its last matador."""
    state = position("classic", ["1-1 2-5 5-5", opponent], boneyard, ("1-1", *moves))
    view = PlayerView.of(state, 0)
    assert view.ends == (1, 3) and "draw" in view.legal_moves
    assert {tile_of(m) for m in view.legal_move_ids() if m < DRAW} == {"2-5"}
    return view


# seat 1 draws four tiles at 1|1, then joins with 3-6
OPP_DRAWS = ("draw", "draw", "draw", "draw", "R6-3")
BONE = "4-4 3-3 0-4 3-6 0-1 1-2 1-3 1-4 2-2 2-3 2-4 4-5"


@pytest.mark.parametrize(("opponent", "boneyard", "moves", "sizes", "bone", "expected"), [
    # the next seat holds 6 tiles and 9 remain: drawing is cheap, so it draws
    ("0-2 0-3 0-5", BONE + " 6-6", OPP_DRAWS, (2, 6), 9, "draw"),
    # 8 left in the boneyard (SPEND_BONE): a draw now costs the hand, so it plays
    ("0-2 0-3 0-5", BONE, OPP_DRAWS, (2, 6), 8, "play"),
    # the next seat holds 2 tiles (<= SPEND_NEXT): close to going out, so it plays
    ("3-6 0-3 0-5", "4-4 3-3 0-4 0-2 0-1 1-2 1-3 1-4 2-2 2-3 2-4 4-5 6-6", ("R6-3",), (2, 2),
     13, "play"),
])
def test_R15_heuristic_draws_past_its_last_matador_unless_it_pays(
        opponent: str, boneyard: str, moves: tuple[str, ...], sizes: tuple[int, int],
        bone: int, expected: str) -> None:
    """The heuristic draws rather than spend its last matador, unless the next seat holds
    at most ``SPEND_NEXT`` tiles or at most ``SPEND_BONE`` remain; greedy always draws."""
    view = _last_matador(opponent, boneyard, moves)
    assert view.hand_sizes == sizes and view.boneyard_size == bone
    assert choose("greedy", view) == "draw"
    move = choose("heuristic", view)
    if expected == "draw":
        assert move == "draw"
    else:
        assert tile_of(Move.parse(move)) == "2-5"


@pytest.mark.parametrize(("opponent", "heuristic_move"), [
    ("3-6 0-1 1-2", "pass"),  # next seat keeps 2 tiles: pass
    ("3-6 0-1", "play"),      # next seat keeps 1 tile: spend the matador
])
def test_R15_R16_after_one_draw_the_bots_pass_rather_than_spend_the_last_matador(
        opponent: str, heuristic_move: str) -> None:
    """``draw = one``: having drawn ``2-5``, seat 0 may pass (R15). Greedy passes (the play
    scores below zero); the heuristic passes unless the next seat holds a single tile."""
    mine = "1-1 0-2 5-5" if len(opponent.split()) == 3 else "1-1 0-2"
    state = position("russian", [mine, opponent], "2-5 4-4 3-3", ("1-1", "R6-3", "draw"))
    view = PlayerView.of(state, 0)
    assert "pass" in view.legal_moves and "draw" not in view.legal_moves
    assert choose("greedy", view) == "pass"
    move = choose("heuristic", view)
    if heuristic_move == "pass":
        assert move == "pass"
    else:
        assert tile_of(Move.parse(move)) == "2-5"


def test_R15_R22_bots_spend_the_last_matador_rather_than_pass_when_it_scores() -> None:
    """Six-matador at 0|0 after drawing ``0-6``: laying it on a blank end exposes 6 (R22
    bonus, four followers), which scores >= 0, so greedy plays rather than passes; the
    heuristic, whose next seat holds more than one tile, plays too since the play scores
    points at once (passing would cost the pass penalty instead)."""
    state = position("six", ["0-1 0-2 0-3 0-4", "0-0 1-1 2-2 3-4"], "0-6 4-4 5-5",
                     ("0-0", "draw"), leader=1)
    view = PlayerView.of(state, 0)
    legal = view.legal_move_ids()
    assert PASS in legal
    tb = view.tables
    best = max(play_score(tb, view.hand_mask, m, 0, 0) for m in legal if m < DRAW)
    assert best >= 0
    assert choose("greedy", view) in ("L0-6", "R0-6")
    assert view.hand_sizes[1] > 1 and tb.play_points(Move.parse("L0-6"), 0, 0) > 0
    assert choose("heuristic", view) in ("L0-6", "R0-6")


# --------------------------------------------------------------------------- card counting


def _void_opponent() -> HandState:
    """Seat 1 passed at 2|3 with an empty boneyard: it holds no 5, no 4 and no matador."""
    return position("classic", ["2-3 3-5 4-6 1-1", "0-1 0-2 1-2 0-3"], "", ("2-3", "pass"))


def test_R17_might_hold_excludes_what_a_pass_proves() -> None:
    """R17: a pass at 2|3 (empty boneyard) proves seat 1 holds no 5, no 4, no matador."""
    view = PlayerView.of(_void_opponent(), 0)
    might = view.might_hold(1)
    tb = view.tables
    assert not might & (tb.join[2] | tb.join[3] | tb.matadors)
    held = mask_of(Tile.parse(t) for t in ("0-1", "0-2", "1-2", "0-3"))
    assert might & held == held


def test_R17_heuristic_blocks_an_end_the_next_seat_is_proven_void_in() -> None:
    """L5-3 leaves 3|3, which seat 1 provably cannot follow (its pass, R17); R4-6 sheds
    more pips and keeps ``1-1`` followable, but leaves a 6, which seat 1 may follow with
    a 1. Greedy sheds; the heuristic blocks, and only because the pass proved the void
    (on the unseen tiles alone, R4-6 would score higher)."""
    state = _void_opponent()
    view = PlayerView.of(state, 0)
    assert names(view.legal_move_ids()) == ["L5-3", "R4-6"]
    assert choose("greedy", view) == "R4-6"
    assert choose("heuristic", view) == "L5-3"
    tb, hand = view.tables, view.hand_mask
    block, shed = Move.parse("L5-3"), Move.parse("R4-6")
    unproven = [play_score(tb, hand, m, 2, 3, view.unseen, 4, 0) for m in (block, shed)]
    assert unproven[0] < unproven[1]
    # the premise, on the true hands: after L5-3 seat 1 must pass, after R4-6 it follows
    blocked, open_ = state.copy(), state.copy()
    blocked.play("L5-3")
    open_.play("R4-6")
    assert blocked.legal_move_ids() == (PASS,)
    assert any(m < DRAW for m in open_.legal_move_ids())


def test_block_value_of_a_proven_void_is_the_full_lost_turn() -> None:
    """With no tile of ``might`` fitting, the next seat is void for sure (p = 1)."""
    view = PlayerView.of(_void_opponent(), 0)
    tb = view.tables
    might = view.might_hold(1)
    value = block_value(might, 4, tb.playable_against[3][3], 0)
    assert value == pytest.approx(1.0 + DRAW_COST)
    assert block_value(might, 4, tb.playable_against[2][6], 0) < value


def test_block_value_memo_returns_what_recomputing_gives(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The memoised estimate equals the formula, whatever was cached before (hits and misses).

    The cache key is (tiles, fitting tiles, hand size, boneyard): calls that share
    some of these but not all must not share a value.
    """
    monkeypatch.setattr(heuristic, "_BLOCK_CACHE", {})
    rng = random.Random(5)

    def fresh(might: int, size: int, fits: int, boneyard: int) -> float:
        total = might.bit_count()
        c = (might & fits).bit_count()
        p = void_probability(might, size, fits)
        in_boneyard = c * boneyard / total if total else 0.0
        return p * (1.0 + DRAW_COST * (boneyard + 1) / (in_boneyard + 1))

    cases = []
    for _ in range(300):
        might = rng.getrandbits(28) & rng.getrandbits(28)
        fits = rng.getrandbits(28)
        cases.append((might, rng.randrange(0, 8), fits, rng.randrange(0, 12)))
    for case in cases + cases[::-1]:  # every case is a miss once and a hit once
        assert block_value(*case) == pytest.approx(fresh(*case), abs=1e-12)
    # the same counts from other masks hit the memo and still agree
    might, fits = 0b1111_0000, 0b0011_1100
    first = block_value(might, 2, fits, 3)
    assert block_value(might << 8, 2, fits << 8, 3) == first == pytest.approx(
        fresh(might, 2, fits, 3))


def test_void_probability_edges() -> None:
    """Hypergeometric chance of holding none of ``fits``; an empty or forced hand is exact."""
    assert void_probability(0b1111, 0, 0b0001) == 1.0  # holds nothing
    assert void_probability(0b0011, 3, 0b0001) == 0.0  # must hold every tile, one fits
    assert void_probability(0b0011, 3, 0b0100) == 1.0  # none of its tiles fits
    assert void_probability(0b1111, 2, 0b0001) == pytest.approx(0.5)  # C(3,2)/C(4,2)
