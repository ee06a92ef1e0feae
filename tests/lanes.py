"""What runs in the fast lane (``-m "not slow"``) and what only in CI's whole run, and the
order of the whole run (the tests that take minutes first)."""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatch
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


KERNEL_PATHS = (
    "src/matador/fast/*", "src/matador/players/*", "src/matador/arena/study.py",
    "tests/fast/*", "tests/players/*", "tests/arena/test_study.py",
    "tests/cli/test_cli_analyse.py", "tests/cli/test_cli_levels.py",
    "tests/cli/test_cli_records.py", "tests/core/test_sampling_cache.py",
    "tests/table/test_drive.py", "tests/ui/test_ui_game.py", "tests/test_*_smoke.py",
)
"""Test files whose tests run the compiled kernel in the test process (measured: the tests
that called ``matador.fast``'s kernel in a fast-lane run). A hint for the order only: a
kernel test that runs early compiles the kernel itself, and a listed file that stops using
the kernel only runs later."""


BROWSER_PATHS = ("tests/web/*",)
"""Test files that drive the browser. Their ``browser`` fixture (tests/web/conftest.py) lives
for the whole session and Playwright's sync API keeps an event loop running in the worker's
main thread as long as it does, so no test may call ``asyncio.run`` after one of them in the
same worker: they run after every other test."""


def _in(item: pytest.Item, patterns: tuple[str, ...]) -> bool:
    path = item.nodeid.split("::", 1)[0]
    return any(fnmatch(path, pattern) for pattern in patterns)


def uses_kernel(item: pytest.Item) -> bool:
    """Whether ``item``'s file is one of :data:`KERNEL_PATHS`."""
    return _in(item, KERNEL_PATHS)


def uses_browser(item: pytest.Item) -> bool:
    """Whether ``item``'s file is one of :data:`BROWSER_PATHS`."""
    return _in(item, BROWSER_PATHS)


def long_seconds(item: pytest.Item) -> float:
    """The ``long`` mark's estimate of a test's seconds; 0 for an ordinary test."""
    mark = item.get_closest_marker("long")
    return float(mark.args[0]) if mark is not None else 0.0


def long_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the long tests first, longest first, each followed by an ordinary test
    (so the first two go to different xdist workers); then the rest in their order, those
    that use the kernel (:func:`uses_kernel`) after the others, so that by then the kernel
    compiled in the background (tests/conftest.py) is on disk for every worker to load, and
    those that drive the browser (:func:`uses_browser`) last of all."""
    browser = [i for i in items if uses_browser(i)]  # last even if long
    items = [i for i in items if not uses_browser(i)]
    long = sorted((i for i in items if long_seconds(i)), key=long_seconds, reverse=True)
    rest = [i for i in items if not long_seconds(i)]
    ordinary = [i for i in rest if not uses_kernel(i)] + [i for i in rest if uses_kernel(i)]
    ordered: list[pytest.Item] = []
    for item in long:
        ordered.append(item)
        if ordinary:
            ordered.append(ordinary.pop(0))
    return ordered + ordinary + browser
