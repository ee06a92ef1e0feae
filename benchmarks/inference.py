#!/usr/bin/env python3
"""How well do weighted worlds predict the hidden hands?  (ISMCTS's choice model.)

ISMCTS weights each sampled world by how likely the other seats' observed
plays were in it (:func:`matador.players.ismcts.choice_log_likelihood`, a
softmax of the playout policy's evaluation at a temperature). This script
measures that inference directly, without playing matches: it records the
decisions of seat 0 in games between two bots (the opponent model to beat),
samples worlds from each of seat 0's views, and scores the per-tile
probabilities "the next seat holds this tile" against the truth (Brier
score, lower is better) for uniform worlds and for each temperature.

    python benchmarks/inference.py --games 120 --worlds 150
    python benchmarks/inference.py --bots heuristic --temperatures 5 10 20 40

The difference to uniform worlds is paired (same worlds, same decisions) and
printed with its standard error.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from unittest import mock

from matador.core.rules import Rules
from matador.core.sampling import sample_world, sampler_for
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import ismcts, make_bot


def decisions(preset: str, bots: str, games: int, seed: int
              ) -> list[tuple[PlayerView, int]]:
    """Seat 0's views (with a choice, after the opening plies) and seat 1's true hand."""
    rules = Rules.from_preset(preset)
    rng = random.Random(seed)
    players = [make_bot(bots), make_bot(bots)]
    out = []
    for _ in range(games):
        state = HandState.new(rules, 2, rng)
        while state.outcome is None:
            seat = state.to_move
            view = PlayerView.of(state, seat)
            legal = view.legal_move_ids()
            if seat == 0 and len(legal) > 1 and state.ply >= 3:
                out.append((view, state.hands[1]))
            state.push(players[seat].choose(view, rng) if len(legal) > 1 else legal[0])
    return out


def brier(view: PlayerView, truth: int, worlds: list[HandState], weights: list[float]) -> float:
    """Mean squared error of the weighted per-tile marginals of seat 1's hand."""
    total = sum(weights)
    might = view.might_hold(1)
    tiles = [t for t in range(28) if might >> t & 1]
    err = 0.0
    for t in tiles:
        p = sum(w for w, x in zip(weights, worlds, strict=True) if x.hands[1] >> t & 1) / total
        err += (p - (truth >> t & 1)) ** 2
    return err / len(tiles) if tiles else 0.0


def main() -> None:
    """Parse the arguments, record the decisions, print the scores."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--bots", default="pimc:30it", help="the bot both seats play")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--worlds", type=int, default=150, help="worlds sampled per decision")
    parser.add_argument("--temperatures", type=float, nargs="+", default=[6, 10, 16, 25, 40])
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    positions = decisions(args.preset, args.bots, args.games, args.seed)
    rng = random.Random(args.seed)
    scores: dict[str, list[float]] = {"uniform": []}
    for t in args.temperatures:
        scores[f"T={t:g}"] = []
    for view, truth in positions:
        sampler = sampler_for(view)
        worlds = [sample_world(sampler, rng) for _ in range(args.worlds)]
        scores["uniform"].append(brier(view, truth, worlds, [1.0] * len(worlds)))
        for t in args.temperatures:
            with mock.patch.object(ismcts, "TEMPERATURE", t):
                logs = [ismcts.choice_log_likelihood(view, w) for w in worlds]
            top = max(logs)
            weights = [math.exp(v - top) for v in logs]
            scores[f"T={t:g}"].append(brier(view, truth, worlds, weights))
    print(f"{args.preset}, 2 players, {args.bots} against itself: {len(positions)} decisions "
          f"of seat 0 in {args.games} games, {args.worlds} worlds each (seed {args.seed})")
    print(f"{'weights':10s} {'Brier':>8s} {'vs uniform':>11s} {'stderr':>8s}")
    base = scores["uniform"]
    for name, values in scores.items():
        diff = [a - b for a, b in zip(values, base, strict=True)]
        se = statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
        print(f"{name:10s} {statistics.mean(values):8.5f} {statistics.mean(diff):+11.5f} "
              f"{se:8.5f}")


if __name__ == "__main__":
    main()
