"""A recipient's whole picture of a table as JSON, and legal moves a client can render.

A client that holds no rule code (a browser, a text client) renders what
these give: the line, both ends and what each takes, the counts, the scores,
the history, and, for the seat to move, every legal move with its notation,
tile, end and orientation. A seat's snapshot is built from that seat's
:class:`~matador.core.view.PlayerView` alone; a spectator's from the public
part of a view, so neither can hold a tile its recipient may not know.
"""

from __future__ import annotations

from typing import Any

from matador.core.moves import DRAW, MOVE_END, MOVE_EXPOSED, MOVE_TILE, MOVE_TOUCH, PASS, Move
from matador.core.rules import Rules
from matador.core.tiles import HALVES, NAMES
from matador.core.view import PlayerView
from matador.table.events import SPECTATOR, Recipient
from matador.table.referee import Table, TableError


def move_json(rules: Rules, m: int) -> dict[str, Any]:
    """One move as a client needs it to draw and pick it, with no rule code.

    ``type`` is ``play``, ``draw`` or ``pass``. A play has its ``tile``, its
    ``end`` (``L``, ``R``, or ``None`` for the opening), the ``touch`` half
    that meets the end and the ``exposed`` half that becomes the new end
    (for an opening, the ``left`` and ``right`` halves as laid), and whether
    the tile is a ``matador`` (R4).

    >>> from matador.core.rules import Rules
    >>> move_json(Rules.from_preset("classic"), Move.parse("R3-5"))
    {'id': 103, 'move': 'R3-5', 'type': 'play', 'tile': '3-5', 'end': 'R', 'touch': 3, \
'exposed': 5, 'matador': False}
    """
    m = int(m)
    move = Move(m)
    if m == DRAW:
        return {"id": m, "move": str(move), "type": "draw"}
    if m == PASS:
        return {"id": m, "move": str(move), "type": "pass"}
    t = MOVE_TILE[m]
    out: dict[str, Any] = {"id": m, "move": str(move), "type": "play", "tile": NAMES[t]}
    if move.is_opening:
        a, b = HALVES[t]
        out.update({"end": None, "left": a, "right": b})
    else:
        out.update({"end": "LR"[MOVE_END[m]], "touch": MOVE_TOUCH[m],
                    "exposed": MOVE_EXPOSED[m]})
    out["matador"] = rules.is_matador(t)
    return out


def legal_json(view: PlayerView) -> list[dict[str, Any]]:
    """The legal moves of ``view``'s seat (empty unless it is to move), in id order."""
    return [move_json(view.rules, m) for m in view.legal_move_ids()]


def end_takes(rules: Rules, value: int) -> list[int]:
    """The halves that join an end showing ``value`` (R9); a matador joins any end.

    A blank end takes nothing but a matador (R9): the list is empty.

    >>> from matador.core.rules import Rules
    >>> end_takes(Rules.from_preset("classic"), 4), end_takes(Rules.from_preset("classic"), 0)
    ([3], [])
    """
    if value <= 0:
        return []
    need = rules.target - value
    return [need] if 0 <= need <= 6 else []


def public_json(view: PlayerView) -> dict[str, Any]:
    """The public part of a view: what every recipient at the table may know."""
    rules = view.rules
    history = [{"seat": s, "move": str(m)} for s, m in zip(view.movers, view.moves, strict=True)]
    ends = None if view.left < 0 else {
        "left": view.left, "right": view.right,
        "left_takes": end_takes(rules, view.left), "right_takes": end_takes(rules, view.right)}
    return {
        "rules": rules.to_json(),
        "players": view.players,
        "leader": view.leader,
        "leader_by_rule": view.leader_by_rule,
        "line": [list(t) for t in view.line],
        "ends": ends,
        "hand_sizes": list(view.hand_sizes),
        "boneyard": view.boneyard_size,
        "set_aside": view.set_aside_size,
        "points": list(view.points),
        "to_move": None if view.to_move < 0 else view.to_move,
        "ply": view.ply,
        "history": history,
        "matadors": [NAMES[t] for t in range(28) if rules.is_matador(t)],
    }


def seat_json(view: PlayerView) -> dict[str, Any]:
    """A seat's own picture: the public part, its tiles, its own draws, its legal moves."""
    out = public_json(view)
    out["seat"] = view.seat
    out["tiles"] = [NAMES[t] for t in view.hand]
    out["dealt"] = [NAMES[t] for t in view.dealt]
    for i, tile in view.own_draws.items():
        out["history"][i]["tile"] = NAMES[tile]
    out["legal"] = legal_json(view)
    return out


def snapshot(table: Table, recipient: Recipient) -> dict[str, Any]:
    """Everything ``recipient`` may know of ``table`` now, at :attr:`Table.version`.

    The current hand (or the last one, between hands) is described from a
    view: the recipient's own for a seat, and only its public part for
    :data:`SPECTATOR`. A finished last hand adds its ``hand_end`` event (the
    reveal, which everyone may see).
    """
    if recipient != SPECTATOR and (isinstance(recipient, bool) or not isinstance(recipient, int)
                                   or not 0 <= recipient < table.players):
        raise TableError("not_a_seat", f"{recipient!r:.20} is not a seat "
                                       f"(0..{table.players - 1}) nor SPECTATOR")
    out: dict[str, Any] = {
        "version": table.version, "players": table.players, "rules": table.rules.to_json(),
        "phase": table.phase.value, "hand": table.hand_number, "scores": list(table.scores),
        "you": None if recipient == SPECTATOR else recipient,
        "single_hand": table.single_hand,
        "match_target": 0 if table.single_hand else table.rules.match_target,
    }
    try:
        view = table.view(0 if recipient == SPECTATOR else recipient)
    except TableError:
        view = None
    if view is not None:
        out["position"] = public_json(view) if recipient == SPECTATOR else seat_json(view)
        out["scores_before"] = list(table.scores_before)
    last_end = next((e for e in reversed(table.events) if e.kind == "hand_end"), None)
    if last_end is not None and table.phase.value != "playing":
        out["last_hand"] = last_end.for_recipient(recipient)
    if table.is_over:
        out["winner"] = table.winner
        out["end_reason"] = table.end_reason
        if table.forfeit_info is not None:
            f = table.forfeit_info
            out["forfeit"] = {"seat": f.seat, "reason": f.kind, "message": f.message}
    return out


def brief_json(table: Table, recipient: Recipient) -> dict[str, Any]:
    """:meth:`Table.brief` as a rule-free client needs it: the phase, the scores, what
    each end takes, and the legal moves as :func:`move_json` objects.

    >>> import random
    >>> from matador.core.rules import Rules
    >>> t = Table(Rules.from_preset("classic"), 2, single_hand=True)
    >>> _ = t.deal(random.Random(7))
    >>> b = brief_json(t, 1)
    >>> b["phase"], b["legal"][0]["type"], b["ends"]
    ('playing', 'play', None)
    """
    out = table.brief(recipient)
    rules = table.rules
    ends = out.get("ends")
    if ends is not None:
        left, right = ends
        out["ends"] = {"left": left, "right": right, "left_takes": end_takes(rules, left),
                       "right_takes": end_takes(rules, right)}
    if "legal" in out:
        out["legal"] = [move_json(rules, m) for m in out["legal"]]
    out.update({"version": table.version, "phase": table.phase.value,
                "scores": list(table.scores), "you": None if recipient == SPECTATOR
                else recipient})
    if table.is_over:
        out["winner"] = table.winner
        out["end_reason"] = table.end_reason
    return out


__all__ = ["brief_json", "end_takes", "legal_json", "move_json", "public_json", "seat_json",
           "snapshot"]
