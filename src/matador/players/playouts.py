"""Playouts in which every seat plays like the card-counting ``heuristic`` (all seats blocked).

The ``pimc`` playouts (:func:`matador.players.rollout.policy_move`) value a
play by the mover's own hand and the *next* seat's blocking only. With three
or four players the seats after it matter too, and the opponents a search
meets (the ``heuristic``, another search) block all of them: playouts that
model this predict the hand better (``docs/bots.md``). :func:`table_move` is
the ``heuristic`` bot's choice in a determinized world, from the mover's own
knowledge (its hand, the line, the tiles it has not seen, every seat's tile
count, the boneyard's size): the same evaluation
(:func:`~matador.players.heuristic.play_score` plus the other seats'
blocking) and the same rules for the last matador (R15, R17), computed on
counts so that it is cheap. With two players it differs from the ``pimc``
policy only in when the last matador is spent.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> state = HandState.new(Rules.from_preset("classic"), 4, random.Random(1))
>>> table_playout(state, random.Random(2))
>>> state.is_over
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from math import comb
from typing import TYPE_CHECKING, Protocol

from matador.core.moves import DRAW, MOVE_END, MOVE_EXPOSED, MOVE_TILE, PASS, PLAY_BASE
from matador.core.state import HandState
from matador.core.tiles import ALL_TILES, HALVES, PIPS
from matador.core.view import PlayerView
from matador.players import heuristic as h
from matador.players.rollout import gap_rollout, kernel_policy

if TYPE_CHECKING:
    from matador.fast import Policy

EPSILON = 0.05
"""Share of random moves in a playout."""


class RandomSource(Protocol):
    """What a playout draws from (:class:`random.Random` or a counter-based stream)."""

    def random(self) -> float:
        """A float in ``[0, 1)``."""

    def randrange(self, n: int, /) -> int:
        """An integer in ``0..n-1``."""


_BLOCK: dict[tuple[int, int, int, int], float] = {}


def block_counts(total: int, fitting: int, size: int, boneyard: int) -> float:
    """:func:`matador.players.heuristic.block_value` from counts: a seat of ``size`` tiles
    drawn from ``total`` candidates, ``fitting`` of which fit the new ends.

    >>> from matador.players.heuristic import block_value
    >>> block_counts(20, 6, 5, 8) == block_value((1 << 20) - 1, 5, (1 << 6) - 1, 8)
    True
    """
    key = (total, fitting, size, boneyard)
    value = _BLOCK.get(key)
    if value is None:
        if size <= 0:
            p = 1.0
        elif size > total:
            p = 0.0 if fitting else 1.0
        else:
            p = comb(total - fitting, size) / comb(total, size)
        in_boneyard = fitting * boneyard / total if total else 0.0
        value = p * (1.0 + h.DRAW_COST * (boneyard + 1) / (in_boneyard + 1)) if p else 0.0
        if len(_BLOCK) < 500_000:
            _BLOCK[key] = value
    return value


def table_move(state: HandState, rng: RandomSource, epsilon: float = EPSILON) -> int:
    """The mover's move: the ``heuristic``'s choice, random with probability ``epsilon``.

    A forced move draws nothing from ``rng``; a choice draws one number, and
    one more when it goes random. :func:`table_rollout` plays the same policy
    with fewer draws.
    """
    ids = state.legal_move_ids()
    if len(ids) == 1:
        return ids[0]
    if rng.random() < epsilon:
        return ids[rng.randrange(len(ids))]
    return table_choice(state, ids)


def table_choice(state: HandState, ids: Sequence[int]) -> int:
    """The ``heuristic``'s choice among ``ids`` (the legal moves, more than one) for the mover
    of ``state``, from the mover's knowledge only (see the module doc)."""
    s = state.to_move
    hands = state.hands
    hand = hands[s]
    n = state.players
    tb = state._tb
    left = state.left
    right = state.right
    bone = state.boneyard_size
    might = ALL_TILES & ~hand & ~state.played
    total = might.bit_count()
    nxt = hands[(s + 1) % n].bit_count()
    others = [size for k in range(2, n) if (size := hands[(s + k) % n].bit_count())]
    matadors = tb.matadors
    non_matadors = tb.non_matadors
    playable = tb.playable_against
    mine = (hand & matadors).bit_count()
    goes_out = tb.ends_hand or (tb.after_boneyard and not bone)
    best = ids[0]
    best_score = -1e18
    can_draw = False
    for m in ids:
        if m >= DRAW:
            can_draw = can_draw or m == DRAW
            continue
        t = MOVE_TILE[m]
        rest = hand & ~(1 << t)
        if not rest and goes_out:
            return m
        if m < PLAY_BASE:
            a, b = HALVES[m]
        elif MOVE_END[m]:
            a, b = left, MOVE_EXPOSED[m]
        else:
            a, b = MOVE_EXPOSED[m], right
        fits = playable[a][b]
        score = h.W_PIPS * PIPS[t] + h.W_FOLLOW * (rest & fits & non_matadors).bit_count()
        if matadors >> t & 1:
            score -= h.W_MATADOR
            if mine == 1:
                score -= h.W_LAST_MATADOR
        if tb.scores_plays:
            score += h.W_POINTS * tb.play_points(m, left, right)
        fitting = (might & fits).bit_count()
        if nxt:
            score += h.W_BLOCK * block_counts(total, fitting, nxt, bone)
        elif a == 0 or b == 0:
            blanks = (a == 0) + (b == 0)
            score += (h.W_BLANK if rest & matadors else h.W_BLANK_NO_MATADOR) * blanks
        for size in others:
            score += h.W_BLOCK_OTHERS * block_counts(total, fitting, size, bone)
        if score > best_score:
            best, best_score = m, score
    if best < DRAW and matadors >> MOVE_TILE[best] & 1 and mine == 1:
        # R15: spend the last matador only when it pays, as the heuristic does.
        if can_draw and nxt > h.SPEND_NEXT and bone > h.SPEND_BONE:
            return DRAW
        if PASS in ids and nxt > 1 and not tb.play_points(best, left, right):
            return PASS  # R17: keep it by passing, unless laying it scores at once
    return best


def greedy_choice(state: HandState, ids: Sequence[int]) -> int:
    """The ``greedy`` bot's choice among ``ids`` for the mover of ``state`` (its own hand and
    the line only: no blocking), as :class:`~matador.players.heuristic.GreedyBot` makes it."""
    return h.greedy_move(state._tb, state.hands[state.to_move], state.left, state.right,
                         tuple(ids), boneyard=state.boneyard_size)


Chooser = Callable[[HandState, Sequence[int]], int]
"""A policy's choice among the legal moves (more than one) for the mover of a full state."""

CHOOSERS: dict[str, Chooser] = {"table": table_choice, "greedy": greedy_choice}
"""The policies a search can model a seat with, by name."""


def choice_log_likelihoods(view: PlayerView, world: HandState, trust: float,
                           seats: Sequence[int] | None = None) -> dict[tuple[int, str], float]:
    """For each other seat (or each of ``seats``) and each policy of :data:`CHOOSERS`, the
    log-likelihood of the seat's observed choices in ``world``, had it played that policy
    with probability ``trust`` and a uniformly random move otherwise.

    ``world`` (consistent with ``view``) is replayed from its deal; at each
    decision of another seat with ``k > 1`` legal moves the observed move has
    probability ``trust + (1 - trust) / k`` if it is the policy's choice in the
    world, else ``(1 - trust) / k``. Forced moves count nothing: whether a seat
    drew or passed is certain in every consistent world.

    >>> import random
    >>> from matador.core.rules import Rules
    >>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(3))
    >>> while state.to_move == 0 or len(state.legal_move_ids()) == 1:
    ...     state.push(state.legal_move_ids()[0])
    >>> ids = state.legal_move_ids()
    >>> state.push(table_choice(state, ids))
    >>> logs = choice_log_likelihoods(PlayerView.of(state, 0), state, 0.7)
    >>> round(logs[1, "table"], 9) == round(math.log(0.7 + 0.3 / len(ids)), 9)
    True
    """
    state = HandState(world.rules, world.deal)
    wanted = {s for s in range(view.players) if s != view.seat} if seats is None else set(seats)
    total = {(s, name): 0.0 for s in sorted(wanted) for name in CHOOSERS}
    for m in view.moves:
        s = state.to_move
        if s in wanted:
            ids = state.legal_move_ids()
            k = len(ids)
            if k > 1:
                miss = (1.0 - trust) / k
                for name, choose in CHOOSERS.items():
                    total[s, name] += math.log(trust + miss if choose(state, ids) == m else miss)
        state.push(m)
    return total


def seat_rollout(policies: Sequence[str]) -> Callable[[HandState, RandomSource, float], None]:
    """A playout in which seat ``s`` plays the policy named ``policies[s]``
    (:data:`CHOOSERS`), with a share ``epsilon`` of random moves drawn as
    :func:`table_rollout` draws them.

    >>> import random
    >>> from matador.core.rules import Rules
    >>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
    >>> seat_rollout(("table", "greedy"))(state, random.Random(2), 0.05)
    >>> state.is_over
    True
    """
    choosers = [CHOOSERS[name] for name in policies]

    def rollout(state: HandState, rng: RandomSource, epsilon: float) -> None:
        gap_rollout(state, rng, epsilon,
                    lambda ids: choosers[state.to_move](state, ids))
    return rollout


def table_playout(state: HandState, rng: RandomSource, epsilon: float = EPSILON) -> None:
    """Play ``state`` to the end, every seat using :func:`table_move`."""
    while state.outcome is None:
        state.push(table_move(state, rng, epsilon))


def table_rollout(state: HandState, rng: RandomSource, epsilon: float = EPSILON) -> None:
    """Play ``state`` to the end with :func:`table_move`'s policy and fewer draws.

    As :func:`matador.players.rollout.greedy_rollout` does for the greedy
    policy: one ``random()`` at the start and after each random choice gives the
    number of table choices before the next random one, a random choice takes
    one ``randrange``. The kernel's table policy (:func:`table_policy`) makes
    exactly these moves from the same :class:`~matador.core.streams.Stream`.
    """
    gap_rollout(state, rng, epsilon, lambda ids: table_choice(state, ids))


def table_policy(epsilon: float = EPSILON) -> Policy:
    """:func:`table_rollout` for the compiled kernel (``matador[fast]``): the same moves
    from the same :class:`~matador.core.streams.Stream`."""
    return kernel_policy(epsilon, "table")


__all__ = ["CHOOSERS", "EPSILON", "Chooser", "block_counts", "choice_log_likelihoods",
           "greedy_choice", "seat_rollout", "table_choice", "table_move", "table_playout",
           "table_policy", "table_rollout"]
