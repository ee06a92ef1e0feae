#!/usr/bin/env python3
"""How well does a bot play where nothing is hidden?  Its regret in determined positions.

With two players, once the boneyard is empty and no tile was set aside, the
tiles a seat has not seen are exactly the other hand: the view determines
the world, and the hand is a game of perfect information. This script plays
``--hands`` hands of ``BOT`` against itself and, at every such decision with
a choice and at least ``--min-tiles`` tiles in play (below that, ``sage`` and
``pimc`` solve the position exactly themselves), solves every legal move with
the exact endgame search (:class:`~matador.players.rollout.EndgameSolver`)
and scores the bot's choice by its regret: the best move's win value minus
the chosen one's. A search whose playouts made no mistake there would gain
nothing from solving such positions exactly::

    python benchmarks/determined.py sage:300it --preset russian --hands 100
    python benchmarks/determined.py pimc:300it --preset six --hands 100
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import make_bot
from matador.players.base import BotError
from matador.players.rollout import EndgameSolver, tiles_in_play


def determined(state: HandState) -> bool:
    """Whether the mover's view determines the world: two players, nothing hidden but the
    other hand (empty boneyard, nothing set aside)."""
    return state.players == 2 and state.boneyard_size == 0 and not state.deal.set_aside


def exact_values(state: HandState, node_limit: int) -> dict[int, float] | None:
    """Each legal move's exact win value for the mover, or ``None`` if one is too big."""
    solver = EndgameSolver(node_limit=node_limit)
    values: dict[int, float] = {}
    for m in state.legal_move_ids():
        child = state.copy()
        child.push(m)
        value = solver.solve(child)
        if value is None:
            return None
        values[m] = value[state.to_move]
    return values


def regrets(spec: str, preset: str, hands: int, seed: int, min_tiles: int,
            node_limit: int) -> tuple[list[float], int]:
    """The regret of each solved determined decision of ``spec`` in self-play, and the
    number of determined decisions too big to solve."""
    rules = Rules.from_preset(preset)
    bot = make_bot(spec)
    out: list[float] = []
    unsolved = 0
    for hand in range(hands):
        rng = random.Random(seed * 100_003 + hand)
        state = HandState.new(rules, 2, rng)
        while not state.is_over:
            legal = state.legal_move_ids()
            m = int(bot.choose(PlayerView.of(state, state.to_move),
                               random.Random(rng.getrandbits(64))))
            if len(legal) > 1 and determined(state) and tiles_in_play(state) >= min_tiles:
                values = exact_values(state, node_limit)
                if values is None:
                    unsolved += 1
                else:
                    out.append(max(values.values()) - values[m])
            state.push(m)
    return out, unsolved


def main(argv: Sequence[str] | None = None) -> int:
    """Play, solve, and print the regret of the bot's choices in determined positions."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="the bot whose choices are scored (a bot spec)")
    parser.add_argument("--preset", default="russian", choices=PRESETS)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-tiles", type=int, default=10,
                        help="score decisions with at least this many tiles in play")
    parser.add_argument("--node-limit", type=int, default=300_000,
                        help="positions the exact search may visit per move")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error(f"--hands {args.hands}: needs at least 1 hand")
    try:
        make_bot(args.bot)
    except BotError as e:
        parser.error(str(e))
    start = time.perf_counter()
    found, unsolved = regrets(args.bot, args.preset, args.hands, args.seed, args.min_tiles,
                              args.node_limit)
    wrong = sum(r > 0 for r in found)
    print(f"{args.bot}, {args.preset}, 2 players, {args.hands} hands, seed {args.seed}: "
          f"{len(found)} determined decisions with {args.min_tiles}+ tiles solved "
          f"({unsolved} too big), {wrong} not the best, regret {sum(found):.3f} in all, "
          f"{sum(found) / args.hands:.4f} a hand ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
