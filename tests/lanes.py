"""What runs in the fast lane (``-m "not slow"``) and what only in CI's whole run."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

FAST = False
"""Whether this run is the fast lane; tests/conftest.py sets it before any test module loads."""


def classic_fast(configs: Iterable[tuple[str, int]]) -> list[Any]:
    """``(preset, players)`` cases for ``parametrize``: classic's in the fast lane, every other
    preset's marked slow."""
    return [case if case[0] == "classic" else pytest.param(*case, marks=pytest.mark.slow)
            for case in configs]


def examples(full: int) -> int:
    """How many examples (of a Hypothesis property, random hands of a model check): ``full`` in
    the whole run, a quarter (at least 10) in the fast lane."""
    return max(10, full // 4) if FAST else full
