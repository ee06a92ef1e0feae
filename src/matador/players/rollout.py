"""Playouts and exact endgames on determinized (fully known) states, for the search bots.

A search bot samples a full state from its view (``sample_world(view, rng)``) and
then uses these functions on it; they are never handed to a bot as its
input. Values are per seat: win = 1, a hand with no winner = 1/N, loss = 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from matador.core.state import HandState
from matador.core.tiles import ALL_TILES
from matador.players import heuristic
from matador.players.heuristic import greedy_move

if TYPE_CHECKING:
    from matador.fast import Policy

EPSILON = 0.1
"""Share of random moves in a playout, so rollouts explore a little."""


class RandomSource(Protocol):
    """What a playout draws from: :class:`random.Random` or a counter-based
    :class:`~matador.core.streams.Stream` (the one the kernel reproduces)."""

    def random(self) -> float:
        """A float in ``[0, 1)``."""

    def randrange(self, n: int, /) -> int:
        """An integer in ``0..n-1``."""


def greedy_weights() -> dict[str, float]:
    """The greedy evaluation's weights, by name (what the kernel's greedy policy reads)."""
    return {"W_PIPS": heuristic.W_PIPS, "W_FOLLOW": heuristic.W_FOLLOW,
            "W_MATADOR": heuristic.W_MATADOR, "W_LAST_MATADOR": heuristic.W_LAST_MATADOR,
            "W_POINTS": heuristic.W_POINTS, "W_OUT": heuristic.W_OUT,
            "W_BLOCK": heuristic.W_BLOCK, "W_BLANK": heuristic.W_BLANK,
            "W_BLANK_NO_MATADOR": heuristic.W_BLANK_NO_MATADOR,
            "DRAW_COST": heuristic.DRAW_COST, "W_BLOCK_OTHERS": heuristic.W_BLOCK_OTHERS,
            "SPEND_NEXT": heuristic.SPEND_NEXT, "SPEND_BONE": heuristic.SPEND_BONE}


@lru_cache(maxsize=16)
def kernel_policy(epsilon: float = EPSILON, kind: str = "greedy",
                  seats: tuple[str, ...] = ()) -> Policy:
    """:func:`greedy_rollout`'s policy for the compiled kernel (``matador[fast]``): the same
    moves from the same :class:`~matador.core.streams.Stream`; ``kind="table"`` gives
    :func:`matador.players.playouts.table_rollout`'s instead, and with ``seats`` (a policy
    name per seat) :func:`matador.players.playouts.seat_rollout`'s."""
    from matador.fast import Policy
    from matador.fast.encode import WEIGHT_NAMES

    weights = greedy_weights()
    return Policy(kind, epsilon, tuple(weights[name] for name in WEIGHT_NAMES),
                  gap_thresholds(epsilon), seats)


def win_values(state: HandState) -> list[float]:
    """Win value of each seat in a finished hand: 1, 1/N if no winner, else 0."""
    outcome = state.outcome
    assert outcome is not None
    n = state.players
    if outcome.winner is None:
        return [1.0 / n] * n
    out = [0.0] * n
    out[outcome.winner] = 1.0
    return out


def policy_move(state: HandState, rng: RandomSource, epsilon: float = EPSILON) -> int:
    """The playout policy's move: greedy on the mover's own hand, random with ``epsilon``.

    The policy sees its hand, the ends, the tiles it has not seen and the
    next seat's tile count. A choice takes one ``rng.random()``, and one
    ``rng.randrange`` when it goes random; a forced move takes nothing.
    :func:`greedy_rollout` plays the same policy with fewer draws.
    """
    ids = state.legal_move_ids()
    if len(ids) == 1:
        return ids[0]
    if rng.random() < epsilon:
        return ids[rng.randrange(len(ids))]
    return _greedy_of(state, ids)


def _greedy_of(state: HandState, ids: tuple[int, ...]) -> int:
    s = state.to_move
    hands = state.hands
    hand = hands[s]
    return greedy_move(state._tb, hand, state.left, state.right, ids,
                       ALL_TILES & ~hand & ~state.played,
                       hands[(s + 1) % state.players].bit_count(), state.boneyard_size)


GAP_TABLE = 1024
"""Longest run of greedy choices a rollout draws at once (the next one is then drawn again)."""


@lru_cache(maxsize=16)
def gap_thresholds(epsilon: float) -> tuple[float, ...]:
    """``(1 - epsilon) ** (j + 1)`` for ``j < GAP_TABLE``: P(the next j + 1 choices are greedy)."""
    q = 1.0 - epsilon
    return tuple(q ** (j + 1) for j in range(GAP_TABLE))


def next_gap(rng: RandomSource, thresholds: tuple[float, ...]) -> int:
    """How many greedy choices come before the next random one (a geometric draw).

    With ``u = rng.random()`` it is the number of thresholds above ``u``: the
    choice after ``k`` greedy ones is random with probability ``epsilon``,
    independently, as in :func:`policy_move`; one draw serves a whole run.
    """
    u = rng.random()
    k = 0
    n = len(thresholds)
    while k < n and thresholds[k] > u:
        k += 1
    return k


def greedy_rollout(state: HandState, rng: RandomSource, epsilon: float = EPSILON) -> None:
    """Play ``state`` to the end, every seat using the policy of :func:`policy_move`.

    Each choice (a decision with more than one legal move) is random with
    probability ``epsilon``, greedy otherwise, as :func:`policy_move` makes it;
    the draws differ: one ``random()`` at the start and after each random
    choice gives the number of greedy choices before the next random one
    (:func:`next_gap`), and a random choice takes one ``randrange``. The
    kernel's greedy policy (:func:`kernel_policy`) makes exactly these moves
    from the same :class:`~matador.core.streams.Stream`.
    """
    tb = state._tb
    hands = state.hands
    after = _NEXT_SEAT[state.players]

    def greedy(ids: tuple[int, ...]) -> int:
        s = state.to_move
        hand = hands[s]
        return greedy_move(tb, hand, state.left, state.right, ids,
                           ALL_TILES & ~hand & ~state.played, hands[after[s]].bit_count(),
                           state.boneyard_size)

    gap_rollout(state, rng, epsilon, greedy)


def gap_rollout(state: HandState, rng: RandomSource, epsilon: float,
                choose: Callable[[tuple[int, ...]], int]) -> None:
    """Play ``state`` to the end: a forced move takes no draw; of the choices, ``choose(ids)``
    makes all but the random ones, whose places one ``random()`` at the start and after each
    random choice sets (:func:`next_gap`); a random choice takes one ``randrange``."""
    thresholds = gap_thresholds(epsilon)
    gap = next_gap(rng, thresholds)
    legal = state.legal_move_ids
    push = state.push
    while state.outcome is None:
        ids = legal()
        if len(ids) == 1:
            push(ids[0])
        elif gap:
            gap -= 1
            push(choose(ids))
        else:
            push(ids[rng.randrange(len(ids))])
            gap = next_gap(rng, thresholds)


#: ``_NEXT_SEAT[n][s]``: the seat after ``s`` at a table of ``n`` (R13).
_NEXT_SEAT: tuple[tuple[int, ...], ...] = tuple(
    tuple((s + 1) % n for s in range(n)) if n else () for n in range(5))


class EndgameSolver:
    """Exact max^n search of a fully known hand, with memoisation and a node limit.

    Each mover maximises its own win value (for two players this is
    minimax), except a seat given a policy in ``fixed`` (a choice among the
    legal moves, as :data:`matador.players.playouts.CHOOSERS` make it): that
    seat makes its policy's move, so the search is exact against it.
    :meth:`solve` returns ``None`` when the limit is reached. With ``stop_at_win``
    a mover's other moves are not searched once one wins outright (its win value
    1): the values are the same, found with fewer positions.
    """

    def __init__(self, node_limit: int = 20_000,
                 fixed: Sequence[Callable[[HandState, Sequence[int]], int] | None] = (),
                 stop_at_win: bool = False) -> None:
        self.node_limit = node_limit
        self.nodes = 0
        self.fixed = tuple(fixed)
        self.stop_at_win = stop_at_win
        self.memo: dict[tuple[object, ...], tuple[float, ...]] = {}

    def solve(self, state: HandState) -> tuple[float, ...] | None:
        """The win values of every seat under perfect play, or ``None`` if too big."""
        self.nodes = 0
        try:
            return self._search(state)
        except _TooBig:
            return None

    def _search(self, state: HandState) -> tuple[float, ...]:
        if state.outcome is not None:
            return tuple(win_values(state))
        key = (tuple(state.hands), state.left, state.right, state.to_move, state.drawn,
               state.boneyard)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _TooBig
        s = state.to_move
        best: tuple[float, ...] | None = None
        ids = state.legal_move_ids()
        choose = self.fixed[s] if s < len(self.fixed) else None
        if choose is not None and len(ids) > 1:
            ids = (choose(state, ids),)
        for m in ids:
            child = state.copy()
            child.push(m)
            value = self._search(child)
            if best is None or value[s] > best[s]:
                best = value
                if self.stop_at_win and value[s] >= 1.0:
                    break
        assert best is not None
        self.memo[key] = best
        return best


class _TooBig(Exception):
    pass


def tiles_in_play(state: HandState) -> int:
    """Tiles still held or in the boneyard (how big an endgame is)."""
    return sum(h.bit_count() for h in state.hands) + state.boneyard_size
