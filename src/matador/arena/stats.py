"""Statistics for the arena: Wilson intervals, Bradley-Terry strengths, Elo and the bootstrap.

Standard library only, deterministic for a given ``random.Random``.

>>> lo, hi = wilson(81, 263)
>>> round(lo, 4), round(hi, 4)
(0.2553, 0.3662)
>>> ratings = elo(bradley_terry([[0, 75], [25, 0]], prior=0))
>>> [round(r) for r in ratings]
[1000, 809]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

ELO_SCALE = 400.0
"""Elo points per factor of ten in Bradley-Terry strength."""

ELO_ANCHOR = 1000.0
"""The rating given to the anchor (by default the first bot)."""

Matrix = Sequence[Sequence[float]]
"""A square matrix of pairwise wins: ``wins[i][j]`` is how often ``i`` beat ``j``."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` out of ``n``.

    ``successes`` may be fractional: the arena feeds it the total score of a
    bot (wins count 1, shared hands a fraction), treating the mean score as
    a proportion. With ``n = 0`` the interval is the whole of ``[0, 1]``.

    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def bradley_terry(wins: Matrix, *, prior: float = 0.5, tol: float = 1e-10,
                  max_iter: int = 100_000, start: Sequence[float] | None = None) -> list[float]:
    """Bradley-Terry strengths fitted by maximum likelihood with Hunter's MM iterations.

    Under the model ``i`` beats ``j`` with probability ``p_i / (p_i + p_j)``.
    ``wins[i][j]`` (fractional values allowed: a shared result is half a win
    each way) is how often ``i`` beat ``j``; the diagonal is ignored.
    ``prior`` adds that many virtual wins in each direction between every
    pair, which keeps a bot that never won (or never lost) at a finite
    strength and the comparison graph connected; with ``prior = 0`` the
    data alone must be connected and every bot must have won and lost.

    The strengths are scaled to a geometric mean of 1. ``start`` (strengths
    from a previous fit) speeds up refits, as in the bootstrap.

    >>> [round(p, 3) for p in bradley_terry([[0, 2, 2], [1, 0, 2], [1, 1, 0]], prior=0)]
    [1.597, 1.0, 0.626]
    """
    k = len(wins)
    if any(len(row) != k for row in wins):
        raise ValueError("the win matrix must be square")
    if k == 0:
        return []
    w = [[(wins[i][j] + prior if i != j else 0.0) for j in range(k)] for i in range(k)]
    total = [sum(row) for row in w]
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    for i in range(k):
        if total[i] <= 0 or sum(games[i]) <= 0:
            raise ValueError(f"bot {i} has no win or no game: use a positive prior")
    p = list(start) if start is not None else [1.0] * k
    for _ in range(max_iter):
        change = 0.0
        for i in range(k):
            denom = sum(games[i][j] / (p[i] + p[j]) for j in range(k) if j != i and games[i][j])
            new = total[i] / denom
            change = max(change, abs(math.log(new / p[i])))
            p[i] = new
        mean_log = sum(math.log(x) for x in p) / k
        p = [x / math.exp(mean_log) for x in p]
        if change < tol:
            break
    return p


def elo(strengths: Sequence[float], anchor: int = 0, at: float = ELO_ANCHOR) -> list[float]:
    """Elo-like ratings from Bradley-Terry strengths: bot ``anchor`` gets ``at``.

    A difference of 400 points means odds of 10 to 1 in a pairwise comparison.

    >>> elo([1.0, 10.0, 0.1])
    [1000.0, 1400.0, 600.0]
    """
    ref = math.log10(strengths[anchor])
    return [at + ELO_SCALE * (math.log10(s) - ref) for s in strengths]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values``, linearly interpolated between order statistics.

    >>> percentile([1, 2, 3, 4], 0.5), percentile([5.0], 0.975)
    (2.5, 5.0)
    """
    if not values:
        raise ValueError("no values")
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def _square(flat: Sequence[float], k: int) -> list[list[float]]:
    return [list(flat[i * k:(i + 1) * k]) for i in range(k)]


def bootstrap_elo(units: Sequence[Matrix], k: int, rng: random.Random, *, reps: int = 200,
                  prior: float = 0.5, anchor: int = 0,
                  level: float = 0.95) -> list[tuple[float, float]]:
    """Percentile bootstrap intervals for the Elo ratings of :func:`elo`.

    ``units`` are the independent units of the experiment, each a win
    matrix: in the arena one per deal, summing every seat rotation and
    table played on it, so the resampling respects the duplicate design.
    Each replicate draws as many units with replacement, refits and rates;
    the interval of each bot is the central ``level`` part of its ratings.
    The anchor's own interval is ``(at, at)`` by construction.
    """
    if not units or reps <= 0:
        raise ValueError("the bootstrap needs units and replicates")
    flat = [tuple(float(u[i][j]) for i in range(k) for j in range(k)) for u in units]
    full = bradley_terry(_square(tuple(map(sum, zip(*flat, strict=True))), k), prior=prior)
    samples: list[list[float]] = [[] for _ in range(k)]
    picks = range(len(flat))
    for _ in range(reps):
        drawn = map(flat.__getitem__, rng.choices(picks, k=len(flat)))
        m = _square(tuple(map(sum, zip(*drawn, strict=True))), k)
        ratings = elo(bradley_terry(m, prior=prior, start=full, tol=1e-9), anchor)
        for i, r in enumerate(ratings):
            samples[i].append(r)
    tail = (1 - level) / 2
    return [(percentile(s, tail), percentile(s, 1 - tail)) for s in samples]


__all__ = ["ELO_ANCHOR", "ELO_SCALE", "Z95", "Matrix", "bootstrap_elo", "bradley_terry",
           "elo", "percentile", "wilson"]
