"""The order of the whole run (tests/lanes.py): the tests that take minutes start first."""

from __future__ import annotations

from typing import Any

import pytest

import lanes


class Item:
    """Just enough of a ``pytest.Item`` for the ordering: a name, a node id and maybe a
    ``long`` mark."""

    def __init__(self, name: str, seconds: float | None = None, path: str = "tests/x.py"
                 ) -> None:
        self.name = name
        self.nodeid = f"{path}::{name}"
        self.mark = pytest.mark.long(seconds).mark if seconds is not None else None

    def get_closest_marker(self, name: str) -> Any:
        return self.mark if name == "long" else None


def names(items: list[Any]) -> list[str]:
    return [i.name for i in lanes.long_first(items)]


def test_long_tests_first_longest_first_each_followed_by_an_ordinary_one() -> None:
    items = [Item("a"), Item("b"), Item("l40", 40), Item("c"), Item("l700", 700), Item("d"),
             Item("l250", 250), Item("e")]
    assert names(items) == ["l700", "a", "l250", "b", "l40", "c", "d", "e"]


def test_without_long_tests_the_order_is_kept_and_nothing_is_lost() -> None:
    items = [Item(x) for x in "abcd"]
    assert names(items) == list("abcd")
    assert names([Item("l1", 1), Item("l2", 2)]) == ["l2", "l1"]


def test_a_long_mark_gives_its_seconds_an_ordinary_test_none() -> None:
    assert lanes.long_seconds(Item("x", 600)) == 600.0
    assert lanes.long_seconds(Item("y")) == 0.0


def test_tests_that_use_the_kernel_run_after_the_others_long_ones_still_first() -> None:
    items = [Item("k1", path="tests/fast/test_identity.py"), Item("a"),
             Item("d", path="src/matador/players/sage.py"), Item("b"),
             Item("l9", 9, path="tests/players/test_sage.py"),
             Item("s", path="tests/test_think_time_smoke.py"), Item("c")]
    assert names(items) == ["l9", "a", "b", "c", "k1", "d", "s"]


def test_the_kernel_paths_match_files_not_their_neighbours() -> None:
    assert lanes.uses_kernel(Item("t", path="tests/cli/test_cli_levels.py"))
    assert lanes.uses_kernel(Item("t", path="tests/test_value_net_smoke.py"))
    assert not lanes.uses_kernel(Item("t", path="tests/cli/test_cli_play.py"))
    assert not lanes.uses_kernel(Item("t", path="tests/core/test_state.py"))


def test_browser_tests_run_last_of_all_after_the_kernel_tests() -> None:
    items = [Item("w1", path="tests/web/test_browser.py"),
             Item("k", path="tests/table/test_drive.py"), Item("a"),
             Item("w2", 50, path="tests/web/test_table.py"), Item("b")]
    assert names(items) == ["a", "b", "k", "w1", "w2"]
    assert lanes.uses_browser(Item("t", path="tests/web/test_table.py"))
    assert not lanes.uses_browser(Item("t", path="tests/server/test_web_api.py"))
