"""The server's state in one process: storage, the live rooms, the bots' process pool.

:class:`Hub` starts with the server (:meth:`Hub.start`): it applies the
database migrations, rebuilds every live table from its stored steps (so a
server killed with ``kill -9`` resumes where its database stands), starts
each room's driver, and on PostgreSQL listens for the steps other processes
store (``LISTEN matador``). Bot searches run in a process pool
(:func:`think`), never on the event loop; engine seats run their MEP process
from a thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import secrets
import time
from collections.abc import Coroutine
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

from matador.core.view import PlayerView
from matador.players import LEVELS
from matador.server.config import Settings, TableConfig, new_bot_seed
from matador.server.db import (
    Store,
    Writer,
    database_url,
    is_postgres,
    libpq_conninfo,
    make_engine,
    migrate,
)
from matador.server.room import Room, token_hash
from matador.table.players import BotPlayer, EnginePlayer, PlayerError

log = logging.getLogger("matador.server")

ONE_PLY = frozenset({"random", "greedy", "heuristic"})
"""Bots that do not search: they answer at once, so they move on the event loop."""


def think(spec: str, view: PlayerView, seed: int) -> int:
    """A bot's move for ``view`` (run in a worker process): the bot of ``spec`` (a level
    or a bot spec, with its own think budget) with ``Random(seed)``."""
    return int(BotPlayer(spec).move(view, Random(seed)))


def new_table_id() -> str:
    """A fresh table id: 12 hex digits."""
    return secrets.token_hex(6)


def new_token() -> str:
    """A fresh seat or spectator token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def _warm() -> int:
    """Import the bots in a fresh worker (the first search then starts at once)."""
    BotPlayer("easy")
    return 0


class Hub:
    """Everything one server process holds (see the module docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = database_url(settings.db_url, settings.data_dir)
        self.multi = is_postgres(self.url)
        """Several processes may share the database (PostgreSQL): load before acting."""
        self.engine = make_engine(self.url, synchronous=settings.sqlite_synchronous)
        self.store = Store(self.engine)
        self.writer = Writer(self.store)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: asyncio.Task[None] | None = None
        self._engines: dict[tuple[str, int], EnginePlayer] = {}
        self.revision = ""
        self.started = False

    async def start(self) -> None:
        """Migrate, rebuild the live tables, start the drivers and the listener."""
        self.revision = await asyncio.to_thread(migrate, self.engine)
        self.writer.start()
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=max(1, self.settings.bot_workers),
                                        mp_context=context)
        for table_id in await asyncio.to_thread(self.store.live_table_ids):
            try:
                await self.room(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
        if self.multi:
            self._listener = asyncio.get_running_loop().create_task(self._listen())
        self.started = True

    async def warm_up(self) -> None:
        """Start the pool's workers now (the first bot move is then not slowed by it)."""
        if self.pool is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self.pool, _warm)
                                   for _ in range(self.settings.bot_workers)))

    async def stop(self) -> None:
        """Stop the rooms, the listener, the writer and the pool."""
        if self._listener is not None:
            self._listener.cancel()
        for room in list(self.rooms.values()):
            await room.stop()
        for task in list(self._tasks):
            task.cancel()
        await self.writer.stop()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        for player in self._engines.values():
            await asyncio.to_thread(player.close)
        self.engine.dispose()
        self.started = False

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- rooms ---------------------------------------------------------------------------

    async def room(self, table_id: str) -> Room | None:
        """The room of ``table_id``, rebuilt from the database if not loaded (``None``: no
        such table)."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            rows = await asyncio.to_thread(self.store.load, table_id)
            if rows is None:
                return None
            room = Room(self, rows)
            self.rooms[table_id] = room
            room.start()
            room.kick()
            return room

    async def create_table(self, config: TableConfig, *, hashes: list[str | None] | None = None,
                           names: list[str | None] | None = None,
                           spectator_hash: str | None = None) -> tuple[str, dict[str, Any]]:
        """Store a new table and open its room: its id and the tokens made for it.

        ``hashes`` (one per seat) and ``spectator_hash`` reuse stored tokens (a
        rematch: the same links open the next match); otherwise a 128-bit token
        is drawn for each human seat and for spectators and returned (the
        database keeps only their SHA-256).
        """
        table_id = new_table_id()
        tokens: dict[str, Any] = {"seats": {}, "spectator": None}
        seat_rows = []
        for i, seat in enumerate(config.seats):
            h: str | None = None
            if seat.kind == "human":
                if hashes is not None:
                    h = hashes[i]
                else:
                    token = new_token()
                    tokens["seats"][i] = token
                    h = token_hash(token)
            name = names[i] if names is not None else seat.name
            seat_rows.append({"table_id": table_id, "seat": i, "kind": seat.kind,
                              "spec": seat.spec, "token_hash": h, "name": name,
                              "claimed": False})
        if spectator_hash is None:
            token = new_token()
            tokens["spectator"] = token
            spectator_hash = token_hash(token)
        row = {"id": table_id, "created": time.time(),
               "config": json.dumps(config.to_json()), "status": "live", "marked": False,
               "spectator_hash": spectator_hash, "next_table": None}
        await asyncio.to_thread(self.store.create_table, row, seat_rows)
        await self.room(table_id)
        return table_id, tokens

    async def create_rematch(self, room: Room) -> str:
        """The next match of ``room``'s players: the same seats, links and names."""
        old = room.config
        config = TableConfig(old.preset, old.overrides, old.seats, old.single_hand, old.clock,
                             old.grace, old.replacement, new_bot_seed())
        table_id, _ = await self.create_table(
            config, hashes=[s.token_hash for s in room.seats],
            names=[s.name for s in room.seats], spectator_hash=room.spectator_hash)
        return table_id

    # -- players ---------------------------------------------------------------------------

    async def think(self, spec: str, view: PlayerView, seed: int) -> int:
        """A bot's move: a search in the process pool (the event loop stays free); a
        one-ply bot (no search, microseconds) on the loop itself."""
        if LEVELS.get(spec, spec).partition(":")[0] in ONE_PLY:
            return think(spec, view, seed)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, think, spec, view, seed)

    async def engine_move(self, room: Room, seat: int, view: PlayerView, rng: Random) -> int:
        """An operator engine's move for a seat (its MEP process runs from a thread)."""
        key = (room.id, seat)
        player = self._engines.get(key)
        if player is None:
            command = self.settings.engines.get(room.seats[seat].spec)
            if command is None:
                raise PlayerError(f"engine {room.seats[seat].spec!r} is not configured", "start")
            player = await asyncio.to_thread(EnginePlayer, command,
                                             name=room.seats[seat].spec)
            self._engines[key] = player
        return int(await asyncio.to_thread(player.move, view, rng))

    # -- several processes -----------------------------------------------------------------

    async def _listen(self) -> None:
        """Follow the steps other processes store (PostgreSQL ``LISTEN matador``)."""
        import psycopg

        conninfo = libpq_conninfo(self.url)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo,
                                                                 autocommit=True) as conn:
                    await conn.execute("LISTEN matador")
                    # steps stored while not listening: catch every loaded room up
                    for room in list(self.rooms.values()):
                        self.spawn(self._catch_up(room, None))
                    async for note in conn.notifies():
                        try:
                            data = json.loads(note.payload)
                            target = self.rooms.get(str(data["table"]))
                            version = int(data["version"])
                        except (ValueError, KeyError, TypeError):
                            continue
                        if target is not None and version > target.table.version:
                            self.spawn(self._catch_up(target, version))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
                await asyncio.sleep(1.0)

    @staticmethod
    async def _catch_up(room: Room, version: int | None) -> None:
        async with room.lock:
            await room.catch_up(version)


__all__ = ["ONE_PLY", "Hub", "new_table_id", "new_token", "think"]
