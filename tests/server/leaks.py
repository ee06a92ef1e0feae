"""The zero-leak check: every frame a recipient received holds only tiles it may know.

The truth comes from the referee's own event list (every hand's deal, who drew
what, when each hand ended); the frames are the raw JSON text the client got
over the wire. At version ``v`` of a hand still being played a seat may know
its dealt tiles, the tiles it drew and the tiles played so far; a spectator
only the tiles played; once the hand has ended (the reveal) every tile of
it. A frame is checked at its own version, each replayed event at the
event's version.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from typing import Any

from matador.core.moves import DRAW, MOVE_TILE, PASS
from matador.core.tiles import NAMES
from matador.table.events import SPECTATOR
from matador.table.referee import Table

TILE = re.compile(r"(?<![0-9])([0-6])-([0-6])(?![0-9])")
ALL = frozenset(NAMES)
PUBLIC_KEYS = frozenset({"matadors"})
"""Keys whose tile names are rule facts, not hidden information."""


@dataclass
class HandTruth:
    start: int
    end: int | None
    dealt: dict[int, frozenset[str]]
    played: list[tuple[int, str]] = field(default_factory=list)
    drawn: list[tuple[int, int, str]] = field(default_factory=list)
    """(version, seat, tile)"""


class Truth:
    """What each recipient may know at each version of one table."""

    def __init__(self, table: Table) -> None:
        self.hands: list[HandTruth] = []
        for e in table.events:
            p = e.public
            if e.kind == "hand_start":
                self.hands.append(HandTruth(e.version, None, {
                    s: frozenset(e.private[s]["tiles"]) for s in e.private}))
            elif e.kind == "move":
                hand = self.hands[-1]
                if p["type"] == "play":
                    hand.played.append((e.version, p["tile"]))
                elif p["type"] == "draw":
                    hand.drawn.append((e.version, p["seat"], e.private[p["seat"]]["tile"]))
            elif e.kind == "hand_end":
                self.hands[-1].end = e.version
        self.starts = [h.start for h in self.hands]

    def allowed(self, recipient: int, version: int) -> frozenset[str]:
        i = bisect.bisect_right(self.starts, version) - 1
        if i < 0:
            return frozenset()
        hand = self.hands[i]
        if hand.end is not None and hand.end <= version:
            return ALL
        out = set(hand.dealt.get(recipient, ())) if recipient != SPECTATOR else set()
        out.update(t for v, t in hand.played if v <= version)
        out.update(t for v, s, t in hand.drawn if v <= version and s == recipient)
        return frozenset(out)


def tiles_in(value: Any, found: set[str], key: str = "") -> None:
    """Every tile named anywhere in ``value`` (a JSON value), into ``found``; a move
    object's ``id`` must name the same tile as its ``tile``."""
    if key in PUBLIC_KEYS:
        return
    if isinstance(value, str):
        for a, b in TILE.findall(value):
            lo, hi = sorted((int(a), int(b)))
            found.add(f"{lo}-{hi}")
    elif isinstance(value, dict):
        if value.get("type") == "play" and isinstance(value.get("id"), int):
            named = NAMES[MOVE_TILE[value["id"]]]
            found.add(named)
            assert value.get("tile") in (None, named), f"move id/tile disagree: {value}"
        for k, v in value.items():
            tiles_in(v, found, k)
    elif isinstance(value, list):
        for v in value:
            tiles_in(v, found, key)


class LeakError(AssertionError):
    pass


MATADORS = re.compile(r'"matadors":\[[^\]]*\]')
MOVE_ID = re.compile(r'"id":(\d+)')
PLAY_IDS = {m: NAMES[MOVE_TILE[m]] for m in range(len(MOVE_TILE))
            if m not in (DRAW, PASS) and MOVE_TILE[m] >= 0}


def raw_tiles(text: str) -> set[str]:
    """Every tile named in a frame's text (and every play's move id), rule facts aside."""
    text = MATADORS.sub("", text)
    found = {f"{min(a, b)}-{max(a, b)}" for a, b in TILE.findall(text)}
    found.update(PLAY_IDS[int(i)] for i in MOVE_ID.findall(text) if int(i) in PLAY_IDS)
    return found


def check_frames(truth: Truth, recipient: int, frames: list[str],
                 parsed: list[dict[str, Any]] | None = None) -> int:
    """Check one recipient's frames; returns how many were checked. Raises LeakError.

    Each frame's whole text is checked first against what the recipient may know at
    every version the frame speaks of; only a frame that fails that is checked part by
    part (a replay that crosses the end of a hand), which raises on a real leak.
    """
    version = 0
    for n, text in enumerate(frames):
        msg = parsed[n] if parsed is not None else json.loads(text)
        version = msg.get("version", version)
        parts: list[tuple[int, Any]] = []
        if msg.get("type") == "events":
            parts.extend((e["version"], e) for e in msg["events"])
            parts.append((version, {k: v for k, v in msg.items() if k != "events"}))
        else:
            parts.append((version, msg))
        named = raw_tiles(text)
        if all(named <= truth.allowed(recipient, at) for at in {at for at, _p in parts}):
            continue
        for at, part in parts:
            found: set[str] = set()
            tiles_in(part, found)
            extra = found - truth.allowed(recipient, at)
            if extra:
                raise LeakError(f"recipient {recipient}, frame {n} (version {at}): "
                                f"{sorted(extra)} not known to it: {text[:600]}")
    return len(frames)


def check_room(table: Table, frames: dict[int, list[str]],
               parsed: dict[int, list[dict[str, Any]]] | None = None) -> int:
    """Check every recipient's frames against the table's truth (``parsed``: the same
    frames already decoded, to save decoding them twice); frames checked."""
    truth = Truth(table)
    return sum(check_frames(truth, r, f, parsed[r] if parsed else None)
               for r, f in frames.items())
