"""python_matador under OpenSpiel's own checks, the resample invariant, and OpenSpiel's bots."""

from __future__ import annotations

import math
import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from lanes import classic_fast
from matador.core.errors import MatadorError
from matador.core.moves import DRAW, Move
from matador.core.rules import PRESETS, Rules
from matador.envs.encoding import encode_view
from matador.envs.openspiel import MatadorState, check_resample, max_moves
from matador.envs.spielbots import DeterminizedMCTSBot, MatadorBot, ismcts_bot

CONFIGS = [(p, n) for p in PRESETS for n in range(2, 5) if Rules.from_preset(p).allows_players(n)]


def load(preset: str = "classic", players: int = 2, **params: Any) -> Any:
    return pyspiel.load_game("python_matador", {"preset": preset, "players": players, **params})


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_random_sim_test_with_serialization(preset: str, players: int) -> None:
    game = load(preset, players)
    assert game.num_players() == players and game.num_distinct_actions() == 128
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_parameters() -> None:
    game = load("six", 3, rules='{"draw": "until_playable"}', utility="points")
    assert game.get_parameters()["utility"] == "points"
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 28
    with pytest.raises(MatadorError, match=r"overrides\.colour"):
        load(rules='{"colour": 1}')
    with pytest.raises(MatadorError, match="not a JSON object"):
        load(rules="draw=one")
    with pytest.raises(ValueError, match="players"):
        load("paluba", 4)
    with pytest.raises(MatadorError, match="utility"):
        load(utility="money")
    assert pyspiel.load_game("python_matador(players=4,preset=spanish)").num_players() == 4


def walk(game: Any, seed: int, every: Any) -> int:
    """Play a random game, calling ``every(state)`` at each state; return the states seen."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    seen = 0
    while True:
        every(state)
        seen += 1
        if state.is_terminal():
            return seen
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def resample_checker(samples: int, seed: int) -> Any:
    sampler = np.random.RandomState(seed).uniform

    def check(state: MatadorState) -> None:
        if state.is_terminal():
            return
        for player in range(state.num_players()):
            check_resample(state, player, sampler, samples)

    return check


@pytest.mark.parametrize(("preset", "players"), [
    ("classic", 2), pytest.param("paluba", 2, marks=pytest.mark.slow),
    pytest.param("six", 3, marks=pytest.mark.slow), ("russian", 4)])
def test_resample_invariant_on_every_state(preset: str, players: int) -> None:
    game = load(preset, players)
    for seed in range(2):
        walk(game, seed, resample_checker(1, seed))


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_resample_invariant_on_every_state_many(preset: str, players: int) -> None:
    game = load(preset, players)
    for seed in range(10):
        walk(game, seed, resample_checker(3, seed))


def test_resample_redeals_the_hidden_tiles() -> None:
    game = load()
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node() or state.move_number() < 40:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(state.legal_actions()[0]))
    player = state.current_player()
    other = 1 - player
    hands = {tuple(state.resample_from_infostate(player, rng.uniform).hand_state.hands)
             for _ in range(20)}
    assert len(hands) > 1
    assert all(h[player] == state.hand_state.hands[player] for h in hands)
    assert any(h[other] != state.hand_state.hands[other] for h in hands)


def test_observation_tensor_is_the_shared_encoding() -> None:
    game = load("six", 3)

    def same(state: MatadorState) -> None:
        if state.hand_state is None:
            return
        for p in range(3):
            got = np.asarray(state.observation_tensor(p), np.float32)
            assert np.array_equal(got, encode_view(state.view(p)))

    assert walk(game, 3, same) > 30
    assert game.observation_tensor_shape() == [229]
    assert game.information_state_tensor_shape() == [229 + max_moves(
        Rules.from_preset("six"), 3) * (3 + 5 + 28)]


def test_information_state_names_own_draws_only() -> None:
    game = load()
    rng = np.random.RandomState(0)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if state.hand_state is not None:  # a draw: the drawer learns the tile
                    drawer = state.hand_state.to_move
                    tile = int(rng.choice([a for a, _ in state.chance_outcomes()]))
                    state.apply_action(tile)
                    name = str(Move(tile)) if tile < 28 else ""
                    assert f"{drawer}:draw {name}" in state.information_state_string(drawer)
                    assert f"draw {name}" not in state.information_state_string(1 - drawer)
                    return
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    pytest.fail("no draw in 30 hands")


def test_draws_are_actions_then_chance() -> None:
    """A draw, forced (R16) or chosen (R15's option), is action 126, then a chance node."""
    game = load()
    rng = np.random.RandomState(2)
    forced = chosen = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                continue
            legal = state.legal_actions()
            forced += legal == [DRAW]
            chosen += DRAW in legal and len(legal) > 1
            action = DRAW if DRAW in legal else int(rng.choice(legal))
            state.apply_action(action)
            if action == DRAW:
                core = state.hand_state
                assert state.is_chance_node()
                unseen = 28 - sum(h.bit_count() for h in core.hands) - core.played.bit_count()
                assert len(state.chance_outcomes()) == unseen == core.boneyard_size
    assert forced > 10 and chosen > 10


def test_pickle_and_rl_environment() -> None:
    game = load("russian", 3)
    state = game.new_initial_state()
    walk(game, 1, lambda s: None)
    clone = pickle.loads(pickle.dumps(state))
    assert str(clone) == str(state)
    env = rl_environment.Environment(game)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][player][0]])
    assert sum(step.rewards) == pytest.approx(0.0)


def test_evaluate_bots_with_our_bots_as_pyspiel_bots() -> None:
    game = load("classic", 3)
    bots = [MatadorBot("greedy", seed=1), MatadorBot("heuristic", seed=2),
            ismcts_bot(game, simulations=10, seed=3)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert sum(returns) == pytest.approx(0.0) and max(returns) in (0.0, 1.0)


def wilson_low(wins: float, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def score_vs_random(make: Any, games: int, preset: str = "classic") -> tuple[float, float]:
    """Mean score (1 win, 0.5 no winner, 0 loss) of a bot against random, seats alternating."""
    game = load(preset)
    total = 0.0
    for i in range(games):
        seat = i % 2
        bots = [MatadorBot("random", seed=i), MatadorBot("random", seed=i)]
        bots[seat] = make(game, i)
        returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(i // 2))
        total += (returns[seat] + 1) / 2
    return total / games, wilson_low(total, games)


@pytest.mark.slow
@pytest.mark.long(600)
def test_openspiel_ismcts_beats_random() -> None:
    """OpenSpiel's ISMCTSBot, unchanged, wins at least 60% against random (95% interval)."""
    mean, low = score_vs_random(lambda g, i: ismcts_bot(g, simulations=200, seed=i), 160)
    assert low >= 0.6, (mean, low)


@pytest.mark.slow
@pytest.mark.long(300)
def test_openspiel_mcts_with_determinisation_beats_random() -> None:
    mean, low = score_vs_random(lambda g, i: DeterminizedMCTSBot(g, 8, 25, seed=i), 120)
    assert low > 0.5, (mean, low)
