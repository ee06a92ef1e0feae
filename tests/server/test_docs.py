"""docs/server.md's worked exchange, replayed against a real server: every server message
must be the one the document shows, in order. The server's secret, the bots' seed and the
table id are fixed for the run, so the deal and the bot's moves are the same every time.

``MATADOR_WRITE_DOCS=1 pytest tests/server/test_docs.py`` rewrites the exchange from a run.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from matador.server import config as server_config
from matador.server import hub as server_hub
from matador.server import room as server_room

from .client import TableClient, WsTransport, create_table
from .conftest import fast_settings, live_server, run

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"
BLOCK = re.compile(r"(## A worked exchange.*?```jsonl\n)(.*?)(```)", re.S)
CONTRIBUTION = "00112233445566778899aabbccddeeff"


def script() -> list[dict[str, Any]]:
    """The client's side: what it sends, in order (the moves are its first legal ones)."""
    return [
        {"type": "hello", "token": "TOKEN", "name": "Ann"},
        {"type": "contribute", "hand": 1, "value": CONTRIBUTION, "ref": "c1"},
        {"type": "move", "move": "LEGAL", "version": "VERSION", "ref": "m1"},
        {"type": "move", "move": "LEGAL", "version": 1, "ref": "m2"},
        {"type": "chat", "phrase": "gg"},
    ]


async def exchange(tmp: Path) -> list[str]:
    lines: list[str] = []
    async with live_server(fast_settings(tmp)) as live:
        made = await create_table(live.http, preset="classic", seats=["human", "bot:easy"],
                                  single_hand=True)
        table_id, token = made["id"], made["tokens"]["seats"]["0"]

        def show(direction: str, msg: dict[str, Any]) -> None:
            text = json.dumps(msg).replace(table_id, "TABLE").replace(token, "TOKEN")
            lines.append(f"{direction} {text}")

        c = TableClient(await WsTransport.connect(live.address, table_id), token, play=False,
                        contribute=False)

        async def read_until(done: Any) -> None:
            while True:
                msg = await c.recv(timeout=20)
                show("<", msg)
                if done(msg):
                    return

        for step in script():
            msg = dict(step)
            if msg["type"] == "hello":
                msg["token"] = token
            if msg.get("move") == "LEGAL":
                if not c.legal():  # the bot leads: wait for our turn
                    await read_until(lambda m: m["type"] == "events" and bool(c.legal()))
                msg["move"] = c.legal()[0]["move"]
                if msg["version"] == "VERSION":
                    msg["version"] = c.version
            show(">", msg)
            await c.send(msg)
            if msg["type"] == "hello":
                await read_until(lambda m: m["type"] == "events"
                                 and m["events"][-1]["kind"] == "presence")
            elif msg["type"] == "contribute":
                await read_until(lambda m: m["type"] == "events"
                                 and m["events"][-1]["kind"] == "hand_start")
            elif msg.get("ref") == "m1":
                await read_until(lambda m: m["type"] == "events" and m["events"][0]["kind"]
                                 == "move" and m["events"][0]["seat"] == 0)
            elif msg.get("ref") == "m2":
                await read_until(lambda m: m["type"] == "error")
            else:
                await read_until(lambda m: m["type"] == "events"
                                 and m["events"][-1]["kind"] == "chat")
        await c.t.close()
    return lines


def fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_room, "new_secret", lambda: bytes([5]) * 32)
    monkeypatch.setattr(server_config, "new_bot_seed", lambda: 7)
    monkeypatch.setattr(server_hub, "new_table_id", lambda: "0123456789ab")


def test_the_worked_exchange(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed(monkeypatch)
    got = run(exchange(tmp_path))
    text = DOC.read_text()
    match = BLOCK.search(text)
    assert match is not None, "docs/server.md lost its worked exchange"
    if os.environ.get("MATADOR_WRITE_DOCS"):
        DOC.write_text(text[:match.start(2)] + "\n".join(got) + "\n" + text[match.end(2):])
        return
    shown = match.group(2).strip().splitlines()
    assert len(shown) == len(got), "\n".join(got)
    for doc_line, real in zip(shown, got, strict=True):
        assert doc_line[:2] == real[:2]
        assert json.loads(doc_line[2:]) == json.loads(real[2:]), \
            f"docs/server.md shows\n{doc_line}\nbut the server sent\n{real}"
