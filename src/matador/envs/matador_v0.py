"""The PettingZoo AEC environment ``matador_v0``: every seat an agent, 2 to 4 of them.

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers, R13). Each
agent's observation is ``{"observation": float32[size], "action_mask":
int8[128]}`` (see :mod:`matador.envs.encoding`): only its own tiles and the
public history; the mask is all 0 unless the agent is to move. Actions are
the 128 move ids. Rewards come at the end of the episode (a hand, or a match
with ``match=True``), all agents terminate together. :func:`env` wraps the
raw environment the standard way (an illegal move ends the game with reward
-1 for its agent; out-of-range actions and calls out of order raise).

>>> from matador.envs import matador_v0
>>> env = matador_v0.env(preset="six", players=3)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else \\
...         int(observation["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.close()
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from matador.core.errors import MatadorError
from matador.core.moves import MOVE_NAMES
from matador.core.rules import Rules, resolve_preset
from matador.envs.encoding import NUM_ACTIONS, observation_size
from matador.envs.episode import Episode
from matador.envs.render import render

__all__ = ["env", "raw_env", "wrap"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (the usual PettingZoo entry point); arguments as :class:`raw_env`."""
    return wrap(raw_env(**kwargs))


def wrap(aec: AECEnv) -> AECEnv:
    """``aec`` behind PettingZoo's standard wrappers, as :func:`env` wraps :class:`raw_env`."""
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """Matador for ``players`` agents under ``preset`` with house-rule ``rules`` overrides.

    ``rules`` maps RULES.md parameter names to values (``{"draw": "one"}``);
    ``match`` makes an episode a whole match; ``reward`` is ``"win"`` or
    ``"points"`` (see :class:`~matador.envs.episode.Reward`); ``render_mode``
    is ``"human"`` (prints) or ``"ansi"`` (returns the text).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "matador_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, preset: str = "classic", players: int = 2,
                 rules: Mapping[str, Any] | None = None, match: bool = False,
                 reward: str = "win", render_mode: str | None = None) -> None:
        EzPickle.__init__(self, preset, players, rules, match, reward, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MatadorError(f"render_mode: {render_mode!r} is not one of 'human', 'ansi'")
        self.rules = Rules.from_preset(resolve_preset(preset), rules or {})
        self.episode = Episode(self.rules, players, match=match, reward=reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        size = observation_size(players)
        box = spaces.Box(low=-1.0, high=1.0, shape=(size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._rng = random.Random()
        self._selector = AgentSelector(self.agents)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the 128 move ids."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation and action mask (its own view only)."""
        seat = self._seat[agent]
        return {"observation": self.episode.observe(seat),
                "action_mask": self.episode.action_mask(seat)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; the same ``seed`` deals the same hands."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode.reset(random.Random(self._rng.getrandbits(64)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.episode.to_move]

    def step(self, action: Any) -> None:
        """Play ``action`` (a legal move id) for the agent to move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self.episode
        m = int(action)
        if not 0 <= m < NUM_ACTIONS or not episode.legal_mask() >> m & 1:
            raise MatadorError(f"{agent}: action {action!r} is not a legal move here")
        self._cumulative_rewards[agent] = 0.0
        episode.push(m)
        if episode.is_over:
            for a, value in zip(self.agents, episode.utilities(), strict=True):
                self.rewards[a] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[episode.to_move]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text: public facts and the hand of the agent to move (its own view)."""
        return render(self.episode, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return "matador_v0"

    def action_name(self, action: int) -> str:
        """The record notation of an action id (``"L5-4"``, ``"draw"``)."""
        return MOVE_NAMES[action]

