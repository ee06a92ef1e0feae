"""The rules screen: the rules in force, parameter by parameter, in the interface language.

>>> from matador.core.rules import Rules
>>> lines = rule_lines(Rules.from_preset("classic"), 2)
>>> lines[0]
'Touching halves must add up to 7 (R8).'
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from matador.core.rules import Draw, FirstLeader, GoingOut, HandPoints, Rules
from matador.core.tiles import NAMES, NUM_TILES
from matador.ui.i18n import _, ngettext
from matador.ui.render import preset_label


def rule_lines(rules: Rules, players: int) -> list[str]:
    """One sentence per rule of ``rules`` for ``players`` players, citing RULES.md."""
    t = rules.target
    matadors = " ".join(NAMES[i] for i in range(NUM_TILES) if rules.is_matador(i))
    size = rules.hand_size_for(players)
    bone = NUM_TILES - rules.set_aside - players * size
    out = [
        _("Touching halves must add up to {target} (R8).").format(target=t),
        _("Matadors: {tiles}. A matador may be laid on either end, either half touching, "
          "whatever the end shows (R4, R10).").format(tiles=matadors),
        _("A blank end takes only a matador (R9)."),
    ]
    out.append(_("A matador may be laid at any time, even when another tile joins (R10).")
               if rules.matador_anytime else
               _("A matador that does not join may be laid only when no tile of yours joins "
                 "(R10)."))
    deal = ngettext("Each player gets {size} tile; {bone} form the boneyard (R12).",
                    "Each player gets {size} tiles; {bone} form the boneyard (R12).",
                    size).format(size=size, bone=bone)
    if rules.set_aside:
        deal += " " + ngettext("{n} tile is set aside unseen.", "{n} tiles are set aside unseen.",
                               rules.set_aside).format(n=rules.set_aside)
    out.append(deal)
    out.append(_("The holder of the highest double leads the first hand; later hands are led "
                 "by the previous winner (R14).")
               if rules.first_leader is FirstLeader.HIGHEST_DOUBLE else
               _("The first leader is chosen by lot; later hands are led by the previous "
                 "winner (R14)."))
    out.append(_("After a hand with no winner, the seat after the previous leader leads "
                 "(R14)."))
    out.append(_("If you can play, you must (R15)."))
    if rules.matador_optional:
        out.append(_("Exception: when every play you have lays a matador, you may draw instead "
                     "(R15)."))
    out.append(_("With no play, draw until you can play; with an empty boneyard, pass (R16, "
                 "R17).") if rules.draw is Draw.UNTIL_PLAYABLE else
               _("With no play, draw one tile; if it does not fit either, pass (R16, R17)."))
    out.append({
        GoingOut.ENDS_HAND: _("Laying your last tile wins the hand at once (R18)."),
        GoingOut.AFTER_BONEYARD: _("The hand ends once the boneyard is empty and a player has "
                                   "no tiles left; that player wins (R18)."),
        GoingOut.NEVER: _("Laying all your tiles ends nothing: you draw while the boneyard "
                          "lasts (R18)."),
    }[rules.going_out])
    out.append(_("When nobody can play and the boneyard is empty, the hand is blocked: the "
                 "fewest pips win, a tie means no winner (R19, R20)."))
    out.append(_("The winner scores the pips left in the other hands (R21).")
               if rules.hand_points is HandPoints.PIPS_TO_WINNER else
               _("Winning a hand scores nothing by itself (R21)."))
    if rules.per_join:
        out.append(_("Each joining play scores {n} (R22).").format(n=rules.per_join))
    if rules.per_matador:
        out.append(_("Each matador laid scores {n} (R22).").format(n=rules.per_matador))
    if rules.exposed_target_bonus:
        out.append(_("A play that leaves {target} on its end scores {n} more (R22).").format(
            target=t, n=rules.exposed_target_bonus))
    if rules.pass_penalty:
        out.append(_("Each pass costs {n} (R22).").format(n=rules.pass_penalty))
    out.append(_("The match ends when a total reaches {n}; the highest total wins (R23).")
               .format(n=rules.match_target) if rules.match_target else
               _("A single hand: its winner wins the match (R23)."))
    if rules.match_target:
        out.append(_("A tie for the highest total plays another hand (R23)."))
    return out


def render_rules(rules: Rules, players: int) -> RenderableType:
    """The rules screen as a panel."""
    title = _("Rules: {preset}").format(preset=preset_label(rules.preset))
    overrides = rules.overrides()
    parts: list[RenderableType] = [Text("• " + line) for line in rule_lines(rules, players)]
    if overrides:
        parts.append(Text(_("House rules: {rules}").format(rules=", ".join(
            f"{k}={v}" for k, v in overrides.items())), style="italic"))
    parts.append(Text(_("Moves: L or R, the touching half, -, the exposed half (L5-4); "
                        "an opening is a tile (2-4); draw; pass."), style="dim"))
    return Panel(Group(*parts), title=title, title_align="left", box=box.ROUNDED)


__all__ = ["render_rules", "rule_lines"]
