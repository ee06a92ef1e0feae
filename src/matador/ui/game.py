"""The game loop: a :class:`~matador.core.match.Match` at the terminal.

The controller deals hands, asks each human for moves through a
:class:`Terminal`, lets bots choose from their own view, announces every move
in public words, shows the end of each hand and of the match, and saves each
finished hand as one record line. It renders only
:class:`~matador.ui.render.Table` values built from one seat's view, so a
screen never shows a tile its viewer may not see; with several humans at one
keyboard the screen is cleared and the keyboard handed over between them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from matador.core.errors import MatadorError
from matador.core.match import Match
from matador.core.moves import DRAW, PASS, Move
from matador.core.record import Record, replay
from matador.core.rules import Rules
from matador.core.score import breakdown
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import LEVELS, Bot, BotError, OracleBot, make_bot
from matador.players.analysis import Analysis, ReviewedMove, analyse, review
from matador.players.base import Budget
from matador.ui.describe import (
    Entry,
    announce,
    forced_text,
    menu_entries,
    parse_input,
)
from matador.ui.i18n import _, ngettext
from matador.ui.render import (
    TURN_STYLE,
    hand_text,
    render_table,
    scores_table,
    slash,
    table_from_state,
    table_from_view,
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
            out.append(_("Bot {n} ({level})").format(n=i, level=s.kind))
    return out


def confirm_words() -> set[str]:
    """The answers that mean yes, in English and the interface language."""
    return {"y", "yes", _("y").lower(), _("yes").lower()}


class Game:
    """One match at the terminal (see the module docstring)."""

    def __init__(self, config: GameConfig, term: Terminal, *, save_to: TextIO | None = None,
                 save_name: str | None = None) -> None:
        self.config = config
        self.term = term
        self.rules = config.rules()
        self.seed = config.seed if config.seed is not None else random.SystemRandom().getrandbits(
            63)
        self.match = Match(self.rules, config.players, random.Random(self.seed))
        self.names = default_names(config.seats)
        self.humans = [i for i, s in enumerate(config.seats) if s.is_human]
        self.bots: dict[int, Bot] = {
            i: make_bot(s.kind) for i, s in enumerate(config.seats) if not s.is_human}
        self.rngs = [random.Random(f"{self.seed}:seat:{i}") for i in range(config.players)]
        self.hint_rng = random.Random(f"{self.seed}:hints")
        self.save_to = save_to
        self.save_name = save_name
        self.saved = 0
        self._at_keyboard: int | None = None

    @property
    def hot_seat(self) -> bool:
        """Whether several humans share the keyboard."""
        return len(self.humans) > 1

    # -- the match ----------------------------------------------------------------

    def run(self) -> int:
        """Play the match; return the exit status (0, or 130 after Ctrl-C)."""
        try:
            self._intro()
            while not self.match.is_over:
                state = self.match.next_hand()
                self.play_hand(state)
                self.match.finish_hand(state)
                self._save(self.match.records[-1])
                self._hand_end(self.match.records[-1])
            self._match_end()
            return 0
        except QuitGame:
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
        if self.humans and not self.hot_seat:
            self.term.pause(_("Press Enter to start"))

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
        state = self.match.current
        if self.save_to is None or state is None or state.is_over or not state.moves:
            return 0
        record = Record(self.rules, state.deal, tuple(state.moves), {
            "hand": self.match.hand_number + 1, "scores_before": list(self.match.scores),
            "seats": [str(s) for s in self.config.seats], "unfinished": True})
        try:
            replay(record)
        except MatadorError:
            return 0
        self.save_to.write(record.dumps(with_result=False) + "\n")
        self.save_to.flush()
        return len(record.moves)

    def _save(self, record: Record) -> None:
        record = dataclasses.replace(record, meta={
            **dict(record.meta or {}), "seats": [str(s) for s in self.config.seats]})
        self.match.records[-1] = record
        if self.save_to is not None:
            self.save_to.write(record.dumps() + "\n")
            self.save_to.flush()
            self.saved += 1

    # -- one hand -------------------------------------------------------------------

    def play_hand(self, state: HandState) -> None:
        """Play one hand to its end, asking humans and bots in turn."""
        number = self.match.hand_number + 1
        scores = tuple(self.match.scores)
        self._at_keyboard = None  # hot seat: every hand starts with a handover
        by_rule = self.match.leader_by_rule
        self.term.print("")
        self.term.print(Text(_("Hand {n}: {name} leads.").format(
            n=number, name=self.names[state.deal.leader]), style="bold"))
        draws = [-1, 0]  # a bot's unseen draws in a row, told as one line
        while not state.is_over:
            seat = state.to_move
            view = PlayerView.of(state, seat, leader_by_rule=by_rule, scores=scores)
            if seat in self.bots:
                move = self.bots[seat].choose(view, self.rngs[seat])
            else:
                self._flush_draws(draws)
                if self.hot_seat and self._at_keyboard != seat:
                    self._hand_over(seat)
                move = self.human_turn(view, number)
            if move == DRAW and seat in self.bots:
                if draws[0] != seat:
                    self._flush_draws(draws)
                draws[:] = [seat, draws[1] + 1 if draws[0] == seat else 1]
                state.push(move)
                continue
            self._flush_draws(draws)
            drawn = state.boneyard[0] if move == DRAW else None
            said = announce(self.rules, state.left, state.right, move, self.names[seat], drawn,
                            you=seat in self.humans and not self.hot_seat)
            self.term.print(Text("· " + said, style=TURN_STYLE if seat in self.humans else ""))
            state.push(move)
        self._flush_draws(draws)

    def _flush_draws(self, draws: list[int]) -> None:
        seat, n = draws
        if n:
            self.term.print("· " + ngettext("{name} draws a tile", "{name} draws {n} tiles", n)
                            .format(name=self.names[seat], n=n))
        draws[:] = [-1, 0]

    def _hand_over(self, seat: int) -> None:
        """Hot seat: clear the screen, hand the keyboard to ``seat``, clear again."""
        self.term.clear()
        self.term.print(Text(_("Pass the keyboard to {name} (seat {seat}).").format(
            name=self.names[seat], seat=seat), style="bold reverse"))
        self.term.pause(_("{name}, press Enter when the others are not looking").format(
            name=self.names[seat]))
        self.term.clear()
        self._at_keyboard = seat

    def _table(self, view: PlayerView, number: int) -> RenderableType:
        return render_table(table_from_view(view, self.names, hand_number=number))

    def human_turn(self, view: PlayerView, number: int) -> Move:
        """Ask the human at ``view.seat`` for a move until it is a legal one."""
        entries = menu_entries(view)
        if len(entries) == 1 and entries[0].move in (DRAW, PASS):
            line = hand_text(view.hand, view.rules)
            self.term.print(line)
            self.term.print(Text(forced_text(view, entries[0].move), style="italic"))
            return entries[0].move
        self.term.print(self._table(view, number))
        self._menu(entries)
        ask = _("{name}, your move").format(name=self.names[view.seat]) if self.hot_seat \
            else _("Your move")
        prompt = f"{ask} [1-{len(entries)}, h, r, s, q]: "
        while True:
            text = self.term.ask(prompt).strip()
            key = text.lower()
            if key in ("h", "hint"):
                self._hint(view, entries)
            elif key in ("r", "rules"):
                self.term.print(render_rules(view.rules, view.players))
                self._menu(entries)
            elif key in ("s", "scores"):
                self.term.print(scores_table(table_from_view(view, self.names,
                                                             hand_number=number)))
            elif key in ("q", "quit", "exit"):
                answer = self.term.ask(_("Leave the match? Finished hands stay saved.")
                                       + " [y/n]: ")
                if answer.strip().lower() in confirm_words():
                    raise QuitGame
            elif key in ("?", "help"):
                self._help(len(entries))
            elif key == "":
                self._menu(entries)
            else:
                choice = parse_input(view, text, entries)
                if isinstance(choice, Move):
                    return choice
                self.term.print(Text(choice, style="yellow"))

    def _menu(self, entries: Sequence[Entry]) -> None:
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

    def _hint(self, view: PlayerView, entries: Sequence[Entry]) -> None:
        budget = Budget.parse(self.config.hint_budget)
        with self.term.console.status(_("Thinking…")):
            analysis = analyse(view, budget, self.hint_rng)
        self.term.print(hint_table(analysis, entries))

    # -- the end of a hand and of the match ------------------------------------------------

    def _hand_end(self, record: Record) -> None:
        state = record.state()
        outcome = state.outcome
        if outcome is None:  # pragma: no cover - finish_hand takes finished hands only
            return
        number = len(self.match.records)
        before = list(record.meta.get("scores_before", [0] * self.config.players)) \
            if record.meta else [0] * self.config.players
        if self.hot_seat:
            self.term.clear()
        self.term.print("")
        self.term.print(Text(hand_result_text(outcome.winner, outcome.reason.value, self.names,
                                              number), style="bold"))
        self.term.print(render_table(table_from_state(state, self.names, scores=before,
                                                      hand_number=number)))
        self.term.print(hand_end_table(record, self.names, before, self.match.scores))
        self.term.print(_("Hand {n}: pips {pips} · points {points} · scores {scores}").format(
            n=number, pips=slash(outcome.pips), points=slash(outcome.points, signed=True),
            scores=slash(self.match.scores)))
        if not self.match.is_over and self.humans:
            self.term.pause(_("Press Enter for the next hand"))

    def _match_end(self) -> None:
        winner = self.match.winner
        self.term.print("")
        if winner is None:
            self.term.print(Text(_("The match ends with no winner."), style="bold"))
        else:
            self.term.print(Text(_("{name} wins the match!").format(name=self.names[winner]),
                                 style="bold green"))
        self.term.print(_("Final scores: {scores}").format(scores=", ".join(
            f"{name} {score}" for name, score in zip(self.names, self.match.scores,
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
            for number, record in enumerate(self.match.records, 1):
                for r in review(record, budget, rng, self.humans):
                    found.append((number, r))
        costly = sorted((x for x in found if x[1].cost > 0), key=lambda x: -x[1].cost)[:3]
        if not costly:
            self.term.print(_("Review: no costly moves found — well played."))
            return
        table = RichTable(title=_("Your costliest moves"), box=box.SIMPLE)
        for col in (_("hand"), _("move no."), _("player"), _("played"), _("better"),
                    _("win chance lost"), _("verdict")):
            table.add_column(col)
        for number, r in costly:
            table.add_row(str(number), str(r.ply + 1), self.names[r.seat], str(r.played),
                          str(r.analysis.best.move), f"{r.cost:.0%}", label_text(r.label))
        self.term.print(table)


def label_text(label: str) -> str:
    """A review label in words."""
    return {"best": _("best"), "good": _("good"), "inaccuracy": _("inaccuracy"),
            "mistake": _("mistake"), "blunder": _("blunder")}.get(label, label)


def hint_table(analysis: Analysis, entries: Sequence[Entry]) -> RichTable:
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


def hand_result_text(winner: int | None, reason: str, names: Sequence[str], number: int) -> str:
    """``Hand 2: You went out and win the hand.``"""
    if winner is None:
        return _("Hand {n} is blocked with a tie for the fewest pips: no winner.").format(
            n=number)
    if reason == "out":
        return _("Hand {n}: {name} went out and wins the hand.").format(n=number,
                                                                       name=names[winner])
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
