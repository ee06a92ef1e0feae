"""Table talk, presence, a bot standing in for an absent person, clocks, the next match,
the lobby's answers and pages, ``matador serve`` itself."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .client import TableClient, WsTransport, create_table
from .conftest import MATADOR, Live, fast_settings, live_server, run


async def seated(live: Live, seats: list[str], **config: Any) -> tuple[dict[str, Any],
                                                                        list[TableClient]]:
    made = await create_table(live.http, preset="classic", seats=seats, **config)
    clients = []
    for token in made["tokens"]["seats"].values():
        c = TableClient(await WsTransport.connect(live.address, made["id"]), token, play=False)
        await c.hello()
        clients.append(c)
    return made, clients


async def until(c: TableClient, done: Any, timeout: float = 10) -> dict[str, Any]:
    """Receive (and contribute) until a message satisfies ``done``; that message."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await c.recv(timeout=deadline - time.monotonic())
        await c.act()
        if done(msg):
            return msg


def kinds(msg: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in msg.get("events", [])]


def test_chat_channels_escaping_limits_phrases_and_mute(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            made, (ann, bob) = await seated(live, ["human", "human"])
            watcher = TableClient(await WsTransport.connect(live.address, made["id"]),
                                  made["tokens"]["spectator"], name="Eve", play=False)
            await watcher.hello()
            # a player's line: escaped, to the players; the spectator gets a bare bump
            await ann.send({"type": "chat", "text": "<b>hi</b>\n there"})
            got = await until(bob, lambda m: "chat" in kinds(m))
            assert got["events"][-1]["text"] == "&lt;b&gt;hi&lt;/b&gt; there"
            assert got["events"][-1]["channel"] == "players"
            bump = await until(watcher, lambda m: m["type"] == "events"
                               and m["version"] == got["version"])
            assert kinds(bump)[-1] == "hidden"
            # a spectator's line: to spectators only
            await watcher.send({"type": "chat", "text": "go ann"})
            seen = await until(watcher, lambda m: "chat" in kinds(m))
            assert seen["events"][-1]["channel"] == "spectators"
            hidden = await until(ann, lambda m: m["type"] == "events"
                                 and m["version"] == seen["version"])
            assert kinds(hidden)[-1] == "hidden"
            # a canned phrase in the sender's language
            cz = TableClient(await WsTransport.connect(live.address, made["id"]),
                             made["tokens"]["spectator"], play=False)
            await cz.send({"type": "hello", "token": made["tokens"]["spectator"],
                           "lang": "cs-CZ"})
            await cz.recv()
            await cz.recv()
            await cz.send({"type": "chat", "phrase": "gg"})
            line = await until(cz, lambda m: "chat" in kinds(m))
            assert line["events"][-1]["text"] == "Dobrá hra"
            # errors: too long, unknown phrase, flood
            await bob.send({"type": "chat", "text": "x" * 201, "ref": "long"})
            assert (await until(bob, lambda m: m.get("ref") == "long"))["code"] == \
                "chat_too_long"
            await bob.send({"type": "chat", "phrase": "nope", "ref": "ph"})
            assert (await until(bob, lambda m: m.get("ref") == "ph"))["code"] == \
                "unknown_phrase"
            # mute: Ann no longer sees Bob's lines; Bob still does
            await ann.send({"type": "mute", "seat": 1})
            muted = await until(ann, lambda m: "mute" in kinds(m))
            assert muted["room"]["muted"] == [1]
            await bob.send({"type": "chat", "text": "can you hear me", "ref": "b1"})
            mine = await until(bob, lambda m: "chat" in kinds(m))
            assert mine["events"][-1]["text"] == "can you hear me"
            other = await until(ann, lambda m: m["type"] == "events"
                                and m["version"] == mine["version"])
            assert kinds(other)[-1] == "hidden"
            codes = []
            for k in range(6):
                await bob.send({"type": "chat", "text": f"spam {k}", "ref": f"s{k}"})
                answer = await until(bob, lambda m, k=k: m.get("ref") == f"s{k}"
                                     or "chat" in kinds(m))
                codes.append(answer.get("code"))
            assert "chat_flood" in codes

    run(go())


def test_an_absent_person_is_replaced_on_their_turn(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            made, clients = await seated(live, ["human", "human"], grace=0.3,
                                         replacement="easy", single_hand=True)
            await asyncio.gather(*(until(c, lambda m: m.get("view", {}).get("phase")
                                         == "playing") for c in clients))
            to_move = clients[0].state["to_move"]  # type: ignore[index]
            gone, stays = clients[to_move], clients[1 - to_move]
            await gone.t.close()
            began = time.monotonic()
            replaced = await until(stays, lambda m: "replaced" in kinds(m))
            assert time.monotonic() - began >= 0.25
            assert replaced["room"]["marked"] is True
            assert replaced["room"]["seats"][to_move]["replaced"] is True
            moved = await until(stays, lambda m: any(
                e["kind"] == "move" and e["seat"] == to_move for e in m.get("events", [])))
            assert moved
            summary = (await live.http.get(f"/api/tables/{made['id']}")).json()
            assert summary["marked"] is True
            # back: the bot steps aside
            gone.t = await WsTransport.connect(live.address, made["id"])
            await gone.hello(version=gone.version)
            back = await until(stays, lambda m: "returned" in kinds(m))
            assert back["room"]["seats"][to_move]["replaced"] is False

    run(go())


@pytest.mark.parametrize("leaves", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["connected", "gone"])
def test_a_seat_whose_contribution_never_comes_is_skipped_after_the_wait(
        tmp_path: Path, leaves: bool) -> None:
    """A deal waits ``contribution_wait`` for a contribution, then skips the seat (value
    null): whether its person left, or stays connected with a client that sends none
    (or whose contribution was lost); the table never stalls on a missing one."""
    async def go() -> None:
        async with live_server(fast_settings(tmp_path, contribution_wait=0.5)) as live:
            made = await create_table(live.http, preset="classic", seats=["human", "human"],
                                      single_hand=True)
            ann, bob = [TableClient(await WsTransport.connect(live.address, made["id"]), token,
                                    play=False, contribute=k == 0)
                        for k, token in enumerate(made["tokens"]["seats"].values())]
            await ann.hello()
            await bob.hello()
            if leaves:
                await bob.t.close()
            began = time.monotonic()
            dealt = await until(ann, lambda m: "hand_start" in kinds(m))
            assert time.monotonic() - began >= 0.4
            skipped = [e for m in ann.messages for e in m.get("events", [])
                       if e["kind"] == "contribution" and e["seat"] == 1]
            assert len(skipped) == 1
            assert skipped[0]["value"] is None and skipped[0]["absent"] is leaves
            assert dealt["view"]["phase"] == "playing" and dealt["room"]["fair"] is None

    run(go())


@pytest.mark.slow
def test_a_spent_clock_hands_the_move_to_the_bot_and_pauses_while_down(
        tmp_path: Path) -> None:
    async def go() -> str:
        async with live_server(fast_settings(tmp_path)) as live:
            made, clients = await seated(live, ["human", "human"], replacement="easy",
                                         clock={"per_move": 0.3, "bank": 0.4})
            await asyncio.gather(*(until(c, lambda m: m.get("view", {}).get("phase")
                                         == "playing") for c in clients))
            c = clients[0]
            assert c.room is not None and c.room["clock"]["remaining"] > 0.5
            to_move = c.state["to_move"]  # type: ignore[index]
            began = time.monotonic()
            msg = await until(c, lambda m: any(e["kind"] == "move" and e["seat"] == to_move
                                               for e in m.get("events", [])))
            assert 0.6 <= time.monotonic() - began < 5
            assert msg["room"]["clock"]["banks"][to_move] == 0
            room = live.hub.rooms[made["id"]]
            steps = await asyncio.to_thread(live.hub.store.steps_after, made["id"], 0)
            timed_out = [s for s in steps if s.kind == "move" and s.data.get("by") == "timeout"]
            assert timed_out and timed_out[0].data["banks"][to_move] == 0
            assert room.banks is not None and room.banks[to_move] == 0
            for cl in clients:
                await cl.t.close()
            return str(made["id"])

    table_id = run(go())

    async def again() -> None:  # a restart: the banks come back, the turn starts anew
        async with live_server(fast_settings(tmp_path)) as live:
            room = live.hub.rooms[table_id]
            assert room.banks is not None and 0 in room.banks
            assert time.monotonic() - room.turn_started < 5

    run(again())


@pytest.mark.slow  # a second whole match: the whole run only
def test_rematch_opens_the_next_match_with_the_same_links(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            made, clients = await seated(live, ["human", "bot:easy", "human"],
                                         single_hand=True)
            for c in clients:
                c.play = True
            await asyncio.gather(*(c.play_until() for c in clients))
            await clients[0].send({"type": "rematch"})
            await until(clients[0], lambda m: "rematch" in kinds(m))
            await clients[1].send({"type": "rematch"})
            nxt = await until(clients[1], lambda m: "next_table" in kinds(m))
            new_id = nxt["events"][-1]["table"]
            assert nxt["room"]["next_table"] == new_id != made["id"]
            again = TableClient(await WsTransport.connect(live.address, new_id),
                                clients[1].token)
            welcome = await again.hello()
            assert welcome["you"] == clients[1].you
            assert again.room is not None and again.room["seats"][clients[1].you]["name"]
            await clients[0].send({"type": "rematch", "ref": "late"})
            summary = (await live.http.get(f"/api/tables/{made['id']}")).json()
            assert summary["next_table"] == new_id

    run(go())


def test_the_lobby_refuses_bad_tables_and_serves_its_pages(tmp_path: Path) -> None:
    async def go() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            h = live.http
            for body, where in (({"preset": "chess", "seats": ["human", "human"]}, "preset"),
                                ({"preset": "classic", "seats": ["human"]}, "seats"),
                                ({"preset": "classic", "seats": ["bot:easy", "bot:easy"]},
                                 "seats"),
                                ({"preset": "classic", "seats": ["human", "bot:godlike"]},
                                 "seats[1]"),
                                ({"preset": "classic", "seats": ["human", "engine:x"]},
                                 "seats[1]"),
                                ({"preset": "classic", "seats": ["human", "human"],
                                  "rules": {"draw": "sometimes"}}, "rules.overrides.draw"),
                                ({"preset": "classic", "seats": ["human", "human"],
                                  "clock": {"per_move": -1}}, "clock.per_move"),
                                ({"preset": "classic", "seats": ["human", "human"],
                                  "colour": "red"}, "colour")):
                r = await h.post("/api/tables", json=body)
                assert r.status_code == 400, body
                assert r.json()["error"]["code"] == "bad_table"
                assert r.json()["error"]["where"] == where, r.json()
            r = await h.post("/api/tables", content=b"{nope")
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
            assert (await h.get("/api/tables/nosuch")).status_code == 404
            home = await h.get("/")
            assert home.status_code == 200 and "<form" in home.text
            page = await h.post("/new", data={"preset": "six", "seat0": "human",
                                              "seat1": "bot:strong", "seat2": "human",
                                              "rules": "match_target=50", "per_move": "30"})
            assert page.status_code == 200 and page.text.count("#seat=") == 2
            assert "#watch=" in page.text
            bad = await h.post("/new", data={"preset": "six", "seat0": "human",
                                             "seat1": "human", "rules": "nonsense"})
            assert bad.status_code == 400 and "NAME=VALUE" in bad.text
            for path in ("/api/health", "/api/presets", "/api/bots", "/api/phrases",
                         "/api/errors"):
                assert (await h.get(path)).status_code == 200, path
            presets = (await h.get("/api/presets")).json()
            assert presets["classic"]["players"] == [2, 3, 4]

    run(go())


@pytest.mark.slow
def test_matador_serve_prints_its_url_and_serves_the_home_page(tmp_path: Path) -> None:
    proc = subprocess.Popen([str(MATADOR), "serve", "--port", "0", "--data-dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("matador serve: open http://127.0.0.1:"), line
        url = line.split("open ", 1)[1].strip()
        home = httpx.get(url, timeout=10)
        assert home.status_code == 200 and "Matador" in home.text
        assert (tmp_path / "server.sqlite3").exists()
        health = httpx.get(url + "api/health", timeout=10).json()
        assert health["ok"] and health["schema"] == "0001"
    finally:
        proc.send_signal(2)
        assert proc.wait(15) in (0, 130)  # stopped by Ctrl-C


@pytest.mark.slow
def test_matador_serve_refuses_bad_options(tmp_path: Path) -> None:
    done = subprocess.run([str(MATADOR), "serve", "--engine", "nocommand"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2 and "NAME=COMMAND" in done.stderr
    done = subprocess.run([str(MATADOR), "serve", "--db", "nosuchdb://x"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2 and "error: --db:" in done.stderr


@pytest.mark.slow
def test_verify_catches_a_tampered_record(tmp_path: Path) -> None:
    async def go() -> str:
        async with live_server(fast_settings(tmp_path)) as live:
            made, clients = await seated(live, ["human", "bot:easy"], single_hand=True)
            clients[0].play = True
            await clients[0].play_until()
            r = await live.http.get(f"/api/tables/{made['id']}/records.jsonl")
            return r.text

    original = json.loads(run(go()).splitlines()[0])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(original))
    ok = subprocess.run([str(MATADOR), "verify", str(path)], capture_output=True, text=True,
                        check=False)
    assert ok.returncode == 0 and json.loads(ok.stdout)["verified"] is True
    wrong_secret = json.loads(json.dumps(original))
    wrong_secret["meta"]["fair"]["secret"] = "00" * 32
    other_boneyard = json.loads(json.dumps(original))
    bone = other_boneyard["deal"]["boneyard"]
    bone[0], bone[-1] = bone[-1], bone[0]
    other_boneyard.pop("result")
    other_boneyard["moves"] = []
    path.write_text(json.dumps(wrong_secret) + "\n" + json.dumps(other_boneyard) + "\n")
    bad = subprocess.run([str(MATADOR), "verify", str(path)], capture_output=True, text=True,
                         check=False)
    assert bad.returncode == 1, bad.stderr
    lines = [json.loads(x) for x in bad.stdout.splitlines()]
    assert [x["verified"] for x in lines] == [False, False]
    assert "commitment" in lines[0]["problems"][0] and "boneyard" in lines[1]["problems"][0]


@pytest.mark.slow
def test_an_operators_engine_takes_a_seat(tmp_path: Path) -> None:
    engine = f"{MATADOR} engine greedy"

    async def go() -> None:
        async with live_server(fast_settings(tmp_path, engines={"greedy-mep": engine})) as live:
            bots = (await live.http.get("/api/bots")).json()
            assert bots["engines"] == ["greedy-mep"]
            made, clients = await seated(live, ["human", "engine:greedy-mep"],
                                         single_hand=True)
            clients[0].play = True
            await clients[0].play_until(timeout=60)
            room = live.hub.rooms[made["id"]]
            assert room.table.is_over and room.table.forfeit_info is None
            record = room.table.records[0]
            assert any(e.kind == "move" and e.public["seat"] == 1 for e in room.table.events), \
                "the engine moved"
            assert record.meta is not None and record.meta["seats"] == ["human",
                                                                       "engine:greedy-mep"]

    run(go())


@pytest.mark.slow  # two servers in turn: the whole run only
def test_finished_tables_leave_memory_and_come_back(tmp_path: Path) -> None:
    async def go() -> None:
        settings = fast_settings(tmp_path, unload_after=0.2, upkeep_every=0.1)
        async with live_server(settings) as live:
            made, clients = await seated(live, ["human", "bot:easy"], single_hand=True)
            clients[0].play = True
            await clients[0].play_until()
            version = clients[0].version
            await clients[0].t.close()
            for _ in range(100):
                await asyncio.sleep(0.05)
                if made["id"] not in live.hub.rooms:
                    break
            assert made["id"] not in live.hub.rooms, "the finished table stayed loaded"
            summary = (await live.http.get(f"/api/tables/{made['id']}")).json()
            assert summary["phase"] == "over" and summary["version"] >= version

    run(go())


@pytest.mark.slow
def test_after_a_restart_an_absent_person_is_replaced(tmp_path: Path) -> None:
    """The log said both seats were online when the server stopped; after the restart only
    one person comes back, and the other's turn goes to a bot after the grace period."""
    state: dict[str, Any] = {}

    async def first() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            made, clients = await seated(live, ["human", "human"], grace=0.3,
                                         replacement="easy", single_hand=True)
            await asyncio.gather(*(until(c, lambda m: m.get("view", {}).get("phase")
                                         == "playing") for c in clients))
            state.update(made=made, to_move=clients[0].state["to_move"],  # type: ignore[index]
                         version=clients[0].version)

    run(first())

    async def second() -> None:
        async with live_server(fast_settings(tmp_path)) as live:
            made, to_move = state["made"], state["to_move"]
            stays = TableClient(await WsTransport.connect(live.address, made["id"]),
                                made["tokens"]["seats"][str(1 - to_move)], play=False)
            await stays.hello(version=state["version"])
            msg = await until(stays, lambda m: "replaced" in kinds(m))
            assert msg["room"]["seats"][to_move]["online"] is False

    run(second())
