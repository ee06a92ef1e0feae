"""Random hands in shards: what ``matador simulate`` writes, on any backend.

Hand ``i`` of a run with seed ``seed`` is dealt and played with uniformly
random legal moves from its own counter-based stream ``stream_key(seed, i)``
(:func:`~matador.core.playout.deal_from_stream`,
:func:`~matador.core.playout.random_playout`), so shards of hands can run
anywhere, in any order, and the records are the same bytes.

>>> from matador.core.rules import Rules
>>> lines, moves = simulate_shard(SimulateShard(Rules.from_preset("classic"), 2, 7, 0, 3))
>>> len(lines), moves > 0
(3, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from matador.arena.backend import Backend, Local, in_order
from matador.core.playout import deal_from_stream, random_playout
from matador.core.record import Record
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.streams import MASK64, Stream, stream_key

SHARD_HANDS = 500
"""Hands per shard."""


@dataclass(frozen=True)
class SimulateShard:
    """Hands ``first .. first + count - 1`` of a run. Picklable."""

    rules: Rules
    players: int
    seed: int
    first: int
    count: int


def simulate_hand(rules: Rules, players: int, seed: int, index: int) -> HandState:
    """Hand ``index`` of the run with ``seed``, played to its end with random legal moves."""
    stream = Stream(stream_key(seed & MASK64, index))
    state = HandState(rules, deal_from_stream(rules, players, stream))
    random_playout(state, stream)
    return state


def simulate_shard(shard: SimulateShard) -> tuple[list[str], int]:
    """The records (one JSON line each, with the result) and the number of moves of a shard."""
    lines = []
    moves = 0
    for i in range(shard.first, shard.first + shard.count):
        state = simulate_hand(shard.rules, shard.players, shard.seed, i)
        lines.append(Record.of(state).dumps())
        moves += state.ply
    return lines, moves


def simulate(rules: Rules, players: int, hands: int, seed: int,
             backend: Backend | None = None) -> Iterator[tuple[list[str], int]]:
    """The shards of a run, in hand order: (record lines, moves) per shard."""
    rules.check_players(players)
    shards = [SimulateShard(rules, players, seed, first, min(SHARD_HANDS, hands - first))
              for first in range(0, hands, SHARD_HANDS)]
    backend = backend or Local(1)
    yield from in_order(backend.map(simulate_shard, shards), len(shards))


__all__ = ["SHARD_HANDS", "SimulateShard", "simulate", "simulate_hand", "simulate_shard"]
