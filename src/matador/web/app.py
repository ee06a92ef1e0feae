"""The server's application with the browser client: pages, static files, client routes.

:func:`create_app` builds :func:`matador.server.app.create_app` and puts in
front of it:

* ``GET /`` (the lobby), ``POST /play`` (a table against the computer, one
  click), ``POST /new`` (a table from the lobby's form), ``GET /t/{id}`` (the
  table), ``GET /replay`` (the replay viewer);
* ``POST /api/tables/{id}/explain`` (why a tile cannot be laid, in words),
  ``POST /api/tables/{id}/hint`` (win chance per move, against bots only),
  ``POST /api/tables/{id}/review`` (the costliest moves, once the match is
  over), ``GET /api/tables/{id}/sheet`` (the score sheet),
  ``GET /api/tables/{id}/replay`` and ``POST /api/replay`` (positions of
  finished hands), ``POST /api/verify`` (a hand's fair-deal proof);
* ``/static/...``: the scripts and styles, answered before the lobby's rate
  limit (a page needs several) with an ``ETag``.

Seat routes take the seat's token in the JSON body, never in the URL.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from matador.core.errors import MatadorError
from matador.core.record import Record, parse_record
from matador.core.rules import PRESETS
from matador.players import LEVELS
from matador.server.app import create_app as create_server_app
from matador.server.chat import PHRASES
from matador.server.config import ConfigError, Settings, TableConfig, table_request
from matador.server.fair import verify_record
from matador.server.hub import Hub
from matador.server.room import Room
from matador.table.events import SPECTATOR
from matador.web import pages
from matador.web.api import hint, parse_tile, replay_hand, review_seat, score_sheet, tile_reason
from matador.web.i18n import pick_language

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The client's files, served under ``/static/``."""
MAX_UPLOAD = 2_000_000
"""The largest record upload, in bytes."""
MEDIA = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json", ".svg": "image/svg+xml"}

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]


class StaticFirst:
    """ASGI middleware: ``GET /static/NAME`` answered from :data:`STATIC_DIR` (with an
    ``ETag`` and ``304`` on a match), everything else passed on."""

    def __init__(self, app: ASGI) -> None:
        self.app = app
        self.files: dict[str, tuple[bytes, str, str]] = {}
        for path in STATIC_DIR.iterdir():
            if path.suffix in MEDIA:
                data = path.read_bytes()
                etag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
                self.files[path.name] = (data, MEDIA[path.suffix], etag)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        found = self.files.get(path[len("/static/"):])
        if found is None or scope.get("method") not in ("GET", "HEAD"):
            status, body, headers = 404, b"not found", [(b"content-type", b"text/plain")]
        else:
            data, media, etag = found
            asked = dict(scope.get("headers") or []).get(b"if-none-match", b"").decode()
            headers = [(b"etag", etag.encode()), (b"cache-control", b"no-cache")]
            if asked == etag:
                status, body = 304, b""
            else:
                status, body = 200, data
                headers.append((b"content-type", media.encode()))
            headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body",
                    "body": body if scope.get("method") != "HEAD" else b""})


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _records_of(text: str) -> list[Record]:
    """Records from a JSON record or JSONL lines (:class:`MatadorError` naming the line)."""
    text = text.strip()
    if not text:
        raise MatadorError("the file holds no record")
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return [parse_record(whole)]
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(parse_record(line))
            except MatadorError as e:
                raise MatadorError(f"line {i}: {e}") from None
    return out


def create_app(settings: Settings | None = None, hub: Hub | None = None) -> FastAPI:
    """The server's application with the browser client (see the module docstring)."""
    app = create_server_app(settings, hub)
    the_hub: Hub = app.state.hub
    before = len(app.router.routes)
    reviews: dict[tuple[str, int], dict[str, Any]] = {}

    def lang_of(request: Request, form: dict[str, str] | None = None) -> str:
        asked = (form or {}).get("lang") or request.query_params.get("lang")
        return pick_language(asked, request.cookies.get("lang"),
                             request.headers.get("accept-language"))

    def html_page(request: Request, text: str, status: int = 200) -> HTMLResponse:
        response = HTMLResponse(text, status_code=status)
        asked = request.query_params.get("lang")
        if asked and asked == pick_language(asked, None, None):
            response.set_cookie("lang", asked, max_age=365 * 86400, samesite="lax")
        return response

    async def room_of(table_id: str) -> Room | None:
        if len(table_id) > 32:
            return None
        return await the_hub.room(table_id)

    async def form_of(request: Request) -> dict[str, str]:
        body = (await request.body()).decode("utf-8", "replace")
        return {k: v[-1] for k, v in parse_qs(body).items()}

    def base_url(request: Request) -> str:
        return (the_hub.settings.public_url or str(request.base_url)).rstrip("/")

    async def create(data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        config = TableConfig.parse(data, the_hub.settings.engines)
        return await the_hub.create_table(config)

    # -- pages -------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        return html_page(request, pages.lobby(lang_of(request), list(PRESETS), list(LEVELS),
                                              engines=sorted(the_hub.settings.engines)))

    @app.post("/play")
    async def play(request: Request) -> Response:
        form = await form_of(request)
        lang = lang_of(request, form)
        level = form.get("level", "normal")
        try:
            table_id, tokens = await create({"preset": form.get("preset", "classic"),
                                             "seats": ["human", f"bot:{level}"]})
        except ConfigError as e:
            return html_page(request, pages.lobby(lang, list(PRESETS), list(LEVELS), str(e)),
                             400)
        return RedirectResponse(f"/t/{table_id}?lang={lang}#seat={tokens['seats'][0]}", 303)

    @app.post("/new", response_class=HTMLResponse)
    async def new_table(request: Request) -> HTMLResponse:
        form = await form_of(request)
        lang = lang_of(request, form)
        try:
            data = table_request(form)
            table_id, tokens = await create(data)
        except ConfigError as e:
            return html_page(request, pages.lobby(lang, list(PRESETS), list(LEVELS), str(e)),
                             400)
        base = base_url(request)
        links = {"seats": {str(s): f"{base}/t/{table_id}?lang={lang}#seat={t}"
                           for s, t in tokens["seats"].items()},
                 "spectator": f"{base}/t/{table_id}?lang={lang}#watch={tokens['spectator']}"}
        return html_page(request, pages.created(lang, table_id, links, data["seats"]))

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        lang = lang_of(request)
        room = await room_of(table_id)
        if room is None:
            return html_page(request, pages.lobby(lang, list(PRESETS), list(LEVELS),
                                                  f"There is no table {table_id[:32]}."), 404)
        return html_page(request, pages.table(lang, room.summary(), PHRASES))

    @app.get("/replay", response_class=HTMLResponse)
    async def replay_page(request: Request) -> HTMLResponse:
        table_id = request.query_params.get("table")
        return html_page(request, pages.replay(lang_of(request), table_id[:32] if table_id
                                               else None))

    # -- what the client asks besides the protocol ----------------------------------------

    async def seat_request(request: Request, table_id: str
                           ) -> tuple[Room, int, dict[str, Any]] | JSONResponse:
        try:
            data = json.loads(await request.body())
        except ValueError:
            return _error(400, "bad_json", "the body is not JSON")
        if not isinstance(data, dict) or not isinstance(data.get("token"), str):
            return _error(400, "bad_message", "the body needs the seat's token")
        room = await room_of(table_id)
        if room is None:
            return _error(404, "no_table", f"there is no table {table_id[:32]!r}")
        seat = room.authenticate(data["token"])
        if seat is None:
            return _error(403, "bad_token", "this token opens no seat of this table")
        if seat == SPECTATOR:
            return _error(403, "spectator", "a spectator has no hand")
        return room, seat, data

    @app.post("/api/tables/{table_id}/explain")
    async def explain(request: Request, table_id: str) -> JSONResponse:
        got = await seat_request(request, table_id)
        if isinstance(got, JSONResponse):
            return got
        room, seat, data = got
        try:
            tile = parse_tile(str(data.get("tile", "")))
        except ValueError as e:
            return _error(400, "bad_tile", str(e))
        lang = pick_language(data.get("lang"), None, None)
        if room.table.phase.value != "playing":
            return _error(409, "no_hand", "no hand is being played")
        return JSONResponse(tile_reason(room.table.view(seat), tile, lang))

    def against_bots(room: Room, seat: int) -> bool:
        return all(s.kind != "human" for i, s in enumerate(room.seats) if i != seat)

    async def in_pool(fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(the_hub.pool, fn, *args)

    @app.post("/api/tables/{table_id}/hint")
    async def hint_route(request: Request, table_id: str) -> JSONResponse:
        got = await seat_request(request, table_id)
        if isinstance(got, JSONResponse):
            return got
        room, seat, _data = got
        if not against_bots(room, seat):
            return _error(403, "no_hints", "hints are given only in games against bots")
        if room.table.phase.value != "playing" or room.table.to_move != seat:
            return _error(409, "not_your_turn", "a hint is given on your turn")
        view = room.table.view(seat)
        return JSONResponse(await in_pool(hint, view, random.getrandbits(32)))

    @app.post("/api/tables/{table_id}/review")
    async def review_route(request: Request, table_id: str) -> JSONResponse:
        got = await seat_request(request, table_id)
        if isinstance(got, JSONResponse):
            return got
        room, seat, _data = got
        if not room.table.is_over:
            return _error(409, "not_over", "the review comes once the match is over")
        key = (room.id, seat)
        if key not in reviews:
            reviews[key] = await in_pool(review_seat, list(room.table.records), seat,
                                         room.config.bot_seed ^ seat)
        return JSONResponse(reviews[key])

    @app.get("/api/tables/{table_id}/sheet")
    async def sheet(table_id: str) -> JSONResponse:
        room = await room_of(table_id)
        if room is None:
            return _error(404, "no_table", f"there is no table {table_id[:32]!r}")
        return JSONResponse({"hands": score_sheet(room.table.records),
                             "scores": list(room.table.scores)})

    def replay_answer(records: list[Record], names: list[str] | None = None) -> JSONResponse:
        hands = []
        for r in records:
            hand = replay_hand(r)
            if hand["fair"] is not None:
                hand["verified"] = None
            hands.append(hand)
        return JSONResponse({"hands": hands, "names": names})

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> JSONResponse:
        room = await room_of(table_id)
        if room is None:
            return _error(404, "no_table", f"there is no table {table_id[:32]!r}")
        names = [s.name or "" for s in room.seats]
        return replay_answer(list(room.table.records), names)

    async def upload(request: Request) -> list[Record] | JSONResponse:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            return _error(413, "too_big", f"records are at most {MAX_UPLOAD} bytes")
        try:
            return _records_of(body.decode("utf-8"))
        except UnicodeDecodeError:
            return _error(400, "bad_record", "the file is not UTF-8 text")
        except MatadorError as e:
            return _error(400, "bad_record", str(e))

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> JSONResponse:
        got = await upload(request)
        if isinstance(got, JSONResponse):
            return got
        return replay_answer(got)

    @app.post("/api/verify")
    async def verify(request: Request) -> JSONResponse:
        got = await upload(request)
        if isinstance(got, JSONResponse):
            return got
        return JSONResponse({"hands": [verify_record(r) for r in got]})

    # the client's routes answer before the server's own plain pages
    ours = app.router.routes[before:]
    del app.router.routes[before:]
    app.router.routes[:0] = ours
    app.add_middleware(StaticFirst)
    return app


__all__ = ["MAX_UPLOAD", "STATIC_DIR", "StaticFirst", "create_app", "table_request"]
