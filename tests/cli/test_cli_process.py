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

SLOW = pytest.mark.slow  # the whole run only: the fast lane keeps one of each kind
CASES = [
    ("replay", str(EXAMPLES / "hand.json")),
    pytest.param(("replay", "--trace", str(EXAMPLES / "hand.json")), marks=SLOW),
    pytest.param(("replay", "--jsonl", str(EXAMPLES / "archive.jsonl")), marks=SLOW),
    ("replay", str(EXAMPLES / "refused_illegal_move.json")),
    pytest.param(("deal", "--preset", "six", "--players", "3", "--seed", "4"), marks=SLOW),
    pytest.param(("simulate", "--preset", "russian", "--players", "2", "--hands", "5",
                  "--seed", "2"), marks=SLOW),
    ("deal", "--preset", "classic", "--players", "9"),
    pytest.param(("replay", "--no-such-flag"), marks=SLOW),
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
