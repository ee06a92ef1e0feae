"""Helpers for the rule tests: hand-crafted deals, states and records.

Tiles are written as in records (``"2-5"``); a hand is a space-separated
string (``"0-3 2-4 1-1"``). Every tile not named in a hand or the boneyard is
set aside, so a test names only the tiles that matter.
"""

from __future__ import annotations

import copy
import json
import pathlib
import random
from collections.abc import Sequence
from typing import Any

from matador.core.rules import Rules
from matador.core.state import Deal, HandState
from matador.core.tiles import NAMES, Tile

GOLDEN_DIR = pathlib.Path(__file__).resolve().parent.parent / "data" / "golden"

#: The RULES.md section 8 example record, verbatim.
S8_RECORD: dict[str, Any] = {
    "rules": {"preset": "classic", "overrides": {}},
    "players": 2,
    "deal": {
        "hands": [["0-3", "2-4", "1-1", "6-6", "3-3"],
                  ["2-2", "0-4", "4-6", "0-6", "1-4"]],
        "boneyard": ["0-0", "2-5", "1-6", "5-6", "4-4", "3-5", "0-2", "2-6", "4-5",
                     "1-2", "0-5", "2-3", "3-4", "1-3", "5-5", "0-1", "1-5", "3-6"],
        "set_aside": [],
        "leader": 0,
    },
    "moves": ["0-3", "R4-0", "draw", "L0-0", "draw", "R2-5", "R2-4", "draw",
              "L6-1", "L6-6", "L1-4", "L3-3", "L4-6", "L1-1"],
}
S8_RESULT = {"winner": 0, "reason": "out", "pips": [0, 10], "points": [10, 0]}


def s8_record() -> dict[str, Any]:
    """A fresh deep copy of the section 8 example (tests mutate it)."""
    return copy.deepcopy(S8_RECORD)


def tiles(text: str) -> list[str]:
    """``"0-3 2-4"`` -> ``["0-3", "2-4"]``."""
    return text.split()


def rest_of(*groups: Sequence[str]) -> list[str]:
    """Every tile not named in ``groups``, in index order."""
    used = {t for g in groups for t in g}
    assert len(used) == sum(len(g) for g in groups), "a tile is named twice"
    return [n for n in NAMES if n not in used]


def rules(preset: str = "classic", **overrides: Any) -> Rules:
    """A validated rule set."""
    return Rules.from_preset(preset, overrides)


def make_deal(hands: Sequence[str], boneyard: str = "", leader: int = 0) -> Deal:
    """A deal with the given hands and boneyard; every other tile is set aside.

    Built with the trusting constructor, so hands may differ in size.
    """
    hs = [tiles(h) for h in hands]
    bone = tiles(boneyard)
    aside = rest_of(*hs, bone)
    return Deal(
        tuple(tuple(Tile.parse(t) for t in h) for h in hs),
        tuple(Tile.parse(t) for t in bone),
        tuple(Tile.parse(t) for t in aside),
        leader,
    )


def make_state(preset: str, hands: Sequence[str], boneyard: str = "", leader: int = 0,
               moves: Sequence[str] = (), **overrides: Any) -> HandState:
    """A hand state after ``moves`` (each validated with :meth:`HandState.play`)."""
    state = HandState(rules(preset, **overrides), make_deal(hands, boneyard, leader))
    for m in moves:
        state.play(m)
    return state


def legal(state: HandState) -> list[str]:
    """The legal moves as notation, in id (= trace) order."""
    return [str(m) for m in state.legal_moves]


def make_record(preset: str, hands: Sequence[str], boneyard: str = "", moves: Sequence[str] = (),
                leader: int = 0, **overrides: Any) -> dict[str, Any]:
    """A valid record dict: ``players``, ``hand_size`` and ``set_aside`` overrides fit the deal."""
    hs = [tiles(h) for h in hands]
    bone = tiles(boneyard)
    aside = rest_of(*hs, bone)
    n = len(hs)
    ov = {"players": [n, n], "hand_size": len(hs[0]), "set_aside": len(aside)}
    ov.update(overrides)
    return {
        "rules": {"preset": preset, "overrides": ov},
        "players": n,
        "deal": {"hands": hs, "boneyard": bone, "set_aside": aside, "leader": leader},
        "moves": list(moves),
    }


def golden_paths() -> list[pathlib.Path]:
    """Every golden record file."""
    return sorted(GOLDEN_DIR.glob("*.json"))


def load_golden(name: str) -> dict[str, Any]:
    """One golden record as a dict."""
    data: dict[str, Any] = json.loads((GOLDEN_DIR / f"{name}.json").read_text())
    return data


def deal_order(hands: Sequence[str], boneyard: str = "") -> list[str]:
    """The shuffled order that :meth:`Deal.random` turns into this deal (R12).

    Set-aside tiles (every tile not named) come first, then each hand, then the
    boneyard; the rules' ``set_aside`` must equal the number of unnamed tiles.
    """
    hs = [tiles(h) for h in hands]
    bone = tiles(boneyard)
    return rest_of(*hs, bone) + [t for h in hs for t in h] + bone


class DealRng(random.Random):
    """An injected rng that deals given orders (one per shuffle) and draws lots at will."""

    def __init__(self, *orders: list[str], lot: int = 0) -> None:
        super().__init__(0)
        self.orders = [[Tile.parse(t) for t in order] for order in orders]
        self.lot = lot
        self.lots = 0

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        order = self.orders.pop(0)
        assert sorted(x) == sorted(order), "an order must hold every tile once"
        x[:] = order

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        self.lots += 1
        return self.lot
