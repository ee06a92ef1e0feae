"""Information-set Monte Carlo tree search (``ismcts``).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree of
move sequences for the searching seat; every iteration samples a world
consistent with the view, walks down the tree among the moves legal in that
world (UCB1 with availability counts), adds one node, finishes the hand with
a greedy playout and backs up a value per seat, each node crediting the seat
that moved into it. So the same code searches two players (a zero-sum
tree) and three or four (multi-player back-ups).

Worlds are not all equally plausible: a seat's voluntary choices say
something about its hand. The search draws its worlds from a pool, each
weighted by how likely the other seats' observed choices were under a
softmax of the playout policy's evaluation (a tempered likelihood, so no
world dominates).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from random import Random

from matador.core.errors import ViewError
from matador.core.moves import DRAW
from matador.core.sampling import sampler_for
from matador.core.state import HandState
from matador.core.streams import Stream, stream_key
from matador.core.tiles import ALL_TILES
from matador.core.view import PlayerView
from matador.players.base import Bot, Budget
from matador.players.heuristic import play_score
from matador.players.pimc import (
    ENDGAME_TILES,
    MoveStats,
    SearchResult,
    kernel_enabled,
    points_estimate,
)
from matador.players.rollout import (
    EndgameSolver,
    greedy_rollout,
    kernel_policy,
    policy_move,
    tiles_in_play,
    win_values,
)

EXPLORATION = 0.7
"""UCB1 exploration constant (values are in [0, 1])."""
TEMPERATURE = 20.0
"""Softmax temperature (in greedy score points) of the choice model behind world weights.

Chosen offline with ``benchmarks/inference.py``: over 481 decisions of
PIMC-against-PIMC games (classic, two players), worlds weighted at 20 to 40
predicted the opponent's hand best (Brier score of the per-tile marginals
0.1279 against 0.1355 for uniform worlds; 6 gave 0.1311)."""
EXPAND_AFTER = 4
"""Visits a node needs before the tree grows below it (fewer, noisier nodes otherwise)."""
PAIRED_ROOT = True
"""Whether every root move is tried in each sampled world (paired, as in PIMC) or one by UCB."""
MODEL_OPPONENTS = True
"""Whether other seats' moves in the tree follow the playout policy (else UCB, as in SO-ISMCTS)."""
POOL_MAX = 256
"""Most worlds kept in the weighted pool."""
REUSE = 1
"""Iterations per pool world before the pool grows."""


class _Node:
    __slots__ = ("avail", "children", "player", "value", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.value = 0.0


def choice_log_likelihood(view: PlayerView, world: HandState) -> float:
    """Log-probability of the other seats' observed plays in ``world`` under a softmax policy.

    The policy scores plays as the playouts do (:func:`policy_move`: the
    mover's hand, the tiles it has not seen, the next seat's tile count).
    Only decisions between plays count: whether a seat drew or passed is
    already certain in every consistent world (R15-R17).
    """
    state = HandState(world.rules, world.deal)
    tb = state._tb
    total = 0.0
    for m in view.moves:
        s = state.to_move
        if s != view.seat and m < DRAW:
            legal = state.legal_move_ids()
            if len(legal) > 1 and legal[-1] < DRAW:
                hands = state.hands
                hand = hands[s]
                unseen = ALL_TILES & ~hand & ~state.played
                nxt = hands[(s + 1) % state.players].bit_count()
                bone = state.boneyard_size
                scores = [play_score(tb, hand, x, state.left, state.right, unseen, nxt, bone)
                          / TEMPERATURE for x in legal]
                top = max(scores)
                log_z = top + math.log(sum(math.exp(v - top) for v in scores))
                total += scores[legal.index(m)] - log_z
        state.push(m)
    return total


class _Leaf:
    """Where a descent ended: its world state, path, stream key and (once known) value."""

    __slots__ = ("key", "move", "path", "points", "state", "values")

    def __init__(self, move: int, state: HandState, path: list[_Node], key: int) -> None:
        self.move = move
        self.state = state
        self.path = path
        self.key = key
        self.values: Sequence[float] | None = None
        self.points = 0.0


class ISMCTSBot(Bot):
    """Single-observer ISMCTS with weighted determinizations (``ismcts``)."""

    kind = "ismcts"
    default_budget = Budget(millis=800)

    def __init__(self, budget: Budget | None = None, weighted: bool = True,
                 model_opponents: bool = MODEL_OPPONENTS, paired_root: bool = PAIRED_ROOT,
                 kernel: bool | None = None) -> None:
        super().__init__(budget)
        self.kernel = kernel
        """Roll out in the compiled kernel: True, False, or None for "when installed"."""
        self.weighted = weighted
        self.paired_root = paired_root
        self.model_opponents = model_opponents
        self._solver = EndgameSolver()

    def search(self, view: PlayerView, rng: Random, budget: Budget | None = None
               ) -> SearchResult:
        """Run the search; the root children's statistics become the move statistics.

        Playouts run on the streams ``stream_key(seed, iteration, move)``
        (``seed`` is the search's first draw from ``rng``), in the compiled
        kernel when it is used (see :func:`~matador.players.pimc.kernel_enabled`):
        with a paired root the leaves of one world's descents, which lie in
        different subtrees, go to it as one batch. Both paths give identical
        statistics for an iteration budget.
        """
        sampler = sampler_for(view)
        legal = view.legal_move_ids()
        self._solver = EndgameSolver(node_limit=5_000)
        use_kernel = kernel_enabled(self.kernel)
        seed = rng.getrandbits(64)
        root = _Node(-1)
        stats = {m: MoveStats(m) for m in legal}
        budget = budget or self.budget or self.default_budget
        done = budget.clock()
        give_up = budget.give_up()
        pool: list[HandState] = []
        logs: list[float] = []
        cumulative: list[float] = []
        i = 0
        while not done(i):
            if i >= len(pool) * REUSE:
                # Grow the pool (8, 16, 32... worlds), so short searches pay little for it.
                for _ in range(min(max(8, len(pool)), POOL_MAX - len(pool)) or 1):
                    try:
                        world = sampler.sample(rng, give_up if not pool or budget.millis
                                               is not None else None)
                    except ViewError:  # none found in time: go on with the pool, if any
                        if not pool:
                            raise
                        break
                    pool.append(world)
                    if self.weighted:
                        logs.append(choice_log_likelihood(view, world))
                if self.weighted:
                    top = max(logs)
                    cumulative = list(itertools.accumulate(math.exp(v - top) for v in logs))
            if self.weighted:
                k = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            else:
                k = i % len(pool)
            world = pool[min(k, len(pool) - 1)]
            leaves: list[_Leaf] = []
            if self.paired_root:
                # Every root move in the same world, as PIMC does: the comparison between
                # moves is paired, and below each move the tree keeps learning.
                for m in legal:
                    state = world.copy()
                    state.push(m)
                    child = root.children.get(m)
                    if child is None:
                        child = root.children[m] = _Node(view.seat)
                    path = [root, child]
                    self._descend(child, state, rng, view.seat, path)
                    leaves.append(self._leaf(m, state, path, view.seat,
                                             stream_key(seed, i, m)))
            else:
                path = [root]
                state = world.copy()
                self._descend(root, state, rng, view.seat, path)
                # When the descent left the root, credit the move it took.
                m = next((x for x, c in root.children.items() if len(path) > 1
                          and c is path[1]), -1)
                leaves.append(self._leaf(m, state, path, view.seat, stream_key(seed, i)))
            self._roll_out(leaves, view.seat, use_kernel)
            for leaf in leaves:
                assert leaf.values is not None
                for n in leaf.path:
                    n.visits += 1
                    if n.player >= 0:
                        n.value += leaf.values[n.player]
                if leaf.move >= 0:
                    stats[leaf.move].add(leaf.values[view.seat], leaf.points)
            i += 1
        result = SearchResult(stats, i)
        result.extra["worlds"] = float(len(pool))
        self.last_search = result
        return result

    def _descend(self, node: _Node, state: HandState, rng: Random, seat: int,
                 path: list[_Node]) -> None:
        """One descent from ``node`` (the last of ``path``) in the world ``state``.

        Moves ``state`` down the tree (growing it by at most one node) and
        extends ``path``; the caller values the leaf and backs it up.
        """
        while state.outcome is None:
            if self.model_opponents and state.to_move != seat:
                # The other seats play the playout policy on their sampled hands.
                m = policy_move(state, rng)
                child = node.children.get(m)
                if child is None:
                    child = node.children[m] = _Node(state.to_move)
                state.push(m)
                node = child
                path.append(child)
                continue
            legal = state.legal_move_ids()
            untried = [m for m in legal if m not in node.children]
            if untried and node.visits < EXPAND_AFTER:
                break  # a young node: its value comes from playouts until it has earned a subtree
            if untried:
                m = untried[rng.randrange(len(untried))]
                child = _Node(state.to_move)
                node.children[m] = child
                for x in legal:
                    other = node.children.get(x)
                    if other is not None:
                        other.avail += 1
                state.push(m)
                path.append(child)
                break
            best_m = legal[0]
            best_v = -1.0
            for x in legal:
                c = node.children[x]
                c.avail += 1
                v = c.value / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
                if v > best_v:
                    best_m, best_v = x, v
            node = node.children[best_m]
            state.push(best_m)
            path.append(node)

    def _leaf(self, move: int, state: HandState, path: list[_Node], seat: int, key: int
              ) -> _Leaf:
        """The leaf of a descent, valued at once when the hand is over or solved exactly."""
        leaf = _Leaf(move, state, path, key)
        if state.outcome is None and tiles_in_play(state) <= ENDGAME_TILES:
            if len(self._solver.memo) > 200_000:
                self._solver.memo.clear()
            values = self._solver.solve(state)  # exact, as PIMC does (None if too big)
            if values is not None:
                leaf.values = values
                leaf.points = points_estimate(state, seat)
        elif state.outcome is not None:
            leaf.values = win_values(state)
            leaf.points = float(state.outcome.points[seat])
        return leaf

    def _roll_out(self, leaves: list[_Leaf], seat: int, use_kernel: bool) -> None:
        """Value the leaves still open by a greedy playout on their own stream."""
        todo = [leaf for leaf in leaves if leaf.values is None]
        if not todo:
            return
        if use_kernel:
            from matador import fast

            out = fast.play_out([leaf.state for leaf in todo], [leaf.key for leaf in todo],
                                kernel_policy())
            n = todo[0].state.players
            for leaf, w, p in zip(todo, out.winner.tolist(), out.points[:, seat].tolist(),
                                  strict=True):
                leaf.values = [1.0 / n] * n if w < 0 else [float(s == w) for s in range(n)]
                leaf.points = float(p)
            return
        for leaf in todo:
            greedy_rollout(leaf.state, Stream(leaf.key))
            assert leaf.state.outcome is not None
            leaf.values = win_values(leaf.state)
            leaf.points = float(leaf.state.outcome.points[seat])

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        result = self.search(view, rng)
        if self.paired_root:
            return result.best()
        return max(result.stats.values(), key=lambda s: (s.n, s.win_mean, -s.move)).move

