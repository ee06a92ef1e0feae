"""Whole games through real WebSocket clients against a real uvicorn server: 2, 3 and 4
seats, people and bots mixed, every preset; records downloaded and replayed."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from matador.core.rules import PRESETS
from matador.table.events import SPECTATOR

from .client import TableClient, WsTransport, create_table
from .conftest import MATADOR, Live, fast_settings, live_server, run
from .leaks import check_room


async def play_table(live: Live, preset: str, seats: list[str], *, single_hand: bool,
                     rules: dict[str, Any] | None = None, seed: int = 0,
                     spectate: bool = True, timeout: float = 120) -> dict[str, Any]:
    made = await create_table(live.http, preset=preset, seats=seats, single_hand=single_hand,
                              rules=rules or {})
    clients = []
    for s, token in made["tokens"]["seats"].items():
        t = await WsTransport.connect(live.address, made["id"])
        c = TableClient(t, token, name=f"P{s}", rng=random.Random(seed * 10 + int(s)))
        await c.hello()
        clients.append(c)
    watcher = None
    if spectate:
        watcher = TableClient(await WsTransport.connect(live.address, made["id"]),
                              made["tokens"]["spectator"], play=False)
        await watcher.hello()
    everyone = [*clients, *([watcher] if watcher else [])]
    await asyncio.wait_for(asyncio.gather(*(c.play_until() for c in everyone)), timeout)
    room = live.hub.rooms[made["id"]]
    check_room(room.table, {c.you if c.you is not None else SPECTATOR: c.frames
                            for c in everyone})
    for c in everyone:
        await c.t.close()
    return {"id": made["id"], "clients": clients, "watcher": watcher, "room": room}


def test_a_two_seat_hand_person_against_bot(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            out = await play_table(live, "classic", ["human", "bot:easy"], single_hand=True)
            person = out["clients"][0]
            assert person.over and not person.errors
            assert person.acked, "the person made moves that were acknowledged"
            room = out["room"]
            assert room.table.is_over and len(room.table.records) == 1
            stored = await asyncio.to_thread(live.hub.store.count_moves, out["id"])
            assert stored == len(room.table.records[0].moves)

    run(go())


@pytest.mark.slow
def test_records_download_replays_and_verifies(tmp_path: Path) -> None:
    async def go() -> str:
        async with live_server(fast_settings(tmp_path)) as live:
            out = await play_table(live, "classic", ["human", "human", "bot:easy"],
                                   single_hand=False, rules={"match_target": 30})
            r = await live.http.get(f"/api/tables/{out['id']}/records.jsonl")
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("application/jsonl")
            assert len(r.text.splitlines()) == len(out["room"].table.records) >= 1
            return r.text

    jsonl = run(go())
    path = tmp_path / "match.jsonl"
    path.write_text(jsonl)
    done = subprocess.run([str(MATADOR), "replay", "--jsonl", str(path)], capture_output=True,
                          text=True, check=True)
    for line, out in zip(jsonl.splitlines(), done.stdout.splitlines(), strict=True):
        assert json.loads(out)["result"] == json.loads(line)["result"]
    verified = subprocess.run([str(MATADOR), "verify", str(path)], capture_output=True,
                              text=True, check=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert all(json.loads(x)["verified"] for x in verified.stdout.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_full_matches_every_preset_and_player_count(tmp_path: Path, preset: str) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            for players, seats in ((2, ["human", "human"]),
                                   (3, ["human", "bot:easy", "human"]),
                                   (4, ["bot:easy", "human", "human", "bot:easy"])):
                from matador.core.rules import Rules

                if not Rules.from_preset(preset).allows_players(players):
                    continue
                out = await play_table(live, preset, seats, single_hand=False,
                                       rules={"match_target": 40}, seed=players)
                table = out["room"].table
                assert table.is_over and table.end_reason == "target"
                for c in out["clients"]:
                    assert c.state is not None and c.state["winner"] == table.winner
                    assert not [e for e in c.errors if e["code"] != "stale"], c.errors

    run(go())
