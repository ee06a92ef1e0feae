"""Time per move of each strength level, from view to chosen move (issue: normal < 200 ms,
strong < 1 s per move on one core).

Plays hands of the level against greedy opponents in every preset and player
count and prints, per level, the mean, 95th percentile and maximum wall time
of ``bot.choose(view, rng)`` over the decisions with more than one legal move
(a single legal move is answered at once). Building the view is included.

    python benchmarks/think_time.py --levels normal strong --hands 6
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import LEVELS, make_bot


def measure(level: str, preset: str, players: int, hands: int, seed: int) -> list[float]:
    """Seconds per decision of ``level`` (seat 0) against greedy bots."""
    rules = Rules.from_preset(preset)
    rng = random.Random(seed)
    bot = make_bot(level)
    greedy = make_bot("greedy")
    times: list[float] = []
    for _ in range(hands):
        state = HandState.new(rules, players, rng)
        while not state.is_over:
            seat = state.to_move
            if seat == 0 and len(state.legal_move_ids()) > 1:
                start = time.perf_counter()
                move = bot.choose(PlayerView.of(state, seat), rng)
                times.append(time.perf_counter() - start)
            else:
                move = greedy.choose(PlayerView.of(state, seat), rng)
            state.play(move)
    return times


def main(argv: list[str] | None = None) -> None:
    """Print the think-time table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["normal", "strong"])
    parser.add_argument("--hands", type=int, default=4, help="hands per preset and player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'level':8} {'bot':12} {'preset':8} {'players':>7} {'moves':>6} "
          f"{'mean ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for level in args.levels:
        all_times: list[float] = []
        for preset in PRESETS:
            lo, hi = Rules.from_preset(preset).players
            for players in range(lo, hi + 1):
                times = measure(level, preset, players, args.hands, args.seed)
                all_times += times
                if times:
                    q = (statistics.quantiles(times, n=20, method="inclusive")[-1]
                         if len(times) > 1 else times[0])
                    print(f"{level:8} {LEVELS.get(level, level):12} {preset:8} {players:>7} "
                          f"{len(times):>6} {1000 * statistics.mean(times):>8.1f} "
                          f"{1000 * q:>8.1f} {1000 * max(times):>8.1f}")
        if all_times:
            print(f"{level:8} all: {len(all_times)} moves, mean "
                  f"{1000 * statistics.mean(all_times):.1f} ms, max {1000 * max(all_times):.1f} ms")


if __name__ == "__main__":
    main()
