"""The arena's statistics on cases with known answers."""

from __future__ import annotations

import math
import random

import pytest

from matador.arena.stats import (
    Z95,
    bootstrap_elo,
    bradley_terry,
    elo,
    percentile,
    wilson,
)

# Wilson score intervals published by Newcombe (1998), "Two-sided confidence intervals
# for the single proportion", Statistics in Medicine 17: the worked examples of method 3
# (the score interval without continuity correction), to 4 places.
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("x", "n", "lo", "hi"), NEWCOMBE)
def test_wilson_matches_published_values(x: int, n: int, lo: float, hi: float) -> None:
    low, high = wilson(x, n)
    assert round(low, 4) == lo
    assert round(high, 4) == hi


def test_wilson_small_cases() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert low + high == pytest.approx(1.0)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=5e-5)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_is_symmetric_and_takes_fractional_scores() -> None:
    for x in (0, 0.5, 3, 7.25, 12):
        low, high = wilson(x, 12)
        mirror = wilson(12 - x, 12)
        assert low == pytest.approx(1 - mirror[1])
        assert high == pytest.approx(1 - mirror[0])
        assert low <= x / 12 <= high


def test_wilson_formula_by_hand() -> None:
    # p = 0.3, n = 100: centre (p + z^2/2n) / (1 + z^2/n), half-width from the formula.
    z2 = Z95 ** 2
    centre = (0.3 + z2 / 200) / (1 + z2 / 100)
    half = Z95 / (1 + z2 / 100) * math.sqrt(0.3 * 0.7 / 100 + z2 / 40000)
    assert wilson(30, 100) == pytest.approx((centre - half, centre + half))


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(-1, 10)


def _expected_wins(strengths: list[float], games: int) -> list[list[float]]:
    k = len(strengths)
    return [[games * strengths[i] / (strengths[i] + strengths[j]) if i != j else 0.0
             for j in range(k)] for i in range(k)]


def test_bradley_terry_recovers_exact_strengths() -> None:
    truth = [1.0, 2.0, 4.0, 0.5]
    fitted = bradley_terry(_expected_wins(truth, 100), prior=0)
    scale = fitted[0] / truth[0]
    for f, t in zip(fitted, truth, strict=True):
        assert f / scale == pytest.approx(t, rel=1e-6)


def test_bradley_terry_recovers_strengths_from_simulated_games() -> None:
    rng = random.Random(5)
    truth = [1.0, 3.0, 0.4]
    k = len(truth)
    wins = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            for _ in range(4000):
                if rng.random() < truth[i] / (truth[i] + truth[j]):
                    wins[i][j] += 1
                else:
                    wins[j][i] += 1
    ratings = elo(bradley_terry(wins))
    expected = elo(truth)
    for r, e in zip(ratings, expected, strict=True):
        assert r == pytest.approx(e, abs=15)  # a few standard errors at 4000 games a pair


def test_bradley_terry_prior_keeps_unbeaten_bots_finite() -> None:
    strengths = bradley_terry([[0, 10], [0, 0]])
    assert all(math.isfinite(s) and s > 0 for s in strengths)
    assert strengths[0] > strengths[1]
    with pytest.raises(ValueError):
        bradley_terry([[0, 10], [0, 0]], prior=0)


def test_bradley_terry_equal_bots_and_half_wins() -> None:
    assert bradley_terry([[0, 7.5], [7.5, 0]]) == [pytest.approx(1.0), pytest.approx(1.0)]
    with pytest.raises(ValueError):
        bradley_terry([[0, 1], [1]])


def test_elo_scale_and_anchor() -> None:
    assert elo([1.0, 10.0, 0.1]) == [1000.0, 1400.0, 600.0]
    assert elo([1.0, 10.0], anchor=1) == [600.0, 1000.0]
    # 3 to 1 odds are 400 * log10(3), about 191 points
    assert elo(bradley_terry([[0, 75], [25, 0]], prior=0))[1] == pytest.approx(
        1000 - 400 * math.log10(3))


def test_percentile() -> None:
    assert percentile([3, 1, 2], 0) == 1
    assert percentile([3, 1, 2], 1) == 3
    assert percentile([1, 2, 3, 4], 0.5) == 2.5
    assert percentile(list(range(101)), 0.975) == pytest.approx(97.5)
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_bootstrap_intervals_cover_the_fit_and_are_reproducible() -> None:
    rng = random.Random(1)
    truth = [1.0, 2.0, 0.5]
    units = []
    for _ in range(300):  # one unit per "deal": a game between every pair
        u = [[0.0] * 3 for _ in range(3)]
        for i in range(3):
            for j in range(i + 1, 3):
                if rng.random() < truth[i] / (truth[i] + truth[j]):
                    u[i][j] += 1
                else:
                    u[j][i] += 1
        units.append(u)
    total = [[sum(u[i][j] for u in units) for j in range(3)] for i in range(3)]
    point = elo(bradley_terry(total))
    ci = bootstrap_elo(units, 3, random.Random(2), reps=300)
    assert ci[0] == (1000.0, 1000.0)  # the anchor
    for (lo, hi), p in zip(ci, point, strict=True):
        assert lo <= p <= hi
    assert ci == bootstrap_elo(units, 3, random.Random(2), reps=300)
    # the true ratings lie inside (they do for this seed; the intervals are ~+-60 wide)
    for (lo, hi), t in zip(ci[1:], elo(truth)[1:], strict=True):
        assert lo <= t <= hi
    # more data, narrower intervals
    wide = bootstrap_elo(units[:50], 3, random.Random(2), reps=300)
    assert wide[1][1] - wide[1][0] > ci[1][1] - ci[1][0]


def test_bootstrap_needs_data() -> None:
    with pytest.raises(ValueError):
        bootstrap_elo([], 2, random.Random(1))
