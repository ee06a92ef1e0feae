"""``retrying``: a step refused because another process stored one first is tried again
(the room has been reloaded meanwhile), long enough for a burst of the other process's
steps; any other refusal, and the last conflict, reach the caller."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from matador.server.protocol import ProtocolError
from matador.server.room import retrying

from .conftest import run


def refusing(codes: list[str]) -> tuple[list[int], Callable[[], Awaitable[None]]]:
    """An action refused with each code of ``codes`` in turn, then done; its call count."""
    calls = [0]

    async def action() -> None:
        calls[0] += 1
        if calls[0] <= len(codes):
            raise ProtocolError(codes[calls[0] - 1], "refused")
    return calls, action


def test_a_burst_of_conflicts_is_outlasted() -> None:
    calls, action = refusing(["conflict"] * 5)  # more than a person's arrival stores
    run(retrying(action))
    assert calls == [6]


def test_other_refusals_are_not_retried() -> None:
    calls, action = refusing(["conflict", "stale"])
    with pytest.raises(ProtocolError) as e:
        run(retrying(action))
    assert e.value.code == "stale" and calls == [2]


def test_the_last_conflict_reaches_the_caller() -> None:
    calls, action = refusing(["conflict"] * 10)
    with pytest.raises(ProtocolError) as e:
        run(retrying(action, attempts=4))
    assert e.value.code == "conflict" and calls == [4]
