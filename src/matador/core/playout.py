"""Fast uniformly random playouts, for Monte Carlo estimates and for measuring the engine.

:func:`random_playout` makes exactly the choices of the plain loop::

    while not state.is_over:
        ids = state.legal_move_ids()
        state.push(ids[int(rng.random() * len(ids))])

but computes the legal moves inline (``tests/core/test_playout.py`` checks
that both agree move for move); ``benchmarks/playout.py`` measures it. The
search bots roll out with a greedy policy instead
(:mod:`matador.players.rollout`).

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
>>> decisions = random_playout(state, random.Random(2))
>>> state.is_over and decisions == state.ply
True
"""

from __future__ import annotations

import random

from matador.core.state import HandState, move_ids
from matador.core.tables import DRAW_BIT, PASS_BIT


def random_playout(state: HandState, rng: random.Random) -> int:
    """Play ``state`` to the end with uniformly random legal moves; return the decisions made.

    A decision is any move: plays, draws and passes. ``state`` is modified.
    """
    tb = state._tb
    join = tb.join
    join_l = tb.join_moves[0]
    join_r = tb.join_moves[1]
    matadors = tb.matadors
    non_matadors = tb.non_matadors
    matador_moves = tb.matador_moves
    anytime = tb.anytime
    optional = tb.optional
    draw_one = tb.draw_one
    hands = state.hands
    bone_len = len(state._bone)
    push = state.push
    rand = rng.random
    decisions = 0
    while state.outcome is None:
        hand = hands[state.to_move]
        left = state.left
        if left < 0:
            mask = hand
        else:
            right = state.right
            jl = hand & join[left]
            jr = hand & join[right]
            mask = join_l[left][jl] if jl else 0
            if jr:
                mask |= join_r[right][jr]
            hm = hand & matadors
            if hm and (anytime or not mask):
                mask |= matador_moves[hm]
            drawn = state.drawn
            can_draw = state._bpos < bone_len and not (drawn and draw_one)
            if mask:
                if optional and not (jl | jr) & non_matadors:
                    if can_draw:
                        mask |= DRAW_BIT
                    elif drawn and draw_one:
                        mask |= PASS_BIT
            else:
                mask = DRAW_BIT if can_draw else PASS_BIT
        ids = move_ids(mask)
        push(ids[int(rand() * len(ids))])
        decisions += 1
    return decisions
