"""benchmarks/value_net.py: a network that learns a known answer, the bots that value moves
with it alone, and the script end to end (data, train, predict, arena). The features and
``sage``'s mixing are tested in ``tests/players/test_valuenet.py``."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchscripts import BENCHMARKS, load_benchmark
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.fast.layout import net_features
from matador.players.base import Budget
from matador.players.heuristic import HeuristicBot
from matador.players.valuenet import FEATURES

vn = load_benchmark("value_net")
SCRIPT = BENCHMARKS / "value_net.py"


def positions(hands: int) -> list[HandState]:
    """Every position of ``hands`` two-player classic hands between ``heuristic`` bots."""
    bot = HeuristicBot()
    out = []
    for hand in range(hands):
        rng = random.Random(hand)
        state = HandState.new(Rules.from_preset("classic"), 2, rng)
        while not state.is_over:
            out.append(state.copy())
            state.play(bot.choose(PlayerView.of(state, state.to_move), rng))
    return out


def test_the_network_learns_a_known_answer() -> None:
    rng = np.random.default_rng(3)
    x = np.zeros((10_000, FEATURES), np.float32)
    x[:, :4] = rng.integers(0, 2, size=(10_000, 4))
    y = ((x[:, 0] + x[:, 1]) == 2).astype(np.float32)  # an AND: no linear model gets it
    net, report = vn.train(x, y, hidden=16, epochs=3, seed=1, batch=64)
    assert report["loss_network"] < 0.05 < report["loss_logistic"]
    probe = np.zeros((2, FEATURES), np.float32)
    probe[0, :2] = 1
    assert net(probe)[0] > 0.9 > 0.1 > net(probe)[1]


def test_data_of_more_players_takes_every_seats_side() -> None:
    x, y = vn.generate("heuristic", "classic", 6, 1, 1, players=3)
    assert x.shape[1] == net_features(3) and len(x) == len(y) and len(x) % 3 == 0
    tiles = x[:, :28 * 5].reshape(len(x), 5, 28)
    assert (tiles.sum(axis=1) == 1).all()
    # the three sides of a position: each seat's hand first, then the next seat's
    for a, b in zip(x[0::3], x[1::3], strict=True):
        assert (a[28:56] == b[:28]).all()
    sums = y.reshape(-1, 3).sum(axis=1)  # one winner, or a third each
    assert np.allclose(sums, 1.0) and set(np.round(y, 4)) <= {0.0, 1.0, round(1 / 3, 4)}
    net, report = vn.train(x, y, hidden=4, epochs=1, seed=1)
    assert net.players == 3 and report["positions"] == len(x)


def test_training_can_start_from_a_trained_network() -> None:
    x, y = vn.generate("heuristic", "classic", 20, 2, 1)
    first, _ = vn.train(x, y, hidden=8, epochs=1, seed=1)
    again, report = vn.train(x, y, hidden=99, epochs=2, seed=1, init=first, lr=1e-3)
    assert again.w["w1"].shape == first.w["w1"].shape  # its own shape, not ``hidden``
    assert report["loss_init"] == pytest.approx(vn.log_loss(first(x[int(len(x) * 0.9):]),
                                                            y[int(len(x) * 0.9):]))
    assert not np.array_equal(again.w["w1"], first.w["w1"])  # the start was copied, then fit
    assert report["loss_network"] < 0.7


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    x, y = vn.generate("heuristic", "classic", 40, 1, 1)
    net, _ = vn.train(x, y, hidden=8, epochs=1, seed=1)
    path = tmp_path_factory.mktemp("vn") / "w.npz"
    net.save(str(path))
    return path


class Recording(vn.ValueSage):  # type: ignore[misc, name-defined]
    """The bot, noting what each search is given."""

    seen: list[object]

    def search(self, view: PlayerView, rng: random.Random, *args: object, **kw: object
               ) -> object:
        self.seen.append(view)
        return super().search(view, rng, *args, **kw)


def test_the_bot_sees_a_view_only_and_is_deterministic(weights: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATADOR_VALUE_NET", str(weights))
    for plies in (0, 4):
        bot = Recording(Budget(iterations=12), plies=plies)
        bot.seen = []
        for state in positions(1)[:12]:
            view = PlayerView.of(state, state.to_move)
            first = bot.choose(view, random.Random(5))
            assert first == bot.choose(view, random.Random(5))
            assert first in view.legal_move_ids()
        assert bot.seen and all(isinstance(v, PlayerView) for v in bot.seen)


def test_the_bot_needs_its_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MATADOR_VALUE_NET", raising=False)
    with pytest.raises(ValueError, match="MATADOR_VALUE_NET"):
        vn.ValueSage(Budget(iterations=5))


@pytest.mark.slow  # four subprocesses, one an arena: the whole run only
def test_data_train_and_arena_end_to_end(tmp_path: Path) -> None:
    data, w = tmp_path / "d.npz", tmp_path / "w.npz"
    run = [sys.executable, str(SCRIPT)]
    out = subprocess.run([*run, "data", "--bot", "greedy", "--hands", "30", "--out", str(data)],
                         capture_output=True, text=True, check=True).stdout
    assert "30 hands of greedy" in out
    out = subprocess.run([*run, "train", "--data", str(data), "--epochs", "1", "--hidden", "8",
                          "--out", str(w)], capture_output=True, text=True, check=True).stdout
    assert "log loss: constant" in out and w.exists()
    out = subprocess.run([*run, "predict", "--weights", str(w), "--hands", "2", "--playouts",
                          "2"], capture_output=True, text=True, check=True).stdout
    assert "positions of 2 new hands; Brier score: 2 table playouts" in out
    env = {**os.environ, "MATADOR_VALUE_NET": str(w), "COLUMNS": "200"}
    arena = [*run, "arena", "sage-vn4:10it", "random", "--preset", "classic", "--players", "2",
             "--deals", "1", "--seed", "2", "--bootstrap", "0"]
    done = subprocess.run(arena, capture_output=True, text=True, check=True, env=env)
    assert "sage-vn4:10it" in done.stdout and "played 2 hands" in done.stderr
    del env["MATADOR_VALUE_NET"]
    refused = subprocess.run(arena, capture_output=True, text=True, env=env)
    assert refused.returncode == 2 and "need MATADOR_VALUE_NET" in refused.stderr
