"""An independent, deliberately naive model of one hand, written from RULES.md alone.

It shares no code with the engine (tiles are ``(low, high)`` tuples, moves are
strings) and is played in lockstep with :class:`HandState` on random deals
under every combination of the turn and end-of-hand parameters (R9-R22):
at every ply the legal-move lists, the seat to move and the points must agree,
and at the end the outcome.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from lanes import examples
from matador.core.rules import Rules
from matador.core.state import Deal, HandState
from matador.core.tiles import Tile

Tile2 = tuple[int, int]
ALL: list[Tile2] = [(a, b) for a in range(7) for b in range(a, 7)]


def name(t: Tile2) -> str:
    return f"{t[0]}-{t[1]}"


class RefHand:
    """One hand, rule by rule. ``p`` holds the section 7 parameters (JSON values)."""

    def __init__(self, p: dict[str, Any], hands: list[list[Tile2]], boneyard: list[Tile2],
                 leader: int) -> None:
        self.p = p
        self.T = p["target"]
        self.n = len(hands)
        self.hands = [list(h) for h in hands]
        self.bone = list(boneyard)
        self.ends: list[int] | None = None  # [left, right] (R5)
        self.to_move = leader
        self.drawn = False
        self.points = [0] * self.n
        self.emptied_at: list[int | None] = [None] * self.n
        self.ply = 0
        self.result: dict[str, Any] | None = None

    def matador(self, t: Tile2) -> bool:  # R4
        return t == (0, 0) or t[0] + t[1] == self.T

    def plays(self, seat: int) -> dict[str, Tile2]:
        """Every legal play of ``seat``'s hand (R6, R9, R10), notation -> tile."""
        hand = self.hands[seat]
        if self.ends is None:
            return {name(t): t for t in hand}  # R6
        joining: dict[str, Tile2] = {}
        other: dict[str, Tile2] = {}
        for t in hand:
            for e, v in zip("LR", self.ends, strict=True):
                for touch, exposed in {(t[0], t[1]), (t[1], t[0])}:
                    move = f"{e}{touch}-{exposed}"
                    joins = touch + v == self.T  # R8
                    if v == 0 and not self.matador(t):
                        continue  # R9: a blank end takes matadors only
                    if joins:
                        joining[move] = t
                    elif self.matador(t):
                        other[move] = t  # R10: a matador, on any end, either half
        if self.p["matador_anytime"] or not joining:
            return joining | other
        return joining

    def legal(self) -> list[str]:
        if self.result is not None:
            return []
        s = self.to_move
        plays = self.plays(s)
        if self.ends is None:
            return sorted(plays)  # R15: the opening is never optional
        one = self.p["draw"] == "one"
        may_draw = bool(self.bone) and not (one and self.drawn)  # R16
        moves = set(plays)
        if plays:
            if self.p["matador_optional"] and all(self.matador(t) for t in plays.values()):
                if may_draw:
                    moves.add("draw")  # R15
                elif one and self.drawn:
                    moves.add("pass")  # R15, draw = one, having drawn this turn
        else:
            moves.add("draw" if may_draw else "pass")  # R16, R17
        return sorted(moves)

    def apply(self, move: str) -> None:
        s = self.to_move
        self.ply += 1
        if move == "draw":
            self.hands[s].append(self.bone.pop(0))  # R12: draws take the first tile
            self.drawn = True
            self.emptied_at[s] = None
            self.check_end()  # R18 before R19, after every action, a draw included
            return
        if move == "pass":
            self.points[s] -= self.p["pass_penalty"]  # R22
            self.next_turn()
            return
        if self.ends is None:
            a, b = int(move[0]), int(move[2])
            t = (a, b)
            self.ends = [a, b]  # R6
            if self.matador(t):
                self.points[s] += self.p["per_matador"]  # R22, the opening included
        else:
            e = "LR".index(move[0])
            touch, exposed = int(move[1]), int(move[3])
            t = (min(touch, exposed), max(touch, exposed))
            if touch + self.ends[e] == self.T:
                self.points[s] += self.p["per_join"]
            if self.matador(t):
                self.points[s] += self.p["per_matador"]
            if exposed == self.T:
                self.points[s] += self.p["exposed_target_bonus"]
            self.ends[e] = exposed  # R7
        self.hands[s].remove(t)
        if not self.hands[s]:
            if self.p["going_out"] == "ends_hand":
                self.finish(s, "out")  # R18
                return
            self.emptied_at[s] = self.ply
        if self.check_end():
            return
        self.next_turn()

    def next_turn(self) -> None:
        s = (self.to_move + 1) % self.n  # R13
        if self.p["going_out"] == "never" and not self.bone:
            while not self.hands[s]:
                s = (s + 1) % self.n  # R18 never: empty hands are skipped
        self.to_move = s
        self.drawn = False

    def check_end(self) -> bool:
        if self.bone:
            return False
        if self.p["going_out"] == "after_boneyard":
            out = [s for s in range(self.n) if not self.hands[s]]
            if out:
                self.finish(min(out, key=lambda s: self.emptied_at[s] or 0), "out")
                return True
        if any(self.hands[s] and self.plays(s) for s in range(self.n)):
            return False
        pips = [sum(a + b for a, b in h) for h in self.hands]  # R19, R20
        low = min(pips)
        self.finish(pips.index(low) if pips.count(low) == 1 else None, "blocked")
        return True

    def finish(self, winner: int | None, reason: str) -> None:
        pips = [sum(a + b for a, b in h) for h in self.hands]
        if winner is not None and self.p["hand_points"] == "pips_to_winner":
            self.points[winner] += sum(pips) - pips[winner]  # R21
        self.result = {"winner": winner, "reason": reason, "pips": pips,
                       "points": list(self.points)}


COMBOS = list(itertools.product([True, False], [True, False], ["until_playable", "one"],
                                ["ends_hand", "after_boneyard", "never"]))


def _random_setup(rng: random.Random, target: int) -> tuple[dict[str, Any], int]:
    players = rng.randint(2, 4)
    size = rng.randint(1, min(7, 28 // players))
    free = 28 - players * size
    # half the time a tiny boneyard, so hands end with several seats out or blocked
    if rng.random() < 0.5:
        aside = rng.randint(0, min(4, free))
    else:
        aside = free - rng.randint(0, min(3, free))
    overrides = {
        "players": [players, players], "target": target, "hand_size": size,
        "set_aside": aside, "per_join": rng.choice([0, 1, 10]),
        "per_matador": rng.choice([0, 3]), "exposed_target_bonus": rng.choice([0, 5]),
        "pass_penalty": rng.choice([0, 2]),
    }
    return overrides, players


@pytest.mark.parametrize(("anytime", "optional", "draw", "going_out"), COMBOS)
def test_engine_agrees_with_the_reference_model(anytime, optional, draw, going_out) -> None:
    rng = random.Random(f"{anytime} {optional} {draw} {going_out}")  # reproducible
    for hand_no in range(examples(40)):  # 10 in the fast lane
        target = rng.choice([7, 7, 6, rng.randint(1, 12)])
        overrides, players = _random_setup(rng, target)
        overrides.update(matador_anytime=anytime, matador_optional=optional, draw=draw,
                         going_out=going_out, hand_points=rng.choice(["pips_to_winner", "none"]))
        rules = Rules.from_preset("classic", overrides)
        tiles = ALL[:]
        rng.shuffle(tiles)
        k, size = rules.set_aside, rules.hand_size_for(players)
        hands = [tiles[k + i * size:k + (i + 1) * size] for i in range(players)]
        boneyard = tiles[k + players * size:]
        leader = rng.randrange(players)
        deal = Deal(tuple(tuple(Tile.of(*t) for t in h) for h in hands),
                    tuple(Tile.of(*t) for t in boneyard),
                    tuple(Tile.of(*t) for t in tiles[:k]), leader)
        state = HandState(rules, deal)
        model = RefHand(rules.parameters(), hands, boneyard, leader)
        where = f"hand {hand_no} {overrides}"
        while model.result is None:
            expected = model.legal()
            assert [str(m) for m in state.legal_moves] == expected, (where, state.moves)
            assert state.to_move == model.to_move, (where, state.moves)
            assert state.points == model.points, (where, state.moves)
            assert not state.is_over
            move = rng.choice(expected)
            model.apply(move)
            state.play(move)
            assert state.ply == model.ply < 500
        assert state.is_over, (where, state.moves)
        assert state.outcome.to_json() == model.result, (where, state.moves)
        assert list(state.legal_moves) == []
