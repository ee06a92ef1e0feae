"""``matador serve`` refuses what it cannot serve before anything starts (issue 9: every
input gets ``error: WHERE: WHY`` and status 2), and serves on a free port otherwise."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

MATADOR = Path(sys.executable).parent / "matador"


@pytest.fixture
def taken_port() -> Any:
    """A port another socket of this machine listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_port_in_use_is_a_clear_error(matador: Any, taken_port: int, tmp_path: Path) -> None:
    done = matador("serve", "--port", str(taken_port), "--data-dir", tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (f"error: --port: cannot listen on '127.0.0.1' port {taken_port}: "
                           "Address already in use\n")
    assert not list(tmp_path.iterdir())  # no database made for a server that never ran


@pytest.mark.parametrize("args,expected", [
    (["--port", "70000"], "error: --port: 70000 is not a port (0..65535)\n"),
    (["--host", "no-such-host.invalid"], "error: --host: 'no-such-host.invalid' is not an "
                                         "address of this machine"),
    (["--engine", "a=x", "--engine", "a=y"], "error: --engine: 'a' is given twice\n"),
    (["--engine", "nameless"], "error: --engine: 'nameless' is not NAME=COMMAND\n"),
    (["--bot-workers", "0"], "error: --bot-workers: must be 1 or more\n"),
    (["--db", "nonsense://x"], "error: --db: "),
])
def test_bad_options_are_refused_before_serving(matador: Any, tmp_path: Path, args: list[str],
                                                expected: str) -> None:
    done = matador("serve", "--port", "0", "--data-dir", tmp_path, *args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(expected)
    assert done.stderr.count("\n") == 1


@pytest.mark.slow  # a server with its warmed bot worker, stopped gracefully: seconds
def test_it_serves_on_a_free_port_and_says_where(tmp_path: Path) -> None:
    proc = subprocess.Popen([str(MATADOR), "serve", "--port", "0",
                             "--data-dir", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("matador serve: open http://127.0.0.1:")
        port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
        deadline = time.monotonic() + 10
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(b"GET / HTTP/1.0\r\n\r\n")
            answer = conn.recv(100)
        assert answer.startswith(b"HTTP/1.1 200"), answer
        assert time.monotonic() < deadline
        workers = children(proc.pid)
        assert workers  # the bots' process pool
        proc.terminate()  # SIGTERM: stops gracefully, and takes its workers with it
        assert proc.wait(timeout=30) == -15
        left = workers
        for _ in range(100):  # the resource tracker ends once the workers have
            left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
            if not left:
                break
            time.sleep(0.1)
        assert left == [], [Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in left]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
