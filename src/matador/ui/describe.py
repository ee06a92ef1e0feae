"""Words for moves: menu entries, announcements, why a draw or pass is forced, input errors.

Everything is computed from public facts (the ends, the rules) and, for the
mover's own menu, from that seat's :class:`~matador.core.view.PlayerView`.

>>> from matador.core.rules import Rules
>>> from matador.core.moves import Move
>>> rules = Rules.from_preset("classic")
>>> describe_play(rules, 3, 5, Move.parse("L4-2"))
'[2|4] on the left end: 4 joins 3, new end 2'
>>> describe_play(rules, 3, 5, Move.parse("R0-0"))
'[0|0] on the right end as a matador, new end 0'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from matador.core.moves import DRAW, MOVE_END, MOVE_EXPOSED, MOVE_TILE, MOVE_TOUCH, PASS, Move
from matador.core.rules import Rules
from matador.core.tables import tables_for
from matador.core.tiles import HALVES, NAMES, Tile
from matador.core.view import PlayerView
from matador.ui.i18n import _, ngettext
from matador.ui.render import face, tile_face

DIGITS = "0123456789"
"""The digits of typed numbers: ASCII only."""


def play_points(rules: Rules, left: int, m: int, right: int) -> int:
    """The points a move scores at once (R22): a play's, or a pass's penalty."""
    if m >= DRAW:
        return -rules.pass_penalty if m == PASS else 0
    return tables_for(rules).play_points(m, left, right)


def describe_play(rules: Rules, left: int, right: int, m: int) -> str:
    """A play (opening or on an end) in words, the tile drawn as it will lie on the line."""
    t = MOVE_TILE[m]
    if m < 28:
        a, b = HALVES[t]
        return _("{face} as the opening: {left} on the left, {right} on the right").format(
            face=tile_face(t), left=a, right=b)
    e = MOVE_END[m]
    touch, exposed = MOVE_TOUCH[m], MOVE_EXPOSED[m]
    v = right if e else left
    shown = face(touch, exposed) if e else face(exposed, touch)
    joins = touch + v == rules.target
    if e:
        if joins:
            text = _("{face} on the right end: {touch} joins {end}, new end {exposed}")
        else:
            text = _("{face} on the right end as a matador, new end {exposed}")
    elif joins:
        text = _("{face} on the left end: {touch} joins {end}, new end {exposed}")
    else:
        text = _("{face} on the left end as a matador, new end {exposed}")
    return text.format(face=shown, touch=touch, end=v, exposed=exposed)


def with_points(text: str, points: int) -> str:
    """``text`` followed by the points it scores, if any."""
    if not points:
        return text
    return text + " " + ngettext("({points:+d} point)", "({points:+d} points)",
                                 abs(points)).format(points=points)


def no_play_reason(view: PlayerView) -> str:
    """Why the seat of ``view`` has no legal play (R9-R10), in words."""
    left, right = view.left, view.right
    rules = view.rules
    if left == 0 and right == 0:
        return _("both ends are blank and you hold no matador")
    needs = sorted({rules.target - v for v in (left, right) if v and 0 <= rules.target - v <= 6})
    if not needs:
        return _("no tile joins {left} or {right} and you hold no matador").format(
            left=left, right=right)
    return _("no tile of yours joins {left} or {right} (you would need {needs}) and you hold "
             "no matador").format(left=left, right=right,
                                  needs=_(" or ").join(str(n) for n in needs))


def forced_text(view: PlayerView, m: int) -> str:
    """Why a draw or pass is the only legal move: ``no tile joins 3 or 5 — you draw (R16)``."""
    reason = no_play_reason(view)
    if m == DRAW:
        return _("{reason} — you draw (R16)").format(reason=reason)
    if view.boneyard_size == 0:
        return _("{reason}, and the boneyard is empty — you pass (R17)").format(reason=reason)
    return _("{reason}, and you have drawn once this turn (draw = one) — you pass (R16, R17)"
             ).format(reason=reason)


@dataclass(frozen=True)
class MenuEntry:
    """One numbered line of a move menu."""

    move: Move
    notation: str
    text: str


def menu_entries(view: PlayerView) -> list[MenuEntry]:
    """The legal moves of ``view.seat`` as menu entries, in notation order."""
    out: list[MenuEntry] = []
    last = len(view.hand) == 1
    for m in view.legal_moves:
        if m == DRAW:
            if view.legal_mask() & ((1 << DRAW) - 1):
                text = _("draw instead: every play you have lays a matador (R15)")
            else:
                text = forced_text(view, m)
        elif m == PASS:
            if view.legal_mask() & ((1 << DRAW) - 1):
                text = _("pass and keep your matadors (R15, after a draw under draw = one)")
            else:
                text = forced_text(view, m)
        else:
            text = with_points(describe_play(view.rules, view.left, view.right, m),
                               play_points(view.rules, view.left, m, view.right))
            if last:
                text += " — " + _("your last tile")
        out.append(MenuEntry(m, str(m), text))
    return out


def announce(rules: Rules, left: int, right: int, m: int, name: str,
             drawn: Tile | None = None, *, you: bool = False) -> str:
    """A move as the table hears it; ``drawn`` names a drawn tile, only for its owner.

    ``you`` words it for the lone human at the keyboard ("You draw [2|5]").
    """
    points = play_points(rules, left, m, right)
    if m == DRAW:
        if drawn is not None:
            text = (_("You draw {face}") if you else _("{name} draws {face}")).format(
                name=name, face=tile_face(drawn))
            return text
        return ngettext("{name} draws a tile", "{name} draws {n} tiles", 1).format(name=name,
                                                                                   n=1)
    if m == PASS:
        return with_points((_("You pass") if you else _("{name} passes")).format(name=name),
                           points)
    play = describe_play(rules, left, right, m)
    return with_points((_("You play {play}") if you else _("{name} plays {play}")).format(
        name=name, play=play), points)


# -- typed input -----------------------------------------------------------------


def illegal_text(view: PlayerView, m: int) -> str:
    """Why move ``m`` is not legal for ``view.seat`` now, naming the rule, in the UI's language.

    The reason comes from the core (:meth:`PlayerView.explain_illegal`); this
    only words it.
    """
    reason = view.explain_illegal(m)
    a = reason.args
    code = reason.code
    if code == "open_first":
        return (_("The leader must open with a tile, not draw (R15).") if m == DRAW
                else _("The leader must open with a tile, not pass (R15)."))
    if code == "boneyard_empty":
        return _("The boneyard is empty: there is nothing to draw (R16).")
    if code == "drawn_once":
        return _("You have drawn once this turn; under draw = one that is all (R16).")
    if code == "must_play_non_matador":
        return _("You have a legal play that is not a matador, so you must play (R15).")
    if code == "must_play":
        return _("You have a legal play, so you must play (R15).")
    if code == "must_draw":
        return _("You may still draw, so you may not pass (R17).")
    if code == "not_held":
        return _("You do not hold {tile}.").format(tile=a["tile"])
    if code == "name_an_end":
        return _("The line is open: say which end, e.g. L{a}-{b} or R{a}-{b}.").format(
            a=a["a"], b=a["b"])
    if code == "open_with_tile":
        return _("The line is empty: open it with a tile, e.g. {tile}.").format(tile=a["tile"])
    if code == "blank_end":
        return (_("The right end is blank: only a matador may be played there (R9).")
                if a["end"] == "R"
                else _("The left end is blank: only a matador may be played there (R9)."))
    if code == "no_join":
        return _("{touch} does not join {end}: {touch} + {end} is not {target}, and {tile} is "
                 "not a matador (R9).").format(touch=a["touch"], end=a["value"],
                                               target=a["target"], tile=a["tile"])
    if code == "matador_not_anytime":
        return _("{tile} does not join there, and you have a joining play: under these rules a "
                 "matador that does not join may be laid only when nothing joins (R10)."
                 ).format(tile=a["tile"])
    return _("Not legal here.")


def parse_input(view: PlayerView, text: str, entries: Sequence[MenuEntry]) -> Move | str:
    """A move chosen by number, notation (``L5-4``, ``draw``) or tile (``4-5``), or why not.

    Returns the :class:`Move` when the input names exactly one legal move,
    otherwise the explanation to show.
    """
    raw = text.strip()
    low = raw.lower()
    if low.isascii() and low.isdigit():  # ASCII: "²".isdigit() is true, and int() refuses it
        if len(low) > 6:  # int() refuses thousands of digits; no list is that long anyway
            return _("There is no move {k}: choose 1 to {n}.").format(k=low[:6] + "...",
                                                                       n=len(entries))
        k = int(low)
        if 1 <= k <= len(entries):
            return entries[k - 1].move
        return _("There is no move {k}: choose 1 to {n}.").format(k=k, n=len(entries))
    aliases = {"d": "draw", "draw": "draw", "p": "pass", "pass": "pass",
               _("draw").lower(): "draw", _("pass").lower(): "pass"}
    if low in aliases:
        low = aliases[low]
    elif low[:1] in ("l", "r"):
        low = low[0].upper() + low[1:]
    try:
        m = Move.parse(low)
    except ValueError:
        m = None
    tile_like = len(low) == 3 and low[1] in "-|" and low[0] in DIGITS and low[2] in DIGITS
    if tile_like and (m is None or (m < 28 and all(e.move != m for e in entries))):
        a, b = int(low[0]), int(low[2])
        if a <= 6 and b <= 6:
            tile = Tile.of(a, b)
            ways = [i for i, e in enumerate(entries) if e.move.tile == tile]
            if len(ways) == 1:
                return entries[ways[0]].move
            if ways:
                return _("{tile} can be laid in several ways: choose {choices}.").format(
                    tile=NAMES[tile], choices=", ".join(
                        f"{i + 1} ({entries[i].notation})" for i in ways))
            if not view.hand_mask >> tile & 1:
                return _("You do not hold {tile}.").format(tile=NAMES[tile])
            return _("{tile} cannot be laid now: {reason}").format(
                tile=NAMES[tile], reason=_tile_reason(view, tile))
    if m is None:
        return _("{text!r} is not a move: type a number from 1 to {n}, a move such as L5-4, "
                 "or ? for help.").format(text=raw, n=len(entries))
    for e in entries:
        if e.move == m:
            return m
    return illegal_text(view, m)


def _tile_reason(view: PlayerView, tile: int) -> str:
    a, b = HALVES[tile]
    if view.rules.is_matador(tile):
        return illegal_text(view, Move.play("L", a, b))
    return _("neither half joins {left} or {right} (R9).").format(left=view.left,
                                                                  right=view.right)


# -- points of a finished hand -------------------------------------------------------


__all__ = ["MenuEntry", "announce", "describe_play", "illegal_text",
           "forced_text", "menu_entries", "no_play_reason", "parse_input", "play_points",
           "with_points"]
