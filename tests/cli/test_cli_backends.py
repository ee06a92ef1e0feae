"""``--backend``, ``--address`` and ``--jobs`` on the command line: same bytes, clear errors."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]

SIM = ["simulate", "--preset", "russian", "--players", "3", "--hands", "1200", "--seed", "8"]


def test_simulate_writes_the_same_bytes_in_worker_processes(matador: Run) -> None:
    one = matador(*SIM)
    two = matador(*SIM, "--jobs", "2")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout and one.stdout.count("\n") == 1200


def test_address_without_ray_is_refused(matador: Run) -> None:
    done = matador(*SIM, "--address", "auto")
    assert done.returncode == 2
    assert done.stderr == "error: --address: --address is for the ray backend\n"


@pytest.mark.slow
def test_arena_and_simulate_on_ray_equal_local(matador: Run,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    arena = ["arena", "pimc:5it", "greedy", "--preset", "classic", "--players", "2",
             "--deals", "6", "--seed", "4", "--bootstrap", "0", "--json", "-"]
    local = json.loads(matador(*arena).stdout)
    ray = json.loads(matador(*arena, "--backend", "ray").stdout)
    for key in ("score", "points_per_hand", "moves", "seat_score"):
        assert local[key] == ray[key], key
    assert matador(*SIM, "--backend", "ray").stdout == matador(*SIM).stdout
