"""Time management for a search bot: when a decision is settled, and a bank for close ones.

A search with a time budget of ``T`` per move spends it where it matters:

* **none on forced moves**: a single legal move is answered at once (the
  :class:`~matador.players.base.Bot` base class never calls the search), and
  moves that lead to the same position are searched once (:func:`distinct_moves`);
* **less on settled decisions**: once the best move leads every other one by
  more than the statistical noise (:func:`settled`), or no move can matter by
  more than a hair, the search stops early;
* **more on close decisions**: what a settled decision did not use goes into
  a bank (:class:`ThinkClock`), from which later, closer decisions of the
  same hand draw, up to ``max_factor * T`` for one move. The bank only holds
  time saved earlier, so the mean time per searched move stays within ``T``.

>>> clock = ThinkClock(200.0, max_factor=2.0)
>>> clock.allowance()
200.0
>>> clock.spend(50.0)       # a settled decision used 50 ms of its 200
>>> clock.bank, clock.allowance()
(150.0, 350.0)
>>> clock.spend(350.0)      # a close one used all of it
>>> clock.bank
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from matador.core.moves import DRAW, MOVE_END, MOVE_EXPOSED, MOVE_TILE, PLAY_BASE

Z_SETTLED = 3.0
"""How many standard errors the best move must lead each other move by to stop early."""
MIN_SAMPLES = 24
"""Worlds a decision always looks at before it may be called settled."""
EPSILON = 0.01
"""Moves whose values surely differ by less than this (win probability) are as good as equal."""


@dataclass
class ThinkClock:
    """Milliseconds per move, with a bank of time saved on settled decisions.

    ``millis`` is the nominal time per searched move; one move may use at
    most ``max_factor * millis``; the bank never holds more than
    ``bank_cap * millis``.
    """

    millis: float
    max_factor: float = 2.0
    bank_cap: float = 4.0
    bank: float = 0.0

    def allowance(self) -> float:
        """Milliseconds the next decision may use: its share plus the bank, capped."""
        return min(self.millis + self.bank, self.millis * self.max_factor)

    def spend(self, used: float) -> None:
        """Account for a searched decision that used ``used`` milliseconds."""
        self.bank = min(max(0.0, self.bank + self.millis - used), self.bank_cap * self.millis)


def settled(per_move: Sequence[Sequence[float]], z: float = Z_SETTLED,
            epsilon: float = EPSILON, min_samples: int = MIN_SAMPLES) -> bool:
    """Whether more samples are unlikely to change the choice among these moves.

    ``per_move[k][i]`` is move ``k``'s value in world ``i`` (worlds shared by all
    moves, so differences are paired). True when, after ``min_samples``
    worlds, the move with the best mean leads every other by more than ``z``
    standard errors of the paired difference, or when every other move is
    surely within ``epsilon`` of it (the choice cannot matter).

    >>> settled([[1.0, 0.0] * 10, [0.0, 0.0] * 10])     # 20 worlds: too few to say
    False
    >>> settled([[1.0, 1.0, 0.0] * 10, [0.0, 1.0, 0.0] * 10])   # leads by 1/3 +- 0.09
    True
    >>> settled([[1.0, 0.0, 0.0] * 10, [0.0, 1.0, 0.0] * 10])   # level: keep looking
    False
    >>> settled([[0.5] * 30, [0.5] * 30])                        # identical: stop
    True
    """
    if len(per_move) < 2:
        return True
    n = len(per_move[0])
    if n < min_samples:
        return False
    means = [math.fsum(v) / n for v in per_move]
    best = max(range(len(per_move)), key=means.__getitem__)
    lead = True
    close = True
    for k, values in enumerate(per_move):
        if k == best:
            continue
        diffs = [a - b for a, b in zip(per_move[best], values, strict=True)]
        mean = math.fsum(diffs) / n
        var = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)
        se = math.sqrt(var / n)
        if mean - z * se <= 0:
            lead = False
        if mean + z * se >= epsilon:
            close = False
        if not lead and not close:
            return False
    return True


def distinct_moves(legal: Sequence[int], left: int, right: int) -> list[int]:
    """``legal`` without moves that lead to the same position as an earlier one.

    Laying a tile on the left or on the right end when both ends show the
    same number gives the same ends and the same hand: one of the two is
    enough to search.

    >>> from matador.core.moves import Move
    >>> moves = [Move.parse(m) for m in ("L3-5", "R3-5", "L4-2")]
    >>> [str(Move(m)) for m in distinct_moves(moves, 4, 4)]
    ['L3-5', 'L4-2']
    """
    seen: set[tuple[int, int, int]] = set()
    out: list[int] = []
    for m in legal:
        if PLAY_BASE <= m < DRAW:
            a, b = (left, MOVE_EXPOSED[m]) if MOVE_END[m] else (MOVE_EXPOSED[m], right)
            key = (MOVE_TILE[m], min(a, b), max(a, b))
            if key in seen:
                continue
            seen.add(key)
        out.append(m)
    return out


__all__ = ["EPSILON", "MIN_SAMPLES", "Z_SETTLED", "ThinkClock", "distinct_moves", "settled"]
