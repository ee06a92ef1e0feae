"""The Gymnasium environment ``matador/Matador-v0``: one learning seat, bots in the others.

``import matador.envs`` registers it. The learner plays ``seat`` (or a
random seat each episode with ``seat=None``); the other seats are played by
bots given as specs (``"greedy"``, ``"pimc:100ms"``... as ``matador arena``
takes them, default ``greedy``) or by callables ``policy(observation, mask)
-> action`` (self-play against a frozen copy, say), which see only their own
seat's observation. Deal and draws happen inside the environment.

An observation is the learner's ``float32`` vector (see
:mod:`matador.envs.encoding`); ``info["action_mask"]`` and
:meth:`MatadorEnv.action_masks` give its legal moves. The reward comes at the
end of the hand, or of the match with ``match=True``. An illegal action
ends the episode with ``illegal_reward`` (default -1) and
``info["illegal_action"] = True``; ``illegal_action="raise"`` raises instead.

>>> import gymnasium as gym
>>> import matador.envs
>>> env = gym.make("matador/Matador-v0", preset="classic", opponents="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum()) > 0
((196,), True)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][0])
...     observation, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> reward in (-1.0, 0.0, 1.0)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from matador.core.errors import MatadorError
from matador.core.rules import Rules, resolve_preset
from matador.envs.encoding import NUM_ACTIONS, observation_size
from matador.envs.episode import Episode
from matador.envs.render import render
from matador.players.base import Bot, make_bot

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
"""An opponent as a function of its own observation and action mask."""

ENV_ID = "matador/Matador-v0"


class MatadorEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """Matador from one seat's point of view (see the module docstring).

    ``preset`` and ``rules`` (parameter overrides) choose the rules,
    ``players`` the table size; ``opponents`` is one spec or callable for
    every other seat, or a sequence of ``players - 1`` of them in turn order
    after the learner; ``reward`` is ``"win"`` or ``"points"``
    (:class:`~matador.envs.episode.Reward`).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, preset: str = "classic", players: int = 2,
                 rules: Mapping[str, Any] | None = None, seat: int | None = 0,
                 opponents: str | Policy | Sequence[str | Policy] = "greedy",
                 reward: str = "win", match: bool = False, illegal_action: str = "penalize",
                 illegal_reward: float = -1.0, render_mode: str | None = None) -> None:
        self.rules = Rules.from_preset(resolve_preset(preset), rules or {})
        self.episode = Episode(self.rules, players, match=match, reward=reward)
        self.players = players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < players):
            raise MatadorError(f"seat: {seat!r} is not a seat (0..{players - 1}) or None")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        if isinstance(opponents, str) or callable(opponents):
            opponents = [opponents] * (players - 1)
        if len(opponents) != players - 1:
            raise MatadorError(f"opponents: {len(opponents)} given for {players - 1} other seats")
        self.opponents: list[Bot | Policy] = [
            make_bot(o) if isinstance(o, str) else o for o in opponents
        ]
        if illegal_action not in ("penalize", "raise"):
            raise MatadorError(f"illegal_action: {illegal_action!r} is not 'penalize' or 'raise'")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MatadorError(f"render_mode: {render_mode!r} is not one of 'human', 'ansi'")
        self.render_mode = render_mode
        size = observation_size(players)
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random()
        self._bot_rng = random.Random()
        self._obs = np.zeros(size, np.float32)
        self._illegal_end = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new episode and play the bots up to the learner's first turn."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        self._bot_rng = random.Random(self._rng.getrandbits(64))
        if self.fixed_seat is None:
            self.seat = self._rng.randrange(self.players)
        self._illegal_end = False
        self.episode.reset(random.Random(self._rng.getrandbits(64)))
        self._play_others()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool,
                                         dict[str, Any]]:
        """Play the learner's ``action``, then the bots up to its next turn or the end."""
        episode = self.episode
        if episode.is_over or self._illegal_end:
            raise MatadorError("the episode is over: call reset()")
        m = int(action)
        if not 0 <= m < NUM_ACTIONS or not episode.legal_mask() >> m & 1:
            if self.illegal_action == "raise":
                raise MatadorError(f"action {action!r} is not a legal move here")
            self._illegal_end = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        episode.push(m)
        self._play_others()
        if self.render_mode == "human":
            self.render()
        reward = episode.utilities()[self.seat] if episode.is_over else 0.0
        return self._observation(), reward, episode.is_over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal moves as 128 flags (for masked algorithms)."""
        return self.episode.action_mask(self.seat)

    def render(self) -> str | None:
        """The table as text (see :func:`~matador.envs.render.render_text`)."""
        return render(self.episode, self.render_mode)

    def _play_others(self) -> None:
        episode = self.episode
        n = self.players
        while not episode.is_over and episode.to_move != self.seat:
            s = episode.to_move
            opponent = self.opponents[(s - self.seat) % n - 1]
            mask = episode.legal_mask()
            if mask & (mask - 1) == 0:  # one legal move: no need to ask
                m = mask.bit_length() - 1
            elif isinstance(opponent, Bot):
                m = int(opponent.choose(episode.view(s), self._bot_rng))
            else:
                m = int(opponent(episode.observe(s), episode.action_mask(s)))
                if not 0 <= m < NUM_ACTIONS or not mask >> m & 1:
                    raise MatadorError(f"opponent policy of seat {s} chose {m!r}, "
                                       "which is not a legal move")
            episode.push(m)

    def _observation(self) -> npt.NDArray[np.float32]:
        return self.episode.observe(self.seat, self._obs).copy()

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat}
        if self.episode.is_over and self.episode.state.outcome is not None:
            info["outcome"] = self.episode.state.outcome.to_json()
        if self.episode.match is not None:
            info["scores"] = list(self.episode.match.scores)
        return info


def _register() -> None:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="matador.envs.gym_env:MatadorEnv")


_register()
