"""The move path and the protocol's limits, against a real uvicorn server: stale, duplicate,
out-of-turn, illegal and racing moves are refused with their codes and change nothing;
oversized frames, floods, bad tokens and HTTP bursts are refused; fuzzed frames get
errors and leave the table as it was."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from matador.server.protocol import ERROR_CODES

from .client import Closed, TableClient, WsTransport, create_table
from .conftest import Live, fast_settings, live_server, run


async def two_people(live: Live, **config: Any) -> tuple[str, list[TableClient]]:
    """A two-person hand, dealt: the clients (seat order) with the hand started."""
    made = await create_table(live.http, preset="classic", seats=["human", "human"],
                              single_hand=True, **config)
    clients = []
    for token in made["tokens"]["seats"].values():
        c = TableClient(await WsTransport.connect(live.address, made["id"]), token, play=False)
        await c.hello()
        clients.append(c)
    await asyncio.gather(*(c.play_until(
        lambda c: c.state is not None and c.state["phase"] == "playing", timeout=10)
        for c in clients))
    return made["id"], clients


async def drain(c: TableClient, seconds: float = 0.2) -> None:
    """Read whatever arrives for a little while."""
    try:
        while True:
            await c.recv(timeout=seconds)
    except TimeoutError:
        pass


def mover(clients: list[TableClient]) -> tuple[TableClient, TableClient]:
    to_move = clients[0].state["to_move"]  # type: ignore[index]
    return clients[to_move], clients[1 - to_move]


def test_refused_moves_change_nothing(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            table_id, clients = await two_people(live)
            room = live.hub.rooms[table_id]
            me, other = mover(clients)
            legal = me.legal()
            version = room.table.version

            async def refused(c: TableClient, msg: dict[str, Any], code: str) -> dict[str, Any]:
                await c.send({**msg, "type": "move", "ref": code})
                while True:
                    answer = await c.recv()
                    if answer["type"] == "error" and answer.get("ref") == code:
                        assert answer["code"] == code, answer
                        assert room.table.version == version, "a refused move changed the table"
                        return answer
                    assert answer.get("ref") != code, answer  # never acknowledged

            await refused(other, {"move": other.legal()[0]["move"] if other.legal() else "draw",
                                  "version": version}, "not_your_turn")
            await refused(me, {"move": legal[0]["move"], "version": version + 5}, "bad_version")
            await refused(me, {"move": "Z9-9", "version": version}, "invalid_move")
            hand = me.state["tiles"] if "tiles" in me.state else me.state["position"]["tiles"]
            playable = {m["tile"] for m in legal if m["type"] == "play"}
            dead = [t for t in hand if t not in playable]
            if dead:
                answer = await refused(me, {"move": dead[0], "version": version}, "illegal")
                assert answer["rule"].startswith("R"), answer
            # the first move is accepted; the same move again is refused
            await me.send({"type": "move", "move": legal[0]["move"], "version": version,
                           "ref": "first"})
            await me.send({"type": "move", "move": legal[0]["move"], "version": version,
                           "ref": "again"})
            got: dict[str, Any] = {}
            while len(got) < 2:
                answer = await me.recv()
                if answer.get("ref") in ("first", "again"):
                    got[answer["ref"]] = answer
            assert got["first"]["type"] == "ack"
            assert got["again"]["type"] == "error"
            assert got["again"]["code"] in ("stale", "not_your_turn")
            # a move chosen at the old version is stale, whoever is to move now
            version = room.table.version
            await refused(other, {"move": "draw", "version": version - 1}, "stale")
            stored = await asyncio.to_thread(live.hub.store.count_moves, table_id)
            assert stored == 1

    run(go())


def test_two_tasks_racing_the_same_move(tmp_path: Path) -> None:
    """Two connections of one seat send the same move at once (SQLite): one is accepted."""
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            table_id, clients = await two_people(live)
            room = live.hub.rooms[table_id]
            me, _ = mover(clients)
            from matador.server.connection import Conn
            from matador.server.protocol import ClientMessage

            seen: list[list[dict[str, Any]]] = [[], []]

            def conn(k: int) -> Conn:
                async def send(text: str) -> None:
                    seen[k].append(json.loads(text))

                async def close(code: int, reason: str) -> None:
                    pass

                c = Conn(send, close)
                c.seat = c.recipient = me.you  # type: ignore[assignment]
                return c

            a, b = conn(0), conn(1)
            version = room.table.version
            move = me.legal()[0]["move"]
            msg = ClientMessage("move", {"move": move, "version": version}, "race")
            await asyncio.gather(room.handle(a, msg), room.handle(b, msg))
            await asyncio.sleep(0.05)
            answers = [m for s in seen for m in s if m.get("ref") == "race"]
            assert sorted(m["type"] for m in answers) == ["ack", "error"], answers
            assert await asyncio.to_thread(live.hub.store.count_moves, table_id) == 1
            a.stop()
            b.stop()

    run(go())


def test_the_database_refuses_a_second_writer(tmp_path: Path) -> None:
    """The unique keys (table, version) and (table, hand, ply) refuse a second step."""
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            table_id, clients = await two_people(live)
            me, _ = mover(clients)
            room = live.hub.rooms[table_id]
            await me.send({"type": "move", "move": me.legal()[0]["move"],
                           "version": room.table.version, "ref": "x"})
            while (await me.recv())["type"] != "ack":
                pass
            from matador.server.db import StepWrite

            store = live.hub.store
            top = room.table.version
            same_ply = StepWrite(table_id, top + 1, "move", {"seat": 0, "move": 126},
                                 move=(1, 0, 0, 126))
            same_version = StepWrite(table_id, top, "event", {"kind": "chat"})
            assert await asyncio.to_thread(store.write, [same_ply]) == [False]
            assert await asyncio.to_thread(store.write, [same_version]) == [False]
            fresh = StepWrite(table_id, top + 1, "event", {"kind": "x", "public": {}})
            assert await asyncio.to_thread(store.write, [same_ply, fresh]) == [False, True]

    run(go())


def test_limits_frame_size_flood_and_bad_token(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            made = await create_table(live.http, preset="classic", seats=["human", "bot:easy"])
            token = made["tokens"]["seats"]["0"]
            # a bad token: one error, no state, close 4401
            c = TableClient(await WsTransport.connect(live.address, made["id"]), "x" * 22)
            answer = await c.hello()
            assert answer["type"] == "error" and answer["code"] == "bad_token"
            with pytest.raises(Closed) as closed:
                await c.recv()
            assert closed.value.code == 4401
            assert [json.loads(f)["type"] for f in c.frames] == ["error"]
            # a frame over 4 KiB: close 1009
            c = TableClient(await WsTransport.connect(live.address, made["id"]), token,
                            play=False)
            await c.hello()
            await c.t.send(json.dumps({"type": "chat", "text": "x" * 5000}))
            with pytest.raises(Closed) as closed:
                while True:
                    await c.recv()
            assert closed.value.code == 1009
            # more than 20 messages a second: close 1008
            c = TableClient(await WsTransport.connect(live.address, made["id"]), token,
                            play=False)
            await c.hello()
            for _ in range(25):
                try:
                    await c.t.send(json.dumps({"type": "ping"}))
                except Closed:
                    break
            with pytest.raises(Closed) as closed:
                while True:
                    await c.recv()
            assert closed.value.code == 1008
            # no such table: 4404; no hello in time: 4408
            c = TableClient(await WsTransport.connect(live.address, "nosuch"), token)
            assert (await c.hello())["code"] == "no_table"
            with pytest.raises(Closed) as closed:
                await c.recv()
            assert closed.value.code == 4404

    run(go())


def test_hello_timeout(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path, hello_timeout=0.3)) as live:
            made = await create_table(live.http, preset="classic", seats=["human", "bot:easy"])
            t = await WsTransport.connect(live.address, made["id"])
            with pytest.raises(Closed) as closed:
                await asyncio.wait_for(t.recv(), 5)
            assert closed.value.code == 4408

    run(go())


def test_http_rate_limits(tmp_path: Path) -> None:
    async def go() -> None:
        settings = fast_settings(tmp_path, http_capacity=6.0, http_per_second=0.01,
                                 create_capacity=2.0, create_per_second=0.01)
        async with live_server(settings) as live:
            codes = [(await live.http.post("/api/tables", json={
                "preset": "classic", "seats": ["human", "bot:easy"]})).status_code
                for _ in range(3)]
            assert codes == [201, 201, 429]
            codes = [(await live.http.get("/api/health")).status_code for _ in range(4)]
            assert codes[-1] == 429
            r = await live.http.get("/api/presets")
            assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
            assert r.json()["error"]["code"] == "rate_limited"

    run(go())


FUZZ = [
    "", "{", "[]", "null", "42", '"hello"', "{}", '{"type": 7}', '{"type": "dance"}',
    '{"type": "move"}', '{"type": "move", "move": "L3-4"}', '{"type": "move", "move": [1]}',
    '{"type": "move", "move": "L3-4", "version": "7"}', '{"type": "move", "move": true, '
    '"version": 1}', '{"type": "chat"}', '{"type": "chat", "text": 5}',
    '{"type": "chat", "text": "a", "phrase": "gg"}', '{"type": "chat", "phrase": "nope"}',
    '{"type": "mute", "seat": "x"}', '{"type": "mute", "seat": 9}',
    '{"type": "contribute", "hand": 1, "value": "zz"}', '{"type": "sync"}',
    '{"type": "hello", "token": "again"}', '{"type": "ping", "ref": {"a": 1}}',
    '{"type": "move", "move": 999, "version": 1}', '{"type": "rematch"}',
]


@pytest.mark.slow
def test_protocol_fuzz(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            table_id, clients = await two_people(live)
            room = live.hub.rooms[table_id]
            c = clients[0]
            rng = random.Random(5)
            frames = [*FUZZ, *("".join(rng.choice('{}[]":,ab1 ') for _ in range(rng.randrange(30)))
                               for _ in range(4))]
            version = room.table.version
            for k, frame in enumerate(frames):
                await c.t.send(frame)
                answer = await c.recv()
                assert answer["type"] == "error", (frame, answer)
                assert answer["code"] in ERROR_CODES, answer
                assert room.table.version == version, frame
                if k % 15 == 14:
                    await asyncio.sleep(1.0)  # stay under 20 messages a second
            # a binary frame closes with 1003
            await c.t.send(b"\x00\x01")
            with pytest.raises(Closed) as closed:
                await c.recv()
            assert closed.value.code == 1003

    run(go())


@pytest.mark.slow
def test_moves_after_the_end(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            _table_id, clients = await two_people(live)
            for c in clients:
                c.play = True
            await asyncio.gather(*(c.play_until() for c in clients))
            c = clients[0]
            await c.send({"type": "move", "move": "draw", "version": c.version, "ref": "late"})
            answer = await c.recv()
            assert answer["type"] == "error" and answer["code"] == "game_over"
            await c.send({"type": "rematch", "ref": "r"})
            await drain(c)

    run(go())


def test_error_codes_are_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    for code in ERROR_CODES:
        assert f"`{code}`" in text, code
