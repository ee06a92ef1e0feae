"""The arena on the referee plays the games the arena played before it (issue 10).

``tests/data/arena_golden.json`` was written by the arena of commit 2873d32, before
games were refereed by :class:`matador.table.Table`: five fixed-seed runs (hands and
matches, 2 to 4 players, every preset) of the one-ply bots, whose choices do not
depend on the search code. Every game (seats, leader, winner, scores, hands,
points, moves per seat) and every summary figure but the timings must be the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from matador.arena import run_arena

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "arena_golden.json").read_text())


@pytest.mark.parametrize("run", GOLDEN, ids=lambda r: "-".join(r["bots"]))
def test_the_arena_plays_the_same_games_as_before_the_referee(run: dict[str, Any]) -> None:
    result = run_arena(run["bots"], bootstrap=50, **run["args"])
    summary = result.to_json()
    summary.pop("seconds")
    summary.pop("ms_per_move")
    games = [[g.table, g.deal, g.rotation, list(g.seats), g.leader, g.winner, list(g.scores),
              g.hands, list(g.points), list(g.moves)] for g in result.games]
    assert games == run["games"]
    assert json.loads(json.dumps(summary)) == run["summary"]
