"""Stepping through saved records (``matador show``): the table move by move.

By default a finished record is shown with everything revealed (every hand,
the boneyard in draw order); with a seat, each position is shown as that
seat saw it at the time, through its :class:`~matador.core.view.PlayerView`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from matador.core.errors import printable
from matador.core.moves import DRAW
from matador.core.record import Record
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.ui.describe import announce
from matador.ui.game import Terminal, hand_end_table, hand_result_text
from matador.ui.i18n import _
from matador.ui.render import board_from_state, board_from_view, render_board, slash

_LARGEST = 10**12
"""Numbers read from ``meta`` (free-form) are used only up to this size."""


def seat_names(record: Record) -> list[str]:
    """``Seat 0 (human)``, ``Seat 1 (normal)``... from the record's meta, else ``Seat N``.

    ``meta`` is free-form: a name is shown only if it is a string, escaped,
    cut to 30 characters, its square brackets made round (no terminal markup).
    """
    kinds = record.meta_field("seats")
    names = []
    for s in range(record.players):
        name = _("Seat {n}").format(n=s)
        if isinstance(kinds, list) and s < len(kinds) and isinstance(kinds[s], str):
            kind = printable(kinds[s][:30]).translate(_NO_MARKUP)
            name += f" ({kind})"
        names.append(name)
    return names


_NO_MARKUP = str.maketrans("[]", "()")


def _small(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < _LARGEST


def _scores_before(record: Record) -> list[int] | None:
    before = record.meta_field("scores_before")
    if isinstance(before, list) and len(before) == record.players and all(
            _small(v) for v in before):
        return before
    return None


def _number(record: Record, default: int) -> int:
    hand = record.meta_field("hand")
    return hand if _small(hand) and hand > 0 else default


def frames(record: Record, seat: int | None, number: int = 1) -> list[RenderableType]:
    """One screen per position: before the first move, after each move, then the result."""
    names = seat_names(record)
    scores = _scores_before(record)
    by_rule = record.led_by_rule
    state = HandState(record.rules, record.deal)
    out: list[RenderableType] = []
    caption = Text(_("Hand {n}, start: {name} leads.").format(
        n=number, name=names[record.deal.leader]), style="bold")
    total = len(record.moves)
    for ply in range(total + 1):
        if seat is None or state.is_over:
            table = board_from_state(state, names, scores=scores, hand_number=number,
                                     boneyard=seat is None)
        else:
            view = PlayerView.of(state, seat, leader_by_rule=by_rule, scores=scores)
            table = board_from_view(view, names, hand_number=number)
        out.append(Group(caption, render_board(table)))
        if ply == total:
            break
        m = record.moves[ply]
        mover = state.to_move
        drawn = state.boneyard[0] if m == DRAW and seat in (None, mover) else None
        said = announce(record.rules, state.left, state.right, m, names[mover], drawn)
        caption = Text(_("Move {k} of {n}: {move}").format(k=ply + 1, n=total, move=said),
                       style="bold")
        state.push(m)
    out.append(result_screen(record, names, number))
    return out


def result_screen(record: Record, names: Sequence[str], number: int) -> RenderableType:
    """The end of a hand: who won and why, points by kind, totals."""
    state = record.state()
    outcome = state.outcome
    if outcome is None:
        return Text(_("The record stops before the end of the hand: seat {seat} is to move.")
                    .format(seat=state.to_move), style="bold")
    before = _scores_before(record) or [0] * record.players
    after = [b + p for b, p in zip(before, outcome.points, strict=True)]
    return Group(
        Text(hand_result_text(outcome.winner, outcome.reason.value, names, number),
             style="bold"),
        hand_end_table(record, names, before, after),
        Text(_("Hand {n}: pips {pips} · points {points} · scores {scores}").format(
            n=number, pips=slash(outcome.pips), points=slash(outcome.points, signed=True),
            scores=slash(after))),
    )


def show_all(term: Terminal, records: Sequence[tuple[int, Record]], seat: int | None) -> None:
    """Print every position of every record at once (for scripts and tests)."""
    for index, record in records:
        for frame in frames(record, seat, _number(record, index)):
            term.print(frame)


def show_interactive(term: Terminal, records: Sequence[tuple[int, Record]],
                     seat: int | None) -> None:
    """Step through the records: Enter = next, b = back, q = quit."""
    screens: list[RenderableType] = []
    for index, record in records:
        screens.extend(frames(record, seat, _number(record, index)))
    k = 0
    while True:
        term.clear()
        term.print(screens[k])
        last = k == len(screens) - 1
        answer = term.ask(
            (_("End of the record.") + " " if last else "")
            + _("Enter next, b back, q quit") + f" [{k + 1}/{len(screens)}]: ").strip().lower()
        if answer == "q" or (last and answer == ""):
            return
        if answer == "b":
            k = max(0, k - 1)
        elif answer.isascii() and answer.isdigit() and 1 <= int(answer[:9]) <= len(screens):
            k = int(answer) - 1
        else:
            k = min(len(screens) - 1, k + 1)


__all__ = ["frames", "result_screen", "seat_names", "show_all",
           "show_interactive"]
