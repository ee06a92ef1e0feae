"""MEP engines fed hostile lines (issue 9; PROTOCOL.md), each followed by ``isready``.

Real ``matador engine`` processes, driven in bytes as a host drives them: the
engine must answer ``readyok`` after every line, every answer must be one
line of printable UTF-8 (nothing echoed raw, no internal error), and ``go``
and ``analyse`` must end within their ``movetime`` (else the default budget)
plus the host's grace of one second, whatever the view: possible, impossible
or garbage. One engine runs with ``PYTHONIOENCODING=utf-8`` (strict), so a
line that is not UTF-8 must be answered, not fatal.
"""

from __future__ import annotations

import os
import random

import pytest
from fuzzkit import drive_engine, engine, engine_lines

BOTS = ("random", "pimc:20ms", "ismcts:20ms", "greedy")
"""The engines fuzzed (a ``Level`` option may turn any of them into another)."""


def lane(seed: int, per_bot: int) -> dict[str, float]:
    totals: dict[str, float] = {}
    for k, bot in enumerate(BOTS):
        rng = random.Random(seed + k)
        lines = engine_lines(rng, per_bot)
        env = dict(os.environ, PYTHONIOENCODING="utf-8") if k % 2 else None
        with engine(bot, env) as pipe:
            figures = drive_engine(pipe, [b"mep", *lines])
        for key, value in figures.items():
            totals[key] = max(totals.get(key, 0.0), value) if key.startswith("slowest") \
                else totals.get(key, 0.0) + value
    print(f"\nengine lane, seed {seed}: {totals}")
    return totals


@pytest.mark.slow  # engines in subprocesses, 2 s: the whole run only
def test_engine_quick() -> None:
    """The quick lane: 60 lines per engine, seconds."""
    totals = lane(seed=71, per_bot=60)
    assert totals["lines"] >= 4 * 60 and totals["errors"] > 60 and totals["moves"] > 12


@pytest.mark.slow
@pytest.mark.long(40)
def test_engine_long() -> None:
    """The long lane: 5,000 lines per engine, 20,000 in all."""
    totals = lane(seed=7001, per_bot=5000)
    assert totals["lines"] >= 20_000
