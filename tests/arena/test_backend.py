"""Backends: serial, local processes, Ray in this process and a ``ray start --head`` cluster on
loopback give identical results for the same seed (iteration budgets); no Ray process is left.

The Ray tests are slow (starting Ray takes seconds); they run in CI, which installs
``matador[ray]``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from matador.arena import run_arena
from matador.arena.backend import (
    BackendError,
    Local,
    RayBackend,
    in_order,
    make_backend,
)
from matador.arena.simulate import simulate, simulate_hand
from matador.core.rules import Rules

BOTS = ["pimc:6it", "ismcts:6it", "greedy"]


def fingerprint(result: object) -> list[tuple[object, ...]]:
    games = result.games  # type: ignore[attr-defined]
    return [(g.table, g.deal, g.rotation, g.seats, g.winner, g.points, g.moves) for g in games]


def arena(backend: object = None, jobs: int = 1) -> list[tuple[object, ...]]:
    result = run_arena(BOTS, preset="russian", players=3, deals=4, seed=11, jobs=jobs,
                       bootstrap=0, backend=backend)  # type: ignore[arg-type]
    return fingerprint(result)


def records(backend: object = None) -> list[str]:
    rules = Rules.from_preset("classic")
    out: list[str] = []
    for lines, _ in simulate(rules, 3, 1100, 5, backend):  # type: ignore[arg-type]
        out += lines
    return out


@pytest.fixture(scope="module")
def serial() -> tuple[list[tuple[object, ...]], list[str]]:
    return arena(), records()


@pytest.mark.slow
def test_local_processes_equal_serial(serial: tuple[list[tuple[object, ...]], list[str]]
                                      ) -> None:
    assert arena(jobs=2) == serial[0]
    assert records(Local(2)) == serial[1]


def test_simulated_hands_do_not_depend_on_their_shard() -> None:
    rules = Rules.from_preset("six")
    whole = [line for lines, _ in simulate(rules, 2, 1200, 3) for line in lines]
    from matador.core.record import Record

    assert whole[700] == Record.of(simulate_hand(rules, 2, 3, 700)).dumps()


def test_in_order_waits_for_earlier_shards() -> None:
    assert list(in_order(iter([(2, "c"), (0, "a"), (1, "b")]), 3)) == ["a", "b", "c"]
    with pytest.raises(BackendError, match="1 shards never returned"):
        list(in_order(iter([(0, "a")]), 2))


def test_backend_names_and_options_are_checked() -> None:
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        make_backend("spark")
    with pytest.raises(BackendError, match="--address is for the ray backend"):
        make_backend("local", address="auto")
    with pytest.raises(BackendError, match="at least one"):
        make_backend("local", jobs=0)
    assert make_backend("local", jobs=3) == Local(3)


def test_without_ray_the_backend_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(BackendError, match=r"matador\[ray\]"):
        make_backend("ray")


# -- Ray --------------------------------------------------------------------------------


def ray_processes(marker: str) -> list[int]:
    """Pids of live processes whose command line mentions ``marker``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if marker in cmd and str(os.getpid()) != entry.name:
                out.append(int(entry.name))
    return out


@pytest.mark.slow
@pytest.mark.long(30)
def test_ray_in_process_equals_serial(serial: tuple[list[tuple[object, ...]], list[str]],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    backend = RayBackend(cpus=2)
    assert arena(backend) == serial[0]
    assert records(backend) == serial[1]
    assert not ray.is_initialized()  # the run started Ray and shut it down


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def ray_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A ``ray start --head`` cluster on loopback, stopped (by its process group) afterwards.

    It uses Ray's token authentication with a fresh token, given to this process too.
    """
    token = secrets.token_hex(16)
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    monkeypatch.setenv("RAY_AUTH_TOKEN", token)
    ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert ray_cli is not None, "the ray command is installed with matador[ray]"
    port = free_port()
    temp = Path(tempfile.mkdtemp(prefix="mray", dir="/tmp"))  # sockets: a short path
    head = subprocess.Popen(
        [ray_cli, "start", "--head", "--block", f"--port={port}", "--node-ip-address=127.0.0.1",
         "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={temp}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token})
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if head.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray start --head did not come up (exit {head.poll()})")
            time.sleep(0.5)
        time.sleep(2)  # the raylet registers after the GCS listens
        yield address
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        deadline = time.monotonic() + 60
        while ray_processes(str(temp)) and time.monotonic() < deadline:
            time.sleep(0.5)
        left = ray_processes(str(temp))
        for pid in left:  # only processes of this cluster (its own temp dir), by their id
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)
        assert not left, f"Ray processes left after the head stopped: {left}"


CLI_ARENA = ["arena", *BOTS, "--preset", "russian", "--players", "3", "--deals", "4",
             "--seed", "11", "--bootstrap", "0", "--json", "-"]
CLI_SIMULATE = ["simulate", "--preset", "classic", "--players", "3", "--hands", "1100",
                "--seed", "5"]


def cli(*args: str, env: dict[str, str] | None = None) -> str:
    """Run the installed ``matador`` (a separate driver process); its standard output."""
    done = subprocess.run([str(Path(sys.executable).parent / "matador"), *args],
                          capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
@pytest.mark.long(45)
def test_ray_cluster_on_loopback_equals_serial(ray_cluster: str) -> None:
    """The drivers are separate processes (as a user's would be): ``--address``, then
    ``RAY_ADDRESS``; the cluster's token comes from the environment."""
    games = ("score", "points_per_hand", "moves", "seat_score", "position_score")
    local = json.loads(cli(*CLI_ARENA))
    ray = json.loads(cli(*CLI_ARENA, "--backend", "ray", "--address", ray_cluster))
    assert {k: ray[k] for k in games} == {k: local[k] for k in games}
    assert cli(*CLI_SIMULATE, "--backend", "ray", env={"RAY_ADDRESS": ray_cluster}) == \
        cli(*CLI_SIMULATE)
