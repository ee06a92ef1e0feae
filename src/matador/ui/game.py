"""The game loop: a :class:`~matador.core.match.Match` at the terminal.

The controller deals hands, asks each human for moves through a
:class:`Terminal`, lets bots choose from their own view, announces every move
in public words, shows the end of each hand and of the match, and saves each
finished hand as one record line. It renders only
:class:`~matador.ui.render.Board` values built from one seat's view, so a
screen never shows a tile its viewer may not see; with several humans at one
keyboard the screen is cleared and the keyboard handed over between them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from matador.core.errors import MatadorError
from matador.core.moves import DRAW, PASS, Move
from matador.core.record import Record, replay
from matador.core.rules import Rules
from matador.core.score import breakdown
from matador.core.tiles import Tile
from matador.core.view import PlayerView
from matador.players import LEVELS, BotError, OracleBot, make_bot
from matador.players.analysis import Analysis, ReviewedMove, analyse, review
from matador.players.base import Budget
from matador.table.drive import play_game
from matador.table.events import Event, EventKind
from matador.table.players import BotPlayer, Player
from matador.table.referee import Table
from matador.ui.describe import (
    MenuEntry,
    announce,
    forced_text,
    menu_entries,
    parse_input,
)
from matador.ui.i18n import _, ngettext
from matador.ui.render import (
    TURN_STYLE,
    board_from_state,
    board_from_view,
    hand_text,
    render_board,
    scores_table,
    slash,
    tiles_text,
)
from matador.ui.rules_text import render_rules

HUMAN = "human"
"""The seat spec of a person at the keyboard."""


class QuitGame(Exception):
    """The player chose to leave the match."""


@dataclass(frozen=True)
class SeatSpec:
    """Who sits at a seat: ``human`` (with an optional name) or a bot level or spec."""

    kind: str
    name: str | None = None

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == HUMAN

    @classmethod
    def parse(cls, text: str) -> SeatSpec:
        """Read ``human``, ``human:NAME``, a level (``easy``) or a bot spec (``pimc:300ms``).

        Raises :class:`ValueError` for an unknown bot.
        """
        text = text.strip()
        kind, _sep, rest = text.partition(":")
        if kind.lower() in (HUMAN, "h"):
            return cls(HUMAN, rest.strip() or None)
        if isinstance(make_bot(text), OracleBot):  # validates, and keeps the cheater out
            raise BotError(f"{text!r} needs the true hands: it is a measuring stick for the "
                           "arena, never an opponent")
        return cls(text)

    def __str__(self) -> str:
        return f"{HUMAN}:{self.name}" if self.is_human and self.name else self.kind


@dataclass
class GameConfig:
    """Everything the start menu and the flags of ``matador play`` decide."""

    preset: str = "classic"
    overrides: dict[str, Any] = field(default_factory=dict)
    seats: list[SeatSpec] = field(default_factory=lambda: [SeatSpec(HUMAN), SeatSpec("normal")])
    seed: int | None = None
    save: str | None = None
    hint_budget: str = "300ms"
    review_budget: str = "100ms"
    review: bool = True

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    def rules(self) -> Rules:
        """The rules: the preset with the overrides (raises RulesError when invalid)."""
        return Rules.from_preset(self.preset, self.overrides)


class Terminal:
    """The keyboard and the screen: a rich console and a line reader.

    ``read`` defaults to the console's own input (``input()``); tests pass a
    scripted reader. ``read`` raises :class:`EOFError` at the end of input.
    """

    def __init__(self, console: Console, read: Callable[[str], str] | None = None) -> None:
        self.console = console
        self._read = read

    def print(self, *objects: RenderableType | str, **kwargs: Any) -> None:
        """Print to the screen (strings are plain text, never markup)."""
        self.console.print(*[Text(o) if isinstance(o, str) else o for o in objects], **kwargs)

    def ask(self, prompt: str) -> str:
        """Read one line after ``prompt``."""
        if self._read is not None:
            self.console.print(Text(prompt), end="")
            return self._read(prompt)
        return self.console.input(Text(prompt, style="bold"))

    def pause(self, text: str) -> None:
        """Wait for Enter."""
        self.ask(f"{text} [Enter] ")

    def clear(self) -> None:
        """Clear the screen (a no-op when not on a terminal)."""
        if self.console.is_terminal:
            # home, erase the screen and the scrollback, so the last hand cannot be scrolled to
            self.console.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.console.file.flush()


def default_names(seats: Sequence[SeatSpec]) -> list[str]:
    """Names by seat number: ``You`` for a lone human, else ``Player N``; ``Bot N (level)``."""
    humans = sum(s.is_human for s in seats)
    out = []
    for i, s in enumerate(seats):
        if s.name:
            out.append(s.name)
        elif s.is_human:
            out.append(_("You") if humans == 1 else _("Player {n}").format(n=i))
        else:
            out.append(_("Bot {n} ({level})").format(n=i, level=level_word(s.kind)))
    return out


def level_word(kind: str) -> str:
    """A bot level in the interface language (``normal``); another bot spec as it is."""
    return {"easy": _("easy"), "normal": _("normal"), "strong": _("strong"),
            "max": _("max")}.get(kind, kind)


def confirm_words() -> set[str]:
    """The answers that mean yes, in English and the interface language."""
    return {"y", "yes", _("y").lower(), _("yes").lower()}


class LeaveMatch(Exception):
    """The session ends at the keyboard (a quit or the end of input): not a fault of play.

    The referee's drivers let it through and leave the table as it was.
    """

    ends_session = True

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class TerminalPlayer(Player):
    """The person at the keyboard for one seat: :meth:`Game.human_turn` asks them."""

    def __init__(self, game: Game, name: str) -> None:
        self.game = game
        self.name = name

    @property
    def blocking(self) -> bool:
        """False: the driver waits for a person, it does not compute."""
        return False

    def move(self, view: PlayerView, rng: random.Random) -> Move:
        """Hand the keyboard over if needed, then ask for the move."""
        try:
            return self.game.human_turn(view)
        except QuitGame:
            raise LeaveMatch("quit") from None
        except EOFError:
            raise LeaveMatch("eof") from None


class Game:
    """One match at the terminal (see the module docstring).

    The match is refereed by a :class:`~matador.table.referee.Table` and
    driven by :func:`~matador.table.drive.play_game`; this class only shows
    the table's events at the keyboard and asks the people at it.
    """

    def __init__(self, config: GameConfig, term: Terminal, *, save_to: TextIO | None = None,
                 save_name: str | None = None) -> None:
        self.config = config
        self.term = term
        self.rules = config.rules()
        self.seed = config.seed if config.seed is not None else random.SystemRandom().getrandbits(
            63)
        self.table = Table(self.rules, config.players,
                           meta={"seats": [str(s) for s in config.seats]})
        self.names = default_names(config.seats)
        self.humans = [i for i, s in enumerate(config.seats) if s.is_human]
        self.players: list[Player] = [
            TerminalPlayer(self, self.names[i]) if s.is_human else BotPlayer(s.kind)
            for i, s in enumerate(config.seats)]
        self._deal_rng = random.Random(self.seed)
        self.rngs = [random.Random(f"{self.seed}:seat:{i}") for i in range(config.players)]
        self.hint_rng = random.Random(f"{self.seed}:hints")
        self.save_to = save_to
        self.save_name = save_name
        self.saved = 0
        self._at_keyboard: int | None = None
        self._draws: list[int] = [-1, 0]  # a bot's unseen draws in a row, told as one line
        self._recap: dict[int, list[str]] = {s: [] for s in self.humans}
        self._hints: dict[tuple[int, int], Analysis] = {}

    @property
    def hot_seat(self) -> bool:
        """Whether several humans share the keyboard."""
        return len(self.humans) > 1

    @property
    def you(self) -> int | None:
        """The seat of the lone person at the keyboard, addressed as "you" (else ``None``)."""
        return self.humans[0] if len(self.humans) == 1 else None

    @property
    def hand_number(self) -> int:
        """The hand being played (1-based)."""
        return self.table.hand_number

    # -- the match ----------------------------------------------------------------

    def run(self) -> int:
        """Play the match; return the exit status (0, or 130 after Ctrl-C)."""
        try:
            self._intro()
            play_game(self.table, self.players, deal_rng=lambda hand: self._deal_rng,
                      rngs=self.rngs, on_event=self._on_events)
            self._match_end()
            return 0
        except (QuitGame, LeaveMatch) as e:
            if isinstance(e, LeaveMatch) and e.why == "eof":
                self.term.print("")
                self._goodbye(_("End of input: the match stops here."))
            else:
                self._goodbye(_("You left the match."))
            return 0
        except EOFError:
            self.term.print("")
            self._goodbye(_("End of input: the match stops here."))
            return 0
        except KeyboardInterrupt:
            self.term.print("")
            self._goodbye(_("Interrupted: the match stops here."))
            return 130

    def _intro(self) -> None:
        seats = ", ".join(f"{i}: {name}" for i, name in enumerate(self.names))
        self.term.print(Text(_("Matador — new match"), style="bold"))
        self.term.print(render_rules(self.rules, self.config.players))
        self.term.print(_("Seats: {seats}").format(seats=seats))
        if self.save_name:
            self.term.print(_("Every finished hand is saved to {file}.").format(
                file=self.save_name))
        if self.humans:  # hot seat too: the rules and seats are read before the first hand-over
            self._pause(_("Press Enter to start"))

    def _pause(self, text: str) -> None:
        """Wait for Enter; ``q`` offers to leave the match."""
        answer = self.term.ask(f"{text} [Enter] ")
        if answer.strip().lower() in ("q", "quit", "exit"):
            self._confirm_leave()

    def _confirm_leave(self) -> None:
        message = _("Leave the match? Finished hands stay saved.") if self.save_name else \
            _("Leave the match?")
        answer = self.term.ask(message + " [y/n]: ")
        if answer.strip().lower() in confirm_words():
            raise QuitGame

    def _goodbye(self, why: str) -> None:
        self.term.print(why)
        if self.save_name:
            self.term.print(ngettext("{n} finished hand saved to {file}.",
                                     "{n} finished hands saved to {file}.", self.saved).format(
                n=self.saved, file=self.save_name))
            moves = self._save_unfinished()
            if moves:
                self.term.print(ngettext(
                    "The unfinished hand is saved too, up to its last move ({n} move).",
                    "The unfinished hand is saved too, up to its last move ({n} moves).",
                    moves).format(n=moves))

    def _save_unfinished(self) -> int:
        """Save the hand being played, without a result, if it has moves; return how many.

        The record is rebuilt from the deal and the moves and replayed, so a state
        caught halfway through a move (Ctrl-C) can never write a wrong record.
        """
        record = self.table.unfinished_record()
        if self.save_to is None or record is None or not record.moves:
            return 0
        try:
            replay(record)
        except MatadorError:
            return 0
        self.save_to.write(record.dumps(with_result=False) + "\n")
        self.save_to.flush()
        return len(record.moves)

    def _save(self, record: Record) -> None:
        if self.save_to is not None:
            self.save_to.write(record.dumps() + "\n")
            self.save_to.flush()
            self.saved += 1

    # -- what happens at the table --------------------------------------------------

    def _on_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == EventKind.HAND_START:
                self._hand_start(event)
            elif event.kind == EventKind.MOVE:
                self._move(event)
            elif event.kind == EventKind.HAND_END:
                self._flush_draws()
                record = self.table.records[-1]
                self._save(record)
                self._hand_end(record)

    def _say(self, text: str, *, style: str = "", private: str | None = None,
             seat: int | None = None) -> None:
        """Print a line at the table; the others at the keyboard read it in their recap.

        ``private`` is the wording for ``seat`` alone (its own draw): shown on the
        screen now, while the recap of the others gets the public ``text``.
        """
        self.term.print(Text(private or text, style=style))
        for s, lines in self._recap.items():
            if s != seat or private is None:
                lines.append(text)

    def _hand_start(self, event: Event) -> None:
        self._at_keyboard = None  # hot seat: every hand starts with a handover
        self._draws = [-1, 0]
        for lines in self._recap.values():
            lines.clear()
        leader = event.public["leader"]
        number = event.public["hand"]
        self.term.print("")
        if leader == self.you:
            text = _("Hand {n}: you lead.").format(n=number)
        else:
            text = _("Hand {n}: {name} leads.").format(n=number, name=self.names[leader])
        self._say(text, style="bold")

    def _move(self, event: Event) -> None:
        seat = event.public["seat"]
        m = Move(event.public["id"])
        if m == DRAW and seat not in self.humans:
            if self._draws[0] != seat:
                self._flush_draws()
            self._draws[:] = [seat, self._draws[1] + 1 if self._draws[0] == seat else 1]
            return
        self._flush_draws()
        left, right = event.public["before"]
        style = TURN_STYLE if seat in self.humans else ""
        you = seat == self.you
        public = "· " + announce(self.rules, left, right, m, self.names[seat], you=you)
        if m == DRAW:  # a person's own draw: the tile is theirs to see
            tile = Tile.parse(event.for_recipient(seat)["tile"])
            mine = "· " + announce(self.rules, left, right, m, self.names[seat], tile, you=you)
            self._say(public, style=style, private=mine, seat=seat)
        else:
            self._say(public, style=style)

    def _flush_draws(self) -> None:
        seat, n = self._draws
        if n:
            self._say("· " + ngettext("{name} draws a tile", "{name} draws {n} tiles", n)
                      .format(name=self.names[seat], n=n))
        self._draws[:] = [-1, 0]

    def _hand_over(self, seat: int) -> None:
        """Hot seat: clear the screen, hand the keyboard to ``seat``, clear again, and tell
        them what happened since their last turn."""
        self.term.clear()
        self.term.print(Text(_("Pass the keyboard to {name} (seat {seat}).").format(
            name=self.names[seat], seat=seat), style="bold reverse"))
        self._pause(_("{name}, press Enter when the others are not looking").format(
            name=self.names[seat]))
        self.term.clear()
        self._at_keyboard = seat
        lines = self._recap.get(seat, [])
        if lines:
            self.term.print(Text(_("Since your last turn:"), style="bold"))
            for line in lines:
                self.term.print(line)
            lines.clear()

    def _table(self, view: PlayerView) -> RenderableType:
        return render_board(board_from_view(view, self.names, hand_number=self.hand_number))

    def human_turn(self, view: PlayerView) -> Move:
        """Ask the human at ``view.seat`` for a move until it is a legal one."""
        self._flush_draws()
        if self.hot_seat and self._at_keyboard != view.seat:
            self._hand_over(view.seat)
        self._recap.get(view.seat, []).clear()
        entries = menu_entries(view)
        if len(entries) == 1 and entries[0].move in (DRAW, PASS):
            line = hand_text(view.hand, view.rules)
            self.term.print(line)
            self.term.print(Text(forced_text(view, entries[0].move), style="italic"))
            return entries[0].move
        self.term.print(self._table(view))
        self._menu(entries)
        ask = _("{name}, your move").format(name=self.names[view.seat]) if self.hot_seat \
            else _("Your move")
        # "1..N", never "1-N", which would read as a tile
        numbers = "1" if len(entries) == 1 else f"1..{len(entries)}"
        prompt = f"{ask} [{numbers}, h, r, s, q]: "
        while True:
            text = self.term.ask(prompt).strip()
            key = text.lower()
            if key in ("h", "hint"):
                self._hint(view, entries)
            elif key in ("r", "rules"):
                self.term.print(render_rules(view.rules, view.players))
                self._menu(entries)
            elif key in ("s", "scores"):
                self.term.print(scores_table(board_from_view(view, self.names,
                                                             hand_number=self.hand_number)))
            elif key in ("q", "quit", "exit"):
                self._confirm_leave()
            elif key in ("?", "help"):
                self._help(len(entries))
            elif key == "":
                self._menu(entries)
            else:
                choice = parse_input(view, text, entries)
                if isinstance(choice, Move):
                    return choice
                self.term.print(Text(choice, style="yellow"))

    def _menu(self, entries: Sequence[MenuEntry]) -> None:
        table = RichTable(box=None, show_header=False, pad_edge=False)
        table.add_column(justify="right", style="bold")
        table.add_column(style="cyan")
        table.add_column()
        for i, e in enumerate(entries, 1):
            table.add_row(str(i), e.notation, e.text)
        self.term.print(table)

    def _help(self, n: int) -> None:
        self.term.print(_("Type a number from 1 to {n}, a move (L5-4, R3-4, an opening tile "
                          "such as 2-4, draw, pass) or a tile (4-5). Keys: h hint, r rules, "
                          "s scores, q quit.").format(n=n))

    def _hint(self, view: PlayerView, entries: Sequence[MenuEntry]) -> None:
        budget = Budget.parse(self.config.hint_budget)
        with self.term.console.status(_("Thinking…")):
            analysis = analyse(view, budget, self.hint_rng)
        self._hints[self.hand_number, view.ply] = analysis  # the review reuses it
        self.term.print(hint_table(analysis, entries))

    # -- the end of a hand and of the match ------------------------------------------------

    def _hand_end(self, record: Record) -> None:
        state = record.state()
        outcome = state.outcome
        if outcome is None:  # pragma: no cover - the table records finished hands only
            return
        number = len(self.table.records)
        before = list(record.meta.get("scores_before", [0] * self.config.players)) \
            if record.meta else [0] * self.config.players
        after = list(self.table.scores)
        if self.hot_seat:
            self.term.clear()
        self.term.print("")
        self.term.print(Text(hand_result_text(outcome.winner, outcome.reason.value, self.names,
                                              number, you=self.you), style="bold"))
        self.term.print(render_board(board_from_state(state, self.names, scores=after,
                                                      hand_number=number)))
        self.term.print(hand_end_table(record, self.names, before, after))
        self.term.print(_("Hand {n}: pips {pips} · points {points} · scores {scores}").format(
            n=number, pips=slash(outcome.pips), points=slash(outcome.points, signed=True),
            scores=slash(after)))
        if not self.table.is_over and self.humans:
            self._pause(_("Press Enter for the next hand"))

    def _match_end(self) -> None:
        winner = self.table.winner
        self.term.print("")
        if winner is None:
            self.term.print(Text(_("The match ends with no winner."), style="bold"))
        elif winner == self.you:
            self.term.print(Text(_("You win the match!"), style="bold green"))
        else:
            self.term.print(Text(_("{name} wins the match!").format(name=self.names[winner]),
                                 style="bold green"))
        self.term.print(_("Final scores: {scores}").format(scores=", ".join(
            f"{name} {score}" for name, score in zip(self.names, self.table.scores,
                                                     strict=True))))
        if self.humans and self.config.review:
            self._review()
        self.term.print(_("Seed of this match: {seed} (play it again with --seed {seed})")
                        .format(seed=self.seed))
        if self.save_name:
            self.term.print(ngettext("{n} hand saved to {file}; replay it with: matador show "
                                     "{file}", "{n} hands saved to {file}; replay them with: "
                                     "matador show {file}", self.saved).format(
                n=self.saved, file=self.save_name))

    def _review(self) -> None:
        budget = Budget.parse(self.config.review_budget)
        rng = random.Random(f"{self.seed}:review")
        found: list[tuple[int, ReviewedMove]] = []
        with self.term.console.status(_("Reviewing your moves…")):
            for number, record in enumerate(self.table.records, 1):
                known = {ply: a for (hand, ply), a in self._hints.items() if hand == number}
                for r in review(record, budget, rng, self.humans, known=known):
                    found.append((number, r))
        costly = sorted((x for x in found if x[1].cost > 0), key=lambda x: -x[1].cost)[:3]
        if not costly:
            self.term.print(_("Review: no costly moves found — well played."))
            return
        table = RichTable(title=_("Your costliest moves"), box=box.SIMPLE)
        for col in (_("hand"), _("ply"), _("player"), _("played"), _("better"),
                    _("win chance lost"), _("verdict")):
            table.add_column(col)
        for number, r in costly:
            table.add_row(str(number), str(r.ply), self.names[r.seat], str(r.played),
                          str(r.analysis.best.move),
                          f"{r.cost:.0%} ± {2 * r.cost_stderr:.0%}", label_text(r.label))
        self.term.print(table)
        self.term.print(Text(_(
            "ply: moves played before it in the hand, as in matador analyse FILE --ply N. "
            "A move is good when its cost is within two standard errors (±) of zero: the "
            "search cannot tell it from the best; beyond that, an inaccuracy costs 2% or more, "
            "a mistake 6%, a blunder 15%."), style="dim"))


def label_text(label: str) -> str:
    """A review label in words."""
    return {"best": _("best"), "good": _("good"), "inaccuracy": _("inaccuracy"),
            "mistake": _("mistake"), "blunder": _("blunder")}.get(label, label)


def hint_table(analysis: Analysis, entries: Sequence[MenuEntry]) -> RichTable:
    """The hint: each legal move's win chance and expected points, in menu order."""
    number = {e.move: i for i, e in enumerate(entries, 1)}
    table = RichTable(title=_("Hint: the AI's estimate of your moves"), box=box.SIMPLE)
    for col in ("#", _("move"), _("win chance"), _("expected points"), _("samples")):
        table.add_column(col)
    best = analysis.best.move
    for a in analysis.moves:
        table.add_row(str(number.get(a.move, "")), str(a.move), f"{a.win:.0%}",
                      f"{a.points:.1f}", str(a.samples),
                      style="bold green" if a.move == best else "")
    return table


def hand_result_text(winner: int | None, reason: str, names: Sequence[str], number: int,
                     *, you: int | None = None) -> str:
    """``Hand 2: you went out and win the hand.`` (``you``: the seat addressed as "you")."""
    if winner is None:
        return _("Hand {n} is blocked with a tie for the fewest pips: no winner.").format(
            n=number)
    if reason == "out":
        if winner == you:
            return _("Hand {n}: you went out and win the hand.").format(n=number)
        return _("Hand {n}: {name} went out and wins the hand.").format(n=number,
                                                                       name=names[winner])
    if winner == you:
        return _("Hand {n} is blocked: you have the fewest pips and win the hand.").format(
            n=number)
    return _("Hand {n} is blocked: {name} has the fewest pips and wins the hand.").format(
        n=number, name=names[winner])


def hand_end_table(record: Record, names: Sequence[str], before: Sequence[int],
                   after: Sequence[int]) -> RichTable:
    """Every seat's tiles left, pips and points of the hand by kind, and the totals."""
    rules = record.rules
    state = record.state()
    outcome = state.outcome
    parts = breakdown(record)
    table = RichTable(box=box.SIMPLE, title=_("Points of the hand"))
    table.add_column(_("seat"), justify="right")
    table.add_column(_("player"))
    table.add_column(_("tiles left"))
    table.add_column(_("pips"), justify="right")
    kinds: list[tuple[str, Callable[[Any], str]]] = []
    if rules.per_join:
        kinds.append((_("joins"), lambda b: f"{b.joins} x {rules.per_join}"))
    if rules.per_matador:
        kinds.append((_("matadors"), lambda b: f"{b.matadors} x {rules.per_matador}"))
    if rules.exposed_target_bonus:
        kinds.append((_("bonuses"), lambda b: f"{b.bonuses} x {rules.exposed_target_bonus}"))
    if rules.pass_penalty:
        kinds.append((_("passes"), lambda b: f"{b.passes} x -{rules.pass_penalty}"))
    for title, _f in kinds:
        table.add_column(title, justify="right")
    table.add_column(_("hand (pips)"), justify="right")
    table.add_column(_("points"), justify="right")
    table.add_column(_("total"), justify="right")
    for s in range(record.players):
        b = parts[s]
        tiles = tiles_text(state.hand(s), rules) if state.hand(s) else Text("—")
        cells: list[RenderableType | str] = [
            str(s), names[s], tiles, str(outcome.pips[s] if outcome else "")]
        cells.extend(f(b) for _t, f in kinds)
        cells.extend([str(b.hand_points), f"{b.total:+d}" if b.total else "0",
                      f"{before[s]} → {after[s]}"])
        table.add_row(*cells)
    return table


__all__ = ["HUMAN", "LEVELS", "Game", "GameConfig", "QuitGame", "SeatSpec", "Terminal",
           "default_names", "hand_end_table", "hand_result_text", "hint_table"]
