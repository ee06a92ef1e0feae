"""PostgreSQL: the migrations, a game, and two ``matador serve`` processes on one database,
a move through one reaching clients of the other (LISTEN/NOTIFY), and two processes racing
the same move: exactly one is accepted.

These need ``MATADOR_TEST_PG`` (see conftest.py); CI sets it and never skips them."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from .client import TableClient, WsTransport, create_table
from .conftest import fast_settings, live_server, run
from .leaks import check_room


def test_a_game_on_postgres(tmp_path: Path, pg_url: str) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path, db_url=pg_url)) as live:
            assert live.hub.url.get_backend_name() == "postgresql"
            made = await create_table(live.http, preset="russian",
                                      seats=["human", "bot:easy", "human"], single_hand=True)
            clients = []
            for token in made["tokens"]["seats"].values():
                c = TableClient(await WsTransport.connect(live.address, made["id"]), token,
                                rng=random.Random(len(clients)))
                await c.hello()
                clients.append(c)
            await asyncio.gather(*(c.play_until() for c in clients))
            room = live.hub.rooms[made["id"]]
            check_room(room.table, {c.you: c.frames for c in clients if c.you is not None})
            stored = await asyncio.to_thread(live.hub.store.count_moves, made["id"])
            assert stored == len(room.table.records[0].moves)
    run(go())
    with psycopg.connect(pg_url) as conn:  # the schema came from the Alembic migration
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)


async def two_processes(server_process: Any, pg_url: str, *args: str) -> tuple[Any, Any]:
    a = server_process("--db", pg_url, *args)
    b = server_process("--db", pg_url, *args)
    a.start()
    b.start()
    return a, b


def described(c: TableClient) -> str:
    """Where a client stands: what a hang needs to be understood."""
    state = c.state or {}
    return (f"seat {c.you} at version {c.version}, phase {state.get('phase')}, fair "
            f"{(c.room or {}).get('fair')}, errors {c.errors[-3:]}, last messages "
            f"{[m['type'] for m in c.messages[-6:]]}")


async def play_across(a: Any, b: Any, seed: int,
                      timeout: float = 60) -> tuple[TableClient, TableClient]:
    """A two-person hand with seat 0 playing through process ``a`` and seat 1 through
    ``b``; its clients once it is over (an AssertionError saying where each stood if it
    is not over within ``timeout`` seconds)."""
    async with httpx.AsyncClient(base_url=f"http://{a.address}", timeout=30) as http:
        made = await create_table(http, preset="classic", seats=["human", "human"],
                                  single_hand=True)
    tokens = list(made["tokens"]["seats"].values())
    c0 = TableClient(await WsTransport.connect(a.address, made["id"]), tokens[0],
                     rng=random.Random(seed))
    c1 = TableClient(await WsTransport.connect(b.address, made["id"]), tokens[1],
                     rng=random.Random(seed + 1))
    await c0.hello()
    await c1.hello()
    try:
        await asyncio.wait_for(asyncio.gather(c0.play_until(), c1.play_until()), timeout)
    except TimeoutError:
        raise AssertionError(f"table {made['id']} stalled: {described(c0)}; "
                             f"{described(c1)}") from None
    return c0, c1


@pytest.mark.slow
def test_two_processes_serve_one_table(tmp_path: Path, server_process: Any,
                                       pg_url: str) -> None:
    async def go() -> None:
        a, b = await two_processes(server_process, pg_url)
        began = time.monotonic()
        c0, c1 = await play_across(a, b, 1)
        assert c0.acked and c1.acked
        assert c0.state is not None and c1.state is not None
        assert c0.state["scores"] == c1.state["scores"]
        assert c0.version == c1.version
        # both processes stored one sequence: each client saw every version in order
        for c in (c0, c1):
            seen = [e["version"] for m in c.messages if m["type"] == "events"
                    for e in m["events"]]
            assert seen == sorted(set(seen)), "a version came twice or out of order"
        print(f"two processes: a hand in {time.monotonic() - began:.1f} s")

    run(go())


@pytest.mark.slow
def test_two_processes_serve_many_tables_at_once(tmp_path: Path, server_process: Any,
                                                 pg_url: str) -> None:
    """Twenty tables started together, each with one person on either process: their
    arrivals and contributions collide (a contribution refused three times in a row by
    the other process's steps once stalled a table for good); every hand must end."""
    async def go() -> None:
        a, b = await two_processes(server_process, pg_url, "--create-limit", "100/100")
        for round_ in range(2):
            began = time.monotonic()
            done = await asyncio.gather(*(play_across(a, b, 100 * round_ + 2 * k)
                                          for k in range(20)))
            for c0, c1 in done:
                assert c0.over and c1.over and c0.version == c1.version
            print(f"two processes: 20 tables at once in {time.monotonic() - began:.1f} s")

    run(go())


@pytest.mark.slow
def test_two_processes_racing_the_same_move(tmp_path: Path, server_process: Any,
                                            pg_url: str) -> None:
    async def go() -> None:
        a, b = await two_processes(server_process, pg_url)
        async with httpx.AsyncClient(base_url=f"http://{a.address}", timeout=30) as http:
            made = await create_table(http, preset="classic", seats=["human", "human"],
                                      single_hand=True)
        tokens = list(made["tokens"]["seats"].values())
        seats = [TableClient(await WsTransport.connect(a.address, made["id"]), t, play=False)
                 for t in tokens]
        for c in seats:
            await c.hello()

        def dealt(c: TableClient) -> bool:
            return c.state is not None and c.state["phase"] == "playing"

        await asyncio.wait_for(asyncio.gather(*(c.play_until(dealt) for c in seats)), 30)
        to_move = seats[0].state["to_move"]  # type: ignore[index]
        # the seat to move opened on the other process too: the same move sent through both
        via_b = TableClient(await WsTransport.connect(b.address, made["id"]), tokens[to_move],
                            play=False)
        await via_b.hello()
        racers = [seats[to_move], via_b]
        await asyncio.sleep(0.3)  # both processes have caught up
        version = max(r.version for r in racers)
        move = racers[0].legal()[0]["move"]
        await asyncio.gather(*(r.send({"type": "move", "move": move, "version": version,
                                       "ref": f"race{k}"}) for k, r in enumerate(racers)))
        answers = []
        for k, r in enumerate(racers):
            while True:
                m = await r.recv(timeout=15)
                if m.get("ref") == f"race{k}":
                    answers.append(m)
                    break
        kinds = sorted(m["type"] for m in answers)
        assert kinds == ["ack", "error"], answers
        with psycopg.connect(pg_url) as conn:
            rows = conn.execute("SELECT hand, ply, count(*) FROM moves WHERE table_id = %s "
                                "GROUP BY hand, ply HAVING count(*) > 1",
                                (made["id"],)).fetchall()
            assert rows == []

    run(go())
