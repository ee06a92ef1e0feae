"""The engine on the input issue 9 found it failing (PROTOCOL.md; issue 9 items 6 and 8).

Every answer is one line of printable UTF-8 whatever came in; a line that is not
UTF-8 is answered, even with strict decoding; numbers of thousands of digits
get the range message; ``go`` and ``analyse`` end within ``movetime`` plus the
host's grace on a view no deal can give.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from matador.protocol.engine import Engine, serve

MATADOR = Path(sys.executable).parent / "matador"

VIEW = {"rules": {"preset": "classic", "overrides": {}}, "players": 2, "seat": 1,
        "hand": ["2-2", "0-4", "4-6", "0-6", "1-4"], "leader": 0,
        "moves": ["0-3", "R4-0", "draw", "L0-0", "draw 2-5"]}

HARD = ('{"rules": {"preset": "six", "overrides": {}}, "players": 4, "seat": 3, "hand": '
        '["0-2", "3-6", "1-1", "3-3", "4-5", "2-5", "0-0"], "leader": 1, "moves": ["2-4", '
        '"pass", "R2-0", "L5-1", "pass", "L5-3", "R3-3", "L3-1", "R3-0", "L5-6"]}')
"""A view read without complaint that no deal gives: the sampler, built at ``position``,
counts the deals in which seat 1 led by its best tile (R14) and finds none (tests/core too)."""


def _printable(lines: list[str]) -> None:
    for line in lines:
        assert line.isprintable() and "\n" not in line and "\r" not in line, line
        line.encode("utf-8")


@pytest.mark.parametrize("name", ["\ud800", "a\rb", "x\x1b[2Jy", "\u2028", "z" * 100_000])
def test_odd_rule_names_are_escaped(name: str) -> None:
    view = dict(VIEW, rules={"preset": name})
    answers = Engine("random").handle("position " + json.dumps(view, ensure_ascii=False))
    assert len(answers) == 1 and answers[0].startswith("error position: rules.preset: ")
    _printable(answers)
    assert len(answers[0]) < 300


@pytest.mark.parametrize("line", [
    "go movetime " + "9" * 5000, "analyse iterations " + "9" * 5000,
    "setoption name Seed value " + "9" * 5000, "setoption name Budget value " + "1" * 300,
])
def test_huge_numbers_get_the_range_message(line: str) -> None:
    answers = Engine("random").handle(line)
    assert len(answers) == 1 and "is not a whole number in" in answers[0], answers
    assert "internal error" not in answers[0] and len(answers[0]) < 300


def test_serve_answers_a_line_that_is_not_utf8() -> None:
    host = io.BytesIO(b"isready\n\xff\xfe bad\nposition {\"rules\": \xc0}\nisready\n")
    out = io.BytesIO()
    assert serve(Engine("random"), host, out) == 0
    answers = out.getvalue().decode("utf-8").splitlines()
    assert answers[0] == "readyok" and answers[-1] == "readyok"
    assert answers[1].startswith("error line 2 is not valid UTF-8")
    assert answers[2].startswith("error line 3 is not valid UTF-8")
    _printable(answers)


def test_strict_utf8_stdin_does_not_kill_the_engine() -> None:
    """``PYTHONIOENCODING=utf-8`` made one binary line fatal; the engine reads bytes now."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([str(MATADOR), "engine", "random"], env=env, capture_output=True,
                          input=b"\xff\xff\nposition " + json.dumps(VIEW).encode()
                          + b"\ngo\nisready\nquit\n", timeout=60, check=False)
    answers = done.stdout.decode("utf-8").splitlines()
    assert done.returncode == 0 and done.stderr == b""
    assert answers[0].startswith("error line 1 is not valid UTF-8")
    assert answers[-2].startswith("bestmove ") and answers[-1] == "readyok"


@pytest.mark.parametrize("bot", ["pimc", "ismcts"])
@pytest.mark.parametrize(("command", "wait"), [
    ("go movetime 20", 0.02), ("analyse movetime 20", 0.02),
    ("go iterations 3", 0.15), ("analyse iterations 3", 0.15),  # announced Budget: 150 ms
])
def test_budgets_hold_on_a_view_no_deal_gives(bot: str, command: str, wait: float) -> None:
    """Item 8: within what a host waits (``movetime``, else the announced ``Budget``, plus
    1000 ms), ``bestmove`` or a clear error; here the position itself is refused at once."""
    engine = Engine(bot)
    engine.millis = 150
    assert engine.handle("position " + HARD) == [
        "error position: no deal lets seat 1 lead by the best tile (R14) with these moves "
        "(forced draws and passes, R15-R17)"]
    start = time.perf_counter()
    answers = engine.handle(command)
    assert time.perf_counter() - start < wait + 1.0
    assert answers[-1].startswith(f"error {command.split()[0]}: no position"), answers
    assert engine.handle("isready") == ["readyok"]
