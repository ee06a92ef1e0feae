"""The drivers: the same game synchronously, from an event loop, and through a process pool;
forfeits by every kind of fault; forced moves; who gets the true state."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ProcessPoolExecutor
from random import Random

import pytest

from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import HandState, Seat
from matador.core.view import PlayerView
from matador.table import (
    BotPlayer,
    Player,
    PlayerError,
    Table,
    aplay_game,
    play_game,
)


def deals(seed: int):  # type: ignore[no-untyped-def]
    return lambda hand: Random(seed * 100 + hand)


def records_of(table: Table) -> list[str]:
    return [r.dumps() for r in table.records]


def fresh(rules: Rules, players: int) -> Table:
    return Table(rules, players)


RULES = Rules.from_preset("classic", {"match_target": 40})
SPECS = ["pimc:8it", "ismcts:10it", "heuristic"]


def test_sync_async_and_process_pool_play_the_same_game() -> None:
    sync = fresh(RULES, 3)
    play_game(sync, [BotPlayer(s) for s in SPECS], deal_rng=deals(1), seed=7)
    threaded = fresh(RULES, 3)
    asyncio.run(aplay_game(threaded, [BotPlayer(s) for s in SPECS], deal_rng=deals(1), seed=7))
    assert records_of(sync) == records_of(threaded)
    pooled = fresh(RULES, 3)
    with ProcessPoolExecutor(2) as pool:
        asyncio.run(aplay_game(pooled, [BotPlayer(s) for s in SPECS], deal_rng=deals(1),
                               seed=7, executor=pool))
    assert records_of(sync) == records_of(pooled)
    assert sync.is_over and len(sync.records) >= 1


class Scripted(Player):
    """Plays the first legal move; counts calls; can misbehave on call ``bad_at``."""

    def __init__(self, fault: str = "", bad_at: int = 0, asks_forced: bool = True) -> None:
        self.name = f"scripted-{fault or 'ok'}"
        self.fault = fault
        self.bad_at = bad_at
        self.calls = 0
        self._asks_forced = asks_forced
        self.views: list[object] = []

    @property
    def asks_forced(self) -> bool:
        return self._asks_forced

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        if self.fault == "start":
            raise RuntimeError("cannot start")

    def move(self, view: PlayerView, rng: Random) -> Move:
        self.views.append(view)
        self.calls += 1
        if self.calls == self.bad_at:
            if self.fault == "raise":
                raise ValueError("boom")
            if self.fault == "crash":
                raise PlayerError("engine died", "crash")
            if self.fault == "invalid":
                return "3-4"  # type: ignore[return-value]
            if self.fault == "illegal":
                legal = set(view.legal_moves)
                return next(Move(m) for m in range(128) if m not in legal)
            if self.fault == "slow":
                time.sleep(0.05)
        return next(iter(view.legal_moves))

    def hand_over(self, outcome: object) -> None:
        if self.fault == "hand_over":
            raise RuntimeError("bad bookkeeping")


@pytest.mark.parametrize(("fault", "kind"), [
    ("raise", "error"), ("crash", "crash"), ("invalid", "invalid"), ("illegal", "illegal"),
    ("slow", "timeout"), ("start", "start"), ("hand_over", "error"),
])
def test_every_fault_forfeits_the_game_for_that_seat(fault: str, kind: str) -> None:
    table = Table(RULES, 2, single_hand=fault != "hand_over")
    bad = Scripted(fault, bad_at=2)
    report = play_game(table, [Scripted(), bad], deal_rng=deals(2), move_timeout=0.02)
    assert report.fault is not None and report.fault.seat == 1 and report.fault.kind == kind
    assert table.is_over and table.end_reason == "forfeit" and table.winner is None
    kinds = [e.kind for e in table.events]
    assert kinds[-2:] == ["forfeit", "match_end"]
    forfeit = table.events[-2].public
    assert forfeit["seat"] == 1 and forfeit["reason"] == kind


def test_a_fault_after_the_deciding_hand_does_not_change_the_result() -> None:
    table = Table(RULES, 2, single_hand=True)
    report = play_game(table, [Scripted(), Scripted("hand_over")], deal_rng=deals(2))
    assert report.fault is None and table.end_reason == "single_hand"


def test_a_bot_is_not_asked_for_a_forced_move_but_a_person_is() -> None:
    rules = Rules.from_preset("classic")
    asked = Scripted(asks_forced=True)
    table = Table(rules, 2, single_hand=True)
    report = play_game(table, [asked, Scripted(asks_forced=False)], deal_rng=deals(3))
    assert report.fault is None
    assert asked.calls == report.moves[0]  # every move, forced ones included
    silent = Scripted(asks_forced=False)
    table = Table(rules, 2, single_hand=True)
    report = play_game(table, [Scripted(), silent], deal_rng=deals(3))
    assert silent.calls < report.moves[1]


def test_only_the_oracle_gets_the_true_state() -> None:
    table = Table(Rules.from_preset("classic"), 2, single_hand=True)
    plain = Scripted()
    play_game(table, [BotPlayer("cheater:4it"), plain], deal_rng=deals(4))
    assert plain.views and all(type(v) is PlayerView for v in plain.views)


class Leaving(Exception):
    ends_session = True


class Quitter(Scripted):
    def move(self, view: PlayerView, rng: Random) -> Move:
        raise Leaving


def test_leaving_passes_through_and_leaves_the_table_as_it_was() -> None:
    table = Table(Rules.from_preset("classic"), 2, single_hand=True)
    with pytest.raises(Leaving):
        play_game(table, [Quitter(), Quitter()], deal_rng=deals(5))
    assert not table.is_over and table.ply == 0 and table.unfinished_record() is not None


class Remote(Player):
    """A person elsewhere: the move arrives later, through an asyncio queue."""

    name = "remote"

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Move] = asyncio.Queue()
        self.waiting = asyncio.Event()

    @property
    def blocking(self) -> bool:
        return False

    def move(self, view: PlayerView, rng: Random) -> Move:  # pragma: no cover - never called
        raise AssertionError("a remote player is awaited, not called")

    async def amove(self, view: PlayerView, rng: Random) -> Move:
        self.waiting.set()
        return await self.queue.get()


def test_awaiting_a_person_does_not_block_other_tables() -> None:
    async def main() -> None:
        person = Remote()
        slow = Table(Rules.from_preset("classic"), 2, single_hand=True)
        game = asyncio.create_task(aplay_game(slow, [person, Scripted()], deal_rng=deals(6),
                                              seed=1))
        await person.waiting.wait()
        other = Table(Rules.from_preset("classic"), 2, single_hand=True)
        await aplay_game(other, [BotPlayer("greedy"), BotPlayer("random")], deal_rng=deals(7))
        assert other.is_over and not slow.is_over  # the other table finished meanwhile
        while not slow.is_over:
            seat = slow.to_move
            if seat == 0:
                await person.queue.put(slow.legal_moves(0)[0])
            await asyncio.sleep(0.001)
        await game

    asyncio.run(main())


def test_the_report_counts_hands_points_and_the_leader() -> None:
    table = Table(RULES, 2)
    report = play_game(table, [BotPlayer("greedy"), BotPlayer("heuristic")], deal_rng=deals(8))
    assert report.hands == len(table.records)
    assert report.points == list(table.scores)
    assert report.leader == table.records[0].deal.leader
    assert report.winner == table.winner
    state = HandState(table.rules, table.records[0].deal)
    assert state.to_move == report.leader
    assert sum(report.moves) == sum(len(r.moves) for r in table.records)
    assert random.Random  # the drivers never use the module-level generator
