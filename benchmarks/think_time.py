"""Time per move of each strength level, from view to chosen move (normal <= 200 ms and
strong <= 1 s per move).

Plays hands of the level (seat 0) against greedy opponents in every preset and
player count and prints, per level, the mean, 95th percentile and maximum wall
time of ``bot.choose(view, rng)`` over the decisions with more than one legal
move (a single legal move is answered at once), building the view included.
As in the arena, the bot is fresh at each hand, so the time a level saves on
settled decisions is spent within the same hand. The last line of each level
says whether its slowest move kept the bound. The compiled playout kernel
(``matador[fast]``), when installed, is loaded before the clock starts (its
load time is printed first): a process pays it once, at its first search
(``matador engine`` loads it in the background and searches without it
until then).

    python benchmarks/think_time.py --levels normal strong --hands 4
    python benchmarks/think_time.py --levels strong:200ms pimc:200ms --hands 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from matador import fast
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import LEVELS, make_bot

BOUNDS = {"normal": 200.0, "strong": 1000.0}
"""The most a move of each level may take, in milliseconds."""


def measure(level: str, preset: str, players: int, hands: int, seed: int) -> list[float]:
    """Seconds per decision of ``level`` (seat 0) against greedy bots."""
    rules = Rules.from_preset(preset)
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    times: list[float] = []
    for _ in range(hands):
        bot = make_bot(level)
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["normal", "strong"],
                        help="levels or bot specs (normal, strong:200ms, pimc:150ms)")
    parser.add_argument("--hands", type=int, default=4, help="hands per preset and player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if fast.available():
        print(f"kernel loaded in {fast.compile_kernels():.2f} s (not counted below)")
    print(f"{'level':12} {'bot':12} {'preset':8} {'players':>7} {'moves':>6} "
          f"{'mean ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for level in args.levels:
        all_times: list[float] = []
        name = make_bot(level).name
        for preset in PRESETS:
            lo, hi = Rules.from_preset(preset).players
            for players in range(lo, hi + 1):
                times = measure(level, preset, players, args.hands, args.seed)
                all_times += times
                if times:
                    q = (statistics.quantiles(times, n=20, method="inclusive")[-1]
                         if len(times) > 1 else times[0])
                    print(f"{level:12} {name:12} {preset:8} {players:>7} "
                          f"{len(times):>6} {1000 * statistics.mean(times):>8.1f} "
                          f"{1000 * q:>8.1f} {1000 * max(times):>8.1f}")
        if all_times:
            slowest = 1000 * max(all_times)
            line = (f"{level:12} all: {len(all_times)} moves, mean "
                    f"{1000 * statistics.mean(all_times):.1f} ms, max {slowest:.1f} ms")
            bound = BOUNDS.get(level)
            if bound is not None:
                line += f" (bound {bound:g} ms: {'held' if slowest <= bound else 'EXCEEDED'})"
            print(line)
    if any(level.partition(":")[0] in LEVELS for level in args.levels):
        print("levels: " + ", ".join(f"{k} = {v}" for k, v in LEVELS.items()))


if __name__ == "__main__":
    main()
