"""Fixtures for the command-line tests: the installed ``matador`` executable, run as a user."""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

MATADOR = Path(sys.executable).parent / "matador"

#: The example record of RULES.md section 8.
EXAMPLE: dict[str, Any] = {
    "rules": {"preset": "classic", "overrides": {}},
    "players": 2,
    "deal": {
        "hands": [["0-3", "2-4", "1-1", "6-6", "3-3"],
                  ["2-2", "0-4", "4-6", "0-6", "1-4"]],
        "boneyard": ["0-0", "2-5", "1-6", "5-6", "4-4", "3-5", "0-2", "2-6", "4-5",
                     "1-2", "0-5", "2-3", "3-4", "1-3", "5-5", "0-1", "1-5", "3-6"],
        "set_aside": [],
        "leader": 0,
    },
    "moves": ["0-3", "R4-0", "draw", "L0-0", "draw", "R2-5", "R2-4", "draw",
              "L6-1", "L6-6", "L1-4", "L3-3", "L4-6", "L1-1"],
}
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


@pytest.fixture
def matador() -> Run:
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
