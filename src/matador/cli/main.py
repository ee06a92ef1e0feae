"""The ``matador`` entry point: argument parsing and the error and exit-status policy.

Every subcommand returns its exit status; a :class:`CliError` anywhere
becomes the one line ``error: WHERE: WHY`` on standard error and status 2.
Bad arguments are argparse's business (usage message, status 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from matador import __version__
from matador.cli import (
    analyse,
    arena,
    deal,
    engine,
    play,
    replay,
    serve,
    show,
    simulate,
    study,
    verify,
)
from matador.cli.common import EXIT_ERROR, CliError, print_error, safe_streams

EXAMPLES = """\
examples:
  matador play --save games.jsonl                a match against the AI in the terminal
  matador show games.jsonl                       step through the saved hands
  matador replay --trace examples/hand.json      a position per ply, then the result
  matador deal --preset classic --players 2 --seed 7 --out hand.json
  matador simulate --preset six --players 4 --hands 1000 --seed 1 --out hands.jsonl
  matador analyse examples/hand.json --ply 3     every legal move's win chance
  matador arena pimc greedy --preset classic --players 2 --deals 500 --jobs 2
  matador study --seed 1 --out study/            presets and house rules measured
  matador engine pimc:500ms                      serve a bot over MEP on stdin/stdout
  matador serve                                  play online: tables, invite links, bots
  matador verify records.jsonl                   check the fair-deal proofs of a match

Run "matador COMMAND --help" for the options of a command; the examples read
the files of examples/, from the root of the repository. The rules, records
and the replay contract are described in RULES.md (docs/contract/).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``matador`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="matador",
        description="Matador, the domino game: play it in the terminal, replay and check "
                    "records, deal and simulate hands, analyse moves, pit bots and engines "
                    "against each other, serve bots as engines.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"matador {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    replay.add_parser(commands)
    deal.add_parser(commands)
    simulate.add_parser(commands)
    arena.add_parser(commands)
    study.add_parser(commands)
    analyse.add_parser(commands)
    play.add_parser(commands)
    show.add_parser(commands)
    engine.add_parser(commands)
    serve.add_parser(commands)
    verify.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``matador`` with ``argv`` (default: the process arguments); return the exit status."""
    safe_streams()
    args, extra = build_parser().parse_known_args(argv)
    if extra:  # reported by the subcommand's parser, so the usage shown is the right one
        args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status: int = args.run(args)
    except CliError as e:
        print_error(e)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader went away (``matador simulate ... | head``): stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
