"""``matador simulate``: hands played with uniformly random legal moves, one record per line."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

from matador.cli.common import (
    EXIT_OK,
    add_rule_options,
    count,
    open_output,
    progress_bar,
    rules_of,
    seed_of,
)
from matador.core.record import Record
from matador.core.rules import Rules
from matador.core.state import Deal, HandState

EXAMPLES = """\
examples:
  matador simulate --preset classic --players 2 --hands 1000 --seed 1 --out hands.jsonl
  matador simulate --preset six --players 4 --hands 10 --seed 2 | matador replay --jsonl -
  matador simulate --preset russian --players 3 --hands 100 --set per_join=0

One random.Random(seed) shuffles every deal and picks every move, so the same
arguments write the same bytes. Each line is a complete record with its
"result". A summary (hands, moves, seconds) goes to standard error, and a
progress bar too when standard error is a terminal.
"""


def add_parser(commands: Any) -> None:
    """Register ``simulate`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "simulate", help="play hands with random legal moves and write their records",
        description="Deal and play hands in which every move is chosen uniformly at random "
                    "among the legal moves; write each finished hand as a record with its "
                    "result, one JSON line per hand.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rule_options(parser)
    parser.add_argument("--hands", required=True, type=count, metavar="K",
                        help="number of hands to play")
    parser.add_argument("--seed", type=int, metavar="S",
                        help="seed of the one random generator behind every deal and move "
                             "(default: a fresh random seed, shown in the summary)")
    parser.add_argument("--out", metavar="FILE",
                        help="write the records to FILE (default, or -: standard output)")
    parser.set_defaults(run=run, parser=parser)


def play_hands(rules: Rules, players: int, hands: int, rng: random.Random) -> Iterator[HandState]:
    """Deal and play ``hands`` hands, every move chosen uniformly among the legal ones."""
    for _ in range(hands):
        state = HandState(rules, Deal.random(rules, players, rng))
        while state.outcome is None:
            state.push(rng.choice(state.legal_move_ids()))
        yield state


def run(args: argparse.Namespace) -> int:
    """Run ``simulate`` with parsed arguments; return the exit status."""
    rules = rules_of(args.preset, args.overrides, args.players)
    seed = seed_of(args.seed)
    start = time.perf_counter()
    with open_output(args.out) as out:
        moves = _write(out, play_hands(rules, args.players, args.hands, random.Random(seed)),
                       args.hands)
    seconds = time.perf_counter() - start
    sys.stderr.write(f"simulated {args.hands} hands, {moves} moves in {seconds:.2f} s "
                     f"({rules.preset}, {args.players} players, seed {seed})\n")
    return EXIT_OK


def _write(out: TextIO, states: Iterator[HandState], total: int) -> int:
    """Write each hand's record as one line; return the number of moves."""
    moves = 0
    with progress_bar("simulating") as progress:
        for done, state in enumerate(states, 1):
            out.write(Record.of(state).dumps() + "\n")
            moves += state.ply
            if progress is not None:
                progress(done, total)
    return moves


