"""Gymnasium's env_checker and the single-seat environment's own contract."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env

import matador.envs  # noqa: F401 (registers matador/Matador-v0)
from matador.core.errors import MatadorError
from matador.envs.gym_env import ENV_ID, MatadorEnv


@pytest.mark.parametrize("kwargs", [
    {},
    {"preset": "six", "players": 4, "opponents": "random", "seat": None},
    {"preset": "paluba", "match": True, "reward": "points"},
    {"preset": "russian", "players": 3, "rules": {"draw": "until_playable"}},
])
def test_check_env(kwargs: dict[str, Any]) -> None:
    env = gym.make(ENV_ID, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def run(env: MatadorEnv, seed: int) -> list[tuple[int, float, bool]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    while True:
        assert np.array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((action, reward, terminated))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            return trace


def test_same_seed_same_episode() -> None:
    a, b = MatadorEnv(players=3, opponents="heuristic"), MatadorEnv(players=3,
                                                                    opponents="heuristic")
    assert run(a, 5) == run(b, 5)
    assert any(run(a, 5) != run(a, s) for s in (6, 7, 8))


def test_rewards_at_the_end_of_the_hand() -> None:
    env = MatadorEnv(opponents="random")
    rewards = [run(env, s)[-1][1] for s in range(30)]
    assert set(rewards) <= {-1.0, 0.0, 1.0} and 1.0 in rewards and -1.0 in rewards
    trace = run(env, 1)
    assert all(r == 0.0 for _, r, _ in trace[:-1])


def test_match_rewards_at_the_end_of_the_match() -> None:
    env = MatadorEnv(match=True, opponents="greedy")
    _, info = env.reset(seed=2)
    hands = set()
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _obs, reward, terminated, _, info = env.step(action)
        hands.add(env.episode.hands_played)
        if terminated:
            break
        assert reward == 0.0
    assert reward in (-1.0, 1.0) and len(hands) > 1 and max(info["scores"]) >= 100


def test_illegal_actions() -> None:
    env = MatadorEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(MatadorError, match="reset"):
        env.step(illegal)
    strict = MatadorEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(MatadorError, match="not a legal move"):
        strict.step(illegal)


def test_callable_opponents_see_their_own_observation() -> None:
    seen: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]] = []

    def first_legal(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        seen.append((obs, mask))
        return int(np.flatnonzero(mask)[0])

    env = MatadorEnv(players=3, opponents=[first_legal, "random"])
    run(env, 4)
    assert seen and all(mask.sum() >= 2 for _, mask in seen)

    env = MatadorEnv(opponents=lambda obs, mask: 127 if mask[127] == 0 else 126)
    with pytest.raises(MatadorError, match="not a legal move"):
        for s in range(20):
            run(env, s)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(MatadorError, match="seat"):
        MatadorEnv(seat=2)
    with pytest.raises(MatadorError, match="opponents"):
        MatadorEnv(players=3, opponents=["greedy"])
    with pytest.raises(MatadorError, match="illegal_action"):
        MatadorEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown bot"):
        MatadorEnv(opponents="grandmaster")


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = MatadorEnv(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "seat 0 holds" in text
    human = MatadorEnv(render_mode="human")
    human.reset(seed=1)
    assert "line:" in capsys.readouterr().out
