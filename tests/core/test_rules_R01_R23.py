"""One or more tests per rule of RULES.md (R1..R22; R23 is in test_match.py).

Every expectation is derived from RULES.md by hand; the comments show the
derivation. Deals name only the tiles that matter, the rest are set aside
(see rulekit.make_deal). ``ends`` is ``(left, right)``.
"""

from __future__ import annotations

import random

import pytest
from rulekit import DealRng, legal, load_golden, make_state, rules, s8_record

from matador.core.errors import IllegalMoveError, InvalidMoveError, InvalidTileError
from matador.core.moves import Move
from matador.core.record import parse_record, replay
from matador.core.rules import PRESETS
from matador.core.state import Deal, HandState, Reason, highest_double_leader
from matador.core.tiles import NAMES, TILES, Tile, mask_of, pips_of


def illegal_rule(state: HandState, move: str) -> str:
    """Play ``move``, expecting it to be refused; return the rule id it names."""
    with pytest.raises(IllegalMoveError) as err:
        state.play(move)
    assert err.value.rule in str(err.value)
    return err.value.rule


def matador_names(r) -> set[str]:
    return {NAMES[t] for t in range(28) if r.is_matador(t)}


# --------------------------------------------------------------------------- R1-R4 tiles


def test_R1_double_six_set_has_each_tile_once() -> None:
    pairs = [(t.low, t.high) for t in TILES]
    assert len(pairs) == 28
    assert sorted(pairs) == [(a, b) for a in range(7) for b in range(a, 7)]
    assert [str(t) for t in TILES] == [f"{a}-{b}" for a, b in pairs]


def test_R1_a_tile_is_named_low_half_first() -> None:
    assert str(Tile.of(6, 1)) == "1-6"
    assert Tile.of(6, 1) == Tile.of(1, 6) == Tile.parse("1-6")
    with pytest.raises(InvalidTileError, match="1-6"):
        Tile.parse("6-1")
    with pytest.raises(InvalidMoveError, match="1-6"):
        Move.parse("6-1")  # an opening names the tile, low half first


def test_R2_pips_of_a_tile_and_of_a_hand() -> None:
    assert Tile.parse("2-5").pips == 7
    assert Tile.parse("0-0").pips == 0
    assert Tile.parse("6-6").pips == 12
    assert sum(t.pips for t in TILES) == 168  # each number 0..6 appears 8 times
    assert pips_of(mask_of([Tile.parse("0-3"), Tile.parse("2-4")])) == 9
    assert make_state("classic", ["0-3 2-4", "6-6"]).pips() == (9, 12)


def test_R3_target_is_7_except_six_matador() -> None:
    assert {p: rules(p).target for p in PRESETS} == {
        "classic": 7, "paluba": 7, "russian": 7, "six": 6}


def test_R4_matadors_target_7() -> None:
    for p in ("classic", "paluba", "russian"):
        assert matador_names(rules(p)) == {"0-0", "1-6", "2-5", "3-4"}
    assert [t for t in TILES if t.is_matador(7)] == [Tile.parse(x) for x in
                                                     ("0-0", "1-6", "2-5", "3-4")]


def test_R4_matadors_target_6() -> None:
    assert matador_names(rules("six")) == {"0-0", "0-6", "1-5", "2-4", "3-3"}


@pytest.mark.parametrize(("target", "expected"), [
    (1, {"0-0", "0-1"}),
    (5, {"0-0", "0-5", "1-4", "2-3"}),
    (7, {"0-0", "1-6", "2-5", "3-4"}),
    (11, {"0-0", "5-6"}),
    (12, {"0-0", "6-6"}),
])
def test_R4_matadors_follow_an_overridden_target(target, expected) -> None:
    assert matador_names(rules("classic", target=target)) == expected
    assert matador_names(rules("six", target=target)) == expected


# --------------------------------------------------------------------------- R5-R11 the line


def test_R5_two_ends_and_a_double_is_laid_lengthwise() -> None:
    s = make_state("classic", ["6-6 5-5", "1-2 1-3"])
    assert s.ends is None
    s.play("6-6")
    assert s.ends == (6, 6)
    # only two ends: each 1-x joins by its 1 on L or R, nothing else (no spinner)
    assert legal(s) == ["L1-2", "L1-3", "R1-2", "R1-3"]
    s.play("L1-2")
    assert s.ends == (2, 6)
    assert legal(s) == ["L5-5"]  # 5-5 joins the 2; 6 needs a 1
    s.play("L5-5")
    assert s.ends == (5, 6)  # the double shows its number, like any tile


def test_R6_opening_low_half_on_the_left() -> None:
    s = make_state("classic", ["2-5 1-1", "3-3"])
    assert legal(s) == ["1-1", "2-5"]
    s.play("2-5")
    assert s.ends == (2, 5)
    s2 = make_state("classic", ["5-5 1-1", "3-3"], moves=["5-5"])
    assert s2.ends == (5, 5)


def test_R6_opening_needs_a_tile_of_the_leader_and_an_empty_line() -> None:
    s = make_state("classic", ["2-5 1-1", "3-3"])
    assert illegal_rule(s, "3-3") == "R6"
    assert illegal_rule(s, "L2-5") == "R6"
    assert s.ply == 0 and s.ends is None


def test_R7_touching_half_meets_the_end_exposed_half_becomes_it() -> None:
    # 2-5 opens 2|5; seat 1 (4-5 2-6): 4-5 by its 5 on the 2, 2-6 by its 2 on the 5
    s = make_state("classic", ["2-5 0-1", "4-5 2-6"], moves=["2-5"])
    assert legal(s) == ["L5-4", "R2-6"]
    left = s.copy()
    left.play("L5-4")
    assert left.ends == (4, 5)
    s.play("R2-6")
    assert s.ends == (2, 6)


def test_R7_a_play_uses_a_tile_of_the_mover() -> None:
    s = make_state("classic", ["2-5 0-1", "4-5 2-6"], moves=["2-5"])
    rule = illegal_rule(s, "L5-0")  # 0-5 would join, but seat 1 does not hold it
    assert rule == "R7"


def test_R8_a_play_joins_when_touching_half_plus_end_is_the_target() -> None:
    # per_join = 1 shows which plays join. 2-5 opens 2|5 (an opening never joins).
    # Seat 1 (4-5 1-6): L5-4 joins (5 + 2 = 7); 1-6 is a matador: its plays
    # L1-6 (1+2), L6-1 (6+2), R1-6 (1+5), R6-1 (6+5) do not join.
    # (a tile in the boneyard keeps the hand from blocking, which would add R21 points)
    s = make_state("classic", ["2-5 0-1", "4-5 1-6"], "3-3", moves=["2-5"], per_join=1)
    assert s.points == [0, 0]
    assert legal(s) == ["L1-6", "L5-4", "L6-1", "R1-6", "R6-1"]
    for move, pts in [("L5-4", 1), ("L1-6", 0), ("L6-1", 0), ("R1-6", 0), ("R6-1", 0)]:
        branch = s.copy()
        branch.play(move)
        assert branch.points == [0, pts], move


def test_R8_a_play_joins_on_a_blank_end_too_with_target_6() -> None:
    # six: 0-0 opens blank|blank (+10 per_matador for the opening).
    # 0-6 laid by its 6 on a blank end joins (6 + 0 = 6): +1 join +10 matador;
    # laid by its 0 it does not join, but exposes 6 = T: +10 matador +5 bonus.
    s = make_state("six", ["0-0 1-2", "0-6 1-3"], moves=["0-0"])
    assert s.points == [10, 0]
    joined = s.copy()
    joined.play("R6-0")
    assert joined.points == [10, 11] and joined.ends == (0, 0)
    exposed = s.copy()
    exposed.play("R0-6")
    assert exposed.points == [10, 15] and exposed.ends == (0, 6)


def test_R9_blank_end_takes_only_matadors_either_half_touching() -> None:
    # 0-3 opens 0|3. Seat 1 (0-4 1-4 0-0 2-5 0-1):
    #   blank L: matadors only, either half: L0-0, L2-5, L5-2
    #   R = 3 needs a 4: R4-0, R4-1; matadors anywhere: R0-0, R2-5, R5-2
    #   0-1 fits nowhere.
    s = make_state("classic", ["0-3 5-5", "0-4 1-4 0-0 2-5 0-1"], moves=["0-3"])
    assert legal(s) == ["L0-0", "L2-5", "L5-2", "R0-0", "R2-5", "R4-0", "R4-1", "R5-2"]
    assert illegal_rule(s, "L0-4") == "R9"
    assert illegal_rule(s, "L4-0") == "R9"
    assert illegal_rule(s, "L0-1") == "R9"


def test_R9_a_non_matador_must_join() -> None:
    s = make_state("classic", ["0-3 5-5", "0-4 1-4 0-0 2-5 0-1"], moves=["0-3"])
    assert illegal_rule(s, "R0-4") == "R9"  # 0 + 3 != 7
    assert illegal_rule(s, "R1-0") == "R9"  # 1 + 3 != 7


def test_R9_R10_target_6_non_matador_never_on_a_blank_end_even_where_it_would_join() -> None:
    # six: 0-0 opens blank|blank. Seat 1 (2-6 0-6): 2-6 by its 6 would make 6 + 0 = 6,
    # but it is not a matador: refused. 0-6 plays either half on either end.
    s = make_state("six", ["0-0 1-2", "2-6 0-6"], moves=["0-0"])
    assert legal(s) == ["L0-6", "L6-0", "R0-6", "R6-0"]
    assert illegal_rule(s, "L6-2") in {"R9", "R10"}
    assert illegal_rule(s, "R6-2") in {"R9", "R10"}


def _r10_state(anytime: bool, seat1: str, boneyard: str = "", opening: str = "1-3"):
    return make_state("classic", [f"{opening} 5-5", seat1], boneyard, moves=[opening],
                      matador_anytime=anytime)


def test_R10_matador_anytime_true_even_when_a_joining_play_exists() -> None:
    # 1-3 opens 1|3. Seat 1 (6-6 3-4 0-0): joining L6-6 (6+1), R4-3 (4+3);
    # matadors anywhere: 3-4 as L3-4 L4-3 R3-4 R4-3, 0-0 as L0-0 R0-0.
    s = _r10_state(True, "6-6 3-4 0-0")
    assert legal(s) == ["L0-0", "L3-4", "L4-3", "L6-6", "R0-0", "R3-4", "R4-3"]


def test_R10_matador_anytime_false_only_joining_plays_when_one_exists() -> None:
    # same position: only the joining plays L6-6 and R4-3 (a matador that joins
    # is a joining play); every non-joining matador play is refused by R10.
    s = _r10_state(False, "6-6 3-4 0-0")
    assert legal(s) == ["L6-6", "R4-3"]
    for move in ("L0-0", "R0-0", "R3-4", "L3-4", "L4-3"):
        assert illegal_rule(s, move) == "R10", move


def test_R10_matador_anytime_false_matador_allowed_when_nothing_joins() -> None:
    # 1|3 needs 6 or 4; seat 1 (0-0 2-2) has none: 0-0 on either end.
    s = _r10_state(False, "0-0 2-2")
    assert legal(s) == ["L0-0", "R0-0"]


def test_R10_matador_anytime_false_any_tile_any_end() -> None:
    # 4-4 joins the right 3, so 0-0 may not be laid on the left either.
    s = _r10_state(False, "0-0 4-4")
    assert legal(s) == ["R4-4"]
    assert illegal_rule(s, "L0-0") == "R10"


def test_R10_matador_anytime_false_a_matador_on_a_blank_end_does_not_join() -> None:
    # 0-3 opens 0|3; seat 1 (0-0 0-4): R4-0 joins, so 0-0 on the blank end is refused.
    s = _r10_state(False, "0-0 0-4", opening="0-3")
    assert legal(s) == ["R4-0"]
    assert illegal_rule(s, "L0-0") == "R10"


def test_R10_matador_anytime_false_a_joining_matador_is_a_joining_play() -> None:
    # 1|3; seat 1 (3-4 2-2): 3-4 by its 4 joins the 3 (R4-3); by its 3 nowhere joins.
    # Every legal play uses a matador and the boneyard holds a tile: draw (R15).
    s = _r10_state(False, "3-4 2-2", boneyard="6-6")
    assert legal(s) == ["R4-3", "draw"]
    assert illegal_rule(s, "L3-4") == "R10"


def test_R10_matador_anytime_false_target_6_joining_on_a_blank_end() -> None:
    # six, 0-0 opens blank|blank; seat 1 (0-6 1-5): 0-6 by its 6 joins (6 + 0 = 6):
    # L6-0 and R6-0 are joining plays, so 0-6 by its 0 and 1-5 are refused.
    s = make_state("six", ["0-0 2-2", "0-6 1-5"], moves=["0-0"], matador_anytime=False)
    assert legal(s) == ["L6-0", "R6-0"]
    assert illegal_rule(s, "R0-6") == "R10"
    assert illegal_rule(s, "L5-1") == "R10"


def test_R11_a_double_has_one_orientation_and_L_R_are_distinct() -> None:
    # 3-3 opens 3|3; seat 1 (4-4 3-4): 4-4 joins either end (one orientation each);
    # 3-4 joins by its 4 and, as a matador, is also legal by its 3.
    s = make_state("classic", ["3-3 6-6", "4-4 3-4"], moves=["3-3"])
    assert legal(s) == ["L3-4", "L4-3", "L4-4", "R3-4", "R4-3", "R4-4"]
    assert Move.parse("L4-4") != Move.parse("R4-4")
    assert Move.parse("L4-4").tile == Move.parse("R4-4").tile == Tile.parse("4-4")
    a, b = s.copy(), s.copy()
    a.play("L4-4")
    b.play("R4-4")
    assert a.ends == (4, 3) and b.ends == (3, 4)


# --------------------------------------------------------------------------- R12-R14 deal and turns


def test_R12_set_aside_then_hands_then_boneyard_in_order() -> None:
    order = list(reversed(NAMES))  # 6-6, 5-6, 4-6, ...
    deal = Deal.random(rules("paluba"), 2, DealRng(order, lot=1))
    assert [str(t) for t in deal.set_aside] == order[:3]
    assert [[str(t) for t in h] for h in deal.hands] == [order[3:6], order[6:9]]
    assert [str(t) for t in deal.boneyard] == order[9:]
    assert deal.leader == 1  # lot


@pytest.mark.parametrize(("preset", "players", "size", "aside"), [
    ("classic", 2, 5, 0), ("classic", 4, 5, 0), ("paluba", 2, 3, 3),
    ("russian", 2, 7, 0), ("russian", 3, 6, 0), ("russian", 4, 5, 0),
    ("six", 2, 6, 0), ("six", 3, 6, 0), ("six", 4, 7, 0),
])
def test_R12_random_deals_use_every_tile_once(preset, players, size, aside) -> None:
    for seed in range(5):
        deal = Deal.random(rules(preset), players, random.Random(seed))
        assert [len(h) for h in deal.hands] == [size] * players
        assert len(deal.set_aside) == aside
        everything = [t for h in deal.hands for t in h] + list(deal.boneyard) + list(
            deal.set_aside)
        assert sorted(everything) == list(range(28))
        assert len(deal.boneyard) == 28 - players * size - aside


def test_R12_draws_take_the_first_boneyard_tile() -> None:
    # 6-6 opens 6|6; seat 1 (0-2) needs a 1: draws 5-5 (no), then 1-2 (until_playable)
    s = make_state("classic", ["6-6 3-3", "0-2"], "5-5 1-2", moves=["6-6", "draw"])
    assert [str(t) for t in s.hand(1)] == ["0-2", "5-5"]
    assert [str(t) for t in s.boneyard] == ["1-2"]
    s.play("draw")
    assert [str(t) for t in s.hand(1)] == ["0-2", "1-2", "5-5"]
    assert s.boneyard_size == 0


def test_R13_play_passes_to_the_next_seat() -> None:
    # 3 seats, leader 1: 6-6 (seat 1), L1-4 (seat 2), R1-3 (seat 0), then seat 1
    s = make_state("classic", ["1-3 5-5", "6-6 3-3", "1-4 0-2"], leader=1)
    seats = [s.to_move]
    assert legal(s) == ["3-3", "6-6"]
    s.play("6-6")
    seats.append(s.to_move)
    assert legal(s) == ["L1-4", "R1-4"]
    s.play("L1-4")
    seats.append(s.to_move)
    assert legal(s) == ["L3-1", "R1-3"]  # 4|6: 1-3 by its 3 on the 4, by its 1 on the 6
    s.play("R1-3")
    seats.append(s.to_move)
    assert seats == [1, 2, 0, 1]
    assert legal(s) == ["L3-3"]  # 4|3: 3-3 joins the 4


@pytest.mark.parametrize(("hands", "leader"), [
    ([["6-6", "0-1"], ["5-5", "4-6"]], 0),            # highest double
    ([["1-1", "5-6"], ["3-3", "0-1"]], 1),            # doubles rank by value, not by pips held
    ([["1-6", "2-5", "5-6"], ["0-0", "1-2", "0-1"]], 1),  # any double beats any other tile
    ([["1-2", "0-3"], ["4-6", "0-1"]], 1),            # no double: most pips
    ([["2-6", "0-1"], ["3-5", "1-2"]], 0),            # 8 pips each: higher top half (6 > 5)
    ([["3-5", "1-2"], ["2-6", "0-1"]], 1),
    ([["0-1", "0-2"], ["1-2", "0-3"], ["4-5", "3-6"]], 2),  # 9 pips each, 6 > 5
])
def test_R14_highest_double_leads_else_most_pips_then_top_half(hands, leader) -> None:
    parsed = [[Tile.parse(t) for t in h] for h in hands]
    assert highest_double_leader(parsed) == leader


def test_R14_highest_double_is_used_by_random_deals() -> None:
    # classic, 2 seats x 5: seat 1 gets 6-6
    order = ["0-1", "0-2", "0-3", "0-4", "0-5", "1-2", "1-3", "6-6", "1-4", "1-5"]
    order += [n for n in NAMES if n not in order]
    assert Deal.random(rules("classic"), 2, DealRng(order)).leader == 1
    # same tiles, lot: whatever the rng says
    lot = rules("classic", first_leader="lot")
    assert Deal.random(lot, 2, DealRng(order, lot=0)).leader == 0


def test_R14_lot_is_random_and_reproducible() -> None:
    leaders = {Deal.random(rules("paluba"), 2, random.Random(seed)).leader for seed in range(40)}
    assert leaders == {0, 1}
    for seed in range(5):
        a = Deal.random(rules("paluba"), 2, random.Random(seed))
        b = Deal.random(rules("paluba"), 2, random.Random(seed))
        assert a == b


def test_R14_the_leader_may_open_with_any_tile() -> None:
    # seat 0 holds 6-6 but may open with anything in its hand
    s = make_state("classic", ["6-6 0-1 2-5 3-3 1-4", "2-2"])
    assert legal(s) == ["0-1", "1-4", "2-5", "3-3", "6-6"]
    s.play("0-1")
    assert s.ends == (0, 1)


def test_R14_a_record_leader_is_not_checked_against_first_leader() -> None:
    rec = s8_record()
    rec["deal"]["leader"] = 1  # seat 0 holds 6-6, but a record may be a later hand
    rec["moves"] = ["2-2"]
    out = replay(parse_record(rec), trace=True)
    assert out.trace[0]["to_move"] == 1
    assert out.result == {"over": False, "to_move": 0}


# --------------------------------------------------------------------------- R15-R17 a turn


def _must(preset: str, seat1: str, boneyard: str, **ov):
    # 6-6 opens 6|6: every end needs a 1; seat 0 keeps 1-4, so the hand never blocks
    return make_state(preset, ["6-6 1-4", seat1], boneyard, moves=["6-6"], **ov)


def test_R15_must_play_if_able() -> None:
    # seat 1 (1-2 0-0): 1-2 joins (not a matador), so no draw and no pass
    s = _must("classic", "1-2 0-0", "3-3")
    assert legal(s) == ["L0-0", "L1-2", "R0-0", "R1-2"]
    assert illegal_rule(s, "draw") == "R15"
    assert illegal_rule(s, "pass") in {"R15", "R17"}


def test_R15_matador_optional_true_may_draw_instead_of_a_matador() -> None:
    # seat 1 (2-2 0-0): only 0-0 can be laid -> it may draw instead
    s = _must("classic", "3-3 0-0", "4-4")
    assert legal(s) == ["L0-0", "R0-0", "draw"]
    s.play("draw")
    # until_playable: drew 4-4 (no 1), boneyard now empty -> the matador must be played
    assert legal(s) == ["L0-0", "R0-0"]
    assert illegal_rule(s, "pass") in {"R15", "R17"}


def test_R15_matador_optional_false_the_matador_is_compulsory() -> None:
    s = _must("classic", "3-3 0-0", "4-4", matador_optional=False)
    assert legal(s) == ["L0-0", "R0-0"]
    assert illegal_rule(s, "draw") == "R15"


def test_R15_matador_optional_not_when_a_non_matador_play_exists() -> None:
    s = _must("classic", "1-3 0-0", "4-4")
    assert legal(s) == ["L0-0", "L1-3", "R0-0", "R1-3"]


def test_R15_draw_one_drawn_then_pass() -> None:
    # draw = one: before drawing no pass; having drawn an unplayable tile, may pass
    s = _must("classic", "3-3 0-0", "4-4 5-5", draw="one")
    assert legal(s) == ["L0-0", "R0-0", "draw"]
    assert illegal_rule(s, "pass") in {"R15", "R17"}
    s.play("draw")
    assert s.boneyard_size == 1
    assert legal(s) == ["L0-0", "R0-0", "pass"]
    assert illegal_rule(s, "draw") == "R16"
    s.play("pass")
    assert s.to_move == 0 and not s.is_over


def test_R15_draw_one_drawn_tile_that_joins_must_be_played_or_the_matador() -> None:
    # drew 1-1, which joins: no pass any more
    s = _must("classic", "3-3 0-0", "1-1 5-5", draw="one")
    s.play("draw")
    assert legal(s) == ["L0-0", "L1-1", "R0-0", "R1-1"]


def test_R15_draw_one_the_last_tile_drawn_this_turn_still_allows_the_pass() -> None:
    s = _must("classic", "3-3 0-0", "4-4", draw="one")
    s.play("draw")
    assert s.boneyard_size == 0
    assert legal(s) == ["L0-0", "R0-0", "pass"]


@pytest.mark.parametrize("draw", ["until_playable", "one"])
def test_R15_empty_boneyard_and_no_draw_this_turn_the_matador_must_be_played(draw) -> None:
    s = _must("classic", "3-3 0-0", "", draw=draw)
    assert legal(s) == ["L0-0", "R0-0"]
    assert illegal_rule(s, "draw") == "R16"


def test_R15_until_playable_a_drawn_matador_may_be_drawn_past() -> None:
    # seat 1 (3-3) draws 0-0: all its plays are matadors, the boneyard still holds 4-4
    s = _must("classic", "3-3", "0-0 4-4")
    assert legal(s) == ["draw"]
    s.play("draw")
    assert legal(s) == ["L0-0", "R0-0", "draw"]
    s.play("draw")
    assert legal(s) == ["L0-0", "R0-0"]  # ran empty during the turn


def test_R15_the_opening_is_never_optional() -> None:
    s = make_state("classic", ["0-0 3-4", "2-2"], "5-5")
    assert legal(s) == ["0-0", "3-4"]
    assert illegal_rule(s, "draw") == "R15"
    assert illegal_rule(s, "pass") == "R15"


def test_R16_until_playable_draws_again_until_a_play_exists() -> None:
    s = _must("classic", "2-3", "3-3 4-4 1-5 5-5")
    for _ in range(2):
        assert legal(s) == ["draw"]
        s.play("draw")
        assert s.to_move == 1
    assert legal(s) == ["draw"]
    s.play("draw")  # 1-5
    assert legal(s) == ["L1-5", "R1-5"]
    assert s.boneyard_size == 1


def test_R16_draw_one_then_pass() -> None:
    s = _must("classic", "2-3", "3-3 4-4", draw="one")
    assert legal(s) == ["draw"]
    s.play("draw")
    assert legal(s) == ["pass"]
    assert illegal_rule(s, "draw") == "R16"
    s.play("pass")
    assert s.to_move == 0


def test_R16_until_playable_empty_boneyard_passes() -> None:
    s = _must("classic", "2-3", "3-3")
    s.play("draw")
    assert s.boneyard_size == 0
    assert legal(s) == ["pass"]
    assert illegal_rule(s, "draw") == "R16"


def test_R17_pass_only_without_a_play_and_without_a_draw() -> None:
    s = _must("classic", "2-3", "3-3")
    assert illegal_rule(s, "pass") == "R17"  # it may draw, so it must
    s2 = _must("classic", "2-3", "")
    assert legal(s2) == ["pass"]


def test_R17_a_pass_ends_the_turn_and_a_new_turn_may_draw_again() -> None:
    # draw = one: seat 1 draws and passes; seat 0 draws and passes; seat 1 may draw again
    s = make_state("classic", ["6-6 2-2", "2-3"], "3-3 4-4 5-5", draw="one",
                   moves=["6-6", "draw", "pass"])
    assert s.to_move == 0
    assert legal(s) == ["draw"]  # 2-2 needs a 1 too
    s.play("draw")
    s.play("pass")
    assert s.to_move == 1
    assert legal(s) == ["draw"]


# --------------------------------------------------------------------------- R18-R20 end of a hand


def _out_deal(preset: str, boneyard: str, **ov) -> HandState:
    # 6-6 opens 6|6; seat 1 L1-2 -> 2|6; seat 0 R1-1 lays its last tile -> 2|1
    return make_state(preset, ["6-6 1-1", "1-2 3-3"], boneyard,
                      moves=["6-6", "L1-2", "R1-1"], **ov)


def test_R18_ends_hand_going_out_ends_the_hand_at_once() -> None:
    s = _out_deal("classic", "4-4 5-5")
    assert s.is_over and s.boneyard_size == 2
    assert s.outcome.winner == 0 and s.outcome.reason is Reason.OUT
    assert s.outcome.pips == (0, 6) and s.outcome.points == (6, 0)
    assert legal(s) == []
    assert illegal_rule(s, "draw") == "R18"


def test_R18_after_boneyard_an_out_player_must_draw() -> None:
    # seat 0 is out with two tiles in the boneyard: the hand goes on.
    # seat 1 (3-3 5-6) lays 5-6 (L5-6 on the 2, or R6-5 on the 1); seat 0 must draw.
    s = make_state("classic", ["6-6 1-1", "1-2 3-3 5-6"], "4-4 0-1",
                   moves=["6-6", "L1-2", "R1-1"], going_out="after_boneyard")
    assert not s.is_over and s.hand_sizes() == (0, 2)
    assert legal(s) == ["L5-6", "R6-5"]
    s.play("L5-6")  # 6|1
    assert s.to_move == 0
    assert legal(s) == ["draw"]
    s.play("draw")  # 4-4: needs 1 or 6
    assert legal(s) == ["draw"]
    s.play("draw")  # 0-1, the last tile: nobody is out now, and 0-1 joins the 6
    assert not s.is_over
    assert legal(s) == ["L1-0"]


def test_R18_after_boneyard_going_out_with_an_empty_boneyard_ends_the_hand() -> None:
    s = _out_deal("classic", "", going_out="after_boneyard")
    assert s.is_over and s.outcome.winner == 0 and s.outcome.reason is Reason.OUT
    assert s.outcome.points == (6, 0)


def test_R18_after_boneyard_a_draw_that_empties_the_boneyard_ends_the_hand() -> None:
    # seat 1 (3-3) draws 1-5, the last tile, which would join the 2: the draw is an
    # action, the boneyard is empty and seat 0 is out -> the hand ends at once.
    s = _out_deal("classic", "1-5", going_out="after_boneyard")
    assert legal(s) == ["draw"]
    s.play("draw")
    assert s.is_over and s.outcome.winner == 0 and s.outcome.reason is Reason.OUT
    assert s.outcome.pips == (0, 12)


def test_R18_after_boneyard_earliest_latest_emptying_wins() -> None:
    # golden record: seats 0 and 1 are both out when the boneyard empties; seat 1
    # emptied first, but seat 0's latest emptying is earlier than seat 1's.
    out = replay(parse_record(load_golden("paluba_after_boneyard_latest_emptying_3p")))
    assert out.state.hand_sizes() == (0, 0, 2)
    assert out.result["winner"] == 0 and out.result["reason"] == "out"


def test_R18_never_going_out_ends_nothing() -> None:
    # russian: seat 0 goes out with 4-4 in the boneyard; seat 1 (3-3) needs 5 or 6:
    # draws 4-4, the last tile; nobody holding tiles can play -> blocked, seat 0 wins
    s = _out_deal("russian", "4-4")
    assert not s.is_over and s.to_move == 1
    assert s.points == [10, 10]  # L1-2 and R1-1 joined
    s.play("draw")
    assert s.is_over and s.outcome.reason is Reason.BLOCKED
    assert s.outcome.winner == 0 and s.outcome.pips == (0, 14)
    assert s.outcome.points == (24, 10)


def test_R18_never_an_empty_handed_player_draws_while_the_boneyard_holds_tiles() -> None:
    # russian: 6-6 empties seat 0; seat 1 L1-2 (2|6). Seat 0 must draw: 4-4 fits
    # neither end (needs 5 or 1), draw = one -> pass.
    s = make_state("russian", ["6-6", "1-2 3-3"], "4-4 5-5", moves=["6-6", "L1-2"])
    assert s.to_move == 0 and s.hand_sizes() == (0, 1)
    assert legal(s) == ["draw"]
    s.play("draw")
    assert legal(s) == ["pass"]


def test_R18_never_an_empty_handed_player_is_skipped_once_the_boneyard_is_empty() -> None:
    # russian, boneyard empty, pass_penalty 5: 6-6 empties seat 0; seat 1 L1-2, then
    # (seat 0 skipped, no pass, no penalty) L5-5; seat 1 (3-3) cannot play on 5|6:
    # blocked, seat 0 (0 pips) wins 6.
    s = make_state("russian", ["6-6", "1-2 5-5 3-3"], "", pass_penalty=5,
                   moves=["6-6", "L1-2"])
    assert s.to_move == 1
    assert legal(s) == ["L5-5"]
    s.play("L5-5")
    assert [str(m) for m in s.moves] == ["6-6", "L1-2", "L5-5"]
    assert s.is_over and s.outcome.reason is Reason.BLOCKED
    assert s.outcome.winner == 0 and s.outcome.points == (6, 20)


def test_R18_R19_never_all_hands_empty_but_boneyard_not_play_goes_on() -> None:
    s = make_state("russian", ["6-6", "1-1"], "2-2 3-3", moves=["6-6", "R1-1"])
    assert s.hand_sizes() == (0, 0)
    assert not s.is_over and s.to_move == 0
    assert legal(s) == ["draw"]


def test_R19_blocked_as_soon_as_nobody_can_play_final_passes_are_not_played() -> None:
    # 5-5 opens 5|5 (needs 2); boneyard empty; nobody holds a 2 or a matador.
    # pass_penalty 5 would show a played pass. Pips 6 vs 10: seat 0 wins 10.
    s = make_state("classic", ["5-5 3-3", "1-1 4-4"], "", pass_penalty=5, moves=["5-5"])
    assert s.is_over and s.outcome.reason is Reason.BLOCKED
    assert s.ply == 1
    assert s.outcome.winner == 0 and s.outcome.points == (10, 0)


def test_R19_blocked_is_checked_after_a_draw() -> None:
    s = make_state("classic", ["5-5 3-3", "1-1"], "4-4", moves=["5-5"])
    assert legal(s) == ["draw"]
    s.play("draw")
    assert s.is_over and s.outcome.reason is Reason.BLOCKED
    assert s.outcome.pips == (6, 10) and s.outcome.points == (10, 0)


def test_R19_not_blocked_while_someone_holds_a_playable_tile() -> None:
    # seat 1's 0-0 can always be laid
    s = make_state("classic", ["5-5 3-3", "1-1 0-0"], "", moves=["5-5"])
    assert not s.is_over and legal(s) == ["L0-0", "R0-0"]
    # seat 0 can still play after seat 1 passes
    s2 = make_state("classic", ["5-5 2-3", "1-1 4-4"], "", moves=["5-5"])
    assert not s2.is_over and legal(s2) == ["pass"]
    s2.play("pass")
    assert legal(s2) == ["L2-3", "R2-3"]


def test_R19_draw_one_passes_never_end_the_hand_while_the_boneyard_holds_tiles() -> None:
    # 5|5 needs a 2; nobody ever has one. Seats draw one and pass until seat 1 draws
    # the last tile: blocked. Pips: seat 0 3-3 + 6-6 = 18, seat 1 1-1 + 4-4 + 0-1 = 11.
    s = make_state("classic", ["5-5 3-3", "1-1"], "4-4 6-6 0-1", draw="one",
                   moves=["5-5", "draw", "pass", "draw", "pass"])
    assert not s.is_over and s.boneyard_size == 1
    s.play("draw")
    assert s.is_over and s.outcome.reason is Reason.BLOCKED
    assert s.outcome.pips == (18, 11) and s.outcome.winner == 1
    assert s.outcome.points == (0, 18)


def test_R19_under_never_every_end_is_blocked() -> None:
    for name in ("russian_never_skip_empty_hand", "russian_all_hands_empty_boneyard_not",
                 "six_scoring"):
        assert replay(parse_record(load_golden(name))).result["reason"] == "blocked"


def test_R20_fewest_pips_wins_a_blocked_hand() -> None:
    # 5|5; pips 3 (0-3), 6 (1-1 0-4), 6 (0-6): a tie for second place does not matter.
    # R21: seat 0 scores 6 + 6.
    s = make_state("classic", ["5-5 0-3", "1-1 0-4", "0-6"], "", moves=["5-5"])
    assert s.outcome.reason is Reason.BLOCKED
    assert s.outcome.pips == (3, 6, 6)
    assert s.outcome.winner == 0 and s.outcome.points == (12, 0, 0)


@pytest.mark.parametrize(("hands", "pips"), [
    (["5-5 3-3", "1-1 0-4"], (6, 6)),
    (["5-5 3-3", "1-1 0-4", "0-6"], (6, 6, 6)),
    (["5-5 3-3", "1-1 0-4", "4-4"], (6, 6, 8)),
])
def test_R20_any_tie_for_fewest_means_no_winner(hands, pips) -> None:
    s = make_state("classic", hands, "", moves=["5-5"])
    assert s.outcome.reason is Reason.BLOCKED and s.outcome.pips == pips
    assert s.outcome.winner is None
    assert s.outcome.points == (0,) * len(hands)


def test_R20_an_empty_hand_has_zero_pips() -> None:
    # russian: 6-6 empties seat 0; seat 1 (0-3) cannot play 6|6 -> blocked, 0 < 3
    s = make_state("russian", ["6-6", "0-3"], "", moves=["6-6"])
    assert s.outcome.reason is Reason.BLOCKED
    assert s.outcome.pips == (0, 3) and s.outcome.winner == 0 and s.outcome.points == (3, 0)


def test_R20_all_hands_empty_is_a_tie() -> None:
    out = replay(parse_record(load_golden("russian_never_skip_empty_hand")))
    assert out.result["pips"] == [0, 0] and out.result["winner"] is None


# --------------------------------------------------------------------------- R21-R22 scoring


def test_R21_pips_to_winner_sums_every_other_hand() -> None:
    s = make_state("classic", ["5-5 0-3", "1-1 0-4", "0-6"], "", moves=["5-5"])
    assert s.outcome.points == (12, 0, 0)
    s = _out_deal("classic", "")  # out: seat 1 keeps 3-3
    assert s.outcome.points == (6, 0)


def test_R21_hand_points_none_scores_nothing_at_the_end() -> None:
    s = make_state("classic", ["5-5 0-3", "1-1 0-4", "0-6"], "", moves=["5-5"],
                   hand_points="none")
    assert s.outcome.winner == 0 and s.outcome.points == (0, 0, 0)
    s = _out_deal("classic", "", hand_points="none")
    assert s.outcome.winner == 0 and s.outcome.points == (0, 0)


def test_R21_a_hand_with_no_winner_scores_nothing() -> None:
    s = make_state("classic", ["5-5 3-3", "1-1 0-4"], "", moves=["5-5"], per_join=0)
    assert s.outcome.winner is None and s.outcome.points == (0, 0)


def test_R22_per_join_and_the_opening_never_joins() -> None:
    # 6-6 opens (no points); L1-2 joins (+2); R1-1 joins and goes out (+2, + 3-3 = 6)
    s = make_state("classic", ["6-6 1-1", "1-2 3-3"], "", per_join=2, moves=["6-6"])
    assert s.points == [0, 0]
    s.play("L1-2")
    assert s.points == [0, 2]
    s.play("R1-1")
    assert s.outcome.points == (2 + 6, 2)


def test_R22_per_matador_the_opening_included() -> None:
    s = make_state("classic", ["2-5 2-3", "0-0 3-3"], "", per_matador=3, moves=["2-5"])
    assert s.points == [3, 0]
    s.play("L0-0")  # a matador, not joining; 0|5, seat 0 can still lay 2-3: not blocked
    assert not s.is_over
    assert s.points == [3, 3]


def test_R22_a_matador_that_joins_earns_both() -> None:
    # 1-3 opens 1|3 (not a matador); 3-4 by its 4 joins the 3: +2 +3
    s = make_state("classic", ["1-3 5-5", "3-4 2-2"], "0-1", per_join=2, per_matador=3,
                   moves=["1-3"])
    s.play("R4-3")
    assert s.points == [0, 5]
    s2 = make_state("classic", ["1-3 5-5", "3-4 2-2"], "0-1", per_join=2, per_matador=3,
                    moves=["1-3", "R3-4"])  # by its 3: 3 + 3 != 7, matador only
    assert s2.points == [0, 3]


def test_R22_exposed_target_bonus_joining_or_not() -> None:
    # six: 3-3 opens 3|3 (+10 opening matador, no bonus for an opening).
    # 3-6 by its 3 joins and exposes 6 = T: +1 +5. 0-6 by its 0 on a 3: matador
    # (+10), not joining, exposes 6: +5.
    s = make_state("six", ["3-3 1-1", "3-6 0-6"], "", moves=["3-3"])
    assert s.points == [10, 0]
    a = s.copy()
    a.play("R3-6")
    assert a.points == [10, 6]
    b = s.copy()
    b.play("R0-6")
    assert b.points == [10, 15]
    c = s.copy()
    c.play("R6-0")  # 6 + 3 != 6, exposes 0: matador only
    assert c.points == [10, 10]


def test_R22_exposed_target_bonus_is_never_earned_with_target_7() -> None:
    s = make_state("classic", ["6-6 1-1", "1-2 3-3"], "", exposed_target_bonus=5,
                   moves=["6-6", "L1-2", "R1-1"])
    assert s.outcome.points == (6, 0)


def test_R22_pass_penalty_and_points_may_go_negative() -> None:
    # 5|5 needs a 2: seat 1 (1-1 4-4) passes (-4); seat 0 lays 2-3 and goes out (+10)
    s = make_state("classic", ["5-5 2-3", "1-1 4-4"], "", pass_penalty=4,
                   moves=["5-5", "pass"])
    assert s.points == [0, -4]
    s.play("R2-3")
    assert s.outcome.points == (10, -4)


def test_R22_pass_penalty_for_an_empty_handed_draw_then_pass() -> None:
    # russian with pass_penalty 6: seat 0 empty draws 4-4 (unplayable on 2|6), passes
    s = make_state("russian", ["6-6", "1-2 3-3"], "4-4 5-5", pass_penalty=6,
                   moves=["6-6", "L1-2", "draw", "pass"])
    assert s.points == [-6, 10]


def test_R22_pass_penalty_for_the_R15_draw_then_pass() -> None:
    # [reading] a pass allowed by R15 (drew past a matador) is a pass and costs it too
    s = _must("classic", "3-3 0-0", "4-4 5-5", draw="one", pass_penalty=2)
    s.play("draw")
    s.play("pass")
    assert s.points == [0, -2]


@pytest.mark.parametrize(("preset", "reason", "points"), [
    ("classic", Reason.OUT, (6, 0)),        # ends_hand: seat 0 out, scores 3-3
    ("paluba", Reason.OUT, (6, 0)),         # after_boneyard, boneyard empty: out at once
    ("russian", Reason.BLOCKED, (16, 10)),  # never: 3-3 fits neither 2 nor 1: blocked,
                                            # joins +10 each, seat 0 scores 6
    ("six", Reason.BLOCKED, (1, 1)),        # (target 7 here) joins +1 each, hand_points none
])
def test_R22_preset_points_in_one_hand(preset, reason, points) -> None:
    # 6-6 opens (no matador), L1-2 joins, R1-1 joins and empties seat 0's hand
    s = _out_deal(preset, "", **({"target": 7} if preset == "six" else {}))
    assert s.outcome.reason is reason and s.outcome.winner == 0
    assert s.outcome.points == points
