"""``matador arena``: bots play duplicate deals against each other; a table of scores."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from matador.arena import ArenaResult, plot_ladder, run_arena
from matador.cli.backends import add_backend_options, backend_of
from matador.cli.common import (
    EXIT_OK,
    STDIO,
    CliError,
    add_rule_options,
    count,
    integer,
    open_output,
    plural,
    positive,
    progress_bar,
    rules_of,
    seed_of,
)
from matador.core.errors import MatadorError, quote

EXAMPLES = """\
examples:
  matador arena heuristic random --preset classic --players 2 --deals 500 --seed 1
  matador arena pimc greedy --preset six --players 4 --deals 200 --jobs 4 --json out.json
  matador arena heuristic greedy random --preset classic --players 2 --deals 300 \\
      --seed 1 --jobs 2 --plot ladder.png
  matador arena greedy random --preset classic --players 2 --deals 50 --match
  matador arena pimc "engine:python3 examples/random_engine.py" --preset classic \\
      --players 2 --deals 100
  matador arena pimc:200it heuristic --preset classic --players 2 --deals 5000 --seed 1 \\
      --backend ray --address auto

The bots fill the seats in order, the last one repeated (pimc greedy with
--players 4 is pimc against three greedy bots); with more bots than seats
every combination of distinct bots gets a table (round robin). Every deal,
boneyard order included, is played in every seat rotation. A game (a hand,
or with --match a whole match) scores 1 for the winner, 0 for a loser, 1/N
each without a winner; a contestant that fails (illegal move, error) scores
0 and the others 1/(N-1). The 95% interval of a score is Wilson's, treating
the mean score as a proportion (approximate: the games of a deal are
correlated); Elo ratings come from a Bradley-Terry fit of the pairwise
results (the first bot at 1000) with an interval from a bootstrap over deals.
The same arguments give the same results whatever --jobs or --backend
(timings aside; with iteration budgets such as pimc:200it).
"""


def add_parser(commands: Any) -> None:
    """Register ``arena`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "arena", help="pit bots against each other on duplicate deals and score them",
        description="Play bots against each other on the same deals in every seat rotation "
                    "and report each bot's score with its 95% interval, an Elo ladder, "
                    "points per hand and time per move.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "bots", nargs="+", metavar="BOT",
        help="a bot: kind[:budget] (random, greedy, heuristic, pimc:500ms, sage:200ms...), "
             "a strength level, with a budget or not (strong, strong:200ms), or an MEP engine "
             "\"engine:COMMAND\" (docs/protocol.md); "
             "give at least two")
    add_rule_options(parser)
    parser.add_argument("--deals", type=positive, default=100, metavar="D",
                        help="number of deals, each played in every seat rotation "
                             "(default 100)")
    parser.add_argument("--seed", type=integer, metavar="S",
                        help="seed of the deals and of the bots' random generators "
                             "(default: a fresh random seed, shown in the summary)")
    parser.add_argument("--jobs", type=positive, default=1, metavar="J",
                        help="worker processes (default 1: play in this process)")
    add_backend_options(parser, jobs=False)
    parser.add_argument("--match", action="store_true",
                        help="play whole matches (R23) instead of single hands")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="forfeit a game when a move takes longer than this")
    parser.add_argument("--bootstrap", type=count, default=200, metavar="B",
                        help="bootstrap replicates for the Elo intervals (default 200; "
                             "0: none)")
    parser.add_argument("--json", metavar="FILE",
                        help="write the results as JSON to FILE (-: standard output, "
                             "the table then goes to standard error)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the ladder with its intervals to FILE.png (needs "
                             "matplotlib)")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``arena`` with parsed arguments; return the exit status."""
    if len(args.bots) < 2:
        raise CliError("bots", f"the arena needs at least two bots (got {quote(args.bots[0])}; "
                               "repeat it to play it against itself)")
    rules = rules_of(args.preset, args.overrides, args.players)
    if args.plot and not _have_matplotlib():
        raise CliError("--plot", "needs matplotlib, which is not installed "
                                 "(pip install 'matador[plot]')")
    if args.timeout is not None and not args.timeout > 0:
        raise CliError("--timeout", f"{args.timeout} is not a positive number of seconds")
    for flag, path in (("--json", args.json), ("--plot", args.plot)):
        # Check the outputs before a long run, not after it.
        if path and path != STDIO:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder) or not os.access(folder, os.W_OK) or (
                    os.path.exists(path) and not os.access(path, os.W_OK)):
                raise CliError(path, f"cannot write the {flag} output here")
    seed = seed_of(args.seed)
    backend = backend_of(args)
    try:
        with progress_bar("arena") as progress:
            result = run_arena(args.bots, preset=rules, players=args.players,
                               deals=args.deals, seed=seed, jobs=args.jobs, match=args.match,
                               move_timeout=args.timeout, bootstrap=args.bootstrap,
                               progress=progress,
                               backend=backend if args.backend == "ray" else None)
    except MatadorError as e:
        raise CliError("bots", str(e)) from None
    to_stdout = args.json == STDIO
    if args.json:
        with open_output(args.json) as out:
            out.write(json.dumps(result.to_json(), indent=2) + "\n")
    if args.plot:
        try:
            plot_ladder(result, args.plot)
        except OSError as e:
            raise CliError(args.plot, (e.strerror or str(e)).lower()) from None
        except MatadorError as e:
            raise CliError("--plot", str(e)) from None
    console = Console(file=sys.stderr if to_stdout else sys.stdout,
                      width=None if (sys.stderr if to_stdout else sys.stdout).isatty() else 120)
    print_result(result, console)
    _summary(result, args.jobs)
    return EXIT_OK


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def print_result(result: ArenaResult, console: Console) -> None:
    """The results table, best Elo first, then the seat and forfeit lines."""
    games = plural(len(result.games), "match", "matches") if result.match \
        else plural(len(result.games), "hand")
    over = result.rules.overrides()
    rules = result.preset + "".join(f", {k}={v}" for k, v in over.items())
    table = Table(title=f"{rules}, {result.players} players, {plural(result.deals, 'deal')}, "
                        f"{games}, seed {result.seed}")
    for name in ("bot", "games", "score", "95% CI", "Elo", "Elo 95% CI", "points/hand",
                 "ms/move", "forfeits"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for b in sorted(result.bots, key=lambda b: -b.elo):
        half = (b.ci95[1] - b.ci95[0]) / 2
        table.add_row(
            b.name, str(b.games), f"{b.score:.3f} ± {half:.3f}",
            f"[{b.ci95[0]:.3f}, {b.ci95[1]:.3f}]", f"{b.elo:.0f}",
            f"[{b.elo_ci95[0]:.0f}, {b.elo_ci95[1]:.0f}]" if b.elo_ci95 else "-",
            f"{b.points_per_hand:.2f}", f"{b.ms_per_move:.3f}", str(b.forfeits))
    console.print(table)
    lo, hi = result.first_seat_ci95
    order = " ".join(f"{x:.3f}" for x in result.position_score)
    seats = " ".join(f"{x:.3f}" for x in result.seat_score)
    console.print(f"first seat (the leader) scores {result.first_seat_score:.3f} "
                  f"[{lo:.3f}, {hi:.3f}]; by turn order {order}; by seat number {seats} "
                  f"(baseline {1 / result.players:.3f})", soft_wrap=True)
    if result.forfeits:
        console.print(f"{len(result.forfeits)} forfeits:", soft_wrap=True)
        for f in result.forfeits[:10]:
            console.print(f"  {f}", soft_wrap=True, markup=False, highlight=False)
        if len(result.forfeits) > 10:
            console.print(f"  ... and {len(result.forfeits) - 10} more (see --json)")


def _summary(result: ArenaResult, jobs: int) -> None:
    tables = len(result.tables)
    games = plural(len(result.games), "match", "matches") if result.match \
        else plural(len(result.games), "hand")
    sys.stderr.write(
        f"played {games} ({plural(result.deals, 'deal')} x {result.players} rotations x "
        f"{plural(tables, 'table')}) in {result.seconds:.2f} s with {plural(jobs, 'job')}, "
        f"seed {result.seed}\n")


