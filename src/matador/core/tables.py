"""Precomputed legality tables for one rule set (R8-R10, R15-R17).

Everything the hot path needs is a dictionary lookup or a bit operation on
28-bit tile masks and 128-bit move masks. :func:`tables_for` caches one
:class:`RuleTables` per :class:`~matador.core.rules.Rules`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from matador.core.moves import (
    DRAW,
    MOVE_END,
    MOVE_EXPOSED,
    MOVE_TILE,
    MOVE_TOUCH,
    PASS,
    PLAY_BASE,
    play_id,
)
from matador.core.rules import Draw, GoingOut, HandPoints, Rules
from matador.core.tiles import ALL_TILES, CONTAINS, HALVES, iter_bits

DRAW_BIT: Final = 1 << DRAW
PASS_BIT: Final = 1 << PASS



def _submasks(mask: int) -> list[int]:
    out = []
    sub = mask
    while True:
        out.append(sub)
        if sub == 0:
            return out
        sub = (sub - 1) & mask


class RuleTables:
    """Legality tables and flags of one rule set; shared, never mutated.

    ``join[v]`` is the mask of tiles that may legally join an end showing
    ``v`` (on a blank end only a matador may, R9); ``join_moves[e][v]`` maps a
    submask of ``join[v]`` to the move mask of those joining plays on end
    ``e``; ``matador_moves`` maps a submask of the matadors to every play of
    them on either end with either half touching (R10).
    """

    __slots__ = (
        "after_boneyard",
        "anytime",
        "bonus",
        "draw_one",
        "ends_hand",
        "join",
        "join_moves",
        "matador_moves",
        "matadors",
        "never_out",
        "non_matadors",
        "optional",
        "pass_penalty",
        "per_join",
        "per_matador",
        "pips_to_winner",
        "playable_against",
        "rules",
        "scores_plays",
        "target",
    )

    def __init__(self, rules: Rules) -> None:
        t = rules.target
        self.rules = rules
        self.target = t
        self.matadors = rules.matadors
        self.non_matadors = ALL_TILES & ~rules.matadors
        join: list[int] = []
        for v in range(7):
            need = t - v
            if not 0 <= need <= 6:
                join.append(0)
            elif v == 0:
                join.append(CONTAINS[need] & rules.matadors)  # R9: blank ends take matadors only
            else:
                join.append(CONTAINS[need])
        self.join: tuple[int, ...] = tuple(join)
        moves: list[tuple[dict[int, int], ...]] = []
        for end in (0, 1):
            per_value: list[dict[int, int]] = []
            for v in range(7):
                table: dict[int, int] = {}
                for sub in _submasks(join[v]):
                    mask = 0
                    for tile in iter_bits(sub):
                        a, b = HALVES[tile]
                        touch = t - v
                        mask |= 1 << play_id(end, touch, b if a == touch else a)
                    table[sub] = mask
                per_value.append(table)
            moves.append(tuple(per_value))
        self.join_moves: tuple[tuple[dict[int, int], ...], ...] = tuple(moves)
        matador_moves: dict[int, int] = {}
        for sub in _submasks(rules.matadors):
            mask = 0
            for tile in iter_bits(sub):
                a, b = HALVES[tile]
                for end in (0, 1):
                    mask |= 1 << play_id(end, a, b) | 1 << play_id(end, b, a)
            matador_moves[sub] = mask
        self.matador_moves = matador_moves
        #: ``playable_against[l][r]``: tiles with some legal play against ends l, r.
        self.playable_against: tuple[tuple[int, ...], ...] = tuple(
            tuple(join[a] | join[b] | rules.matadors for b in range(7)) for a in range(7)
        )
        self.anytime = rules.matador_anytime
        self.optional = rules.matador_optional
        self.draw_one = rules.draw is Draw.ONE
        self.ends_hand = rules.going_out is GoingOut.ENDS_HAND
        self.after_boneyard = rules.going_out is GoingOut.AFTER_BONEYARD
        self.never_out = rules.going_out is GoingOut.NEVER
        self.pips_to_winner = rules.hand_points is HandPoints.PIPS_TO_WINNER
        self.per_join = rules.per_join
        self.per_matador = rules.per_matador
        self.bonus = rules.exposed_target_bonus
        self.pass_penalty = rules.pass_penalty
        self.scores_plays = bool(rules.per_join or rules.per_matador or rules.exposed_target_bonus)

    def play_mask(self, hand: int, left: int, right: int) -> int:
        """The move mask of every legal play of ``hand`` against ends ``left``/``right`` (R9, R10).

        ``left < 0`` means the line is empty: every tile may open (R6), and an
        opening's move id is its tile index, so the mask is the hand itself.
        """
        if left < 0:
            return hand
        jl = hand & self.join[left]
        jr = hand & self.join[right]
        mask = 0
        if jl:
            mask = self.join_moves[0][left][jl]
        if jr:
            mask |= self.join_moves[1][right][jr]
        hm = hand & self.matadors
        if hm and (self.anytime or not mask):
            mask |= self.matador_moves[hm]
        return mask

    def legal_mask(self, hand: int, left: int, right: int, can_draw: bool, drawn: bool) -> int:
        """The move mask of every legal move (R9-R10, R15-R17).

        ``can_draw`` says whether R16 allows a draw now (the boneyard holds
        tiles and, under ``draw = one``, the mover has not drawn this turn);
        ``drawn`` whether the mover has drawn this turn.
        """
        mask = self.play_mask(hand, left, right)
        if left < 0:
            return mask  # R15: the opening is never optional
        if mask:
            # R15: a mover whose every legal play is a matador may draw instead.
            joining = hand & (self.join[left] | self.join[right])
            if self.optional and not joining & self.non_matadors:
                if can_draw:
                    mask |= DRAW_BIT
                elif drawn and self.draw_one:
                    mask |= PASS_BIT
            return mask
        return DRAW_BIT if can_draw else PASS_BIT  # R16, R17

    def play_kinds(self, m: int, left: int, right: int) -> tuple[bool, bool, bool]:
        """Which R22 points play ``m`` against ``left``/``right`` earns.

        ``(joins, matador, exposed target)``: the opening never joins (R22),
        and a matador that joins earns both.
        """
        t = MOVE_TILE[m]
        matador = bool(self.matadors >> t & 1)
        if m < PLAY_BASE:
            return False, matador, False
        v = right if MOVE_END[m] else left
        return MOVE_TOUCH[m] + v == self.target, matador, MOVE_EXPOSED[m] == self.target

    def play_points(self, m: int, left: int, right: int) -> int:
        """Points play ``m`` against ``left``/``right`` scores at once (R22)."""
        joins, matador, bonus = self.play_kinds(m, left, right)
        return (self.per_join if joins else 0) + (self.per_matador if matador else 0) + (
            self.bonus if bonus else 0)

    def forced_free(self, left: int, right: int, optional_draw: bool) -> int:
        """Tiles a mover cannot have held when they drew or passed against ``left``/``right``.

        With ``optional_draw`` (R15's exception applies) only non-matador
        tiles with a legal play are excluded; otherwise every playable tile.
        """
        playable = self.join[left] | self.join[right]
        if optional_draw:
            return playable & self.non_matadors
        return playable | self.matadors


def tables_for(rules: Rules) -> RuleTables:
    """The legality tables of ``rules``, cached on the (frozen) rules object."""
    tables = rules.__dict__.get("_tables")
    if tables is None:
        tables = _build(rules)
        object.__setattr__(rules, "_tables", tables)
    return tables


@lru_cache(maxsize=256)
def _build(rules: Rules) -> RuleTables:
    return RuleTables(rules)

