#!/usr/bin/env python3
"""What is a world model worth per decision?  Regret against the true world, no matches.

A match measures a world model through hundreds of hands of noise; this script
measures it where it acts, one decision at a time. It records decisions of
one seat (a different seat each hand) in hands between ``heuristic`` bots,
each with a choice between moves that lead to different positions and after
another seat has played a tile (so that choices were seen). For each decision:

* the **true values**: every distinct move played out ``--truth`` times in the
  true world (the hands known, the boneyard order shuffled, as the
  ``cheater`` sees it), with ``sage``'s table playouts;
* the choice of each **world model**, as ``sage`` makes it (the move with the
  best mean over 300 worlds, the same playouts):

  - ``uniform``: 300 worlds drawn uniformly among those consistent with the
    view (``sage``'s and ``pimc``'s worlds);
  - ``choices-T``: ``--candidates`` uniform worlds, each weighted by how
    likely the other seats' observed choices were in it, had they played the
    playouts' own policy (:func:`~matador.players.playouts.table_choice`)
    with probability ``T`` and a uniformly random move otherwise; 300 worlds
    are then drawn in proportion to the weights;
  - ``oracle``: 300 true worlds on other streams (seeing the hands; the
    floor that noise leaves);

* the **regret** of a choice: the best move's true value minus the chosen
  move's (a chance of winning the hand).

Each model's mean regret is printed with its paired gain over ``uniform``
(95 % interval), and, for the weighted models, the effective number of the
candidate worlds (``(sum w)^2 / sum w^2``)::

    python benchmarks/world_regret.py --players 4 --positions 600 --seed 1
    python benchmarks/world_regret.py --players 2 --trust 0.5 0.9 --candidates 5000

What it found is in ``docs/bots.md`` ("Inference at the level of decisions").
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from matador.core.moves import DRAW
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.streams import Stream
from matador.core.view import PlayerView
from matador.players.base import Budget
from matador.players.heuristic import HeuristicBot
from matador.players.pimc import (
    Finish,
    MoveStats,
    SearchResult,
    true_worlds,
    value_batch,
    view_worlds,
)
from matador.players.playouts import EPSILON, choice_log_likelihoods, table_rollout
from matador.players.rollout import EndgameSolver
from matador.players.timing import distinct_moves

WORLDS = 300
"""Worlds behind each model's choice (``sage``'s budget in the screens of docs/bots.md)."""
FINISH = Finish(table_rollout, "table", EPSILON, 0)
"""``sage``'s playouts (no exact endgames: the four-player setting has none)."""


def table_log_likelihood(view: PlayerView, world: HandState, trust: float) -> float:
    """Log-likelihood of the other seats' observed choices in ``world``, had they played the
    table policy with probability ``trust`` and a uniformly random move otherwise
    (:func:`~matador.players.playouts.choice_log_likelihoods`, summed over the seats)."""
    return sum(value for (_, name), value in choice_log_likelihoods(view, world, trust).items()
               if name == "table")


def effective_size(weights: Sequence[float]) -> float:
    """Kish's effective sample size of ``weights``: ``(sum w)^2 / sum w^2``."""
    return sum(weights) ** 2 / sum(w * w for w in weights)


MakeWorld = Callable[[random.Random], HandState]
"""Where a search's worlds come from (see :func:`~matador.players.pimc.value_batch`)."""


def listed(worlds: Sequence[HandState]) -> MakeWorld:
    """``make_world`` for :func:`~matador.players.pimc.value_batch`: the given worlds in turn."""
    turn = itertools.count()

    def make_world(rng: random.Random) -> HandState:
        return worlds[next(turn) % len(worlds)].copy()
    return make_world


def move_values(make_world: MakeWorld, worlds: int, moves: Sequence[int], seat: int,
                seed: int) -> dict[int, MoveStats]:
    """Every move's statistics over ``worlds`` worlds of ``make_world`` (table playouts,
    in the kernel when installed)."""
    stats = {m: MoveStats(m) for m in moves}
    value_batch(make_world, range(worlds), moves, stats, seat, random.Random(seed), seed,
                EndgameSolver(), True, FINISH)
    return stats


def choice(make_world: MakeWorld, moves: Sequence[int], seat: int, seed: int) -> int:
    """The move a search over :data:`WORLDS` worlds of ``make_world`` plays."""
    return SearchResult(move_values(make_world, WORLDS, moves, seat, seed), WORLDS).best()


@dataclass(frozen=True)
class Decision:
    """A recorded decision: the true state, the deciding seat's view, its distinct moves."""

    state: HandState
    view: PlayerView
    moves: tuple[int, ...]


def decisions(preset: str, players: int, count: int, seed: int) -> Iterator[Decision]:
    """``count`` decisions from hands of ``heuristic`` bots: the deciding seat is a different
    one each hand, at most two decisions a hand, each taken with chance 0.6."""
    rules = Rules.from_preset(preset)
    rng = random.Random(seed)
    bot = HeuristicBot()
    hand = 0
    while count > 0:
        state = HandState.new(rules, players, random.Random(rng.getrandbits(64)))
        me = hand % players
        hand += 1
        taken = 0
        while state.outcome is None:
            view = PlayerView.of(state, state.to_move)
            if state.to_move == me and taken < 2 and count > 0:
                moves = distinct_moves(view.legal_move_ids(), view.left, view.right)
                seen = any(s != me and m < DRAW
                           for s, m in zip(view.movers, view.moves, strict=True))
                if len(moves) > 1 and seen and rng.random() < 0.6:
                    yield Decision(state.copy(), view, tuple(moves))
                    taken += 1
                    count -= 1
            state.push(int(bot.choose(view, rng)))


def candidates(view: PlayerView, count: int, rng: random.Random) -> list[HandState]:
    """``count`` worlds drawn uniformly among those consistent with ``view``."""
    sampler = view_worlds(view, Budget(iterations=1))
    flat = sampler.flat
    out: list[HandState] = []
    while len(out) < count:
        world = flat.world(Stream(rng.getrandbits(64))) if flat is not None else sampler(rng)
        if world is not None:
            out.append(world)
    return out


@dataclass
class Tally:
    """Regrets of each model, decision by decision, and the weighted models' effective sizes."""

    regrets: dict[str, list[float]]
    sizes: dict[str, list[float]]

    def lines(self) -> list[str]:
        """The report: mean regret, paired gain over ``uniform`` (95 %), effective sizes."""
        base = self.regrets["uniform"]
        out = []
        for name, regrets in self.regrets.items():
            gains = [b - r for b, r in zip(base, regrets, strict=True)]
            half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) \
                if len(gains) > 1 else 0.0
            out.append(f"{name:14s} mean regret {statistics.fmean(regrets):.4f}   "
                       f"gain over uniform {statistics.fmean(gains):+.4f} +- {half:.4f}")
        for name, sizes in self.sizes.items():
            out.append(f"{name:14s} effective worlds among the candidates: median "
                       f"{statistics.median(sizes):.0f}, mean {statistics.fmean(sizes):.0f}")
        return out


def measure(preset: str, players: int, positions: int, seed: int, truth: int,
            pool_size: int, trusts: Sequence[float], every: int = 0) -> Tally:
    """Regret of each world model over ``positions`` decisions (see the module's text);
    prints the running report every ``every`` decisions (0: never)."""
    names = ["uniform", *(f"choices-{t:g}" for t in trusts), "oracle"]
    tally = Tally({name: [] for name in names}, {f"choices-{t:g}": [] for t in trusts})
    start = time.perf_counter()
    for i, d in enumerate(decisions(preset, players, positions, seed)):
        seat = d.view.seat
        base = seed * 1_000_003 + i * 4
        true = move_values(true_worlds(d.state), truth, d.moves, seat, base)
        value = {m: true[m].win_mean for m in d.moves}
        best = max(value.values())
        rng = random.Random(base)
        pool = candidates(d.view, max(pool_size, WORLDS), rng)
        chosen = {"uniform": choice(listed(pool[:WORLDS]), d.moves, seat, base + 1),
                  "oracle": choice(true_worlds(d.state), d.moves, seat, base + 2)}
        for t in trusts:
            logs = [table_log_likelihood(d.view, w, t) for w in pool]
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
            tally.sizes[f"choices-{t:g}"].append(effective_size(weights))
            kept = rng.choices(pool, weights=weights, k=WORLDS)
            chosen[f"choices-{t:g}"] = choice(listed(kept), d.moves, seat, base + 1)
        for name in names:
            tally.regrets[name].append(best - value[chosen[name]])
        if every and (i + 1) % every == 0 and i + 1 < positions:
            print(f"{i + 1} decisions, {time.perf_counter() - start:.0f} s", flush=True)
            for line in tally.lines():
                print("  " + line, flush=True)
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see the module's text."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=300,
                        help="decisions measured (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--truth", type=int, default=2000,
                        help="true worlds behind each true value (default 2000)")
    parser.add_argument("--candidates", type=int, default=3000,
                        help="uniform worlds weighted by the choices model (default 3000)")
    parser.add_argument("--trust", type=float, nargs="*", default=[0.7, 0.95],
                        help="the choices model's chance of the policy's move (default 0.7 0.95)")
    parser.add_argument("--every", type=int, default=100,
                        help="print the running report every N decisions (default 100)")
    args = parser.parse_args(argv)
    for t in args.trust:
        if not 0.0 <= t < 1.0:
            parser.error(f"--trust {t}: must be at least 0 and below 1")
    if args.positions < 2:
        parser.error(f"--positions {args.positions}: needs at least 2 decisions")
    start = time.perf_counter()
    tally = measure(args.preset, args.players, args.positions, args.seed, args.truth,
                    args.candidates, args.trust, args.every)
    print(f"{args.preset}, {args.players} players, {args.positions} decisions, seed "
          f"{args.seed}, {args.truth} true worlds, {args.candidates} candidates, "
          f"{time.perf_counter() - start:.0f} s")
    for line in tally.lines():
        print("  " + line)


if __name__ == "__main__":
    main()
