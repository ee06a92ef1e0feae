"""Seeded deals and fast uniformly random playouts: the pure-Python reference of the kernel.

:func:`random_playout` makes exactly the choices of the plain loop::

    while not state.is_over:
        ids = state.legal_move_ids()
        if len(ids) > 1:
            state.push(ids[stream.below(len(ids))])
        else:
            state.push(ids[0])  # a forced move takes no draw

but computes the legal moves inline (``tests/core/test_playout.py`` checks
that both agree move for move); ``benchmarks/playout.py`` measures it.
:func:`deal_from_stream` shuffles with a counter-based
:class:`~matador.core.streams.Stream`. The compiled kernel
(:mod:`matador.fast`) deals and plays exactly the same hands from the same
stream keys (``tests/fast`` plays both in lockstep); the search bots roll out
with a greedy policy instead (:mod:`matador.players.rollout`).

>>> from matador.core.rules import Rules
>>> from matador.core.streams import Stream, stream_key
>>> stream = Stream(stream_key(1, 0))
>>> state = HandState(Rules.from_preset("classic"), deal_from_stream(
...     Rules.from_preset("classic"), 2, stream))
>>> decisions = random_playout(state, stream)
>>> state.is_over and decisions == state.ply
True
"""

from __future__ import annotations

from typing import Protocol

from matador.core.rules import FirstLeader, Rules
from matador.core.state import Deal, HandState, Seat, move_ids
from matador.core.streams import Stream
from matador.core.tables import DRAW_BIT, PASS_BIT
from matador.core.tiles import LEAD_RANK, NUM_TILES, TILES


def shuffled_tiles(stream: Stream) -> list[int]:
    """The 28 tile indices shuffled by ``stream``: Fisher-Yates from the top, 14 draws.

    Each draw serves two swaps, its high 32 bits the swap of position ``i``
    (``(hi * (i + 1)) >> 32``), its low 32 bits that of ``i - 1``.
    """
    tiles = list(range(NUM_TILES))
    draw = stream.draw
    for i in range(NUM_TILES - 1, 0, -2):
        z = draw()
        j = ((z >> 32) * (i + 1)) >> 32
        tiles[i], tiles[j] = tiles[j], tiles[i]
        j = ((z & 0xFFFFFFFF) * i) >> 32
        tiles[i - 1], tiles[j] = tiles[j], tiles[i - 1]
    return tiles


def deal_from_stream(rules: Rules, players: int, stream: Stream,
                     leader: Seat | None = None) -> Deal:
    """Shuffle with ``stream`` and deal as :meth:`Deal.random` does (R12, R14).

    The first ``set_aside`` shuffled tiles are set aside, then each seat gets
    ``hand_size`` tiles, the rest is the boneyard. Under ``first_leader = lot``
    one more draw picks the leader (unless ``leader`` is given).
    """
    rules.check_players(players)
    tiles = shuffled_tiles(stream)
    k = rules.set_aside
    size = rules.hand_size_for(players)
    end = k + players * size
    hands = tuple([tuple(TILES[t] for t in tiles[i:i + size]) for i in range(k, end, size)])
    if leader is None:
        if rules.first_leader is FirstLeader.LOT:
            leader = stream.below(players)
        else:  # R14: the holder of the best tile dealt
            best = max(tiles[k:end], key=LEAD_RANK.__getitem__)
            leader = (tiles.index(best) - k) // size
    return Deal(hands, tuple(TILES[t] for t in tiles[end:]),
                tuple(TILES[t] for t in tiles[:k]), leader)


class RandomIndex(Protocol):
    """What :func:`random_playout` draws from: a :class:`Stream` or a :class:`random.Random`."""

    def randrange(self, n: int, /) -> int:
        """An integer in ``0..n-1``."""


def random_playout(state: HandState, stream: RandomIndex) -> int:
    """Play ``state`` to the end with uniformly random legal moves; return the decisions made.

    A decision is any move: plays, draws and passes. A choice among ``n > 1``
    legal moves (in id order) takes ``stream.randrange(n)`` (for a
    :class:`Stream`, ``below(n)``: what the kernel reproduces); a forced move
    takes no draw. ``state`` is modified.
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
    below = stream.randrange
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
        push(ids[below(len(ids))] if len(ids) > 1 else ids[0])
        decisions += 1
    return decisions
