"""One episode of an environment: a hand, or a whole match (R23), refereed by the core.

:class:`Episode` is what the Gymnasium and PettingZoo environments share: it
deals, keeps the true :class:`~matador.core.state.HandState` (hidden
information stays here), pushes moves the caller has checked, keeps the
:class:`~matador.envs.encoding.PublicTrack` in step, and scores the end.
It never decides a move: the rules are the core's.

>>> import random
>>> from matador.core.rules import Rules
>>> episode = Episode(Rules.from_preset("classic"), 2)
>>> episode.reset(random.Random(1))
>>> while not episode.is_over:
...     episode.push(episode.state.legal_move_ids()[0])
>>> sorted(episode.utilities())
[-1.0, 1.0]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from matador.core.errors import MatadorError
from matador.core.match import Match
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.envs.encoding import PublicTrack, encoder_for, mask_array


class Reward(StrEnum):
    """What a seat earns at the end of an episode.

    ``win``: 1 for the winner, ``-1 / (players - 1)`` for each other seat, 0
    for everyone when there is no winner (R20); zero-sum. ``points``: the
    seat's points (R21, R22; match totals with ``match``) minus the mean of
    the other seats' points; zero-sum too.
    """

    WIN = "win"
    POINTS = "points"


def reward_of(value: str | Reward) -> Reward:
    """Read a reward kind, with an error naming the choices."""
    try:
        return Reward(value)
    except ValueError:
        raise MatadorError(f"reward: {value!r} is not one of 'win', 'points'") from None


def utilities(reward: Reward, winner: int | None, points: Sequence[int]) -> list[float]:
    """Each seat's end-of-episode reward (see :class:`Reward`)."""
    n = len(points)
    if reward is Reward.WIN:
        if winner is None:
            return [0.0] * n
        return [1.0 if s == winner else -1.0 / (n - 1) for s in range(n)]
    total = sum(points)
    return [p - (total - p) / (n - 1) for p in points]


class Episode:
    """A hand, or a match with ``match=True``, for ``players`` seats under ``rules``."""

    def __init__(self, rules: Rules, players: int, *, match: bool = False,
                 reward: str | Reward = Reward.WIN) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.match_mode = match
        self.reward = reward_of(reward)
        self.encoder = encoder_for(rules, players)
        self.match: Match | None = None
        self.state: HandState
        self.track: PublicTrack
        self.scores: tuple[int, ...] | None = None
        """Match totals before the current hand (``None`` outside a match)."""
        self.leader_by_rule = True
        self.hands_played = 0

    def reset(self, rng: random.Random) -> None:
        """Deal a new hand (the first of a new match with ``match``) from ``rng``."""
        self.hands_played = 0
        if self.match_mode:
            self.match = Match(self.rules, self.players, rng)
            self._next_hand()
        else:
            self.match = None
            self.scores = None
            self.leader_by_rule = True
            self._start(HandState.new(self.rules, self.players, rng))

    def _next_hand(self) -> None:
        assert self.match is not None
        self.leader_by_rule = self.match.leader_by_rule
        self.scores = tuple(self.match.scores)
        self._start(self.match.next_hand())

    def _start(self, state: HandState) -> None:
        self.state = state
        self.track = PublicTrack.of(state, self.leader_by_rule)

    @property
    def is_over(self) -> bool:
        """Whether the episode (the hand, or the match) is over."""
        if self.match is not None:
            return self.match.is_over
        return self.state.outcome is not None

    @property
    def to_move(self) -> int:
        """The seat to move, -1 once the episode is over."""
        return self.state.to_move

    def push(self, m: int) -> None:
        """Play move id ``m`` for the seat to move; it must be legal (unchecked).

        In a match, a finished hand is scored and the next one dealt at once.
        """
        state = self.state
        self.track.update(state.to_move, m, state.left, state.right, state.drawn)
        state.push(m)
        if state.outcome is not None and self.match is not None:
            self.match.finish_hand(state)
            self.hands_played += 1
            if not self.match.is_over:
                self._next_hand()

    def legal_mask(self) -> int:
        """The 128-bit mask of the mover's legal move ids."""
        return self.state.legal_mask()

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The 128 action flags of ``seat`` (all 0 unless it is to move)."""
        return mask_array(self.state.legal_mask() if self.state.to_move == seat else 0)

    def observe(self, seat: int, out: npt.NDArray[np.float32] | None = None
                ) -> npt.NDArray[np.float32]:
        """``seat``'s observation vector (see :mod:`matador.envs.encoding`)."""
        if out is None:
            out = self.encoder.empty()
        self.encoder.encode_state(out, self.state, self.track, seat, self.scores)
        return out

    def view(self, seat: int) -> PlayerView:
        """``seat``'s :class:`PlayerView` of the current hand (what a bot is given)."""
        return PlayerView.of(self.state, seat, leader_by_rule=self.leader_by_rule,
                             scores=self.scores)

    def utilities(self) -> list[float]:
        """Each seat's reward for the finished episode (see :class:`Reward`)."""
        if self.match is not None:
            if not self.match.is_over:
                raise MatadorError("the match is not over")
            return utilities(self.reward, self.match.winner, self.match.scores)
        outcome = self.state.outcome
        if outcome is None:
            raise MatadorError("the hand is not over")
        return utilities(self.reward, outcome.winner, outcome.points)
