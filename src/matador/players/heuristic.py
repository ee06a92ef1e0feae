"""One-ply bots: ``random``, ``greedy`` and the card-counting ``heuristic``.

:func:`greedy_move` is also the rollout policy of the search bots, so it
works on raw masks (a hand, two end values, the legal move ids) and is cheap.

What the greedy policy values in a play, from the mover's own hand only:

* shedding pips early (a blocked hand is won on fewest pips, R20);
* keeping the hand followable: how many of the remaining tiles could be
  laid against the new ends;
* holding matadors, the only tiles that always fit (R10) and the only
  answer to a blank end (R9); with R15's option it draws rather than spend
  its last matador;
* points scored now (R22) and going out (R18).

The ``heuristic`` bot adds card counting from the view: which tiles each
seat can still hold (forced draws and passes prove voids), and how likely
the next seat is to be unable to follow the ends a move leaves.
"""

from __future__ import annotations

from math import comb
from random import Random

from matador.core.moves import (
    DRAW,
    MOVE_END,
    MOVE_EXPOSED,
    MOVE_TILE,
    PASS,
    PLAY_BASE,
)
from matador.core.tables import RuleTables
from matador.core.tiles import HALVES, PIPS
from matador.core.view import PlayerView
from matador.players.base import Bot

# Weights of the greedy evaluation, tuned with the arena (see README).
W_PIPS = 1.0
W_FOLLOW = 1.5
W_MATADOR = 12.0
W_LAST_MATADOR = 6.0
W_POINTS = 0.4
W_OUT = 1000.0
W_BLOCK = 15.0
W_BLANK = 10.0
W_BLANK_NO_MATADOR = 3.0


def ends_after(m: int, left: int, right: int) -> tuple[int, int]:
    """The end values after play ``m`` against ``left``/``right``."""
    if m < PLAY_BASE:
        return HALVES[m]
    if MOVE_END[m]:
        return left, MOVE_EXPOSED[m]
    return MOVE_EXPOSED[m], right


def play_score(tb: RuleTables, hand: int, m: int, left: int, right: int,
               unseen: int = 0, next_size: int = 0, boneyard: int = 0) -> float:
    """The greedy value of play ``m`` for a mover holding ``hand``.

    With ``unseen`` (tiles the next seat may hold) and ``next_size`` (its tile
    count) it values how badly the next seat is blocked by the new ends;
    without, a rule of thumb values blank ends, which only matadors follow (R9).
    ``boneyard`` is the boneyard's size: under ``after_boneyard`` laying one's
    last tile wins at once only when the boneyard is empty (R18).
    """
    t = MOVE_TILE[m]
    rest = hand & ~(1 << t)
    if not rest and (tb.ends_hand or (tb.after_boneyard and not boneyard)):
        return W_OUT
    a, b = ends_after(m, left, right)
    fits = rest & tb.playable_against[a][b]
    score = W_PIPS * PIPS[t] + W_FOLLOW * (fits & tb.non_matadors).bit_count()
    if tb.matadors >> t & 1:
        score -= W_MATADOR
        if not rest & tb.matadors:
            score -= W_LAST_MATADOR
    if tb.scores_plays:
        score += W_POINTS * tb.play_points(m, left, right)
    if next_size:
        score += W_BLOCK * block_value(unseen, next_size, tb.playable_against[a][b], boneyard)
    elif a == 0 or b == 0:
        blanks = (a == 0) + (b == 0)
        score += (W_BLANK if rest & tb.matadors else W_BLANK_NO_MATADOR) * blanks
    return score


def greedy_move(tb: RuleTables, hand: int, left: int, right: int, legal: tuple[int, ...],
                unseen: int = 0, next_size: int = 0, boneyard: int = 0) -> int:
    """The greedy policy: the best-valued play; a draw rather than one's last matador (R15)."""
    best = legal[0]
    best_score = -1e9
    can_draw = False
    for m in legal:
        if m >= DRAW:
            can_draw = m == DRAW or can_draw
            continue
        s = play_score(tb, hand, m, left, right, unseen, next_size, boneyard)
        if s > best_score:
            best, best_score = m, s
    if best >= DRAW:
        return best
    if can_draw and tb.matadors >> MOVE_TILE[best] & 1 and best_score < W_OUT and \
            (hand & tb.matadors).bit_count() == 1:
        return DRAW
    if PASS in legal and best_score < 0 and tb.matadors >> MOVE_TILE[best] & 1 and \
            (hand & tb.matadors).bit_count() == 1:
        return PASS
    return best


class RandomBot(Bot):
    """Uniform over the legal moves."""

    kind = "random"

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        return legal[rng.randrange(len(legal))]


class GreedyBot(Bot):
    """A sound one-ply heuristic over the mover's own hand (see the module docstring)."""

    kind = "greedy"

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        return greedy_move(view.tables, view.hand_mask, view.left, view.right, legal,
                           boneyard=view.boneyard_size)


# Weight of blocking seats after the next one (the next seat's weight is W_BLOCK).
W_BLOCK_OTHERS = 10.0
SPEND_NEXT = 3
SPEND_BONE = 8


def block_value(might: int, size: int, fits: int, boneyard: int) -> float:
    """How much a seat of ``size`` tiles (drawn from ``might``) suffers from ends that ``fits``.

    The chance it holds none of ``fits``, times the tiles it then expects to
    draw before one fits (R16), counting at least one lost turn. Depends only
    on four counts, so it is memoised (it is the playouts' hottest function).
    """
    total = might.bit_count()
    c = (might & fits).bit_count()
    key = (total, c, size, boneyard)
    value = _BLOCK_CACHE.get(key)
    if value is None:
        p = _void(total, c, size)
        in_boneyard = c * boneyard / total if total else 0.0
        value = p * (1.0 + DRAW_COST * (boneyard + 1) / (in_boneyard + 1)) if p else 0.0
        _BLOCK_CACHE[key] = value
    return value


DRAW_COST = 0.15
_BLOCK_CACHE: dict[tuple[int, int, int, int], float] = {}


def _void(total: int, c: int, size: int) -> float:
    if size <= 0:
        return 1.0
    if size > total:
        return 0.0 if c else 1.0
    return comb(total - c, size) / comb(total, size)


def void_probability(might: int, size: int, fits: int) -> float:
    """Chance that a hand of ``size`` tiles drawn from ``might`` holds none of ``fits``."""
    return _void(might.bit_count(), (might & fits).bit_count(), size)


class HeuristicBot(Bot):
    """Greedy plus card counting: voids, unseen complements, blocking the next seat."""

    kind = "heuristic"

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        tb = view.tables
        hand = view.hand_mask
        n = view.players
        order = [(view.seat + k) % n for k in range(1, n)]
        might = {s: view.might_hold(s) for s in order}

        best = legal[0]
        best_score = -1e9
        draw_ok = False
        for m in legal:
            if m >= DRAW:
                draw_ok = draw_ok or m == DRAW
                continue
            score = play_score(tb, hand, m, view.left, view.right, might[order[0]],
                               view.hand_sizes[order[0]], view.boneyard_size)
            if score >= W_OUT:
                return m
            a, b = ends_after(m, view.left, view.right)
            fits = tb.playable_against[a][b]
            for s in order[1:]:
                size = view.hand_sizes[s]
                if size:
                    score += W_BLOCK_OTHERS * block_value(might[s], size, fits,
                                                          view.boneyard_size)
            if score > best_score:
                best, best_score = m, score
        if best < DRAW and tb.matadors >> MOVE_TILE[best] & 1 and \
                (hand & tb.matadors).bit_count() == 1 and draw_ok:
            # R15: spend the last matador only when it pays: the next seat is close to
            # going out, or the boneyard is nearly empty (drawing then costs the hand).
            nxt = order[0]
            pays = view.hand_sizes[nxt] <= SPEND_NEXT or view.boneyard_size <= SPEND_BONE
            if not pays:
                return DRAW
        if PASS in legal and best < DRAW and tb.matadors >> MOVE_TILE[best] & 1 and \
                (hand & tb.matadors).bit_count() == 1 and view.hand_sizes[order[0]] > 1 and \
                not tb.play_points(best, view.left, view.right):
            # Keep the last matador by passing, unless laying it scores at once (R22).
            return PASS
        return best
