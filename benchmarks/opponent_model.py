#!/usr/bin/env python3
"""``matador arena`` with searches that know how their opponents choose: what a model of
the opponent is worth.

``sage``'s playouts play every seat with the ``heuristic``'s policy (the
``table`` policy), which is how a ``heuristic`` seat really plays. Against
``greedy`` seats that model is wrong. These bot kinds are the search of
``sage`` at an iteration budget (uniform worlds, table playouts for the
searching seat, no exact endgames, no early stop), with the other seats
modelled as the ``greedy`` bot they are:

* ``table-search``: the control, every seat of the playouts on the table
  policy;
* ``knows-greedy``: the other seats of the playouts play ``greedy``'s exact
  choice (the kernel's per-seat policies when installed);
* ``infers-greedy``: table playouts, the worlds drawn in proportion to how
  likely the other seats' observed choices were had they played ``greedy``
  (probability 0.95, else a uniform move; 300 worlds from 1,000 uniform
  candidates, as ``benchmarks/world_regret.py`` does);
* ``knows-infers-greedy``: both.

Every argument goes to ``matador arena``::

    python benchmarks/opponent_model.py knows-greedy:300it greedy --preset classic \\
        --players 2 --deals 500 --seed 1406 --bootstrap 0

They are measurements, not opponents: each is told what its opponents are.
What they measured is in ``docs/bots.md`` ("A model of the opponent").
"""

from __future__ import annotations

import math
import random
import sys
from functools import partial
from pathlib import Path

from matador.cli.main import main
from matador.core.view import PlayerView
from matador.players import register
from matador.players.base import Bot, Budget
from matador.players.pimc import Finish, MoveStats, SearchResult, kernel_enabled, value_batch
from matador.players.playouts import (
    EPSILON,
    choice_log_likelihoods,
    seat_rollout,
    table_rollout,
)
from matador.players.rollout import EndgameSolver
from matador.players.timing import distinct_moves

sys.path.insert(0, str(Path(__file__).resolve().parent))
from world_regret import candidates, listed

WORLDS = 300
"""Worlds a decision when the budget names none."""
POOL = 1000
"""Uniform candidate worlds weighed by the choices model (with inference)."""
TRUST = 0.95
"""The choices model's chance of ``greedy``'s move."""


class OpponentModelSearch(Bot):
    """``sage``'s search (see the module's text) with the other seats modelled as
    ``greedy``: in the playouts (``knows``), in the worlds (``infers``), both, or neither."""

    kind = "table-search"

    def __init__(self, budget: Budget | None = None, *, knows: bool = False,
                 infers: bool = False) -> None:
        super().__init__(budget)
        self.knows = knows
        self.infers = infers

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: random.Random) -> int:
        moves = distinct_moves(legal, view.left, view.right)
        if len(moves) == 1:
            return moves[0]
        seat = view.seat
        n = (self.budget.iterations if self.budget else None) or WORLDS
        seen = any(s != seat for s in view.movers)
        if self.infers and seen:
            pool = candidates(view, POOL, rng)
            logs = [sum(v for (_, name), v in choice_log_likelihoods(view, w, TRUST).items()
                        if name == "greedy") for w in pool]
            top = max(logs)
            worlds = rng.choices(pool, weights=[math.exp(x - top) for x in logs], k=n)
        else:
            worlds = candidates(view, n, rng)
        policies = tuple("table" if s == seat else "greedy" for s in range(view.players))
        finish = Finish(seat_rollout(policies), "table", EPSILON, 0, policies) if self.knows \
            else Finish(table_rollout, "table", EPSILON, 0)
        stats = {m: MoveStats(m) for m in moves}
        value_batch(listed(worlds), range(n), moves, stats, seat, rng, rng.getrandbits(64),
                    EndgameSolver(), kernel_enabled(None), finish)
        return SearchResult(stats, n).best()


KINDS = {
    "table-search": partial(OpponentModelSearch),
    "knows-greedy": partial(OpponentModelSearch, knows=True),
    "infers-greedy": partial(OpponentModelSearch, infers=True),
    "knows-infers-greedy": partial(OpponentModelSearch, knows=True, infers=True),
}


if __name__ in ("__main__", "__mp_main__"):  # the arena's workers (spawned) need them too
    for _kind, _factory in KINDS.items():
        register(_kind, _factory)
if __name__ == "__main__":
    sys.exit(main(["arena", *sys.argv[1:]]))
