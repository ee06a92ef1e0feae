"""The start menu of ``matador play``: preset, house rules, seats, match target, language, seed.

Every item is also a flag of ``matador play``; the menu starts from the
flags' values and returns the :class:`~matador.ui.game.GameConfig` to play.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from matador.core.errors import MatadorError
from matador.core.rules import PARAMETERS, PRESETS, Rules
from matador.ui.game import HUMAN, GameConfig, QuitGame, SeatSpec, Terminal, confirm_words
from matador.ui.i18n import LANGUAGES, _, language, set_language
from matador.ui.render import preset_label
from matador.ui.rules_text import render_rules

LEVEL_NAMES = ("easy", "normal", "strong", "max")
"""The bot strength levels offered by the menu, weakest first."""


def level_label(kind: str) -> str:
    """A seat kind in words: ``you / a person``, ``bot: normal``."""
    labels = {"easy": _("bot: easy"), "normal": _("bot: normal"), "strong": _("bot: strong"),
              "max": _("bot: max")}
    if kind == HUMAN:
        return _("human")
    return labels.get(kind, _("bot: {spec}").format(spec=kind))


class StartMenu:
    """The interactive menu (see the module docstring)."""

    def __init__(self, config: GameConfig, term: Terminal) -> None:
        self.config = config
        self.term = term

    def _items(self) -> list[tuple[str, str, Callable[[], None]]]:
        c = self.config
        items: list[tuple[str, str, Callable[[], None]]] = [
            (_("Rules preset"), preset_label(c.preset), self._preset),
            (_("House rules"), ", ".join(f"{k}={json.dumps(v)}" for k, v in c.overrides.items()
                                         if k != "match_target") or _("none"), self._house),
            (_("Players"), str(c.players), self._players),
        ]
        for i, seat in enumerate(c.seats):
            items.append((_("Seat {n}").format(n=i), level_label(seat.kind),
                          lambda i=i: self._seat(i)))  # type: ignore[misc]
        items += [
            (_("Match target"), str(self._rules().match_target), self._target),
            (_("Language"), LANGUAGES[language()], self._language),
            (_("Seed"), _("random") if c.seed is None else str(c.seed), self._seed),
            (_("Save records to"), c.save or _("(not saved)"), self._save),
        ]
        return items

    def _rules(self) -> Rules:
        return Rules.from_preset(self.config.preset, self.config.overrides)

    def run(self) -> GameConfig:
        """Show the menu until the player starts the match (or quits: :class:`QuitGame`)."""
        while True:
            items = self._items()
            table = RichTable(title=_("Matador — new match"), box=box.ROUNDED,
                              show_header=False, title_justify="left")
            table.add_column(justify="right", style="bold")
            table.add_column()
            table.add_column(style="cyan")
            for i, (label, value, _edit) in enumerate(items, 1):
                table.add_row(str(i), label, value)
            self.term.print(table)
            answer = self.term.ask(_("Enter starts the match; a number changes an item; "
                                     "r shows the rules; q quits")
                                   + f" [Enter, 1..{len(items)}, r, q]: ").strip().lower()
            if answer == "":
                return self.config
            if answer == "q":
                raise QuitGame
            if answer == "r":
                self.term.print(render_rules(self._rules(), self.config.players))
                continue
            if _number(answer) and 1 <= int(answer) <= len(items):
                items[int(answer) - 1][2]()
                continue
            self.term.print(Text(_("Choose a number from 1 to {n}, r, q or Enter.").format(
                n=len(items)), style="yellow"))

    def _choose(self, title: str, options: list[tuple[str, str]]) -> str | None:
        """Pick one of ``options`` (value, label) by number; ``None`` keeps the current value."""
        self.term.print(Text(title, style="bold"))
        for i, (_value, label) in enumerate(options, 1):
            self.term.print(f"  {i}  {label}")
        answer = self.term.ask(_("Your choice (Enter keeps the current one)")
                               + f" [1..{len(options)}]: ").strip()
        if _number(answer) and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1][0]
        if answer:
            self.term.print(Text(_("Unchanged."), style="yellow"))
        return None

    def _preset(self) -> None:
        value = self._choose(_("Rules preset"), [(p, preset_label(p)) for p in PRESETS])
        if value is None:
            return
        old = self.config.preset
        self.config.preset = value
        try:
            rules = self._rules()
        except MatadorError as e:
            self.config.preset = old
            self.term.print(Text(str(e), style="yellow"))
            return
        lo, hi = rules.players
        self._resize(min(max(self.config.players, lo), hi))

    def _resize(self, n: int) -> None:
        seats = self.config.seats[:n]
        while len(seats) < n:
            seats.append(SeatSpec("normal"))
        self.config.seats = seats

    def _players(self) -> None:
        lo, hi = self._rules().players
        value = self._choose(_("Players"), [(str(n), str(n)) for n in range(lo, hi + 1)])
        if value is not None:
            self._resize(int(value))

    def _seat(self, i: int) -> None:
        options = [(HUMAN, level_label(HUMAN))] + [(k, level_label(k)) for k in LEVEL_NAMES]
        value = self._choose(_("Seat {n}").format(n=i), options)
        if value is not None:
            self.config.seats[i] = SeatSpec(value)

    def _target(self) -> None:
        answer = self.term.ask(_("Match target (0 = a single hand)") + " [0-]: ").strip()
        if _number(answer):
            self._override("match_target", int(answer))
        elif answer:
            self.term.print(Text(_("Unchanged."), style="yellow"))

    def _override(self, name: str, value: Any) -> bool:
        new = dict(self.config.overrides)
        new[name] = value
        try:
            Rules.from_preset(self.config.preset, new)
        except MatadorError as e:
            self.term.print(Text(str(e), style="yellow"))
            return False
        self.config.overrides = new
        return True

    def _house(self) -> None:
        rules = self._rules()
        table = RichTable(box=box.SIMPLE, title=_("House rules: parameter = value"))
        table.add_column(_("parameter"))
        table.add_column(_("value"))
        for name, value in rules.parameters().items():
            table.add_row(name, json.dumps(value))
        self.term.print(table)
        while True:
            answer = self.term.ask(_("NAME=VALUE to change, NAME= to reset, Enter when done")
                                   + ": ").strip()
            if not answer:
                return
            name, sep, raw = answer.partition("=")
            name = name.strip()
            if not sep or name not in PARAMETERS:
                self.term.print(Text(_("Unknown parameter {name!r}: one of {names}.").format(
                    name=name, names=", ".join(PARAMETERS)), style="yellow"))
                continue
            if not raw.strip():
                self.config.overrides.pop(name, None)
                self.term.print(_("{name} is back to the preset's value: {value}").format(
                    name=name, value=json.dumps(self._rules().parameters()[name])))
                continue
            try:
                parsed: Any = json.loads(raw)
            except ValueError:
                parsed = raw.strip()
            if self._override(name, parsed):
                lo, hi = self._rules().players
                self._resize(min(max(self.config.players, lo), hi))
                self.term.print(_("House rule set: {name} = {value}").format(
                    name=name, value=json.dumps(self._rules().parameters()[name])))

    def _language(self) -> None:
        value = self._choose(_("Language"), list(LANGUAGES.items()))
        if value is not None:
            set_language(value)

    def _seed(self) -> None:
        answer = self.term.ask(_("Seed (a whole number; Enter for a random one)") + ": ").strip()
        if not answer:
            self.config.seed = None
        elif _number(answer.removeprefix("-")):
            self.config.seed = int(answer)
        else:
            self.term.print(Text(_("Unchanged."), style="yellow"))

    def _save(self) -> None:
        answer = self.term.ask(_("File for the records (- for none)") + ": ").strip()
        if answer == "-":
            self.config.save = None
        elif answer:
            self.config.save = answer


def confirm(term: Terminal, question: str) -> bool:
    """Ask a yes/no question."""
    return term.ask(question + " [y/n]: ").strip().lower() in confirm_words()


def _number(answer: str) -> bool:
    """Whether ``answer`` is a whole number ``int()`` reads: ASCII digits (``str.isdigit``
    also takes "²"), and not thousands of them (``int()`` refuses those)."""
    return answer.isascii() and answer.isdigit() and len(answer) <= 30


__all__ = ["LEVEL_NAMES", "StartMenu", "confirm", "level_label"]
