#!/usr/bin/env python3
"""How many candidate deals the exact world sampler draws for each world it accepts.

Every view of every seat at every ply of hands between ``heuristic`` bots is
sampled ``--worlds`` times by :class:`~matador.core.sampling.WorldSampler`;
a view's cost is its candidates per accepted world (1 is no rejection). For
each preset and player count the script prints the mean and the 99th
percentile over the views, the worst views (hand, ply, seat) and the views in
which no world was found within ``MAX_ATTEMPTS`` candidates.

With ``--compare`` each view is sampled a second time by the sampler as it
was before the fix of a forfeit under ``six`` with four players: without the
exclusions of hands filled by the only tiles they may hold
(``sampling._tight``) and with the seats drawn in seat order rather than
most constrained first (``sampling._order``), so that the two are measured
on the same views in the same run::

    python benchmarks/sampler.py --presets six classic --players 4 --hands 150 --compare
    python benchmarks/sampler.py --presets russian --players 3 4 --hands 100
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Iterator, Sequence

from matador.core import sampling
from matador.core.errors import ViewError
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.heuristic import HeuristicBot


def views(preset: str, players: int, hands: int, seed: int
          ) -> Iterator[tuple[int, int, PlayerView]]:
    """(hand, ply, view) for every seat before every move of ``hands`` heuristic hands."""
    rules = Rules.from_preset(preset)
    bot = HeuristicBot()
    for hand in range(hands):
        rng = random.Random(seed * 100_003 + hand)
        state = HandState.new(rules, players, rng)
        while not state.is_over:
            for seat in range(players):
                yield hand, state.ply, PlayerView.of(state, seat)
            state.play(bot.choose(PlayerView.of(state, state.to_move), rng))


@contextlib.contextmanager
def as_before() -> Iterator[None]:
    """The sampler as it was before the fix of the ``six`` forfeits: no seat excludes any
    tile (``sampling._tight``) and the seats are drawn in seat order (``sampling._order``)."""
    tight, order = sampling._tight, sampling._order
    sampling._tight = lambda view, others: dict.fromkeys(others, 0)  # type: ignore[assignment]
    sampling._order = lambda view, others, excluded: list(others)  # type: ignore[assignment]
    try:
        yield
    finally:
        sampling._tight, sampling._order = tight, order


def cost(view: PlayerView, worlds: int, seed: int) -> float:
    """Candidates per accepted world over ``worlds`` draws (``inf``: none found)."""
    sampler = sampling.WorldSampler(view)
    rng = random.Random(seed)
    try:
        for _ in range(worlds):
            sampler.sample(rng)
    except ViewError:
        return float("inf")
    return sampler.attempts / sampler.accepted


def summary(name: str, costs: list[tuple[float, int, int, int]], worst: int) -> list[str]:
    """Lines of figures for one sampler over the views."""
    found = sorted(c for c, *_ in costs if c != float("inf"))
    failed = [c for c in costs if c[0] == float("inf")]
    p99 = found[min(len(found) - 1, int(len(found) * 0.99))] if found else float("nan")
    lines = [f"  {name:<16} mean {statistics.mean(found):7.2f}  p99 {p99:7.1f}  "
             f"max {max(found):9.1f} candidates a world; no world found in {len(failed)} "
             f"views"]
    for c, hand, ply, seat in sorted(costs, reverse=True)[:worst]:
        lines.append(f"    hand {hand} ply {ply} seat {seat}: {c:.1f}")
    return lines


def run(preset: str, players: int, hands: int, worlds: int, seed: int, compare: bool,
        worst: int) -> list[str]:
    """Measure one table; returns the lines printed."""
    start = time.perf_counter()
    now: list[tuple[float, int, int, int]] = []
    before: list[tuple[float, int, int, int]] = []
    for hand, ply, view in views(preset, players, hands, seed):
        key = hand * 1000 + ply * 4 + view.seat
        now.append((cost(view, worlds, key), hand, ply, view.seat))
        if compare:
            with as_before():
                before.append((cost(view, worlds, key), hand, ply, view.seat))
    lines = [f"{preset}, {players} players, {hands} hands, {len(now)} views, {worlds} worlds "
             f"each, seed {seed} ({time.perf_counter() - start:.0f} s)"]
    lines += summary("sampler", now, worst)
    if compare:
        lines += summary("as before", before, worst)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and print the figures of each table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", nargs="+", default=["six"], choices=PRESETS)
    parser.add_argument("--players", nargs="+", type=int, default=[4])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worst", type=int, default=3, help="worst views listed per sampler")
    parser.add_argument("--compare", action="store_true",
                        help="also sample every view as before the fix (no _tight, no _order)")
    args = parser.parse_args(argv)
    for name in ("hands", "worlds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be at least 1")
    for preset in args.presets:  # every table checked before any is measured
        low, high = Rules.from_preset(preset).players
        for players in args.players:
            if not low <= players <= high:
                parser.error(f"--players {players}: {preset} is played by {low} to {high}")
    for preset in args.presets:
        for players in args.players:
            for line in run(preset, players, args.hands, args.worlds, args.seed,
                            args.compare, args.worst):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
