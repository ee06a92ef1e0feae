"""The variant lab: its statistics on known answers, reproducibility, the report and the CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from matador.arena.backend import Local, RayBackend
from matador.arena.stats import Z95
from matador.arena.study import (
    CellSpec,
    Mean,
    Proportion,
    StudyError,
    StudySpec,
    Variant,
    difference,
    play_cell,
    play_skill,
    report_markdown,
    run_study,
    skill_index,
    write_report,
)

MATADOR = Path(sys.executable).parent / "matador"
SMALL = StudySpec(presets=("classic", "six"), players=(2, 3), hands=400, deals=2,
                  strong="pimc:4it", weak=("greedy",), compare=(("draw", "one"),), seed=5)


def test_interval_helpers_on_known_answers() -> None:
    p = Proportion.of(30, 100)
    assert p.rate == 0.3 and p.ci95[0] < 0.3 < p.ci95[1]
    m = Mean.of([2.0, 4.0, 6.0, 8.0])
    half = Z95 * math.sqrt(20 / 3) / 2
    assert m.mean == 5.0 and m.ci95 == pytest.approx((5 - half, 5 + half))
    d, (lo, hi) = difference(Proportion.of(50, 100), Proportion.of(50, 100))
    assert d == 0 and lo == -hi
    assert skill_index(1 / 3, 3) == pytest.approx(0.0) and skill_index(0.0, 2) == -1.0
    with pytest.raises(TypeError):
        difference(p, m)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_against_itself_has_no_skill_gap(players: int) -> None:
    """Common random numbers: two copies of a bot replay the same games, so the gap is 0."""
    skill = play_skill(Variant("classic"), players, "heuristic", "heuristic", 6, 3)
    assert skill.games == 6 * players
    assert skill.score.rate == pytest.approx(1 / players, abs=1e-12)
    assert skill.index == pytest.approx(0.0, abs=1e-12)


def test_a_strong_bot_against_random_has_a_positive_gap() -> None:
    skill = play_skill(Variant("classic"), 2, "heuristic", "random", 60, 1)
    assert skill.index > 0.2 and skill.index_ci95[0] > 0


def test_R18_never_every_hand_ends_blocked_and_ends_hand_often_goes_out() -> None:
    six = play_cell(CellSpec(Variant("six"), 3, 300, 4))
    classic = play_cell(CellSpec(Variant("classic"), 2, 300, 4))
    assert six.blocked.rate == 1.0  # R18 never: every hand end is reported as blocked
    assert 0 < classic.blocked.rate < 1
    for cell in (six, classic):
        assert sum(cell.by_position) == pytest.approx(1.0)
        assert cell.no_winner.rate + sum(w.rate for w in cell.position_wins) == \
            pytest.approx(1.0)
        assert sum(k for _, k in cell.length_histogram) == cell.hands


def test_a_cell_is_the_same_with_and_without_the_kernel() -> None:
    spec = CellSpec(Variant("russian", (("draw", "until_playable"),)), 4, 300, 9)
    a = play_cell(CellSpec(spec.variant, 4, 300, 9, kernel=True))
    b = play_cell(CellSpec(spec.variant, 4, 300, 9, kernel=False))
    assert a == b


@pytest.mark.slow
def test_a_seeded_study_is_reproducible_and_backend_independent() -> None:
    one = run_study(SMALL)
    again = run_study(SMALL)
    assert one.to_json() == again.to_json()
    assert run_study(SMALL, Local(2)).to_json() == one.to_json()
    other = run_study(StudySpec(**{**SMALL.__dict__, "seed": 6}))
    assert other.to_json() != one.to_json()


def test_the_study_covers_what_the_spec_asks() -> None:
    result = run_study(SMALL)
    labels = [(c.variant.label, c.players) for c in result.cells]
    assert labels == [("classic", 2), ("classic", 3), ("classic draw=one", 2),
                      ("classic draw=one", 3), ("six", 2), ("six", 3)]  # six plays draw=one
    assert [(a.label, b.label) for a, b in result.comparisons] == [("classic draw=one",
                                                                    "classic")]
    assert len(result.skills) == 4  # two base rule sets x two player counts x one weak bot
    text = report_markdown(result, "matador study ...")
    for heading in ("Leader and seat advantage", "How much skill matters",
                    "House rules against the preset", "matador study ..."):
        assert heading in text


def test_bad_studies_are_refused() -> None:
    with pytest.raises(StudyError, match="no preset of paluba allows 4 players"):
        run_study(StudySpec(presets=("paluba",), players=(4,), hands=10, deals=0))
    with pytest.raises(StudyError, match="draw"):
        run_study(StudySpec(presets=("classic",), players=(2,), hands=10, deals=0,
                            compare=(("draw", "sometimes"),)))


@pytest.mark.slow  # six plots: the whole run only (the study's cells stay in the fast lane)
def test_report_files(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")  # the test extra installs it
    result = run_study(SMALL)
    report = write_report(result, tmp_path / "out", command="matador study --seed 5")
    folder = report.parent
    for name in ("leader.png", "blocked.png", "matador.png", "length.png", "points.png",
                 "skill.png"):
        assert (folder / name).read_bytes()[:4] == b"\x89PNG"
        assert f"]({name})" in report.read_text()
    data = json.loads((folder / "study.json").read_text())
    assert data["spec"]["seed"] == 5 and len(data["cells"]) == 6


@pytest.mark.slow
def test_cli_study_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "s"
    done = subprocess.run([str(MATADOR), "study", "--preset", "classic", "--players", "2",
                           "--hands", "300", "--deals", "2", "--strong", "greedy", "--weak",
                           "random", "--compare", "draw=one", "--seed", "3", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    text = (out / "report.md").read_text()
    assert "matador study --preset classic --players 2 --hands 300" in text
    assert (out / "skill.png").exists()
    bad = subprocess.run([str(MATADOR), "study", "--preset", "paluba", "--players", "4",
                          "--out", str(out)], capture_output=True, text=True, timeout=300,
                         check=False)
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: study: no preset of paluba allows 4 players")


@pytest.mark.slow
@pytest.mark.long(60)
def test_study_on_ray_equals_local(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert run_study(SMALL, RayBackend(cpus=2)).to_json() == run_study(SMALL).to_json()
