"""``matador analyse``: every legal move's win chance and expected points, or a whole review."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from matador.cli.common import EXIT_OK, CliError, dumps, integer, one_record, seed_of
from matador.core.moves import MOVES
from matador.players.analysis import Analysis, analyse, review, view_at
from matador.players.base import BotError, Budget

EXAMPLES = """\
examples:
  matador analyse examples/hand.json --ply 3     the moves of the seat to move at ply 3
  matador analyse examples/hand.json             review every decision of the hand
  matador analyse examples/hand.json --seat 0 --budget 200it
                                                 review seat 0's decisions, 200 worlds each
  matador analyse examples/hand.json --ply 3 --json --seed 1   machine-readable
  matador simulate --preset classic --players 2 --hands 3 --seed 1 --out hands.jsonl
  matador analyse hands.jsonl --hand 2 --ply 0   a record of a file of several

The examples read the files of examples/, from the root of the repository.
win is the estimated chance of winning the hand (a hand with no winner counts
1/N), points the expected points of the hand for that seat (R21 + R22), and
samples the number of sampled worlds behind each estimate. Each position is
analysed from the mover's view only: other hands are sampled, never read.
"""


def add_parser(commands: Any) -> None:
    """Register ``analyse`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "analyse", aliases=["analyze"], help="analyse the moves of a record",
        description="Estimate, for the seat to move, each legal move's chance of winning and "
                    "expected points; without --ply, review every decision and mark what "
                    "each move cost.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", metavar="RECORD.json",
                        help="the record (- for standard input), or a file of records, one "
                             "per line, with --hand")
    parser.add_argument("--hand", type=integer, metavar="K",
                        help="analyse the K-th record (1-based) of a file of several, such as "
                             "matador play saves")
    parser.add_argument("--ply", type=integer, metavar="K",
                        help="analyse only the position before move K (0-based)")
    parser.add_argument("--seat", type=integer, action="append", metavar="S",
                        help="review only this seat's decisions (repeatable)")
    parser.add_argument("--budget", default="300ms", metavar="B",
                        help="search budget per position, e.g. 300ms, 1s, 500it "
                             "(default: 300ms)")
    parser.add_argument("--seed", type=integer, metavar="S", help="seed of the sampling")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of tables")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``analyse`` with parsed arguments; return the exit status."""
    try:
        budget = Budget.parse(args.budget)
    except BotError as e:
        raise CliError("--budget", str(e)) from None
    record = one_record(args.record, args.hand)
    if args.ply is not None:
        # The plies with a decision: before each move, and after the last if not over.
        last = len(record.moves) - (record.state().is_over and len(record.moves) > 0)
        if not 0 <= args.ply <= last:
            raise CliError("--ply", f"{args.ply} is not a ply with a seat to move in this "
                                    f"record (0..{last})")
    for seat in args.seat or []:
        if not 0 <= seat < record.players:
            raise CliError("--seat", f"{seat} is not a seat of this record "
                                     f"(0..{record.players - 1})")
    rng = random.Random(seed_of(args.seed))
    if args.ply is not None:
        view = view_at(record, args.ply)
        if view is None:
            raise CliError("--ply", f"the hand is over at ply {args.ply}")
        analysis = analyse(view, budget, rng)
        if args.json:
            print(dumps(analysis.to_json()))
        else:
            played = str(MOVES[record.moves[args.ply]]) if args.ply < len(record.moves) else ""
            _print_analysis(analysis, played)
        return EXIT_OK
    reviewed = review(record, budget, rng, args.seat)
    if args.json:
        for r in reviewed:
            print(dumps(r.to_json()))
        return EXIT_OK
    console = Console()
    table = Table(title="Review: what each decision cost (win chance given up)")
    for col in ("ply", "seat", "played", "win", "best", "best win", "cost", "± 2 s.e.",
                "verdict"):
        table.add_column(col, justify="right" if col in ("ply", "seat") else "left")
    for r in reviewed:
        chosen = r.analysis.of(r.played)
        table.add_row(str(r.ply), str(r.seat), str(r.played), f"{chosen.win:.1%}",
                      str(r.analysis.best.move), f"{r.analysis.best.win:.1%}",
                      f"{r.cost:.1%}", f"{2 * r.cost_stderr:.1%}", r.label)
    console.print(table)
    return EXIT_OK


def _print_analysis(analysis: Analysis, played: str) -> None:
    console = Console()
    table = Table(title=f"Ply {analysis.ply}: seat {analysis.seat} to move")
    for col in ("move", "win", "± (1 s.e.)", "points", "samples", ""):
        table.add_column(col)
    for a in analysis.moves:
        mark = "played" if str(a.move) == played else ""
        table.add_row(str(a.move), f"{a.win:.1%}", f"{a.win_stderr:.1%}", f"{a.points:.1f}",
                      str(a.samples), mark)
    console.print(table)
    sys.stdout.flush()
