"""Where the points of a hand came from, rule by rule (R21, R22).

>>> import random
>>> from matador.core.record import Record
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> state = HandState.new(Rules.from_preset("six"), 2, random.Random(2))
>>> while not state.is_over:
...     state.push(state.legal_move_ids()[0])
>>> parts = breakdown(Record.of(state))
>>> [b.total for b in parts] == list(state.outcome.points)
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from matador.core.moves import DRAW, PASS
from matador.core.record import Record
from matador.core.state import HandState
from matador.core.tables import tables_for


@dataclass(frozen=True)
class Breakdown:
    """Where one seat's points of a hand came from (R21, R22)."""

    joins: int = 0
    matadors: int = 0
    bonuses: int = 0
    passes: int = 0
    join_points: int = 0
    matador_points: int = 0
    bonus_points: int = 0
    pass_points: int = 0
    hand_points: int = 0
    """R21: the pips of the other hands, for the winner."""

    def to_json(self) -> dict[str, Any]:
        """Every count and points field, and the total."""
        return {**asdict(self), "total": self.total}

    @property
    def total(self) -> int:
        """All points of the hand."""
        return (self.join_points + self.matador_points + self.bonus_points + self.pass_points
                + self.hand_points)


def breakdown(record: Record) -> list[Breakdown]:
    """Each seat's points of a finished hand, by kind (the total equals the result's points)."""
    rules = record.rules
    tables = tables_for(rules)
    state = HandState(rules, record.deal)
    counts = [[0, 0, 0, 0] for _s in range(record.players)]
    for m in record.moves:
        s = state.to_move
        if m == PASS:
            counts[s][3] += 1
        elif m < DRAW:
            for k, earned in enumerate(tables.play_kinds(m, state.left, state.right)):
                counts[s][k] += earned
        state.push(m)
    outcome = state.outcome
    out = []
    for s, (j, mat, bon, pas) in enumerate(counts):
        b = Breakdown(j, mat, bon, pas, j * rules.per_join, mat * rules.per_matador,
                      bon * rules.exposed_target_bonus, -pas * rules.pass_penalty)
        final = outcome.points[s] if outcome is not None else b.total
        out.append(Breakdown(j, mat, bon, pas, b.join_points, b.matador_points, b.bonus_points,
                             b.pass_points, final - b.total))
    return out


__all__ = ["Breakdown", "breakdown"]
