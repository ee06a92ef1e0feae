"""Time management of the search bots (matador.players.timing), against known answers."""

from __future__ import annotations

import random

import pytest

from matador.core.moves import Move
from matador.players.timing import (
    EPSILON,
    MIN_SAMPLES,
    ThinkClock,
    distinct_moves,
    settled,
)


def test_clock_gives_the_nominal_time_with_an_empty_bank() -> None:
    clock = ThinkClock(200.0, max_factor=2.0)
    assert clock.allowance() == 200.0
    clock.spend(200.0)  # a close decision used all of its time: nothing saved
    assert clock.bank == 0.0 and clock.allowance() == 200.0


def test_clock_banks_what_settled_decisions_save_and_spends_it_on_close_ones() -> None:
    clock = ThinkClock(100.0, max_factor=3.0)
    clock.spend(20.0)
    clock.spend(30.0)
    assert clock.bank == pytest.approx(150.0)
    assert clock.allowance() == pytest.approx(250.0)  # 100 + 150, under the 3x cap
    clock.spend(250.0)
    assert clock.bank == pytest.approx(0.0)


def test_clock_caps_one_move_and_the_bank() -> None:
    clock = ThinkClock(100.0, max_factor=2.0, bank_cap=4.0)
    for _ in range(10):
        clock.spend(0.0)
    assert clock.bank == 400.0  # at most 4 moves' worth
    assert clock.allowance() == 200.0  # at most 2x for one move


def test_clock_never_borrows() -> None:
    """An overrun (the last world of a search ends past the deadline) leaves no debt."""
    clock = ThinkClock(100.0)
    clock.spend(130.0)
    assert clock.bank == 0.0


def test_the_mean_time_stays_within_the_budget_whatever_the_decisions() -> None:
    """Each decision uses between nothing and its whole allowance: the mean is at most T."""
    rng = random.Random(1)
    clock = ThinkClock(100.0, max_factor=2.5)
    used = []
    for _ in range(500):
        t = clock.allowance() * rng.choice([0.1, 0.5, 1.0, 1.0])
        used.append(t)
        clock.spend(t)
    assert sum(used) / len(used) <= 100.0


def test_settled_needs_enough_worlds() -> None:
    lead = [[1.0] * (MIN_SAMPLES - 1), [0.0] * (MIN_SAMPLES - 1)]
    assert not settled(lead)
    assert settled([[1.0] * MIN_SAMPLES, [0.0] * MIN_SAMPLES])


def test_settled_by_a_clear_paired_lead() -> None:
    """Move 0 wins in 12 of 30 worlds where move 1 loses, never the reverse: a lead of
    0.4 with a standard error of 0.09, more than 3 of them."""
    a = [1.0] * 12 + [0.0] * 18
    b = [0.0] * 30
    assert settled([a, b]) and settled([b, a])  # whichever order the moves come in


def test_not_settled_when_the_lead_is_within_the_noise() -> None:
    """A lead of 2 worlds in 40, swaps both ways: not significant."""
    a = [1.0] * 6 + [0.0] * 4 + [1.0] * 10 + [0.0] * 20
    b = [0.0] * 4 + [1.0] * 4 + [0.0] * 2 + [1.0] * 10 + [0.0] * 20
    assert not settled([a, b])


def test_settled_when_the_moves_surely_do_not_differ() -> None:
    """Identical values in every world: no sample can separate the moves."""
    same = [random.Random(2).random() for _ in range(MIN_SAMPLES)]
    assert settled([same, same[:], same[:]])
    # close but noisy: not settled (the difference could still exceed EPSILON)
    noisy = [v + (0.3 if i % 2 else -0.3) for i, v in enumerate(same)]
    assert not settled([same, noisy])
    assert EPSILON > 0


def test_every_other_move_must_trail_the_best() -> None:
    a = [1.0] * 20 + [0.0] * 10
    b = [0.0] * 30
    c = [1.0] * 19 + [0.0] * 11  # level with a within the noise
    assert settled([a, b])
    assert not settled([a, b, c])


def test_one_move_is_always_settled() -> None:
    assert settled([[0.3]])


def test_distinct_moves_drops_mirror_plays_on_equal_ends() -> None:
    """L and R of the same tile against two ends showing the same number: one position."""
    moves = [Move.parse(m) for m in ("L3-5", "R3-5", "L3-0", "R3-0", "draw")]
    kept = [str(Move(m)) for m in distinct_moves(moves, 4, 4)]
    assert kept == ["L3-5", "L3-0", "draw"]


def test_distinct_moves_compares_the_ends_left() -> None:
    # 3-5 against 4|2: on the left it leaves 5|2, on the right 4|3. Both are kept.
    moves = [Move.parse(m) for m in ("L3-5", "R5-3")]
    assert distinct_moves(moves, 4, 2) == moves
    # 3-4 against 4|3 leaves 4|3 on either end: the same position.
    assert distinct_moves([Move.parse("L3-4"), Move.parse("R4-3")], 4, 3) == [Move.parse("L3-4")]


def test_distinct_moves_of_an_opening_keeps_every_tile() -> None:
    openings = [Move.parse(m) for m in ("3-3", "2-5", "0-0")]
    assert distinct_moves(openings, -1, -1) == openings
