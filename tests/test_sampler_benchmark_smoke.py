"""benchmarks/sampler.py: the views, the cost of a view with and without the exclusions,
a tiny run and its argument errors."""

from __future__ import annotations

import pytest

from benchscripts import load_benchmark
from matador.core import sampling
from matador.core.view import PlayerView

bench = load_benchmark("sampler")

FORFEITED = ('{"rules": {"preset": "six", "overrides": {}}, "players": 4, "seat": 3, "hand": '
             '["2-3", "1-6", "0-0", "1-1", "5-6", "0-5", "0-1"], "leader": 2, "moves": '
             '["6-6", "L0-5", "L6-0", "pass", "pass"]}')
"""The view of tests/core/test_sampling_tight.py, which a search once forfeited."""


def test_views_are_every_seat_before_every_move() -> None:
    seen = list(bench.views("classic", 3, 2, 1))
    assert {v.seat for _, _, v in seen} == {0, 1, 2}
    assert {hand for hand, _, _ in seen} == {0, 1}
    first = [v for hand, ply, v in seen if hand == 0 and ply == 0]
    assert len(first) == 3


@pytest.mark.slow  # two samplers on thousands of candidates: the whole run only
def test_the_forfeited_view_costs_one_candidate_a_world_and_thousands_before() -> None:
    view = PlayerView.from_json(FORFEITED)
    assert bench.cost(view, 20, 1) == 1.0
    with bench.as_before():
        assert sampling._tight(view, [0, 1, 2]) == {0: 0, 1: 0, 2: 0}
        assert sampling._order(view, [2, 0, 1], {}) == [2, 0, 1]
        slow = bench.cost(view, 2, 1)
    assert slow > 1000
    assert sampling._tight(view, [0, 1, 2])[0]  # restored
    assert sampling._order(view, [0, 1, 2], sampling._tight(view, [0, 1, 2]))[0] == 0


def test_a_tiny_run_prints_both_samplers(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--presets", "six", "--players", "4", "--hands", "1", "--worlds", "3",
                       "--compare", "--worst", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("six, 4 players, 1 hands, ")
    assert out[1].strip().startswith("sampler ") and "candidates a world" in out[1]
    assert any(line.strip().startswith("as before ") for line in out)


def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--presets", "paluba", "--players", "3"])
    assert "--players 3: paluba is played by 2 to 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(["--hands", "0"])
    assert "--hands 0: must be at least 1" in capsys.readouterr().err
