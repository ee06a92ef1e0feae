"""The ``matador`` entry point: version, help and the handling of missing commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import matador as package


def test_version(matador: Any) -> None:
    """--version prints the package version and exits 0."""
    done = matador("--version")
    assert (done.returncode, done.stdout) == (0, f"matador {package.__version__}\n")


@pytest.mark.parametrize("command", [[], ["replay"], ["deal"], ["simulate"]])
def test_help_has_examples(matador: Any, command: list[str]) -> None:
    """Every command's --help exits 0 and shows examples."""
    done = matador(*command, "--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"usage: matador {' '.join(command)}".rstrip())
    assert "examples:" in done.stdout
    assert "\n  matador " in done.stdout


@pytest.mark.parametrize("args", [[], ["fly"], ["--bogus"]])
def test_no_or_unknown_command(matador: Any, args: list[str]) -> None:
    """A missing or unknown command: argparse's usage and exit 2."""
    done = matador(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("usage: matador")


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """A reader that stops early (``| head -1``) gets no traceback from matador."""
    exe = Path(sys.executable).parent / "matador"
    script = (f"'{exe}' simulate --preset classic --players 2 --hands 3000 --seed 1 | head -1")
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.count("\n") == 1
    assert "Traceback" not in done.stderr
