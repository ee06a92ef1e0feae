"""The web application: the lobby's JSON over HTTP, the pages, and the tables' WebSocket.

:func:`create_app` builds a FastAPI application around a :class:`~.hub.Hub`
(started and stopped by the application's lifespan). Endpoints:

* ``GET /``, ``POST /new``, ``GET /t/{id}``: the pages;
* ``GET /api/health``, ``/api/presets``, ``/api/bots``, ``/api/phrases``;
* ``POST /api/tables`` (create), ``GET /api/tables/{id}`` (its state),
  ``GET /api/tables/{id}/records.jsonl`` (the finished hands);
* ``WS /ws/tables/{id}``: a seat or a spectator plays or watches a table.

docs/server.md is the protocol's reference.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.websockets import WebSocketDisconnect

from matador import __version__
from matador.core.rules import PRESETS, Rules
from matador.players import LEVELS
from matador.server import pages
from matador.server.chat import PHRASES, ChatError, clean_text, language_of
from matador.server.config import ConfigError, Settings, TableConfig, table_request
from matador.server.connection import Conn
from matador.server.hub import Hub
from matador.server.limits import Buckets, Window
from matador.server.protocol import (
    CLOSE_BAD_TOKEN,
    CLOSE_HELLO_TIMEOUT,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    CLOSE_UNSUPPORTED,
    ERROR_CODES,
    MAX_FRAME,
    MAX_RATE,
    PROTOCOL_VERSION,
    ProtocolError,
    error_message,
    parse_client,
)
from matador.server.room import Room


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}},
                        status_code=status)


def create_app(settings: Settings | None = None, hub: Hub | None = None) -> FastAPI:
    """The application (see the module docstring); ``hub`` defaults to a new one."""
    the_hub = hub if hub is not None else Hub(settings or Settings())
    cfg = the_hub.settings

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if not the_hub.started:
            await the_hub.start()
        try:
            yield
        finally:
            await the_hub.stop()

    app = FastAPI(title="matador", version=__version__, lifespan=lifespan,
                  docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)
    app.state.hub = the_hub
    reads = Buckets(cfg.http_capacity, cfg.http_per_second)
    creates = Buckets(cfg.create_capacity, cfg.create_per_second)

    @app.middleware("http")
    async def rate_limit(request: Request,
                         call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        who = request.client.host if request.client else "?"
        ok, wait = reads.take(who)
        if ok and request.method == "POST":
            ok, wait = creates.take(who)
        if not ok:
            response = _error(429, "rate_limited", "too many requests from this address",
                              retry_after=round(wait, 1))
            response.headers["Retry-After"] = str(max(1, round(wait)))
            return response
        return await call_next(request)

    def base_url(request: Request) -> str:
        return (cfg.public_url or str(request.base_url)).rstrip("/")

    def links(request: Request, table_id: str, tokens: dict[str, Any]) -> dict[str, Any]:
        base = base_url(request)
        return {"seats": {str(s): f"{base}/t/{table_id}#seat={t}"
                          for s, t in tokens["seats"].items()},
                "spectator": f"{base}/t/{table_id}#watch={tokens['spectator']}"}

    async def create(request: Request, data: Any) -> tuple[str, dict[str, Any]]:
        config = TableConfig.parse(data, cfg.engines)
        table_id, tokens = await the_hub.create_table(config)
        return table_id, {"id": table_id, "tokens": {
            "seats": {str(k): v for k, v in tokens["seats"].items()},
            "spectator": tokens["spectator"]}, "links": links(request, table_id, tokens),
            "websocket": f"/ws/tables/{table_id}"}

    # -- pages -------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def home() -> HTMLResponse:
        return HTMLResponse(pages.home())

    @app.post("/new", response_class=HTMLResponse)
    async def new_table(request: Request) -> HTMLResponse:
        form = {k: v[-1] for k, v in parse_qs((await request.body()).decode(
            "utf-8", "replace")).items()}
        try:
            data = table_request(form)
            table_id, made = await create(request, data)
        except ConfigError as e:
            return HTMLResponse(pages.home(str(e)), status_code=400)
        return HTMLResponse(pages.created(table_id, made["links"]))

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str) -> HTMLResponse:
        room = await _room(table_id)
        if room is None:
            return HTMLResponse(pages.home(f"There is no table {table_id}."), status_code=404)
        return HTMLResponse(pages.table_page(room.summary()))

    # -- the lobby's JSON --------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "protocol": PROTOCOL_VERSION,
                "database": the_hub.url.get_backend_name(), "schema": the_hub.revision,
                "tables": len(the_hub.rooms)}

    @app.get("/api/stats")
    async def stats(reset: bool = False) -> dict[str, Any]:
        return the_hub.stats(reset=reset)

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        out = {}
        for name in PRESETS:
            rules = Rules.from_preset(name)
            out[name] = {"rules": rules.to_json(), "parameters": rules.parameters(),
                         "players": [n for n in range(2, 5) if rules.allows_players(n)]}
        return out

    @app.get("/api/bots")
    async def bots() -> dict[str, Any]:
        return {"levels": list(LEVELS), "engines": sorted(cfg.engines)}

    @app.get("/api/phrases")
    async def phrases() -> dict[str, Any]:
        return {"phrases": PHRASES}

    @app.get("/api/errors")
    async def errors() -> dict[str, Any]:
        return {"codes": ERROR_CODES}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        try:
            data = json.loads(await request.body())
        except ValueError:
            return _error(400, "bad_json", "the body is not JSON")
        try:
            _table_id, made = await create(request, data)
        except ConfigError as e:
            return _error(400, "bad_table", e.why, where=e.where)
        return JSONResponse(made, status_code=201)

    async def _room(table_id: str) -> Room | None:
        if len(table_id) > 32:
            return None
        return await the_hub.room(table_id)

    @app.get("/api/tables/{table_id}")
    async def table_state(table_id: str) -> JSONResponse:
        room = await _room(table_id)
        if room is None:
            return _error(404, "no_table", f"there is no table {table_id[:32]!r}")
        return JSONResponse(room.summary())

    @app.get("/api/tables/{table_id}/records.jsonl")
    async def records(table_id: str) -> Response:
        room = await _room(table_id)
        if room is None:
            return _error(404, "no_table", f"there is no table {table_id[:32]!r}")
        return PlainTextResponse(room.records_jsonl(), media_type="application/jsonl",
                                 headers={"Content-Disposition":
                                          f"attachment; filename=matador-{table_id}.jsonl"})

    # -- the tables' WebSocket ---------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        conn = Conn(websocket.send_text, lambda code, reason: websocket.close(code, reason),
                    chat_lines=cfg.chat_lines, chat_seconds=cfg.chat_seconds)
        window = Window(MAX_RATE, 1.0)
        room: Room | None = None
        try:
            try:
                text = await asyncio.wait_for(_receive(websocket, conn, window),
                                              cfg.hello_timeout)
            except TimeoutError:
                conn.close(CLOSE_HELLO_TIMEOUT, "no hello")
                return
            if text is None:
                return
            room = await _hello(conn, table_id, text)
            if room is None:
                return
            while not conn.closed:
                text = await _receive(websocket, conn, window)
                if text is None:
                    return
                try:
                    msg = parse_client(text)
                except ProtocolError as e:
                    conn.send(error_message(e.code, e.why, version=room.table.version))
                    continue
                await room.handle(conn, msg)
        except WebSocketDisconnect:
            pass
        finally:
            if room is not None:
                await room.leave(conn)
            await conn.finish()

    async def _hello(conn: Conn, table_id: str, text: str) -> Room | None:
        try:
            msg = parse_client(text)
            if msg.type != "hello":
                raise ProtocolError("hello_first", "the first message must be hello")
        except ProtocolError as e:
            conn.send(error_message(e.code, e.why))
            conn.close(CLOSE_BAD_TOKEN, e.code)
            return None
        room = await _room(table_id)
        if room is None:
            conn.send(error_message("no_table", f"there is no table {table_id[:32]!r}",
                                    ref=msg.ref))
            conn.close(CLOSE_NO_TABLE, "no such table")
            return None
        recipient = room.authenticate(msg.fields["token"])
        if recipient is None:
            conn.send(error_message("bad_token", "this token opens no seat of this table",
                                    ref=msg.ref))
            conn.close(CLOSE_BAD_TOKEN, "bad token")
            return None
        if msg.fields["name"]:
            try:
                conn.name = clean_text(msg.fields["name"])[:40]
            except ChatError:
                conn.name = ""
        conn.lang = language_of(msg.fields["lang"])
        try:
            await room.join(conn, recipient, msg.fields["version"])
        except ProtocolError as e:
            conn.send(error_message(e.code, e.why, ref=msg.ref))
        return room

    return app


async def _receive(websocket: WebSocket, conn: Conn, window: Window) -> str | None:
    """The next text frame, or ``None`` when the connection ends or breaks a limit."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        if len(message.get("bytes") or b"") > MAX_FRAME:
            conn.close(CLOSE_TOO_BIG, "frame too big")
        else:
            conn.close(CLOSE_UNSUPPORTED, "the protocol is JSON text frames")
        return None
    if len(text) > MAX_FRAME or len(text.encode()) > MAX_FRAME:
        conn.close(CLOSE_TOO_BIG, f"frames are at most {MAX_FRAME} bytes")
        return None
    if not window.hit():
        conn.close(CLOSE_POLICY, f"more than {MAX_RATE} messages a second")
        return None
    return str(text)


__all__ = ["create_app"]
