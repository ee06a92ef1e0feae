"""``matador engine BOT[:BUDGET]``: serve one of our bots as an MEP engine on stdin and stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from matador.cli.common import CliError
from matador.core.errors import MatadorError

EXAMPLES = """\
examples:
  matador engine greedy
  matador engine pimc:500ms
  matador engine strong

The engine speaks MEP, the Matador Engine Protocol (docs/protocol.md), on
standard input and output: a host (a GUI, a server, "matador arena
'engine:matador engine pimc'") sends it one seat's view and asks for a move.
Try it by hand: type "mep", "isready", then a "position" line and "go".
"""


def add_parser(commands: Any) -> None:
    """Register ``engine`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "engine", help="run a bot as an MEP engine on standard input and output",
        description="Serve a bot over MEP, the Matador Engine Protocol: read commands on "
                    "standard input, answer on standard output, until 'quit'.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bot", metavar="BOT[:BUDGET]",
                        help="the bot: random, greedy, heuristic, pimc:500ms, sage:200ms... "
                             "or a strength level (easy, normal, strong, max), with a budget "
                             "or not (strong:200ms)")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``engine`` with parsed arguments until ``quit``; return the exit status."""
    from matador.protocol.engine import Engine, serve

    try:
        engine = Engine(args.bot, background_kernel=True)
    except MatadorError as e:
        raise CliError("bot", str(e)) from None
    # Bytes both ways: lines are decoded as UTF-8 one by one (an undecodable line is an
    # error answer, not the end), answers flushed one by one.
    return serve(engine, sys.stdin.buffer, sys.stdout.buffer)
