"""The order of the whole run (tests/lanes.py): the tests that take minutes start first."""

from __future__ import annotations

from typing import Any

import pytest

import lanes


class Item:
    """Just enough of a ``pytest.Item`` for the ordering: a name and maybe a ``long`` mark."""

    def __init__(self, name: str, seconds: float | None = None) -> None:
        self.name = name
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
