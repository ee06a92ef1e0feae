"""Zero leaks, on the wire: over many random games (every preset, 2-4 players, people
and bots, a spectator at each table) every frame a seat or a spectator receives,
snapshots, replays after reconnecting, errors and the reveal included, names only
tiles that recipient may know (:mod:`.leaks`)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from matador.core.rules import PRESETS, Rules
from matador.server.app import create_app
from matador.server.hub import Hub
from matador.table.events import SPECTATOR

from .botpool import shared_bot_pool
from .client import AsgiTransport, TableClient
from .conftest import fast_settings, run
from .leaks import LeakError, Truth, check_frames, check_room


def mischief(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly a legal move; sometimes an own tile at the wrong end (refused as illegal)."""
    move = rng.choice(legal)
    if move["type"] == "play" and move["end"] and rng.random() < 0.1:
        other = "R" if move["end"] == "L" else "L"
        return {**move, "move": other + move["tile"]}
    return move


async def one_game(app: Any, http: httpx.AsyncClient, rng: random.Random) -> tuple[int, int]:
    preset = rng.choice(PRESETS)
    rules = Rules.from_preset(preset)
    players = rng.choice([n for n in (2, 3, 4) if rules.allows_players(n)])
    seats = [rng.choice(["human", "human", "bot:easy"]) for _ in range(players)]
    if "human" not in seats:
        seats[rng.randrange(players)] = "human"
    r = await http.post("/api/tables", json={"preset": preset, "seats": seats,
                                             "single_hand": rng.random() < 0.9,
                                             "rules": {"match_target": 15}})
    assert r.status_code == 201, r.text
    made = r.json()
    frames: dict[int, list[str]] = {}
    parsed: dict[int, list[dict[str, Any]]] = {}

    def keep(c: TableClient) -> None:
        who = c.you if c.you is not None else SPECTATOR
        frames.setdefault(who, []).extend(c.frames)
        parsed.setdefault(who, []).extend(c.messages)
        c.frames, c.messages = [], []

    clients = []
    for token in made["tokens"]["seats"].values():
        c = TableClient(await AsgiTransport.connect(app, made["id"]), token,
                        rng=random.Random(rng.random()), choose=mischief)
        await c.hello()
        clients.append(c)
    watcher = TableClient(await AsgiTransport.connect(app, made["id"]),
                          made["tokens"]["spectator"], play=False)
    await watcher.hello()

    async def follow(c: TableClient) -> None:
        while not c.over:
            await c.play_until(lambda c: c.over or rng.random() < 0.01, timeout=120)
            if not c.over and rng.random() < 0.5:  # drop the connection, come back
                keep(c)
                await c.t.close()
                c.t = await AsgiTransport.connect(app, made["id"])
                gap = c.version if rng.random() < 0.7 else None  # None: a snapshot
                await c.hello(version=gap)
        keep(c)

    await asyncio.gather(*(follow(c) for c in [*clients, watcher]))
    room = app.state.hub.rooms[made["id"]]
    checked = check_room(room.table, frames, parsed)
    for c in [*clients, watcher]:
        await c.t.close()
    await room.stop()
    del app.state.hub.rooms[made["id"]]
    return checked, len(room.table.events)


async def many_games(tmp: Path, games: int, seed: int, concurrency: int = 16) -> dict[str, Any]:
    settings = fast_settings(tmp, sqlite_synchronous="NORMAL")
    app = create_app(settings, Hub(settings, pool=shared_bot_pool()))
    hub = app.state.hub
    await hub.start()
    rng = random.Random(seed)
    totals = {"games": 0, "frames": 0, "events": 0}
    began = time.perf_counter()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as http:
            queue = list(range(games))

            async def worker(k: int) -> None:
                local = random.Random(rng.random())
                while queue:
                    queue.pop()
                    frames, events = await one_game(app, http, local)
                    totals["games"] += 1
                    totals["frames"] += frames
                    totals["events"] += events

            await asyncio.gather(*(worker(k) for k in range(concurrency)))
    finally:
        await hub.stop()
    totals["seconds"] = round(time.perf_counter() - began, 1)
    return totals


@pytest.mark.slow  # a dozen whole games: the whole run only
def test_zero_leaks_over_a_dozen_games(tmp_path: Path) -> None:
    totals = run(many_games(tmp_path, 12, seed=1, concurrency=12))
    assert totals["games"] == 12 and totals["frames"] > 200


def games_in_a_process(tmp: str, games: int, seed: int) -> dict[str, Any]:
    """:func:`many_games` in a worker process (its own server and database)."""
    return run(many_games(Path(tmp), games, seed=seed, concurrency=32))


@pytest.mark.slow
@pytest.mark.long(700)
def test_zero_leaks_over_ten_thousand_games(tmp_path: Path) -> None:
    """10,000 games, split between two processes (one per core), each its own server."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    halves = [(str(tmp_path / f"p{k}"), 5_000, 100 + k) for k in range(2)]
    for tmp, _n, _s in halves:
        Path(tmp).mkdir()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(games_in_a_process, *zip(*halves, strict=True)))
    print(json.dumps(results))
    assert sum(r["games"] for r in results) == 10_000
    assert sum(r["frames"] for r in results) > 500_000


def test_the_checker_catches_a_leak() -> None:
    """The check fails when a frame names a tile its recipient cannot know."""
    from matador.core.rules import Rules as R
    from matador.table.referee import Table

    table = Table(R.from_preset("classic"), 2, single_hand=True)
    table.deal(random.Random(3))
    truth = Truth(table)
    opponent_tile = table.events[-1].private[1]["tiles"][0]
    own = table.events[-1].private[0]["tiles"][0]
    ok = json.dumps({"type": "events", "version": 2, "events": [], "view": {"tiles": [own]}})
    assert check_frames(truth, 0, [ok]) == 1
    bad = json.dumps({"type": "error", "version": 2, "message": f"you cannot see {opponent_tile}"})
    with pytest.raises(LeakError):
        check_frames(truth, 0, [bad])
    with pytest.raises(LeakError):
        check_frames(truth, SPECTATOR, [ok])
