"""The installed executable and the in-process runner of the other CLI tests agree.

Most command-line tests call ``matador.cli.main.main`` in process (fast); these run the
real ``matador`` executable for a sample of successes, refusals and usage errors, and
check that it prints exactly what the in-process run prints, with the same status.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

CASES = [
    ("replay", str(EXAMPLES / "hand.json")),
    ("replay", "--trace", str(EXAMPLES / "hand.json")),
    ("replay", "--jsonl", str(EXAMPLES / "archive.jsonl")),
    ("replay", str(EXAMPLES / "refused_illegal_move.json")),
    ("deal", "--preset", "six", "--players", "3", "--seed", "4"),
    ("simulate", "--preset", "russian", "--players", "2", "--hands", "5", "--seed", "2"),
    ("deal", "--preset", "classic", "--players", "9"),
    ("replay", "--no-such-flag"),
    ("--version",),
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a)[-40:])
def test_the_executable_prints_what_the_in_process_run_prints(
        args: tuple[str, ...], matador: Any, matador_process: Any) -> None:
    inside = matador(*args)
    real = matador_process(*args)
    assert (real.returncode, real.stdout) == (inside.returncode, inside.stdout)
    def first(text: str) -> list[str]:  # timings aside
        return [re.sub(r"in \d+\.\d+ s", "in T s", line) for line in text.splitlines()[:1]]

    assert first(real.stderr) == first(inside.stderr)


def test_standard_input_reaches_the_executable(matador_process: Any) -> None:
    done = matador_process("replay", "-", stdin=(EXAMPLES / "hand.json").read_text())
    assert done.returncode == 0 and '"winner": 0' in done.stdout
