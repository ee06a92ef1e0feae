"""Fixtures for the command-line tests: ``matador`` run in process, or as the installed executable.

``matador`` (the fixture most tests use) calls :func:`matador.cli.main.main` with the
arguments, feeding standard input and capturing standard output and error as bytes
decoded from UTF-8, in this process: the same code path as the executable, without
starting an interpreter per call. ``matador_process`` runs the installed executable
for what only a real process shows (its exit status at the top, the encoding of
its streams, signals, terminals); a few tests in each module use it.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from matador.cli.main import main

MATADOR = Path(sys.executable).parent / "matador"

#: The example record of RULES.md section 8 (examples/hand.json holds it).
EXAMPLE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "examples" / "hand.json").read_text())
EXAMPLE_RESULT = '{"winner": 0, "reason": "out", "pips": [0, 10], "points": [10, 0]}'

Run = Callable[..., subprocess.CompletedProcess[str]]


def run_matador(*args: str | Path, stdin: str | bytes | None = None,
                cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``matador`` with ``args``; stdout and stderr are captured as text."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run([str(MATADOR), *map(str, args)], input=data, capture_output=True,
                          cwd=cwd, timeout=300, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode(), done.stderr.decode())


@pytest.fixture(scope="session", autouse=True)
def _installed() -> None:
    if not MATADOR.exists():
        pytest.fail(f"the matador executable is not installed at {MATADOR} "
                    "(pip install -e . in this environment)")


class _Kept(io.BytesIO):
    """A byte buffer that outlives ``close()`` (a command may close its standard output)."""

    def close(self) -> None:
        self.flush()


@contextlib.contextmanager
def _streams(data: bytes, cwd: Path | None) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    out, err = _Kept(), _Kept()
    saved = sys.stdin, sys.stdout, sys.stderr
    here = os.getcwd()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=None)
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", newline="\n", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", newline="\n", write_through=True)
    try:
        if cwd is not None:
            os.chdir(cwd)
        yield out, err
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(ValueError):
                stream.flush()
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(here)


def run_in_process(*args: str | Path, stdin: str | bytes | None = None,
                   cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``matador args`` through :func:`matador.cli.main.main` in this process."""
    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    argv = [str(a) for a in args]
    with _streams(data, cwd) as (out, err):
        try:
            status = main(argv)
        except SystemExit as e:  # argparse's usage errors, --help, --version
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if isinstance(e.code, str):
                sys.stderr.write(e.code + "\n")
    return subprocess.CompletedProcess(["matador", *argv], status,
                                       out.getvalue().decode("utf-8", "surrogateescape"),
                                       err.getvalue().decode("utf-8", "surrogateescape"))


@pytest.fixture
def matador() -> Run:
    """A function running ``matador`` in this process (see the module docstring)."""
    return run_in_process


@pytest.fixture
def matador_process() -> Run:
    """A function running the installed ``matador`` executable."""
    return run_matador


@pytest.fixture
def example() -> dict[str, Any]:
    """A fresh copy of the RULES.md example record, safe to modify."""
    return copy.deepcopy(EXAMPLE)


@pytest.fixture
def example_result() -> str:
    """The result line RULES.md gives for the example record."""
    return EXAMPLE_RESULT


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    """Write text or bytes to a file named ``name`` in a temporary directory; return its path."""
    def write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, str):
            content = content.encode()
        path.write_bytes(content)
        return path
    return write
