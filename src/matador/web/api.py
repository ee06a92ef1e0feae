"""What the browser asks the server besides the table protocol, and how it is answered.

The client holds no rule code, so the server words everything that needs
the rules: why a tile of the person's hand cannot be laid now
(:func:`tile_reason`), the AI's estimate of each legal move (:func:`hint`,
in games against bots), the costliest moves of a finished match
(:func:`review_seat`), the score sheet (:func:`score_sheet`), and every
position of a finished hand for the replay viewer (:func:`replay_hand`).
Every function reads only what its caller may know: a seat's own
:class:`~matador.core.view.PlayerView`, or finished hands, which the
end-of-hand reveal has made public.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.table.referee import Table
>>> t = Table(Rules.from_preset("classic"), 2, single_hand=True)
>>> _ = t.deal(random.Random(3))
>>> while not t.is_over:
...     _ = t.submit(t.to_move, t.legal_moves(t.to_move)[0])
>>> hand = replay_hand(t.records[0])
>>> len(hand["frames"]) == len(t.records[0].moves) + 1, hand["frames"][-1]["points"]
(True, [58, 0])
>>> score_sheet(t.records)[0]["scores"]
[58, 0]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from matador.core.moves import MOVES, Move
from matador.core.record import Record
from matador.core.score import breakdown
from matador.core.state import HandState
from matador.core.tiles import HALVES, NAMES, Tile
from matador.core.view import PlayerView
from matador.players.analysis import analyse, review
from matador.players.base import Budget
from matador.table.snapshot import move_json, public_json
from matador.ui.describe import illegal_text
from matador.ui.i18n import _, set_language

HINT_BUDGET = "300ms"
"""The think time of a hint (the terminal's default)."""
REVIEW_BUDGET = "60ms"
"""The think time per decision of the post-match review."""
REVIEW_TOP = 5
"""How many of the costliest moves the review lists."""


def parse_tile(text: str) -> Tile:
    """A tile named ``a-b`` (``ValueError`` naming the text otherwise)."""
    a, sep, b = text.strip().partition("-")
    if not sep or not a.isdigit() or not b.isdigit() or int(a) > 6 or int(b) > 6:
        raise ValueError(f"{text[:20]!r} is not a tile such as 3-4")
    return Tile.of(int(a), int(b))


def tile_reason(view: PlayerView, tile: Tile, lang: str) -> dict[str, Any]:
    """Why ``tile`` cannot be laid by ``view.seat`` now, in ``lang``: ``{"tile", "legal",
    "rule", "text"}``; ``legal`` is true (and ``text`` empty) when some move lays it."""
    set_language(lang)
    name = NAMES[tile]
    legal = [m for m in view.legal_move_ids() if m < len(MOVES) and MOVES[m].tile == tile]
    if legal:
        return {"tile": name, "legal": True, "rule": "", "text": ""}
    if view.to_move != view.seat:
        return {"tile": name, "legal": False, "rule": "",
                "text": _("It is not your turn.")}
    if not view.hand_mask >> tile & 1:
        return {"tile": name, "legal": False, "rule": "",
                "text": _("You do not hold {tile}.").format(tile=name)}
    a, b = HALVES[tile]
    tries = [Move.parse(f"{a}-{b}")] if view.left < 0 else [
        Move.parse(f"{end}{x}-{y}") for end in "LR" for x, y in ((a, b), (b, a))]
    reasons = [view.explain_illegal(int(m)) for m in tries]
    for m, r in zip(tries, reasons, strict=True):
        if r.code != "no_join":
            return {"tile": name, "legal": False, "rule": r.rule,
                    "text": illegal_text(view, int(m))}
    return {"tile": name, "legal": False, "rule": "R9",
            "text": _("{tile} cannot be laid now: {reason}").format(
                tile=name, reason=_("neither half joins {left} or {right} (R9).").format(
                    left=view.left, right=view.right))}


def hint(view: PlayerView, seed: int, budget: str = HINT_BUDGET) -> dict[str, Any]:
    """The AI's estimate of each legal move of ``view`` (run in a worker process): win
    chance, expected points and samples, best first, each with its :func:`move_json`."""
    analysis = analyse(view, Budget.parse(budget), random.Random(seed))
    return {"ply": view.ply, "moves": [
        {**move_json(view.rules, int(a.move)), "win": round(a.win, 4),
         "points": round(a.points, 2), "samples": a.samples} for a in analysis.moves]}


def review_seat(records: Sequence[Record], seat: int, seed: int,
                budget: str = REVIEW_BUDGET, top: int = REVIEW_TOP) -> dict[str, Any]:
    """The costliest decisions of ``seat`` over finished hands (run in a worker process):
    each with the hand, the ply, the move played, the best move, the win chance lost
    and the label (``inaccuracy``, ``mistake``, ``blunder``...)."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    decisions = 0
    for number, record in enumerate(records, 1):
        for r in review(record, Budget.parse(budget), rng, [seat]):
            decisions += 1
            if r.cost <= 0:
                continue
            found.append({"hand": number, "ply": r.ply, "seat": r.seat,
                          "played": str(r.played), "best": str(r.analysis.best.move),
                          "cost": round(r.cost, 4), "points_cost": round(r.points_cost, 2),
                          "label": r.label})
    found.sort(key=lambda x: -x["cost"])
    return {"seat": seat, "decisions": decisions, "moves": found[:top]}


def score_sheet(records: Iterable[Record]) -> list[dict[str, Any]]:
    """One row per finished hand: points, scores after it, winner and how it ended."""
    rows = []
    for number, record in enumerate(records, 1):
        result = dict(record.to_json().get("result") or {})
        points = list(result.get("points", [0] * record.players))
        before = list((record.meta or {}).get("scores_before", [0] * record.players))
        rows.append({"hand": number, "points": points,
                     "scores": [b + p for b, p in zip(before, points, strict=True)],
                     "winner": result.get("winner"), "reason": result.get("reason")})
    return rows


def replay_hand(record: Record) -> dict[str, Any]:
    """Every position of a finished (or unfinished) hand, all hands open, for the viewer.

    ``frames[k]`` is the position after ``k`` moves: the public position
    (line, ends and what each takes, sizes, boneyard, points, seat to move),
    every seat's ``hands``, and the ``move`` that led to it.
    """
    state = HandState(record.rules, record.deal)
    by_rule = record.led_by_rule
    frames: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    for ply in range(len(record.moves) + 1):
        if ply:
            seat = state.to_move
            m = record.moves[ply - 1]
            before = list(state.points)
            state.push(m)
            last = {**move_json(record.rules, int(m)), "seat": seat,
                    "scored": [b - a for a, b in zip(before, state.points, strict=True)]}
        pub = public_json(PlayerView.of(state, 0, leader_by_rule=by_rule))
        del pub["rules"], pub["history"]
        pub["hands"] = [[NAMES[t] for t in state.hand(s)] for s in range(record.players)]
        pub["move"] = last
        pub["ply"] = ply
        frames.append(pub)
    meta = dict(record.meta or {})
    out: dict[str, Any] = {"players": record.players, "rules": record.rules.to_json(),
                           "meta": {k: v for k, v in meta.items() if k != "fair"},
                           "result": record.to_json().get("result"),
                           "frames": frames, "fair": meta.get("fair")}
    if state.outcome is not None:
        out["breakdown"] = [b.to_json() for b in breakdown(record)]
    return out


__all__ = ["HINT_BUDGET", "REVIEW_BUDGET", "REVIEW_TOP", "hint", "parse_tile",
           "replay_hand", "review_seat", "score_sheet", "tile_reason"]
