"""``matador simulate``: hands played with uniformly random legal moves, one record per line."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from matador.arena.simulate import simulate
from matador.cli.backends import add_backend_options, backend_of
from matador.cli.common import (
    EXIT_OK,
    CliError,
    add_rule_options,
    count,
    integer,
    open_output,
    plural,
    progress_bar,
    rules_of,
    seed_of,
)
from matador.core.errors import MatadorError

EXAMPLES = """\
examples:
  matador simulate --preset classic --players 2 --hands 1000 --seed 1 --out hands.jsonl
  matador simulate --preset six --players 4 --hands 10 --seed 2 | matador replay --jsonl -
  matador simulate --preset russian --players 3 --hands 100 --set per_join=0
  matador simulate --preset classic --players 4 --hands 100000 --seed 3 --jobs 2 --out big.jsonl
  matador simulate --preset classic --players 2 --hands 1000000 --seed 4 --backend ray \\
      --address auto --out huge.jsonl

Hand i is dealt and played from its own counter-based random stream (the seed
and i), so the same arguments write the same bytes whatever --jobs or
--backend. Each line is a complete record with its "result". A summary
(hands, moves, seconds) goes to standard error, and a progress bar too when
standard error is a terminal.
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
    parser.add_argument("--seed", type=integer, metavar="S",
                        help="seed of every deal and move (hand i uses the stream of the seed "
                             "and i; default: a fresh random seed, shown in the summary)")
    parser.add_argument("--out", metavar="FILE",
                        help="write the records to FILE (default, or -: standard output)")
    add_backend_options(parser)
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``simulate`` with parsed arguments; return the exit status."""
    rules = rules_of(args.preset, args.overrides, args.players)
    backend = backend_of(args)
    seed = seed_of(args.seed)
    start = time.perf_counter()
    moves = 0
    with open_output(args.out) as out, progress_bar("simulating") as progress:
        done = 0
        try:
            for lines, shard_moves in simulate(rules, args.players, args.hands, seed, backend):
                out.write("".join(line + "\n" for line in lines))
                moves += shard_moves
                done += len(lines)
                if progress is not None:
                    progress(done, args.hands)
        except MatadorError as e:
            raise CliError("--backend", str(e)) from None
    seconds = time.perf_counter() - start
    sys.stderr.write(f"simulated {plural(args.hands, 'hand')}, {plural(moves, 'move')} in "
                     f"{seconds:.2f} s "
                     f"({rules.preset}, {args.players} players, seed {seed})\n")
    return EXIT_OK
