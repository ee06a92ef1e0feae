"""Perfect-information Monte Carlo (``pimc``) and its measuring stick, the ``cheater``.

PIMC samples worlds consistent with the view (:meth:`PlayerView.sample`),
plays every legal move in each world and values it by a greedy playout, or
exactly (:class:`EndgameSolver`) once few tiles are left; the averages over
worlds rank the moves. The same worlds serve every move (common random
numbers), so differences between moves are measured with less noise.

The ``cheater`` runs the same search on the true hands (only the boneyard
order stays unknown): a ceiling for measurement that only the arena can run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from matador.core.sampling import sampler_for
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.base import Bot, Budget, OracleBot
from matador.players.rollout import EndgameSolver, greedy_rollout, tiles_in_play, win_values

ENDGAME_TILES = 9
"""Solve a determinized world exactly once at most this many tiles are held or in the boneyard."""


@dataclass
class MoveStats:
    """Running estimates for one move: win value and points for the mover's seat."""

    move: int
    n: int = 0
    win: float = 0.0
    points: float = 0.0
    win_sq: float = 0.0
    wins: list[float] = field(default_factory=list)
    """The win value in each world, in order (worlds are shared by all moves: paired)."""

    def add(self, win: float, points: float) -> None:
        """Add one sample."""
        self.n += 1
        self.win += win
        self.win_sq += win * win
        self.points += points
        self.wins.append(win)

    @property
    def win_mean(self) -> float:
        """Mean win value (the probability of winning, no-winner hands counting 1/N)."""
        return self.win / self.n if self.n else 0.0

    @property
    def points_mean(self) -> float:
        """Mean points of the hand (R21 + R22) for the seat."""
        return self.points / self.n if self.n else 0.0


@dataclass
class SearchResult:
    """What a search found: statistics per legal move and how many worlds it looked at."""

    stats: dict[int, MoveStats]
    worlds: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    def best(self) -> int:
        """The move with the highest win value, then the most points, then the lowest id."""
        return max(self.stats.values(),
                   key=lambda s: (round(s.win_mean, 9), s.points_mean, -s.move)).move


def evaluate_worlds(make_world: Callable[[Random], HandState], seat: int,
                    legal: tuple[int, ...], rng: Random, budget: Budget,
                    solver: EndgameSolver | None = None) -> SearchResult:
    """Value each legal move over determinized worlds until ``budget`` is spent.

    ``make_world(rng)`` returns a fresh world at the current position. An
    iteration is one world, in which every legal move is tried once.
    """
    stats = {m: MoveStats(m) for m in legal}
    done = budget.clock()
    i = 0
    solver = solver or EndgameSolver()
    while not done(i):
        world = make_world(rng)
        exact = tiles_in_play(world) <= ENDGAME_TILES
        for m in legal:
            child = world.copy()
            child.push(m)
            value = None
            if exact:
                if len(solver.memo) > 200_000:
                    solver.memo.clear()
                value = solver.solve(child)
            if value is None:
                greedy_rollout(child, rng)
                wins = win_values(child)
                stats[m].add(wins[seat], _points(child, seat))
            else:
                stats[m].add(value[seat], points_estimate(child, seat))
        i += 1
    return SearchResult(stats, i)


def _points(state: HandState, seat: int) -> float:
    assert state.outcome is not None
    return float(state.outcome.points[seat])


def points_estimate(state: HandState, seat: int) -> float:
    """``seat``'s points in ``state`` once over, after a greedy finish of a copy if need be.

    The exact endgame search values wins, not points, so the points of a
    solved world come from this finish.
    """
    if state.outcome is None:
        state = state.copy()
        greedy_rollout(state, Random(0), 0.0)
    return _points(state, seat)


class PIMCBot(Bot):
    """Determinized search: sampled worlds, every move played out in each (``pimc``)."""

    kind = "pimc"
    default_budget = Budget(millis=150)

    def search(self, view: PlayerView, rng: Random, budget: Budget | None = None
               ) -> SearchResult:
        """Statistics for every legal move of ``view.seat`` (which must be to move)."""
        result = evaluate_worlds(sampler_for(view).sample, view.seat, view.legal_move_ids(), rng,
                                 budget or self.budget or self.default_budget)
        self.last_search = result
        return result

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        return self.search(view, rng).best()


class CheaterBot(OracleBot):
    """PIMC on the true hands, the boneyard order still unknown: a ceiling, never an opponent."""

    kind = "cheater"
    default_budget = PIMCBot.default_budget

    def _choose_truth(self, state: HandState, view: PlayerView, legal: tuple[int, ...],
                      rng: Random) -> int:
        hidden = list(state.boneyard) + list(state.deal.set_aside)

        def make_world(r: Random) -> HandState:
            world = state.copy()
            order = hidden[:]
            r.shuffle(order)
            world._bone = world._bone[:world._bpos] + tuple(order[:state.boneyard_size])
            return world

        return evaluate_worlds(make_world, state.to_move, legal, rng,
                               self.budget or self.default_budget).best()
