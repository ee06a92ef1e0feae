"""``matador study``: the variant lab, a Markdown report with plots from self-play and the arena."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

from matador.arena.study import StudyError, StudySpec, run_study, write_report
from matador.cli.backends import add_backend_options, backend_of
from matador.cli.common import EXIT_OK, CliError, count, override, preset_name, progress_bar
from matador.core.errors import MatadorError
from matador.core.rules import PRESETS

EXAMPLES = """\
examples:
  matador study --seed 1 --out study/                    every preset, 2-4 players
  matador study --preset classic --players 2 --compare draw=one --hands 50000 --out s/
  matador study --preset six --set pass_penalty=0 --strong pimc:100it --weak greedy --out s/
  matador study --seed 1 --backend ray --address auto --out study/

For each preset (with the --set house rules) and player count: self-play hands
of the search bots' greedy playout policy give the leader's and each seat's
win rate, hand length, how often hands block or end without a winner, how
often a matador decides a hand and the winner's points; the arena plays
--strong against each --weak bot on duplicate deals for the skill index;
each --compare rule is measured against the preset. Every figure has a 95%
interval. The same seed gives the same report on every backend (timings
aside). The kernel (matador[fast]) plays the self-play hands when installed.
"""


def add_parser(commands: Any) -> None:
    """Register ``study`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "study", help="measure presets, player counts and house rules: a report with plots",
        description="The variant lab: first-seat and leader advantage, hand length, "
                    "blocking, matadors, score distributions, how much skill matters, and "
                    "the effect of house rules, with 95%% intervals, as a Markdown report "
                    "with PNG plots.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", nargs="+", type=preset_name, default=list(PRESETS),
                        metavar="P", dest="presets", help="presets (default all four)")
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4], metavar="N",
                        help="player counts; each preset gets those it allows (default 2 3 4)")
    parser.add_argument("--set", action="append", default=[], type=override,
                        metavar="NAME=VALUE", dest="overrides",
                        help="a house rule applied to every preset studied (repeatable)")
    parser.add_argument("--compare", action="append", default=[], type=override,
                        metavar="NAME=VALUE",
                        help="a house rule measured against each preset (repeatable), "
                             "e.g. --compare draw=one")
    parser.add_argument("--hands", type=_positive, default=20_000, metavar="H",
                        help="self-play hands per rule set and player count (default 20000)")
    parser.add_argument("--deals", type=count, default=100, metavar="D",
                        help="duplicate deals per skill comparison (default 100; 0: none)")
    parser.add_argument("--strong", default="pimc:40it", metavar="BOT",
                        help="the strong bot of the skill comparison (default pimc:40it)")
    parser.add_argument("--weak", nargs="+", default=["greedy", "random"], metavar="BOT",
                        help="the weaker bots it plays (default greedy random)")
    parser.add_argument("--seed", type=count, default=1, metavar="S",
                        help="seed of every hand and game (default 1)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="folder for report.md, study.json and the PNG plots")
    parser.add_argument("--no-plots", action="store_true",
                        help="skip the PNG plots (no matplotlib needed)")
    add_backend_options(parser)
    parser.set_defaults(run=run, parser=parser)


def _positive(text: str) -> int:
    value = count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run(args: argparse.Namespace) -> int:
    """Run ``study`` with parsed arguments; return the exit status."""
    backend = backend_of(args)
    spec = StudySpec(presets=tuple(dict.fromkeys(args.presets)),
                     players=tuple(dict.fromkeys(args.players)), hands=args.hands,
                     deals=args.deals, strong=args.strong, weak=tuple(args.weak),
                     compare=tuple(args.compare), seed=args.seed,
                     house_rules=tuple(args.overrides))
    start = time.perf_counter()
    try:
        with progress_bar("study") as progress:
            result = run_study(spec, backend, progress)
        report = write_report(result, args.out, command=_command(args),
                              plots=not args.no_plots)
    except StudyError as e:
        raise CliError("study", str(e)) from None
    except MatadorError as e:
        raise CliError("study", str(e)) from None
    except OSError as e:
        raise CliError(args.out, (e.strerror or str(e)).lower()) from None
    sys.stderr.write(f"study: {len(result.cells)} rule sets x player counts, "
                     f"{len(result.skills)} skill comparisons in "
                     f"{time.perf_counter() - start:.1f} s, seed {spec.seed}: {report}\n")
    return EXIT_OK


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces the study (backend options left out)."""
    parts = ["matador", "study", "--preset", *dict.fromkeys(args.presets), "--players",
             *map(str, dict.fromkeys(args.players)), "--hands", str(args.hands), "--deals",
             str(args.deals), "--strong", args.strong, "--weak", *args.weak,
             "--seed", str(args.seed)]
    for flag, pairs in (("--set", args.overrides), ("--compare", args.compare)):
        for name, value in pairs:
            parts += [flag, f"{name}={value if isinstance(value, str) else _json(value)}"]
    parts += ["--out", args.out]
    return shlex.join(parts)


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
