"""Reconnecting and restarting: a short gap is replayed, a long one gets a snapshot; a
server killed with ``kill -9`` (a bot thinking or not) and restarted rebuilds its tables
from the database, the clients resume, no acknowledged move is lost and every table
finishes. The times to be back in sync are printed (docs/performance.md reports them)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import WebSocketException

from matador.core.record import parse_record

from .client import Closed, TableClient, WsTransport, create_table
from .conftest import fast_settings, live_server, run
from .process import ServerProcess


@pytest.mark.slow
def test_a_short_gap_is_replayed_and_a_long_one_snapshot(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path, replay_limit=8)) as live:
            made = await create_table(live.http, preset="classic",
                                      seats=["human", "bot:easy", "bot:easy"],
                                      rules={"match_target": 60})
            token = made["tokens"]["seats"]["0"]
            c = TableClient(await WsTransport.connect(live.address, made["id"]), token,
                            rng=random.Random(1))
            await c.hello()
            await c.play_until(lambda c: c.version >= 12 and bool(c.legal()))
            seen = c.version
            await c.t.close()
            # away: the bots cannot move without us, so a chat from a spectator fills the gap
            watcher = TableClient(await WsTransport.connect(live.address, made["id"]),
                                  made["tokens"]["spectator"], play=False)
            await watcher.hello()
            for k in range(3):
                await watcher.send({"type": "chat", "text": f"hello {k}"})
                await watcher.recv()
            room = live.hub.rooms[made["id"]]
            assert room.table.version > seen
            began = time.perf_counter()
            c.t = await WsTransport.connect(live.address, made["id"])
            await c.hello(version=seen)
            took = time.perf_counter() - began
            replay = c.messages[-1]
            assert replay["type"] == "events"
            assert [e["version"] for e in replay["events"]] == list(
                range(seen + 1, replay["version"] + 1))
            kinds = [e["kind"] for e in replay["events"]]
            assert "hidden" in kinds and "chat" not in kinds, \
                "spectators' chat reaches seats as bare version bumps"
            print(f"reconnect, short gap: back in sync in {took * 1000:.1f} ms")
            assert took < 3.0
            await c.t.close()
            for k in range(10):
                await watcher.send({"type": "chat", "text": f"more {k}"})
                await watcher.recv()
                if k == 8:
                    await asyncio.sleep(1.0)
            c.t = await WsTransport.connect(live.address, made["id"])
            await c.hello(version=seen)
            assert c.messages[-1]["type"] == "snapshot"
            assert c.messages[-1]["version"] > seen + 8
            await c.play_until()  # the game goes on to its end
            assert room.table.is_over

    run(go())


ALL: list[TableClient] = []


async def resilient(address: Any, table_id: str, token: str, rng: random.Random,
                    deadline: float, syncs: list[float], down: dict[str, float]) -> TableClient:
    """A client that plays to the end, reconnecting with its last version whenever the
    server goes away."""
    c = TableClient(None, token, rng=rng)  # type: ignore[arg-type]
    ALL.append(c)
    first = True
    while time.monotonic() < deadline:
        try:
            c.t = await WsTransport.connect(address(), table_id)
            await c.hello(version=None if first else c.version)
            if not first and "restart" in down:
                syncs.append(time.monotonic() - down["restart"])
            first = False
            await c.play_until(timeout=deadline - time.monotonic())
            await c.t.close()
            return c
        except (Closed, OSError, TimeoutError, ConnectionError, WebSocketException) as e:
            if isinstance(e, TimeoutError) and time.monotonic() >= deadline:
                raise
            await asyncio.sleep(0.05)
    raise TimeoutError(f"seat {c.you} did not finish")


async def kill_and_restart(tmp_path: Path, server_process: Any, kills: int,
                           seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    proc: ServerProcess = server_process("--data-dir", str(tmp_path), "--bot-workers", "1")
    proc.start()
    address = lambda: proc.address  # noqa: E731 -- the port is kept across restarts
    tables = []
    async with httpx.AsyncClient(base_url=f"http://{proc.address}", timeout=30) as http:
        for seats in (["human", "bot:normal"], ["human", "human", "bot:normal"],
                      ["bot:easy", "human", "bot:normal", "human"]):
            tables.append(await create_table(http, preset="classic", seats=seats,
                                             rules={"match_target": 25}))
    syncs: list[float] = []
    down: dict[str, float] = {}
    deadline = time.monotonic() + 240
    players = [resilient(address, t["id"], tok, random.Random(rng.random()), deadline, syncs,
                         down)
               for t in tables for tok in t["tokens"]["seats"].values()]
    game = asyncio.ensure_future(asyncio.gather(*players))
    restarts = []
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(0.05, 0.8))  # bots think 150 ms: some kills land then
        if game.done():
            break
        proc.kill()
        down.clear()
        down["restart"] = time.monotonic()
        restarts.append(proc.start())
    clients: list[TableClient] = await game
    # every acknowledged move is in the records the restarted server kept
    async with httpx.AsyncClient(base_url=f"http://{proc.address}", timeout=30) as http:
        lost = 0
        for t in tables:
            state = (await http.get(f"/api/tables/{t['id']}")).json()
            assert state["phase"] == "over", state
            lines = (await http.get(f"/api/tables/{t['id']}/records.jsonl")).text.splitlines()
            records = [parse_record(line) for line in lines]
            mine = [c for c in clients if c.token in t["tokens"]["seats"].values()]
            for c in mine:
                for a in c.acked:
                    moves = records[a["hand"] - 1].moves
                    if a["ply"] >= len(moves) or str(moves[a["ply"]]) != a["move"]:
                        lost += 1
            assert all(c.over for c in mine)
    proc.stop()
    return {"kills": len(restarts), "restart_s": restarts, "resync_s": syncs, "lost": lost,
            "acked": sum(len(c.acked) for c in clients),
            "summary": f"{len(restarts)} kill -9: restart (up, tables rebuilt) max "
                       f"{max(restarts, default=0):.2f} s; clients back in sync after the "
                       f"kill max {max(syncs, default=0):.2f} s; {lost} acknowledged moves "
                       f"lost of {sum(len(c.acked) for c in clients)}"}


@pytest.mark.slow
def test_kill_9_once_and_resume(tmp_path: Path, server_process: Any) -> None:
    out = run(kill_and_restart(tmp_path, server_process, kills=1, seed=3))
    assert out["lost"] == 0 and out["acked"] > 0
    print(out["summary"])


@pytest.mark.slow
@pytest.mark.long(35)
def test_kill_9_at_twenty_random_points(tmp_path: Path, server_process: Any) -> None:
    out = run(kill_and_restart(tmp_path, server_process, kills=20, seed=11))
    print(out["summary"])
    assert out["kills"] >= 10, out
    assert out["lost"] == 0
    assert max(out["resync_s"]) <= 5.0, out
