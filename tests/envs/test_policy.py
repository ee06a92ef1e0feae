"""The policy:FILE bot: the file format, its errors, ``matador arena``, the training example."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.envs.encoding import encode_view
from matador.envs.policy import PolicyBot, load_policy, save_policy
from matador.players.base import BotError, make_bot

ROOT = Path(__file__).resolve().parents[2]


def tiny_layers(players: int = 2, seed: int = 0) -> list[tuple[Any, Any]]:
    rng = np.random.default_rng(seed)
    size = {2: 196, 3: 229, 4: 262}[players]
    return [(rng.normal(size=(size, 16)).astype(np.float32), np.zeros(16, np.float32)),
            (rng.normal(size=(16, 128)).astype(np.float32), rng.normal(size=128).astype(
                np.float32))]


def test_round_trip_and_choice(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    layers = tiny_layers()
    save_policy(path, layers, players=2, preset="classic", note="test")
    policy = load_policy(path)
    assert policy.meta["note"] == "test" and policy.meta["players"] == 2
    bot = make_bot(f"policy:{path}")
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{path}"
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(5))
    rng = random.Random(0)
    while not state.is_over:
        view = PlayerView.of(state, state.to_move)
        move = bot.choose(view, rng)
        legal = view.legal_move_ids()
        if len(legal) > 1:  # the legal move of highest logit
            h = np.maximum(encode_view(view) @ layers[0][0] + layers[0][1], 0)
            z = h @ layers[1][0] + layers[1][1]
            assert move == max(legal, key=lambda a: z[a])
        state.play(move)


def test_bot_sees_a_view_only(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    save_policy(path, tiny_layers(), players=2)
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(5))
    with pytest.raises(TypeError, match="PlayerView"):
        make_bot(f"policy:{path}").choose(state, random.Random(0))  # type: ignore[arg-type]


def test_errors_name_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="cannot read"):
        make_bot(f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(BotError, match="needs an argument"):
        make_bot("policy")
    (tmp_path / "junk.npz").write_text("not numpy")
    with pytest.raises(BotError, match="not a policy file"):
        load_policy(tmp_path / "junk.npz")
    np.savez(tmp_path / "nometa.npz", w0=np.zeros((196, 128)))
    with pytest.raises(BotError, match="no 'meta'"):
        load_policy(tmp_path / "nometa.npz")
    with pytest.raises(BotError, match="first layer takes 196 inputs"):
        save_policy(tmp_path / "x.npz", tiny_layers(2), players=3)
    with pytest.raises(BotError, match="logits"):
        save_policy(tmp_path / "x.npz", [tiny_layers()[0]], players=2)
    path = tmp_path / "three.npz"
    save_policy(path, tiny_layers(3), players=3)
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(5))
    bot = make_bot(f"policy:{path}")
    with pytest.raises(BotError, match="trained for 3 players"):
        while True:  # the first choice with two or more legal moves asks the policy
            view = PlayerView.of(state, state.to_move)
            state.play(bot.choose(view, random.Random(0)))


def test_arena_command_plays_the_policy(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    save_policy(path, tiny_layers(), players=2)
    out = tmp_path / "arena.json"
    run = subprocess.run(
        [sys.executable, "-m", "matador.cli.main", "arena", f"policy:{path}", "random",
         "--preset", "classic", "--players", "2", "--deals", "20", "--seed", "1",
         "--bootstrap", "0", "--json", str(out)],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text())
    name = f"policy:{path}"
    assert data["games_per_bot"][name] == 40 and data["forfeits"][name] == 0
    assert data["moves"][name] > 100


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("train_policy",
                                                  ROOT / "examples" / "train_policy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_example_runs_and_learns_something(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "trained.npz"
    example = load_example()
    assert example.main(["--hands", "100", "--batch", "50", "--hidden", "8", "--opponent",
                         "random", "--out", str(out)]) == 0
    assert "mean reward" in capsys.readouterr().out
    policy = load_policy(out)
    assert policy.meta["trained_against"] == "random" and policy.meta["hands"] == 100


def test_gradient_of_the_example_matches_finite_differences() -> None:
    example = load_example()
    rng = np.random.default_rng(0)
    net = example.Net(6, 5, rng)
    net.params["w2"] = rng.normal(size=(5, 128))
    x = rng.normal(size=(4, 6))
    mask = np.zeros((4, 128))
    mask[:, [3, 40, 126]] = 1
    actions = np.array([3, 40, 126, 3])
    returns = np.array([1.0, -1.0, 0.5, 0.0])

    def loss(params: dict[str, Any]) -> float:
        saved = net.params
        net.params = params
        _h, probs, value = net.forward(x, mask)
        net.params = saved
        adv = returns - value  # treated as a constant in the gradient below
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1)
        pg = -(adv_const * logp[np.arange(4), actions]).mean() - 0.01 * ent.mean()
        return float(pg + 0.25 * (adv ** 2).mean())

    _, _, value = net.forward(x, mask)
    adv_const = returns - value
    before = {k: v.copy() for k, v in net.params.items()}
    # one plain gradient step via update() with Adam disabled is hard: compare directions
    eps = 1e-6
    numeric = np.zeros_like(before["b2"])
    for j in (3, 40, 126):
        plus = {k: v.copy() for k, v in before.items()}
        plus["b2"][j] += eps
        minus = {k: v.copy() for k, v in before.items()}
        minus["b2"][j] -= eps
        numeric[j] = (loss(plus) - loss(minus)) / (2 * eps)
    net.update(x, mask, actions, returns, lr=1e-3, entropy=0.01)
    step = before["b2"] - net.params["b2"]  # Adam's first step: lr * sign(gradient)
    for j in (3, 40, 126):
        assert np.sign(step[j]) == np.sign(numeric[j])


@pytest.mark.slow  # a benchmark script: the whole run only
def test_benchmark_script_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_envs", ROOT / "benchmarks" / "envs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "envs.json"
    assert module.main(["--seconds", "0.05", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert rows[0]["environment"].startswith("openspiel python_block_dominoes")
    assert len(rows) == 7 and all(r["steps"] > 0 for r in rows)
    assert any("do-nothing env" in r["environment"] for r in rows)
    assert "x dominoes" in capsys.readouterr().out
