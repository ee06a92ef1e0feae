"""Rows of numbers for the kernel: rule sets, hand states and greedy weights (numpy only).

The layouts are the ``ROW_*``, ``R_*`` and ``W_*`` offsets of
:mod:`matador.fast.layout`; nothing here needs Numba.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from matador.core.rules import Draw, FirstLeader, GoingOut, HandPoints, Rules
from matador.core.state import HandState
from matador.core.tables import tables_for
from matador.core.tiles import HALVES, NUM_TILES
from matador.fast import layout as L

WEIGHT_NAMES = ("W_PIPS", "W_FOLLOW", "W_MATADOR", "W_LAST_MATADOR", "W_POINTS", "W_OUT",
                "W_BLOCK", "W_BLANK", "W_BLANK_NO_MATADOR", "DRAW_COST", "W_BLOCK_OTHERS",
                "SPEND_NEXT", "SPEND_BONE")
"""The greedy and table policies' weights, by their names in :mod:`matador.players.heuristic`
(the last three are read by the table policy only)."""


def rules_row(rules: Rules, players: int) -> np.ndarray:
    """The rules row of ``rules`` at a table of ``players`` (hand size only if it can deal)."""
    tb = tables_for(rules)
    r = np.zeros(L.R_SIZE, dtype=np.int64)
    t = rules.target
    r[L.R_TARGET] = t
    r[L.R_MATADORS] = tb.matadors
    r[L.R_NON_MATADORS] = tb.non_matadors
    r[L.R_ANYTIME] = rules.matador_anytime
    r[L.R_OPTIONAL] = rules.matador_optional
    r[L.R_DRAW_ONE] = rules.draw is Draw.ONE
    r[L.R_ENDS_HAND] = rules.going_out is GoingOut.ENDS_HAND
    r[L.R_AFTER_BONEYARD] = rules.going_out is GoingOut.AFTER_BONEYARD
    r[L.R_NEVER_OUT] = rules.going_out is GoingOut.NEVER
    r[L.R_PIPS_TO_WINNER] = rules.hand_points is HandPoints.PIPS_TO_WINNER
    r[L.R_PER_JOIN] = rules.per_join
    r[L.R_PER_MATADOR] = rules.per_matador
    r[L.R_BONUS] = rules.exposed_target_bonus
    r[L.R_PASS_PENALTY] = rules.pass_penalty
    r[L.R_SCORES_PLAYS] = tb.scores_plays
    r[L.R_SET_ASIDE] = rules.set_aside
    r[L.R_HAND_SIZE] = _hand_size(rules, players)
    r[L.R_LOT] = rules.first_leader is FirstLeader.LOT
    r[L.R_PLAYERS] = players
    for v in range(7):
        r[L.R_JOIN + v] = tb.join[v]
        for b in range(7):
            r[L.R_PLAYABLE + 7 * v + b] = tb.playable_against[v][b]
        for tile in range(NUM_TILES):
            if tb.join[v] >> tile & 1:
                lo, hi = HALVES[tile]
                touch = t - v
                exposed = hi if lo == touch else lo
                r[L.R_JPOS + NUM_TILES * v + tile] = 1 << (7 * touch + exposed)
    for tile in range(NUM_TILES):
        if tb.matadors >> tile & 1:
            lo, hi = HALVES[tile]
            r[L.R_MATPOS + tile] = 1 << (7 * lo + hi) | 1 << (7 * hi + lo)
    return r


def _hand_size(rules: Rules, players: int) -> int:
    """The hand size for ``players``, 0 when the rules cannot deal that many (R12)."""
    return rules.hand_size_for(players) if rules.allows_players(players) else 0


def state_rows(states: Sequence[HandState]) -> np.ndarray:
    """One row per state (the state as it is now; the boneyard's remaining tiles in order)."""
    flat: list[int] = []
    pad = [0] * L.ROW_SIZE
    for state in states:
        n = state.players
        row = pad[:]
        row[L.ROW_HANDS:L.ROW_HANDS + n] = state.hands
        row[L.ROW_LEFT] = state.left
        row[L.ROW_RIGHT] = state.right
        row[L.ROW_TO_MOVE] = state.to_move
        row[L.ROW_DRAWN] = state.drawn
        row[L.ROW_PLY] = state.ply
        row[L.ROW_PLAYED] = state.played
        row[L.ROW_POINTS:L.ROW_POINTS + n] = state.points
        row[L.ROW_EMPTY_AT:L.ROW_EMPTY_AT + 4] = [*state.emptied_at, -1, -1, -1, -1][:4]
        bone = state.boneyard
        row[L.ROW_BLEN] = len(bone)
        row[L.ROW_BONE:L.ROW_BONE + len(bone)] = bone
        row[L.ROW_PLAYERS] = n
        row[L.ROW_LEADER] = state.deal.leader
        outcome = state.outcome
        if outcome is None:
            row[L.ROW_WINNER] = -1
            row[L.ROW_REASON] = -1
        else:
            row[L.ROW_WINNER] = -1 if outcome.winner is None else outcome.winner
            row[L.ROW_REASON] = 0 if outcome.reason.value == "out" else 1
            row[L.ROW_PIPS:L.ROW_PIPS + n] = outcome.pips
            row[L.ROW_POINTS:L.ROW_POINTS + n] = outcome.points
        flat += row
    return np.array(flat, dtype=np.int64).reshape(len(states), L.ROW_SIZE)


def weights_row(weights: Mapping[str, float]) -> np.ndarray:
    """The greedy weights as the kernel reads them; ``weights`` names every one of
    :data:`WEIGHT_NAMES`."""
    missing = [name for name in WEIGHT_NAMES if name not in weights]
    if missing:
        raise ValueError(f"greedy weights missing: {', '.join(missing)}")
    return np.array([float(weights[name]) for name in WEIGHT_NAMES], dtype=np.float64)
