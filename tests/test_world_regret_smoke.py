"""benchmarks/world_regret.py: the choices' likelihood, the effective size, the recorded
decisions, the candidate worlds, the true worlds, and a tiny run."""

from __future__ import annotations

import random

import pytest

from benchscripts import load_benchmark
from matador.core.moves import DRAW
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.pimc import true_worlds
from matador.players.playouts import choice_log_likelihoods

regret = load_benchmark("world_regret")


def test_the_table_likelihood_sums_the_seats_under_the_table_policy() -> None:
    state = HandState.new(Rules.from_preset("classic"), 3, random.Random(3))
    for _ in range(9):
        state.push(state.legal_move_ids()[-1])
    view = PlayerView.of(state, 0)
    logs = choice_log_likelihoods(view, state, 0.7)
    assert regret.table_log_likelihood(view, state, 0.7) == \
        pytest.approx(logs[1, "table"] + logs[2, "table"])


def test_effective_size() -> None:
    assert regret.effective_size([1.0, 1.0, 1.0, 1.0]) == pytest.approx(4)
    assert regret.effective_size([1.0, 0.0, 0.0]) == pytest.approx(1)
    assert regret.effective_size([2.0, 1.0]) == pytest.approx(9 / 5)


def test_decisions_are_real_choices_after_a_seen_play() -> None:
    found = list(regret.decisions("classic", 3, 12, 5))
    assert len(found) == 12
    assert len({d.view.seat for d in found}) == 3  # the deciding seat changes with the hand
    for d in found:
        assert d.state.to_move == d.view.seat and len(d.moves) > 1
        assert any(s != d.view.seat and m < DRAW
                   for s, m in zip(d.view.movers, d.view.moves, strict=True))
        assert d.view.to_json() == PlayerView.of(d.state, d.view.seat).to_json()


def test_candidates_and_true_worlds_agree_with_the_view() -> None:
    d = next(iter(regret.decisions("classic", 4, 1, 7)))
    seat = d.view.seat
    seen = d.view.to_json()
    worlds = regret.candidates(d.view, 40, random.Random(1))
    assert len(worlds) == 40 and len({tuple(w.hands) for w in worlds}) > 1
    truth = true_worlds(d.state)
    rng = random.Random(2)
    true = [truth(rng) for _ in range(10)]
    for w in worlds + true:
        assert PlayerView.of(w, seat).to_json() == seen
    assert all(tuple(w.hands) == tuple(d.state.hands) for w in true)
    listed = regret.listed(worlds[:2])
    assert [tuple(listed(rng).hands) for _ in range(3)] == \
        [tuple(worlds[i].hands) for i in (0, 1, 0)]


def test_the_same_true_worlds_choose_the_best_move() -> None:
    d = next(iter(regret.decisions("classic", 4, 1, 9)))
    seat = d.view.seat
    values = regret.move_values(true_worlds(d.state), regret.WORLDS, d.moves, seat, 11)
    best = max(values[m].win_mean for m in d.moves)
    chosen = regret.choice(true_worlds(d.state), d.moves, seat, 11)
    assert values[chosen].win_mean == best


def test_a_tiny_run_prints_every_model(capsys: pytest.CaptureFixture[str]) -> None:
    regret.main(["--players", "3", "--positions", "2", "--truth", "40", "--candidates", "300",
                 "--trust", "0.7", "--every", "0"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("classic, 3 players, 2 decisions, seed 1, 40 true worlds")
    for name in ("uniform", "choices-0.7", "oracle"):
        assert any(line.strip().startswith(name + " ") and "mean regret" in line
                   for line in out), name
    assert any("effective worlds" in line for line in out)
    uniform = next(line for line in out if line.strip().startswith("uniform "))
    assert "gain over uniform +0.0000 +- 0.0000" in uniform


def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        regret.main(["--trust", "1.5"])
    assert "--trust 1.5: must be at least 0 and below 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        regret.main(["--positions", "1"])
    assert "--positions 1: needs at least 2 decisions" in capsys.readouterr().err
