"""``matador play``: a match of Matador in the terminal, against bots or friends.

Everything the start menu offers is also a flag; with none of the game flags
(and standard input a terminal) the menu opens first. Each finished hand is
appended to the records file as one JSON line (RULES.md section 8).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from matador.cli.common import EXIT_OK, CliError, integer, override, preset_name
from matador.core.errors import MatadorError, RulesError, quote
from matador.core.rules import Rules
from matador.players import LEVELS, OracleBot, bot_kinds, make_bot
from matador.ui.game import HUMAN, Game, GameConfig, QuitGame, SeatSpec, Terminal
from matador.ui.i18n import LANGUAGES, detect_language, set_language
from matador.ui.menu import StartMenu

EXAMPLES = """\
examples:
  matador play                                   the start menu, then the match
  matador play --preset classic --seat human --seat easy
  matador play --preset russian --players 3 --bots strong --lang ru
  matador play --preset czech --seat human:Ana --seat human:Petr    hot seat, two people
  matador play --set draw=one --match-target 50 --seed 7 --save games.jsonl
  matador show games.jsonl                       step through the saved hands

Seats: "human" (or human:NAME) is a person at this keyboard; a bot is a level
(easy, normal, strong, max) or a bot spec (greedy, pimc:300ms, ismcts:2000it).
Without --seat, seat 0 is you and the others are --bots bots. During a hand:
a number or a move (L5-4, draw) plays; h hint, r rules, s scores, q quit.
Bots with a time budget (normal, strong, max) think for a fixed time, so a
--seed replays a match exactly only with greedy bots or iteration budgets.
"""


def add_parser(commands: Any) -> None:
    """Register ``play`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "play", help="play a match in the terminal against bots or friends",
        description="Play a match of Matador in the terminal: 2-4 seats, each a person at "
                    "this keyboard or a bot, under any preset and house rules, in English, "
                    "Spanish, Czech or Russian.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", type=preset_name, metavar="P",
                        help="rule preset: classic, paluba, russian or six, or an alias "
                             "(default: classic)")
    parser.add_argument("--players", type=integer, metavar="N",
                        help="number of seats, 2 to 4 (default: the number of --seat, or 2)")
    parser.add_argument("--set", action="append", default=[], type=override,
                        metavar="NAME=VALUE", dest="overrides",
                        help="a house rule: override a parameter (RULES.md section 7), "
                             "repeatable: --set draw=one")
    parser.add_argument("--seat", action="append", default=[], metavar="SPEC", dest="seats",
                        help="who sits at the next seat: human, human:NAME, a level (easy, "
                             "normal, strong, max) or a bot spec; repeatable, in seat order")
    parser.add_argument("--bots", default="normal", metavar="LEVEL",
                        help="the level of the seats not given by --seat (default: normal)")
    parser.add_argument("--match-target", type=integer, metavar="N",
                        help="points that end the match (R23); 0 plays a single hand")
    parser.add_argument("--lang", choices=sorted(LANGUAGES),
                        help="language of the game (default: from the locale, else English)")
    parser.add_argument("--seed", type=integer, metavar="S",
                        help="seed of the deals and the bots, to play a match again")
    parser.add_argument("--save", metavar="FILE",
                        help="append each finished hand to FILE as a JSON line (default: "
                             "matador-YYYYmmdd-HHMMSS.jsonl in the current directory)")
    parser.add_argument("--no-save", action="store_true", help="do not save the hands")
    menu = parser.add_mutually_exclusive_group()
    menu.add_argument("--menu", action="store_true", dest="menu", default=None,
                      help="open the start menu even when game flags are given")
    menu.add_argument("--no-menu", action="store_false", dest="menu",
                      help="start at once with the flags' settings")
    parser.add_argument("--hint-budget", default="300ms", metavar="B",
                        help="thinking time of the hint key (default: 300ms)")
    parser.add_argument("--review-budget", default="100ms", metavar="B",
                        help="thinking time per decision of the end-of-match review "
                             "(default: 100ms)")
    parser.add_argument("--no-review", action="store_true",
                        help="skip the review of your moves at the end of the match")
    parser.set_defaults(run=run, parser=parser)


def seat_spec(text: str, flag: str) -> SeatSpec:
    """A ``--seat`` (or ``--bots``) value; one that names no player lists those that may sit.

    The list leaves out the ``cheater``, which sees the true hands and is never
    an opponent (``make_bot`` knows it, for the arena).
    """
    try:
        return SeatSpec.parse(text)
    except MatadorError as e:
        if not str(e).startswith("unknown bot"):  # a known player, badly written
            raise CliError(f"{flag} {quote(text)}", str(e)) from None
    bots = [k for k in bot_kinds() if not isinstance(make_bot(k), OracleBot)]
    raise CliError(flag, f"{quote(text)} is not a player: human, human:NAME, a level "
                         f"({', '.join(LEVELS)}) or a bot ({', '.join(bots)}), with a "
                         "budget if you like (pimc:300ms, ismcts:2000it)")


def config_of(args: argparse.Namespace) -> GameConfig:
    """The game settings of the flags, validated; a bad value is a :class:`CliError`."""
    preset = args.preset or "classic"
    overrides = dict(args.overrides)
    if args.match_target is not None:
        overrides["match_target"] = args.match_target
    try:
        rules = Rules.from_preset(preset, overrides)
    except MatadorError as e:
        raise CliError.of(e) from None
    seats: list[SeatSpec] = []
    for text in args.seats:
        seats.append(seat_spec(text, "--seat"))
    players = args.players if args.players is not None else max(len(seats), rules.players[0])
    if len(seats) > players:
        raise CliError("--seat", f"{len(seats)} seats given for {players} players")
    seat_spec(args.bots, "--bots")
    if not seats:
        seats.append(SeatSpec(HUMAN))
    while len(seats) < players:
        seats.append(SeatSpec(args.bots))
    try:
        rules.check_players(players)
    except RulesError as e:
        raise CliError("--players", e.why) from None
    save = None if args.no_save else (
        args.save or time.strftime("matador-%Y%m%d-%H%M%S.jsonl"))
    return GameConfig(preset, overrides, seats, args.seed, save, args.hint_budget,
                      args.review_budget, not args.no_review)


def _game_flags(args: argparse.Namespace) -> bool:
    return bool(args.preset or args.players or args.overrides or args.seats
                or args.match_target is not None)


def run(args: argparse.Namespace) -> int:
    """Run ``play`` with parsed arguments; return the exit status."""
    from matador.players.base import BotError, Budget

    set_language(args.lang or detect_language())
    for flag, text in (("--hint-budget", args.hint_budget),
                       ("--review-budget", args.review_budget)):
        try:
            Budget.parse(text)
        except BotError as e:
            raise CliError(flag, str(e)) from None
    config = config_of(args)
    console = Console(highlight=False)
    term = Terminal(console)
    show_menu = args.menu if args.menu is not None else (
        not _game_flags(args) and sys.stdin.isatty())
    if show_menu:
        try:
            config = StartMenu(config, term).run()
        except (QuitGame, EOFError):
            return EXIT_OK
        except KeyboardInterrupt:
            return 130
    if sum(seat.is_human for seat in config.seats) > 1 and not console.is_terminal:
        # Hot seat hides each hand by clearing the screen: without a terminal the previous
        # player's tiles would stay in the output for the next player to read.
        raise CliError("--seat", "several human seats (hot seat) need a terminal to hide "
                                 "each hand between turns")
    save_file = None
    created = False
    if config.save is not None:
        path = Path(config.save)
        created = not path.exists()
        try:
            save_file = path.open("a", encoding="utf-8", newline="\n")
        except OSError as e:
            raise CliError(config.save, (e.strerror or str(e)).lower()) from None
    try:
        game = Game(config, term, save_to=save_file, save_name=config.save)
        status = game.run()
    finally:
        if save_file is not None:
            save_file.close()
            # Remove only a regular file this run created and left empty (never, say,
            # an existing empty file or /dev/null).
            path = Path(save_file.name)
            if created and path.is_file() and path.stat().st_size == 0:
                path.unlink()
    return status
