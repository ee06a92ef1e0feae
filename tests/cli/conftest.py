"""Fixtures for the command-line tests: the installed ``matador`` executable, run as a user."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
