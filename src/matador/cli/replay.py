"""``matador replay``: the replay contract of RULES.md section 8.

One record: the result as one JSON line (``--trace``: a position line per
ply first); a refused record prints only ``error: WHERE: WHY`` on standard
error and exits 2. A file of several records, one per line (what ``play``
and ``simulate`` write), replays each in turn, or the one ``--hand K`` picks.
``--jsonl``: one output line per input line, an error object for a refused
one, exit 0.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from matador.cli.common import (
    EXIT_OK,
    CliError,
    choose_hand,
    dumps,
    integer,
    load_record,
    load_records,
    message,
    open_input,
    refusal,
)
from matador.core.record import replay

EXAMPLES = """\
examples:
  matador replay examples/hand.json                {"winner": 0, "reason": "out", ...}
  matador replay --trace examples/hand.json        a position line per ply, then the result
  cat examples/hand.json | matador replay -        read the record from standard input
  matador replay examples/archive.jsonl --hand 2   the second record of a file of several
  matador replay --jsonl examples/archive.jsonl    one line per record: trace and result,
                                                   or error

The examples read the files of examples/, from the root of the repository.
A file of several records, one per line (as play and simulate write them), is
replayed record by record: the lines of each in turn; if one is refused,
nothing is printed and the error names its line ("error: line 3: moves[2]:
..."). --jsonl reports each line on its own instead.

exit status: 0 when the record replays (or every --jsonl line is processed);
2 when the record is refused ("error: WHERE: WHY" on standard error) or a
file cannot be read.
"""


def add_parser(commands: Any) -> None:
    """Register ``replay`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay", help="replay a record and print its result (RULES.md section 8)",
        description="Check a record against the rules and print the result of the hand as "
                    "one JSON line, or {\"over\": false, \"to_move\": SEAT} if the moves stop "
                    "before the hand is over.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", nargs="?", metavar="RECORD.json",
                        help="the record to replay; - reads standard input")
    parser.add_argument("--trace", action="store_true",
                        help='first print {"ply": K, "to_move": SEAT, "legal": [...]} for '
                             "every position, from before the first move to after the last "
                             "(--jsonl output always holds the trace)")
    parser.add_argument("--jsonl", metavar="FILE",
                        help='replay one record per line of FILE (- for standard input); '
                             'print {"trace": [...], "result": ...} or {"error": "WHERE: WHY"} '
                             "for each line, in order")
    parser.add_argument("--hand", type=integer, metavar="K",
                        help="of a file of several records, one per line, replay only the "
                             "K-th (1-based)")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``replay`` with parsed arguments; return the exit status."""
    if args.jsonl is not None:
        if args.record is not None:
            args.parser.error("give either RECORD.json or --jsonl FILE, not both")
        if args.hand is not None:
            args.parser.error("--hand picks a record of RECORD.json; --jsonl replays every line")
        return run_jsonl(args.jsonl)
    if args.record is None:
        args.parser.error("a record is required: RECORD.json, - for standard input, "
                          "or --jsonl FILE")
    entries = choose_hand(load_records(args.record), args.hand, args.record)
    lines: list[str] = []
    for entry in entries:  # every record is checked before anything is printed
        if entry.record is None:
            raise refusal(entry)
        done = replay(entry.record, trace=args.trace)
        lines.extend(dumps(position) for position in done.trace)
        lines.append(dumps(done.result))
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def replay_line(line: bytes) -> dict[str, Any]:
    """The ``--jsonl`` output object for one input line: trace and result, or the error.

    Never raises: a batch must not stop at one line, so even a failure of the
    program itself becomes that line's ``error`` (``record: internal error ...``).
    """
    try:
        record = load_record(line)
        done = replay(record, trace=True)
    except CliError as e:
        return {"error": message(e.where, e.why)}
    except Exception as e:  # a bug: report it for this line, go on with the next
        return {"error": message("record", f"internal error, please report it: "
                                           f"{type(e).__name__}: {e}")}
    return {"trace": done.trace, "result": done.result}


def run_jsonl(path: str) -> int:
    """Replay every line of ``path``, printing one JSON line for each, in order.

    Lines end at ``\\n`` only (a ``\\u2028`` inside a JSON string is not a line
    break); a final ``\\n`` does not start another line, but any other empty
    line is a record that is refused.
    """
    out = sys.stdout
    with open_input(path) as lines:
        for line in lines:
            out.write(dumps(replay_line(line.removesuffix(b"\n"))) + "\n")
    return EXIT_OK
