"""benchmarks/imitation.py: the recorded decisions, the terms of a move, a fit that finds
``greedy`` again, a tiny run and its argument errors."""

from __future__ import annotations

import random

import pytest

from benchscripts import load_benchmark
from matador.core.moves import DRAW, MOVE_TILE
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.tiles import HALVES, PIPS
from matador.players.playouts import greedy_choice

imitation = load_benchmark("imitation")


def test_decisions_are_real_choices_of_the_bot() -> None:
    found = imitation.decisions("greedy", "classic", 3, 4, 1)
    assert found
    for d in found:
        assert d.moves == d.state.legal_move_ids() and d.chosen in d.moves
        assert d.made(d.chosen) and not all(d.made(m) for m in d.moves)
        assert d.chosen == greedy_choice(d.state, d.moves)


def test_the_terms_of_a_move() -> None:
    f = imitation.FEATURES.index
    checked = set()
    for seed in range(30):
        state = HandState.new(Rules.from_preset("classic"), 2, random.Random(seed))
        while not state.is_over and len(checked) < 3:
            moves = state.legal_move_ids()
            tb = state._tb
            for m, row in zip(moves, imitation.features(state, moves), strict=True):
                if m == DRAW:
                    assert row[f("draw")] == 1 and row[f("pips")] == 0
                    checked.add("draw")
                elif m < DRAW:
                    t = MOVE_TILE[m]
                    assert row[f("pips")] == PIPS[t] and row[f("draw")] == 0
                    assert row[f("matador")] == tb.matadors >> t & 1
                    assert row[f("double")] == (HALVES[t][0] == HALVES[t][1])
                    checked.add("matador" if row[f("matador")] else "play")
            state.push(moves[-1])
    assert checked == {"draw", "matador", "play"}


def test_a_fit_to_greedy_makes_greedys_choices() -> None:
    """The terms include greedy's own, so the best fit predicts almost all its choices."""
    data = imitation.decisions("greedy", "classic", 2, 40, 3)
    cut = len(data) * 2 // 3
    weights = imitation.fit(data[:cut])
    held_out = data[cut:]
    share = imitation.agreement(held_out, imitation.fitted_choice(weights)) / len(held_out)
    assert share > 0.9
    assert imitation.agreement(held_out, greedy_choice) == len(held_out)


def test_a_tiny_run_prints_each_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert imitation.main(["greedy", "--players", "3", "--hands", "6"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("greedy, classic, 3 players, 6 hands, seed 1: ")
    for i, name in enumerate(("table", "greedy", "fitted"), start=1):
        assert out[i].split()[0] == name
    assert out[2].split()[1] == "1.000"
    assert out[4].strip().startswith("fitted weights: pips ")


def test_a_search_is_scored_as_a_model(capsys: pytest.CaptureFixture[str]) -> None:
    """A bot's own choices predict it exactly; another search's are scored like the rest."""
    args = ["greedy", "--hands", "6", "--search", "greedy", "random"]
    assert imitation.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[1:6]] == ["table", "greedy", "fitted", "greedy",
                                                      "random"]
    assert out[4].split()[1] == "1.000"
    assert float(out[5].split()[1]) < 1
    with pytest.raises(SystemExit):
        imitation.main(["greedy", "--search", "nobody"])
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        imitation.main(["greedy", "--preset", "paluba", "--players", "3"])
    assert "--players 3: paluba is played by 2 to 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        imitation.main(["nobody"])
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        imitation.main(["greedy", "--hands", "1"])
    assert "--hands 1: needs at least 2 hands" in capsys.readouterr().err
