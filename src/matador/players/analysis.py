"""Move analysis: the estimated value of every legal move, and reviews of whole hands.

:func:`analyse` answers, for the seat to move in a view, each legal move's
probability of winning the hand (a hand with no winner counting 1/N) and its
expected points (R21 + R22, points already scored included), with the number
of sampled worlds behind each estimate. It is PIMC's evaluation
(:mod:`matador.players.pimc`): every move is played in the same sampled
worlds, so the differences between moves are measured with little noise.

:func:`review` replays a record and analyses every decision of the chosen
seats, marking each move by what it cost against the best one.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> from matador.core.view import PlayerView
>>> from matador.players.base import Budget
>>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(5))
>>> view = PlayerView.of(state, state.to_move)
>>> report = analyse(view, Budget(iterations=20), random.Random(1))
>>> len(report.moves) == len(state.legal_moves), report.moves[0].samples
(True, 20)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from matador.core.moves import MOVES, Move
from matador.core.record import Record
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.base import Budget
from matador.players.pimc import evaluate_worlds, view_worlds

#: Labels of a move by the win probability it gave up, largest threshold first.
LABELS: tuple[tuple[float, str], ...] = (
    (0.15, "blunder"), (0.06, "mistake"), (0.02, "inaccuracy"), (0.0, "good"),
)


@dataclass(frozen=True)
class MoveAnalysis:
    """The estimated value of one legal move for the seat to move."""

    move: Move
    win: float
    """Estimated probability of winning the hand (no-winner hands count 1/N)."""
    points: float
    """Estimated points of the hand for the seat (R21 + R22)."""
    samples: int
    """Worlds the estimate rests on."""
    win_stderr: float
    """Standard error of ``win``."""
    wins: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """The win value in each sampled world (the same worlds for every move)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object for this move."""
        return {"move": str(self.move), "win": round(self.win, 4),
                "points": round(self.points, 2), "samples": self.samples,
                "win_stderr": round(self.win_stderr, 4)}


@dataclass(frozen=True)
class Analysis:
    """Every legal move of a position, best first."""

    seat: int
    ply: int
    moves: tuple[MoveAnalysis, ...]

    @property
    def best(self) -> MoveAnalysis:
        """The move with the highest estimated win probability."""
        return self.moves[0]

    def difference_stderr(self, a: int, b: int) -> float:
        """Standard error of ``win(a) - win(b)``, from the paired worlds both were tried in."""
        wa, wb = self.of(a).wins, self.of(b).wins
        n = min(len(wa), len(wb))
        if n < 2:
            return math.inf
        diffs = [x - y for x, y in zip(wa[:n], wb[:n], strict=True)]
        return statistics.stdev(diffs) / math.sqrt(n)

    def of(self, move: int) -> MoveAnalysis:
        """The analysis of ``move``."""
        for a in self.moves:
            if a.move == move:
                return a
        raise KeyError(str(MOVES[move]))

    def to_json(self) -> dict[str, Any]:
        """A JSON object: seat, ply and the moves, best first."""
        return {"seat": self.seat, "ply": self.ply, "moves": [m.to_json() for m in self.moves]}


def analyse(view: PlayerView, budget: Budget, rng: Random, *,
            kernel: bool | None = None) -> Analysis:
    """Estimate every legal move of ``view.seat``, which must be to move.

    With a single legal move there is nothing to compare: its value is still
    estimated, so hints and reviews can show the position's outlook.
    ``kernel`` as for :func:`~matador.players.pimc.evaluate_worlds` (``None``:
    the compiled kernel if installed).
    """
    if view.to_move != view.seat:
        raise ValueError(f"seat {view.seat} is not to move")
    legal = view.legal_move_ids()
    result = evaluate_worlds(view_worlds(view, budget), view.seat, legal, rng, budget,
                             kernel=kernel)
    moves = []
    for m in legal:
        st = result.stats[m]
        var = max(0.0, st.win_sq / st.n - st.win_mean ** 2) if st.n else 0.0
        moves.append(MoveAnalysis(MOVES[m], st.win_mean, st.points_mean, st.n,
                                  math.sqrt(var / st.n) if st.n else 0.0, tuple(st.wins)))
    moves.sort(key=lambda a: (-a.win, -a.points, a.move))
    return Analysis(view.seat, view.ply, tuple(moves))


def label(cost: float) -> str:
    """The label of a move that gave up ``cost`` win probability against the best move."""
    for threshold, name in LABELS:
        if cost >= threshold:
            return name
    return "good"


@dataclass(frozen=True)
class ReviewedMove:
    """One decision of a reviewed hand."""

    ply: int
    seat: int
    played: Move
    analysis: Analysis
    cost: float
    """Win probability given up against the best move (0 for the best)."""
    cost_stderr: float
    """Standard error of ``cost`` (paired over the sampled worlds)."""
    points_cost: float
    """Expected points given up against the best move."""

    @property
    def label(self) -> str:
        """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder``.

        A cost within two standard errors of zero is ``good``: the search
        could not tell the move from the best one.
        """
        if self.played == self.analysis.best.move:
            return "best"
        if self.cost <= 2 * self.cost_stderr:
            return "good"
        return label(self.cost)

    def to_json(self) -> dict[str, Any]:
        """A JSON object for this decision."""
        return {"ply": self.ply, "seat": self.seat, "played": str(self.played),
                "label": self.label, "cost": round(self.cost, 4),
                "cost_stderr": round(self.cost_stderr, 4),
                "points_cost": round(self.points_cost, 2),
                "analysis": self.analysis.to_json()}


def view_at(record: Record, ply: int) -> PlayerView | None:
    """The view of the seat to move before move ``ply`` of ``record``; ``None`` once over."""
    state = HandState(record.rules, record.deal)
    for m in record.moves[:ply]:
        state.push(m)
    if state.is_over:
        return None
    return PlayerView.of(state, state.to_move, leader_by_rule=record.led_by_rule)


def review(record: Record, budget: Budget, rng: Random, seats: Iterable[int] | None = None,
           plies: Iterable[int] | None = None,
           known: Mapping[int, Analysis] | None = None) -> list[ReviewedMove]:
    """Analyse the decisions of ``seats`` (default: all) at ``plies`` (default: all) of a record.

    Positions with a single legal move are skipped: there was nothing to decide.
    ``known`` maps plies to analyses already made of them (the hints a player
    asked for), which are used as they are, so a review never contradicts the
    hint shown at that move.
    """
    wanted_seats = set(range(record.players) if seats is None else seats)
    wanted_plies = None if plies is None else set(plies)
    by_rule = record.led_by_rule
    state = HandState(record.rules, record.deal)
    out: list[ReviewedMove] = []
    for ply, m in enumerate(record.moves):
        seat = state.to_move
        if seat in wanted_seats and (wanted_plies is None or ply in wanted_plies) and \
                len(state.legal_move_ids()) > 1:
            result = (known or {}).get(ply) or analyse(
                PlayerView.of(state, seat, leader_by_rule=by_rule), budget, rng)
            chosen = result.of(m)
            out.append(ReviewedMove(ply, seat, MOVES[m], result,
                                    max(0.0, result.best.win - chosen.win),
                                    result.difference_stderr(result.best.move, m),
                                    max(0.0, result.best.points - chosen.points)))
        state.push(m)
    return out
