"""What runs in the fast lane (``-m "not slow"``) and what only in CI's whole run, and the
order of the whole run (the tests that take minutes first)."""

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


def classic_preset_fast(presets: Iterable[str]) -> list[Any]:
    """Preset names for ``parametrize``: classic in the fast lane, every other marked slow."""
    return [p if p == "classic" else pytest.param(p, marks=pytest.mark.slow) for p in presets]


def examples(full: int) -> int:
    """How many examples (of a Hypothesis property, random hands of a model check): ``full`` in
    the whole run, a quarter (at least 10) in the fast lane."""
    return max(10, full // 4) if FAST else full


def long_seconds(item: pytest.Item) -> float:
    """The ``long`` mark's estimate of a test's seconds; 0 for an ordinary test."""
    mark = item.get_closest_marker("long")
    return float(mark.args[0]) if mark is not None else 0.0


def long_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the long tests first, longest first, each followed by an ordinary test
    (so the first two go to different xdist workers); the rest in their order."""
    long = sorted((i for i in items if long_seconds(i)), key=long_seconds, reverse=True)
    ordinary = [i for i in items if not long_seconds(i)]
    ordered: list[pytest.Item] = []
    for item in long:
        ordered.append(item)
        if ordinary:
            ordered.append(ordinary.pop(0))
    return ordered + ordinary
