"""``matador verify``: check the provably fair deals of downloaded records.

For each hand, the secret revealed in ``meta.fair`` must hash to the
commitment published before the hand, and the deal must be the one the
secret and the players' contributions give (docs/server.md, "Fair deals").
One JSON line per record; exit status 0 when every record verifies, 1 when
one does not, 2 when the input cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from matador.cli.common import EXIT_OK, CliError, dumps, load_record, open_input

EXAMPLES = """\
examples:
  matador verify records.jsonl           every hand of a match downloaded from the server
  matador verify hand.json               one record
  curl -s http://127.0.0.1:8000/api/tables/ID/records.jsonl | matador verify -

Each output line is {"hand": N, "verified": true|false, "commitment": ..., "problems": [...]}.
"""

EXIT_UNFAIR = 1
"""Exit status when a record does not verify."""


def add_parser(commands: Any) -> None:
    """Register ``verify`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "verify", help="check the fair-deal proof of records from the server",
        description="Check that each hand's deal is the one its committed secret and the "
                    "players' contributions give (records with meta.fair, from matador serve).",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", metavar="FILE",
                        help="a record (JSON) or records, one a line (JSONL); - reads stdin")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``verify``; return the exit status."""
    from matador.server.fair import verify_record

    status = EXIT_OK
    with open_input(args.records) as lines:
        data = lines.read()
    if not data.strip():
        raise CliError(args.records, "no record in the input")
    try:  # one record, maybe over several lines
        whole = json.loads(data)
        chunks = [data] if isinstance(whole, dict) else []
    except ValueError:
        chunks = []
    if not chunks:  # JSONL: a record a line
        chunks = [line for line in data.split(b"\n") if line.strip()]
    for i, chunk in enumerate(chunks):
        try:
            record = load_record(chunk)
        except CliError as e:
            if len(chunks) > 1:
                raise CliError(f"{args.records}:{i + 1}", str(e)) from None
            raise
        out = verify_record(record)
        if not out["verified"]:
            status = EXIT_UNFAIR
        sys.stdout.write(dumps(out) + "\n")
    return status


__all__ = ["add_parser", "run"]
