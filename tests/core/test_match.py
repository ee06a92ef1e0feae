"""R23 (matches) and the R14 leader of later hands, with scripted deals.

A :class:`DealRng` hands :class:`Match` the deals we choose, one per hand;
every hand's moves and points are derived by hand in the comments.
"""

from __future__ import annotations

import random

import pytest
from rulekit import DealRng, deal_order, rules

from matador.core.errors import MatadorError
from matador.core.match import Match
from matador.core.record import replay
from matador.core.tiles import NAMES


def play_hand(match: Match, moves: list[str], leader: int) -> tuple[int, ...]:
    """Deal the next hand, check its leader, play ``moves`` to the end; return its points."""
    state = match.next_hand()
    assert state.deal.leader == leader
    for m in moves:
        state.play(m)
    assert state.is_over
    match.finish_hand(state)
    return state.outcome.points


# Hands on 2 seats, 3 tiles each, empty boneyard (22 set aside), per_join 10:
#
# JOIN_RACE: 5-5 (seat 0 leads: the only double) opens 5|5; seat 1 R2-6 (+10) -> 5|6;
#   seat 0 (0-3 3-3) needs 2 or 1: pass; seat 1 L2-3 (+10) -> 3|6; nobody holds a 4,
#   a 1 or a matador: blocked. Pips 9 vs 11: seat 0 wins the hand and 11 points.
#   Hand points (11, 20).
JOIN_RACE = (["5-5 0-3 3-3", "2-6 2-3 5-6"], ["5-5", "R2-6", "pass", "L2-3"], (11, 20))
# TIE: 5-5 (seat 0; seat 1's double 2-2 is lower) opens 5|5; seat 1 R2-3 (+10) -> 5|3;
#   seat 0 L2-6 (+10) -> 6|3; nobody holds 1, 4 or a matador: blocked, pips 6 (3-3)
#   vs 6 (2-2 0-2): no winner. Hand points (10, 10).
TIE = (["5-5 2-6 3-3", "2-3 2-2 0-2"], ["5-5", "R2-3", "L2-6"], (10, 10))
# SEAT1_BLOCKS (seat 1 leads): 5-5 opens 5|5; nobody holds a 2 or a matador: blocked.
#   Pips 22 (6-6 4-4 1-1) vs 4 (0-1 0-3): seat 1 wins 22.
SEAT1_BLOCKS = (["6-6 4-4 1-1", "5-5 0-1 0-3"], ["5-5"], (0, 22))

THREE = {"players": [2, 2], "hand_size": 3, "set_aside": 22, "per_join": 10}


def test_R23_the_highest_total_wins_not_the_hand_winner() -> None:
    # match_target 10: after JOIN_RACE the totals are 11 and 20, both >= 10: seat 1
    # has the highest total and wins the match though seat 0 won the hand.
    hands, moves, points = JOIN_RACE
    match = Match(rules("classic", match_target=10, **THREE), 2, DealRng(deal_order(hands)))
    assert play_hand(match, moves, leader=0) == points
    assert match.scores == [11, 20]
    assert match.is_over and match.winner == 1


def test_R23_match_target_0_is_a_single_hand_won_by_its_hand_winner() -> None:
    # the same hand with match_target 0: the hand winner (seat 0) wins the match
    hands, moves, _ = JOIN_RACE
    match = Match(rules("classic", match_target=0, **THREE), 2, DealRng(deal_order(hands)))
    play_hand(match, moves, leader=0)
    assert match.scores == [11, 20]
    assert match.is_over and match.winner == 0
    with pytest.raises(MatadorError):
        match.next_hand()


def test_R23_match_target_0_a_hand_with_no_winner_is_a_match_with_no_winner() -> None:
    hands, moves, _ = TIE
    match = Match(rules("classic", match_target=0, **THREE), 2, DealRng(deal_order(hands)))
    play_hand(match, moves, leader=0)
    assert match.is_over and match.winner is None


def test_R23_a_tie_for_highest_plays_another_hand_R14_no_winner_passes_the_lead() -> None:
    # match_target 10. Hand 1 (TIE, led by seat 0): totals 10 and 10, both at the
    # target but tied: another hand. No hand winner: seat 1 (after leader 0) leads.
    # Hand 2 (SEAT1_BLOCKS): seat 1 wins 22 -> 10 and 32: seat 1 wins the match.
    rng = DealRng(deal_order(TIE[0]), deal_order(SEAT1_BLOCKS[0]))
    match = Match(rules("classic", match_target=10, **THREE), 2, rng)
    assert play_hand(match, TIE[1], leader=0) == TIE[2]
    assert match.scores == [10, 10]
    assert not match.is_over and match.winner is None
    assert play_hand(match, SEAT1_BLOCKS[1], leader=1) == SEAT1_BLOCKS[2]
    assert match.scores == [10, 32]
    assert match.is_over and match.winner == 1
    assert match.hand_number == 2


def test_R23_negative_scores_and_R14_leader_rotation() -> None:
    # classic, 2 tiles each, empty boneyard, pass_penalty 10, match_target 100.
    # Hand 1 (seat 0 leads: 5-5 is the highest double): 5-5 opens 5|5; seat 1
    #   (3-3 1-1) has no 2: pass (-10); seat 0 L2-2 goes out: + 3-3 + 1-1 = 8.
    # Hand 2 (the winner, seat 0, leads): 5-5 opens; nobody has a 2: blocked;
    #   pips 6 (3-3) vs 3 (1-1 0-1): seat 1 wins 6.
    # Hand 3 (the winner, seat 1, leads): 5-5 opens; blocked; pips 6 (1-1 0-4) vs
    #   6 (3-3): no winner.
    # Hand 4: the seat after hand 3's leader: seat 0.
    rng = DealRng(deal_order(["5-5 2-2", "3-3 1-1"]),
                  deal_order(["5-5 3-3", "1-1 0-1"]),
                  deal_order(["1-1 0-4", "5-5 3-3"]),
                  deal_order(["0-1 0-2", "0-3 0-4"]))
    r = rules("classic", players=[2, 2], hand_size=2, set_aside=24, pass_penalty=10)
    match = Match(r, 2, rng)
    assert play_hand(match, ["5-5", "pass", "L2-2"], leader=0) == (8, -10)
    assert match.scores == [8, -10]
    assert play_hand(match, ["5-5"], leader=0) == (0, 6)
    assert match.scores == [8, -4]
    assert play_hand(match, ["5-5"], leader=1) == (0, 0)
    assert match.scores == [8, -4]
    assert not match.is_over
    assert match.next_hand().deal.leader == 0


def test_R14_three_seats_no_winner_passes_the_lead_on_and_a_winner_leads() -> None:
    # classic, 3 seats x 2 tiles, empty boneyard (22 aside).
    # Hand 1: seat 2 holds 6-6, the highest double, and leads: 6-6 opens 6|6; nobody
    #   holds a 1 or a matador: blocked. Pips 0-4 2-2 = 8, 0-3 0-5 = 8, 2-6 = 8: no
    #   winner. The seat after leader 2 is seat 0.
    # Hand 2, led by seat 0: 5-5 opens 5|5; nobody holds a 2 or a matador: blocked.
    #   Pips 8 (4-4), 3 (0-1 1-1), 18 (6-6 3-3): seat 1 wins 26, and leads hand 3.
    r = rules("classic", players=[3, 3], hand_size=2, set_aside=22)
    rng = DealRng(deal_order(["0-4 2-2", "0-3 0-5", "6-6 2-6"]),
                  deal_order(["5-5 4-4", "0-1 1-1", "6-6 3-3"]),
                  deal_order(["0-1 0-2", "0-3 0-4", "0-5 0-6"]))
    match = Match(r, 3, rng)
    assert play_hand(match, ["6-6"], leader=2) == (0, 0, 0)
    assert play_hand(match, ["5-5"], leader=0) == (0, 26, 0)
    assert match.scores == [0, 26, 0]
    assert match.next_hand().deal.leader == 1


def test_R14_first_hand_leader_by_lot_uses_the_injected_rng() -> None:
    rng = DealRng(list(NAMES), lot=1)
    match = Match(rules("paluba"), 2, rng)
    assert match.leader_by_rule
    state = match.next_hand()
    assert state.deal.leader == 1 and rng.lots == 1


def test_R14_first_hand_leader_by_highest_double() -> None:
    # classic 2 seats x 5: seat 1 is dealt 6-6
    order = deal_order(["0-1 0-2 0-3 0-4 0-5", "1-2 1-3 6-6 1-4 1-5"])
    match = Match(rules("classic", players=[2, 2], set_aside=18), 2, DealRng(order))
    assert match.next_hand().deal.leader == 1


def test_R23_match_records_replay_to_their_results() -> None:
    rng = DealRng(deal_order(TIE[0]), deal_order(SEAT1_BLOCKS[0]))
    match = Match(rules("classic", match_target=10, **THREE), 2, rng)
    play_hand(match, TIE[1], leader=0)
    play_hand(match, SEAT1_BLOCKS[1], leader=1)
    results = [replay(rec).result for rec in match.records]
    assert [r["points"] for r in results] == [[10, 10], [0, 22]]
    assert [r["winner"] for r in results] == [None, 1]
    assert [rec.meta["scores_before"] for rec in match.records] == [[0, 0], [10, 10]]


def test_R23_finish_hand_checks_its_argument() -> None:
    hands, moves, _ = JOIN_RACE
    match = Match(rules("classic", match_target=10, **THREE), 2, DealRng(deal_order(hands)))
    state = match.next_hand()
    with pytest.raises(MatadorError):
        match.finish_hand(state)  # not over
    with pytest.raises(MatadorError):
        match.next_hand()  # the current hand is not over
    other = state.copy()
    for m in moves:
        other.play(m)
    with pytest.raises(MatadorError):
        match.finish_hand(other)  # not the current hand
    assert match.scores == [0, 0]


def test_R23_current_is_the_hand_in_play_until_it_is_finished() -> None:
    hands, moves, _ = JOIN_RACE
    match = Match(rules("classic", match_target=10, **THREE), 2, DealRng(deal_order(hands)))
    assert match.current is None
    state = match.next_hand()
    assert match.current is state
    for m in moves:
        state.play(m)
    match.finish_hand(state)
    assert match.current is None


def test_R23_random_matches_end_with_a_unique_highest_total_at_the_target() -> None:
    for preset in ("classic", "paluba", "russian", "six"):
        for seed in range(3):
            rng = random.Random(seed)
            match = Match(rules(preset), 2, rng)
            while not match.is_over:
                state = match.next_hand()
                while not state.is_over:
                    state.push(rng.choice(state.legal_move_ids()))
                match.finish_hand(state)
                assert len(match.records) < 500
            top = max(match.scores)
            assert top >= 100 and match.scores.count(top) == 1
            assert match.winner == match.scores.index(top)
            assert [sum(x) for x in zip(*(replay(r).result["points"] for r in match.records),
                                        strict=True)] == match.scores
