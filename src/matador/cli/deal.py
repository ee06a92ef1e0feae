"""``matador deal``: a new record with a random deal and no moves yet."""

from __future__ import annotations

import argparse
import random
from typing import Any

from matador.cli.common import (
    EXIT_OK,
    add_rule_options,
    integer,
    open_output,
    rules_of,
    seed_of,
)
from matador.core.record import Record
from matador.core.state import Deal

EXAMPLES = """\
examples:
  matador deal --preset classic --players 2 --seed 7
  matador deal --preset czech --players 2 --out hand.json
  matador deal --preset classic --players 3 --set draw=one --set hand_size=6
  matador deal --preset paluba --players 2 --seed 1 | matador replay -

The record has "moves": [] and no result; the leader follows R14 (highest
double, or a seat chosen at random under first_leader = lot).
"""


def add_parser(commands: Any) -> None:
    """Register ``deal`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "deal", help="shuffle and deal a new hand, written as a record",
        description="Shuffle, deal (R12) and choose the leader (R14); write the record of the "
                    "new hand as one JSON line.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rule_options(parser)
    parser.add_argument("--seed", type=integer, metavar="S",
                        help="seed of the shuffle, for a reproducible deal "
                             "(default: a fresh random seed)")
    parser.add_argument("--out", metavar="FILE",
                        help="write the record to FILE (default, or -: standard output)")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``deal`` with parsed arguments; return the exit status."""
    rules = rules_of(args.preset, args.overrides, args.players)
    deal = Deal.random(rules, args.players, random.Random(seed_of(args.seed)))
    line = Record(rules, deal).dumps(with_result=False)
    with open_output(args.out) as out:
        out.write(line + "\n")
    return EXIT_OK
