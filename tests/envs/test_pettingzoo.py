"""PettingZoo's own conformance kit on matador_v0, for every preset and player count."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from lanes import classic_fast
from matador.core.errors import MatadorError
from matador.core.rules import PRESETS, Rules
from matador.envs import matador_v0

CONFIGS = [(p, n) for p in PRESETS for n in range(2, 5) if Rules.from_preset(p).allows_players(n)]

# The two warnings every environment with Dict observations outside PettingZoo's own lists gets.
DICT_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_api_test(preset: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(matador_v0.env(preset=preset, players=players), num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


def test_api_test_house_rules_and_match() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(matador_v0.env(preset="classic", players=3, match=True, reward="points",
                                rules={"draw": "one", "matador_anytime": False}),
                 num_cycles=500)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("paluba", 2), ("six", 4),
                                                 ("russian", 3)])
def test_seed_test(preset: str, players: int) -> None:
    seed_test(lambda: matador_v0.env(preset=preset, players=players), num_cycles=200)


def test_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    def ansi_ok(text: Any) -> bool:
        return isinstance(text, str) and "line:" in text and "boneyard" in text

    render_test(lambda render_mode=None: matador_v0.env(render_mode=render_mode),
                custom_tests={"ansi": ansi_ok})
    assert "to move" in capsys.readouterr().out  # "human" printed the table


def play(env: Any, seed: int) -> list[tuple[str, int | None, float]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[tuple[str, int | None, float]] = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, reward))
        env.step(action)
    return trace


def test_same_seed_same_episode_and_zero_sum_rewards() -> None:
    a, b = matador_v0.env(players=4), matador_v0.env(players=4)
    assert play(a, 11) == play(b, 11)
    assert play(a, 11) != play(a, 12)
    trace = play(a, 13)
    final = {agent: reward for agent, action, reward in trace if action is None}
    assert set(final) == {f"player_{s}" for s in range(4)}
    assert sum(final.values()) == pytest.approx(0.0)


def test_only_the_mover_has_a_mask_and_illegal_moves_end_the_game() -> None:
    env = matador_v0.env()
    env.reset(seed=3)
    mover = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == mover)
    illegal = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        env.step(illegal)  # TerminateIllegalWrapper: the mover loses
    assert env.rewards[mover] == -1 and all(env.terminations.values())
    raw = matador_v0.raw_env()
    raw.reset(seed=3)
    with pytest.raises(MatadorError, match="not a legal move"):
        raw.step(illegal)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(MatadorError, match="render_mode"):
        matador_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(MatadorError, match="reward"):
        matador_v0.raw_env(reward="money")
    with pytest.raises(ValueError, match="players"):
        matador_v0.raw_env(preset="paluba", players=3)
    with pytest.raises(ValueError, match="unknown parameter"):
        matador_v0.raw_env(rules={"colour": "red"})
