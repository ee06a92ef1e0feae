#!/usr/bin/env python3
"""A long-lived bot's memory: the process's resident size as one bot plays hand after hand.

A server's bot workers, an arena job and a self-play data run each keep a bot
(and the module caches its searches use) for thousands of hands, so what a
search keeps must not grow with them. This plays ``--hands`` hands of the bot
against itself (every seat the same bot object) and prints the peak resident
size every ``--every`` hands, then the growth per hand over the second half
(the first hands load the kernel and fill the bounded caches).

    python benchmarks/bot_memory.py --bot sage:100it --preset six --hands 200
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import sys
import time

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import make_bot


def peak_mb() -> float:
    """The process's peak resident size so far, in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(bot_spec: str, preset: str, players: int, hands: int, every: int, seed: int
        ) -> list[tuple[int, float]]:
    """``(hands played, peak MB)`` after every ``every`` hands (a collection first)."""
    bot = make_bot(bot_spec)
    rules = Rules.from_preset(preset)
    start = time.perf_counter()
    out: list[tuple[int, float]] = []
    for hand in range(hands):
        rng = random.Random(seed * 1_000_003 + hand)
        state = HandState.new(rules, players, rng)
        while not state.is_over:
            state.play(bot.choose(PlayerView.of(state, state.to_move), rng))
        if (hand + 1) % every == 0 or hand + 1 == hands:
            gc.collect()
            out.append((hand + 1, peak_mb()))
            print(f"{hand + 1:6d} hands  peak RSS {out[-1][1]:8.1f} MB  "
                  f"{time.perf_counter() - start:7.1f} s", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="sage:100it")
    parser.add_argument("--preset", default="six")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = run(args.bot, args.preset, args.players, args.hands, args.every, args.seed)
    half = [r for r in rows if r[0] >= args.hands / 2]
    if len(half) >= 2 and half[-1][0] > half[0][0]:
        growth = (half[-1][1] - half[0][1]) * 1024 / (half[-1][0] - half[0][0])
        print(f"{args.bot} ({args.preset}, {args.players} players): growth over hands "
              f"{half[0][0]} to {half[-1][0]}: {growth:.1f} KB a hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
