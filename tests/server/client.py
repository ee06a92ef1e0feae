"""Test clients of the table protocol: a WebSocket transport, an in-process ASGI transport,
and a client that plays like a rule-free browser would (it picks from the legal moves the
server sends, contributes to each fair deal, keeps every frame it received)."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed


class Closed(Exception):
    """The server closed the connection (``code`` is its close code, None if unknown)."""

    def __init__(self, code: int | None, reason: str = "") -> None:
        super().__init__(f"closed {code} {reason}")
        self.code = code
        self.reason = reason


class Transport(Protocol):
    async def send(self, text: str) -> None: ...
    async def recv(self) -> str: ...
    async def close(self) -> None: ...


class WsTransport:
    """A real WebSocket connection (the ``websockets`` client)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    @classmethod
    async def connect(cls, address: str, table_id: str) -> WsTransport:
        ws = await websockets.connect(f"ws://{address}/ws/tables/{table_id}", max_size=None,
                                      open_timeout=10, close_timeout=2)
        return cls(ws)

    async def send(self, text: str | bytes) -> None:
        try:
            await self.ws.send(text)
        except ConnectionClosed as e:
            raise Closed(e.rcvd.code if e.rcvd else None) from None

    async def recv(self) -> str:
        try:
            data = await self.ws.recv()
        except ConnectionClosed as e:
            raise Closed(e.rcvd.code if e.rcvd else None,
                         e.rcvd.reason if e.rcvd else "") from None
        return data if isinstance(data, str) else data.decode()

    async def close(self) -> None:
        await self.ws.close()


class AsgiTransport:
    """A WebSocket session driven straight through the ASGI application (no socket): the
    same JSON text frames as over the network, for fast wire-level checks."""

    def __init__(self, app: Any, path: str) -> None:
        self.to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        scope = {"type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.3"},
                 "http_version": "1.1", "scheme": "ws", "path": path,
                 "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"test")], "client": ("127.0.0.1", 50000),
                 "server": ("test", 80), "subprotocols": [], "state": {}}
        self.closed: int | None = None
        self.to_app.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(
            app(scope, self.to_app.get, self.from_app.put))

    @classmethod
    async def connect(cls, app: Any, table_id: str) -> AsgiTransport:
        t = cls(app, f"/ws/tables/{table_id}")
        first = await t.from_app.get()
        assert first["type"] == "websocket.accept", first
        return t

    async def send(self, text: str) -> None:
        if self.closed is not None:
            raise Closed(self.closed)
        await self.to_app.put({"type": "websocket.receive", "text": text})

    async def recv(self) -> str:
        if self.closed is not None:
            raise Closed(self.closed)
        msg = await self.from_app.get()
        if msg["type"] == "websocket.close":
            self.closed = msg.get("code", 1000)
            await self.to_app.put({"type": "websocket.disconnect", "code": self.closed})
            raise Closed(self.closed, msg.get("reason", ""))
        return str(msg["text"])

    async def close(self) -> None:
        if self.closed is None:
            self.closed = 1000
            await self.to_app.put({"type": "websocket.disconnect", "code": 1000})
        try:
            await asyncio.wait_for(self.task, 5)
        except (TimeoutError, Exception):
            self.task.cancel()


Chooser = Callable[[list[dict[str, Any]], random.Random], dict[str, Any]]


def random_choice(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice(legal)


class TableClient:
    """A seat's or a spectator's client (see the module docstring)."""

    def __init__(self, transport: Transport, token: str, *, name: str | None = None,
                 rng: random.Random | None = None, play: bool = True,
                 choose: Chooser = random_choice, contribute: bool = True) -> None:
        self.t = transport
        self.token = token
        self.name = name
        self.rng = rng or random.Random()
        self.play = play
        self.choose = choose
        self.contribute = contribute
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.version = 0
        self.state: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.you: int | None = None
        self.acked: list[dict[str, Any]] = []
        """Moves acknowledged: {"ref", "version", "move", "hand", "ply"}."""
        self.errors: list[dict[str, Any]] = []
        self.closed: Closed | None = None
        self._sent_move_at = -1
        self._contributed: set[int] = set()
        self._pending: dict[Any, dict[str, Any]] = {}
        self.round_trips: list[float] = []
        self._sent: deque[float] = deque()

    async def hello(self, version: int | None = None) -> dict[str, Any]:
        """Join (again): what was sent and not acknowledged is forgotten, to be sent again."""
        self._sent_move_at = -1
        self._pending.clear()
        self._contributed.clear()
        msg: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.name:
            msg["name"] = self.name
        if version is not None:
            msg["version"] = version
        await self.send(msg)
        welcome = await self.recv()
        if welcome["type"] != "welcome":
            return welcome
        self.you = welcome["you"]
        await self.recv()  # the replay or snapshot
        return welcome

    async def send(self, msg: dict[str, Any]) -> None:
        """Send ``msg``, keeping under the server's 20 messages a second (a polite client)."""
        now = time.monotonic()
        sent = self._sent
        while sent and sent[0] <= now - 1.1:
            sent.popleft()
        if len(sent) >= 18:
            await asyncio.sleep(sent[0] + 1.1 - now)
            sent.popleft()
        sent.append(time.monotonic())
        await self.t.send(json.dumps(msg))

    async def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        try:
            text = await asyncio.wait_for(self.t.recv(), timeout)
        except Closed as e:
            self.closed = e
            raise
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.messages.append(msg)
        self._absorb(msg)
        return msg

    def _absorb(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("events", "snapshot"):
            self.version = msg["version"]
            self.state = msg.get("view") or msg.get("snapshot")
            self.room = msg["room"]
        elif kind == "ack":
            sent = self._pending.pop(msg.get("ref"), None)
            if sent is not None:
                self.round_trips.append(time.perf_counter() - sent["at"])
                self.acked.append({**sent, "version": msg["version"]})
        elif kind == "error":
            self.errors.append(msg)
            ref = msg.get("ref")
            if self._pending.pop(ref, None) is not None:
                self._sent_move_at = -1  # the move was refused: choose again
            elif (isinstance(ref, str) and ref.startswith("contribute-")
                  and msg["code"] in ("conflict", "internal")):
                self._contributed.discard(int(ref.removeprefix("contribute-")))  # send again

    @property
    def over(self) -> bool:
        return self.state is not None and self.state["phase"] == "over"

    def legal(self) -> list[dict[str, Any]]:
        if self.state is None or self.state["phase"] != "playing":
            return []
        if "legal" in self.state:  # an events message's brief view
            return list(self.state["legal"])
        return list((self.state.get("position") or {}).get("legal") or [])  # a snapshot

    async def act(self) -> None:
        """Contribute or move if the last state asks this client to."""
        if self.you is None or self.state is None or self.room is None:
            return
        fair = self.room.get("fair")
        if (self.contribute and fair and self.you in fair["awaiting"]
                and fair["hand"] not in self._contributed):
            self._contributed.add(fair["hand"])
            await self.send({"type": "contribute", "hand": fair["hand"],
                             "value": secrets.token_hex(16), "ref": f"contribute-{fair['hand']}"})
        legal = self.legal()
        if self.play and legal and self._sent_move_at != self.version:
            self._sent_move_at = self.version
            move = self.choose(legal, self.rng)
            ref = f"v{self.version}/{move['id']}"
            self._pending[ref] = {"ref": ref, "move": move["move"], "at": time.perf_counter(),
                                  "hand": self.state["hand"],
                                  "ply": self.state.get("ply", (self.state.get("position")
                                                                or {}).get("ply"))}
            await self.send({"type": "move", "move": move["move"], "version": self.version,
                             "ref": ref})

    async def play_until(self, done: Callable[[TableClient], bool] | None = None,
                         timeout: float = 60.0) -> None:
        """Receive and act until ``done`` (default: the game is over)."""
        done = done or (lambda c: c.over)
        deadline = time.monotonic() + timeout
        await self.act()
        while not done(self):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"seat {self.you}: not done at version {self.version}")
            await self.recv(timeout=left)
            await self.act()


async def create_table(http: Any, **config: Any) -> dict[str, Any]:
    """POST /api/tables with ``config``; the answer (id, tokens, links)."""
    r = await http.post("/api/tables", json=config)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out
