"""benchmarks/tune_heuristic.py: the candidate's share on duplicate deals, the weights it
swaps in and puts back, one step of the search, and a tiny run."""

from __future__ import annotations

import pytest

from benchscripts import load_benchmark
from matador.players import heuristic

tune = load_benchmark("tune_heuristic")


def test_the_defaults_score_exactly_a_fair_share() -> None:
    # the same bot at every seat of every rotation of each deal: 1/N, whatever the deals
    assert tune.score(tune.defaults(), "classic", 4, 5, 3) == pytest.approx(0.25)
    assert tune.score(tune.defaults(), "russian", 3, 5, 3) == pytest.approx(1 / 3)


def test_weights_are_swapped_in_and_put_back() -> None:
    before = tune.defaults()
    with tune.weights({"W_PIPS": 9.0, "SPEND_NEXT": 5.0}):
        assert heuristic.W_PIPS == 9.0 and heuristic.SPEND_NEXT == 5
        assert isinstance(heuristic.SPEND_NEXT, int)
    assert tune.defaults() == before


def test_a_step_moves_one_weight() -> None:
    base = tune.defaults()
    up = tune.changed(base, "W_BLOCK", True, 2.0)
    assert up == {**base, "W_BLOCK": base["W_BLOCK"] * 2}
    assert tune.changed(base, "SPEND_BONE", False, 2.0)["SPEND_BONE"] == base["SPEND_BONE"] - 2


def test_a_tiny_run_prints_its_progress(capsys: pytest.CaptureFixture[str]) -> None:
    tune.main(["--preset", "classic", "--players", "3", "--deals", "4", "--rounds", "1"])
    out = capsys.readouterr().out
    assert out.startswith("defaults: 0.3333 on 4 deals x 3 seats, seed 1")
    assert "round 1 done:" in out and "fresh deals (seed 2): defaults 0.3333" in out
    assert "changed: {" in out
