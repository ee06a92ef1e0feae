"""``matador show``: step through saved records in the terminal, move by move."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console

from matador.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    CliError,
    choose_hand,
    integer,
    load_records,
    print_error,
    refusal,
)
from matador.ui.game import Terminal
from matador.ui.i18n import LANGUAGES, detect_language, set_language
from matador.ui.show import show_all, show_interactive

EXAMPLES = """\
examples:
  matador show examples/hand.json                          step through a hand
  matador show examples/archive.jsonl --hand 2 --seat 0    hand 2 as seat 0 saw it
  matador show examples/hand.json --all                    every position at once

The examples read the files of examples/, from the root of the repository. A
file of records such as "matador play --save games.jsonl" writes (one hand per
line) shows hand after hand; a line that is not a valid record is skipped and
named on standard error ("error: line K: WHERE: WHY"), and the exit status is
then 2. Keys: Enter next position, b back, a number jumps there, q quit. By
default everything is revealed (every hand and the boneyard): a saved record is
a finished hand. With --seat S each position shows only what seat S saw then.
"""


def add_parser(commands: Any) -> None:
    """Register ``show`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "show", help="replay a record move by move in the terminal",
        description="Show a record (one JSON record, or a JSONL file of hands such as "
                    "matador play saves) position by position as a table.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", metavar="RECORD", help="a record or a JSONL file of records "
                                                         "(- for standard input)")
    parser.add_argument("--hand", type=integer, metavar="K",
                        help="show only the K-th record of the file (1-based)")
    parser.add_argument("--seat", type=integer, metavar="S",
                        help="show each position as seat S saw it (default: all revealed)")
    parser.add_argument("--all", action="store_true",
                        help="print every position at once, without waiting for keys")
    parser.add_argument("--lang", choices=sorted(LANGUAGES),
                        help="language (default: from the locale, else English)")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``show`` with parsed arguments; return the exit status."""
    set_language(args.lang or detect_language())
    entries = load_records(args.record)
    numbered = choose_hand(list(enumerate(entries, 1)), args.hand, args.record)
    refused = [entry for _k, entry in numbered if entry.record is None]
    if len(numbered) == 1 and refused:
        raise refusal(refused[0])
    # A file of several records shows the good ones and names the refused lines.
    chosen = [(k, entry.record) for k, entry in numbered if entry.record is not None]
    if args.seat is not None:
        for _k, record in chosen:
            if not 0 <= args.seat < record.players:
                raise CliError("--seat", f"{args.seat} is not a seat (0..{record.players - 1})")
    term = Terminal(Console(highlight=False))
    interactive = not args.all and sys.stdin.isatty() and args.record != "-"
    try:
        if interactive:
            show_interactive(term, chosen, args.seat)
        else:
            show_all(term, chosen, args.seat)
    except (EOFError, KeyboardInterrupt):
        term.print("")
    for entry in refused:
        print_error(refusal(entry))
    if refused:
        return EXIT_ERROR
    return EXIT_OK
