"""Pure rendering: what one seat may see of a hand, as rich renderables and strings.

Nothing here reads the keyboard or prints. A :class:`Board` holds exactly what
the screen may show: :func:`board_from_view` fills it from one seat's
:class:`~matador.core.view.PlayerView` (that seat's tiles only, other hands as
counts), :func:`board_from_state` from a full state, for finished hands and
for ``matador show``. The render functions only ever see a :class:`Board`, so
what a view does not hold cannot reach the screen.

>>> face(3, 4), face(0, 0)
('[3|4]', '[0|0]')
>>> slash([0, 10]), slash([10, -6], signed=True)
('0 / 10', '+10 / -6')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.tiles import HALVES, PIPS, Tile
from matador.core.view import PlayerView
from matador.ui.i18n import _, ngettext

END_STYLE = "bold black on yellow"
"""The style of the two open ends."""
MATADOR_STYLE = "bold red"
"""The style of a matador in a hand."""
TURN_STYLE = "bold green"


def face(a: int, b: int) -> str:
    """A tile drawn as a domino face, halves in the order given: ``[3|4]``."""
    return f"[{a}|{b}]"


def tile_face(tile: int) -> str:
    """A tile on its own, low half first: ``[1|6]``."""
    a, b = HALVES[tile]
    return face(a, b)


def slash(values: Sequence[int], *, signed: bool = False) -> str:
    """Numbers per seat joined by `` / `` (``signed``: with ``+`` on positives)."""
    return " / ".join(f"{v:+d}" if signed and v else str(v) for v in values)


@dataclass(frozen=True)
class SeatRow:
    """One seat as the screen may show it."""

    name: str
    """The seat's display name."""
    count: int
    """How many tiles it holds."""
    tiles: tuple[Tile, ...] | None
    """Its tiles when the viewer may see them, else ``None``."""
    score: int | None
    """Its match total before this hand, if known."""
    points: int
    """Points scored so far in this hand (R22)."""


@dataclass(frozen=True)
class Board:
    """What the screen shows of one position: public facts plus the tiles the viewer may see."""

    rules: Rules
    line: tuple[tuple[int, int], ...]
    """The line left to right, each tile as (left half, right half)."""
    left: int
    """The left end, -1 before the opening."""
    right: int
    """The right end, -1 before the opening."""
    seats: tuple[SeatRow, ...]
    boneyard: int
    """Tiles left in the boneyard."""
    to_move: int
    """The seat to move, -1 once the hand is over."""
    viewer: int | None
    """The seat whose hand is shown as "your hand", if any."""
    hand_number: int = 1
    ply: int = 0
    boneyard_tiles: tuple[Tile, ...] | None = None
    """The boneyard in draw order, only for finished records shown in full."""


def board_from_view(view: PlayerView, names: Sequence[str], *, hand_number: int = 1,
                    show_own: bool = True) -> Board:
    """The board as ``view.seat`` sees it; ``show_own=False`` hides even its own hand."""
    scores = view.scores
    seats = tuple(
        SeatRow(names[s], view.hand_sizes[s],
                tuple(view.hand) if s == view.seat and show_own else None,
                None if scores is None else scores[s], view.points[s])
        for s in range(view.players)
    )
    return Board(view.rules, view.line, view.left, view.right, seats, view.boneyard_size,
                 view.to_move, view.seat if show_own else None, hand_number, view.ply)


def board_from_state(state: HandState, names: Sequence[str], *, scores: Sequence[int] | None,
                     hand_number: int = 1, reveal: Sequence[int] | None = None,
                     boneyard: bool = False) -> Board:
    """The board of a full state, showing the hands of ``reveal`` (default: every seat).

    Only for finished hands and records, where nothing is secret any more.
    """
    shown = set(range(state.players) if reveal is None else reveal)
    seats = tuple(
        SeatRow(names[s], len(state.hand(s)),
                tuple(state.hand(s)) if s in shown else None,
                None if scores is None else scores[s], state.points[s])
        for s in range(state.players)
    )
    return Board(state.rules, state.line, state.left, state.right, seats,
                 state.boneyard_size, state.to_move, None, hand_number, state.ply,
                 tuple(state.boneyard) if boneyard else None)


# -- pieces --------------------------------------------------------------------


def tiles_text(tiles: Sequence[int], rules: Rules) -> Text:
    """A row of tiles as faces, matadors in :data:`MATADOR_STYLE`."""
    text = Text()
    for i, t in enumerate(tiles):
        if i:
            text.append(" ")
        text.append(tile_face(t), style=MATADOR_STYLE if rules.is_matador(t) else "")
    return text


def line_text(board: Board, width: int | None = None) -> Text:
    """The line with both open ends highlighted: ``L 3 [3|4][4|3][3|6] 6 R``.

    With a ``width``, the line is broken into rows of whole tiles that fit it,
    the left end staying with the first tile and the right end with the last
    (never alone on a row of its own).
    """
    if not board.line:
        return Text(_("(empty: the leader opens)"), style="dim")
    last = len(board.line) - 1
    words: list[Text] = []
    for i, (a, b) in enumerate(board.line):
        word = Text()
        if i == 0:
            word.append(f" {board.left} ", style=END_STYLE)
            word.append(" ")
        word.append("[")
        word.append(str(a), style=END_STYLE if i == 0 else "")
        word.append("|")
        word.append(str(b), style=END_STYLE if i == last else "")
        word.append("]")
        if i == last:
            word.append(" ")
            word.append(f" {board.right} ", style=END_STYLE)
        words.append(word)
    text = Text()
    used = 0
    for i, word in enumerate(words):
        if i and width is not None and used + 1 + word.cell_len > width:
            text.append("\n")
            used = 0
        elif i:
            text.append(" ")
            used += 1
        text.append_text(word)
        used += word.cell_len
    return text


class LineOfPlay:
    """The line as a renderable that breaks between whole tiles at the width it is given."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield line_text(self.board, options.max_width)


def end_needs(rules: Rules, value: int) -> str:
    """What an end showing ``value`` takes (R8-R10)."""
    need = rules.target - value
    if value == 0:
        return _("blank: only a matador")
    if not 0 <= need <= 6:
        return _("only a matador")
    return _("takes a {need} or a matador").format(need=need)


def ends_text(board: Board) -> Text:
    """A line saying what each end takes."""
    if board.left < 0:
        return Text("")
    return Text(_("Left end {left}: {left_needs}   Right end {right}: {right_needs}").format(
        left=board.left, left_needs=end_needs(board.rules, board.left),
        right=board.right, right_needs=end_needs(board.rules, board.right)))


def pips(tiles: Sequence[int]) -> int:
    """The pips of some tiles (R2)."""
    return sum(PIPS[t] for t in tiles)


def hand_text(tiles: Sequence[int], rules: Rules) -> Text:
    """``Your hand: [0|0] [1|3]  (4 pips)``."""
    text = Text(_("Your hand:") + " ", style="bold")
    text.append_text(tiles_text(tiles, rules))
    text.append("  " + ngettext("({n} pip)", "({n} pips)", pips(tiles)).format(n=pips(tiles)),
                style="dim")
    return text


def scores_table(board: Board) -> RichTable:
    """Seats, their tile counts, this hand's points and the match totals."""
    out = RichTable(box=box.SIMPLE, pad_edge=False, show_edge=False)
    out.add_column(_("seat"), justify="right")
    out.add_column(_("player"))
    out.add_column(_("tiles"), justify="right")
    scoring = _plays_score(board.rules)
    if scoring:
        out.add_column(_("this hand"), justify="right")
    out.add_column(_("score"), justify="right")
    out.add_column("")
    for s, row in enumerate(board.seats):
        cells = [str(s), row.name, str(row.count)]
        if scoring:
            cells.append(f"{row.points:+d}" if row.points else "0")
        cells.append("" if row.score is None else str(row.score))
        cells.append(_("◀ to move") if s == board.to_move else "")
        out.add_row(*cells, style=TURN_STYLE if s == board.to_move else "")
    return out


def _plays_score(rules: Rules) -> bool:
    return bool(rules.per_join or rules.per_matador or rules.exposed_target_bonus
                or rules.pass_penalty)


def render_board(board: Board) -> RenderableType:
    """The whole table: the line and its ends, the seats, the boneyard, the viewer's hand."""
    parts: list[RenderableType] = [LineOfPlay(board)]
    if board.left >= 0:
        parts.append(ends_text(board))
    info = ngettext("Boneyard: {n} tile", "Boneyard: {n} tiles", board.boneyard).format(
        n=board.boneyard)
    if board.rules.set_aside:
        info += "   " + ngettext("({n} set aside unseen)", "({n} set aside unseen)",
                                 board.rules.set_aside).format(n=board.rules.set_aside)
    parts.append(Text(info))
    if board.boneyard_tiles is not None and board.boneyard_tiles:
        bone = Text(_("Boneyard, in draw order:") + " ", style="dim")
        bone.append_text(tiles_text(board.boneyard_tiles, board.rules))
        parts.append(bone)
    parts.append(scores_table(board))
    for s, row in enumerate(board.seats):
        if row.tiles is None:
            continue
        if s == board.viewer:
            parts.append(hand_text(row.tiles, board.rules))
        else:
            line = Text(f"{row.name}: ", style="bold")
            line.append_text(tiles_text(row.tiles, board.rules) if row.tiles else Text("—"))
            line.append("  " + ngettext("({n} pip)", "({n} pips)", pips(row.tiles)).format(
                n=pips(row.tiles)), style="dim")
            parts.append(line)
    title = _("Hand {n} · {preset} · halves add up to {target}").format(
        n=board.hand_number, preset=preset_label(board.rules.preset), target=board.rules.target)
    return Panel(Group(*parts), title=title, title_align="left", box=box.ROUNDED)


def preset_label(preset: str) -> str:
    """The display name of a preset."""
    labels = {
        "classic": _("classic (Spanish)"),
        "paluba": _("paluba (Czech)"),
        "russian": _("russian"),
        "six": _("six-matador (Russian)"),
    }
    return labels.get(preset, preset)


def plain(renderable: RenderableType, width: int = 100) -> str:
    """A renderable as plain text (no colours), for tests and logs."""
    import io

    from rich.console import Console

    console = Console(width=width, color_system=None, force_terminal=False, file=io.StringIO())
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


__all__ = ["END_STYLE", "MATADOR_STYLE", "Board", "SeatRow", "end_needs", "face", "hand_text",
           "line_text", "plain", "pips", "preset_label", "render_board",
           "scores_table", "slash", "board_from_state", "board_from_view", "tile_face",
           "tiles_text"]
