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
import contextlib
import gc
import json
import logging
import multiprocessing
import os
import secrets
import time
from collections import deque
from collections.abc import Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor
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


def _rss_bytes() -> int:
    """This process's resident memory (Linux ``/proc``; else the peak from ``resource``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _lower_priority() -> None:
    """Run in each bot worker as it starts: searches yield the core to the event loop."""
    with contextlib.suppress(OSError):
        os.nice(5)


def warm_worker() -> int:
    """Run in each bot worker as the server starts: a tiny search, so that imports and any
    compilation (the optional Numba kernel) are done before the first real move."""
    import random

    from matador.core.rules import Rules
    from matador.table.referee import Table

    table = Table(Rules.from_preset("classic"), 2, single_hand=True)
    table.deal(random.Random(0))
    seat = table.to_move
    assert seat is not None
    return int(BotPlayer("pimc:20ms").move(table.view(seat), Random(0)))


class Hub:
    """Everything one server process holds (see the module docstring)."""

    def __init__(self, settings: Settings, pool: Executor | None = None) -> None:
        """``pool``: bot searches run there, a process pool the caller owns (started and
        warmed by it, and left running when the hub stops); by default the hub starts its
        own of ``settings.bot_workers`` processes and joins them when it stops."""
        self.settings = settings
        self.url = database_url(settings.db_url, settings.data_dir)
        self.multi = is_postgres(self.url)
        """Several processes may share the database (PostgreSQL): load before acting."""
        self.engine = make_engine(self.url, synchronous=settings.sqlite_synchronous)
        self.store = Store(self.engine)
        self.writer = Writer(self.store)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.pool: Executor | None = pool
        self._own_pool = pool is None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: asyncio.Task[None] | None = None
        self._engines: dict[tuple[str, int], EnginePlayer] = {}
        self.revision = ""
        self.started = False
        self.lags: deque[float] = deque(maxlen=200_000)
        """The event loop's lag (seconds late on a 10 ms timer), newest last."""
        self._monitor: asyncio.Task[None] | None = None
        self.gc_pauses: deque[tuple[int, float]] = deque(maxlen=10_000)
        """Recent garbage collections: (generation, seconds)."""
        self._gc_began = 0.0

    async def start(self) -> None:
        """Migrate, rebuild the live tables, start the drivers and the listener."""
        self.revision = await asyncio.to_thread(migrate, self.engine)
        self.writer.start()
        if self._own_pool:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=max(1, self.settings.bot_workers),
                                            mp_context=context, initializer=_lower_priority)
            self.spawn(self.warm_up())
        for table_id in await asyncio.to_thread(self.store.live_table_ids):
            try:
                room = await self.room(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                continue
            if room is not None and not self.multi:
                # nobody is connected to a server that just started: the seats the log
                # shows online went away with the last process (their grace runs now)
                self.spawn(room.all_offline())
        gc.freeze()  # what was loaded lives long: no need to scan it again
        if self.multi:
            self._listener = asyncio.get_running_loop().create_task(self._listen())
        self._monitor = asyncio.get_running_loop().create_task(self._watch_lag())
        gc.callbacks.append(self._on_gc)
        self._checkpoints = asyncio.get_running_loop().create_task(self._checkpoint())
        self._upkeep = asyncio.get_running_loop().create_task(self._keep_up())
        self.started = True

    async def warm_up(self) -> None:
        """Start the pool's workers now, each with a tiny search (run in the background at
        start: the first bot move is then not slowed by imports or compilation)."""
        if self.pool is not None:
            loop = asyncio.get_running_loop()
            try:
                await asyncio.gather(*(loop.run_in_executor(self.pool, warm_worker)
                                       for _ in range(self.settings.bot_workers)))
            except Exception:
                log.exception("warming the bot workers up failed")

    async def stop(self) -> None:
        """Stop the rooms, the listener, the writer and the pool."""
        if self._listener is not None:
            self._listener.cancel()
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._monitor is not None:
            self._monitor.cancel()
            self._checkpoints.cancel()
            self._upkeep.cancel()
        for room in list(self.rooms.values()):
            await room.stop()
        for task in list(self._tasks):
            task.cancel()
        await self.writer.stop()
        if self.pool is not None and self._own_pool:
            # joined: a worker must not outlive the server (SIGTERM)
            await asyncio.to_thread(self.pool.shutdown, wait=True, cancel_futures=True)
            self.pool = None
        for player in self._engines.values():
            await asyncio.to_thread(player.close)
        self.engine.dispose()
        self.started = False

    async def _checkpoint(self, period: float = 2.0) -> None:
        """SQLite: move the write-ahead log into the database now and then, from a thread
        of its own, so that no commit pays for it."""
        if self.store.postgres:
            return
        while True:
            await asyncio.sleep(period)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except Exception:
                log.exception("checkpoint failed")

    async def _keep_up(self) -> None:
        """Every few seconds: let go of finished tables nobody watches (the database keeps
        them), then freeze what is left for the garbage collector.

        Every long-lived object (a table's events, its clients) would otherwise be
        scanned again by each full collection, a pause that grows with the number of
        tables (250 ms at 500 tables); frozen objects are skipped, and are still freed
        by reference counting when they are dropped.
        """
        while True:
            await asyncio.sleep(self.settings.upkeep_every)
            now = time.monotonic()
            for table_id, room in list(self.rooms.items()):
                if room.table.is_over and not room.conns:
                    if room.idle_since is None:
                        room.idle_since = now
                    elif now - room.idle_since >= self.settings.unload_after:
                        del self.rooms[table_id]
                        await room.stop()
                else:
                    room.idle_since = None
            gc.freeze()

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.gc_pauses.append((int(info.get("generation", 0)),
                                   time.perf_counter() - self._gc_began))

    async def _watch_lag(self, period: float = 0.01) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(period)
            self.lags.append(max(0.0, loop.time() - began - period))

    def stats(self, *, reset: bool = False) -> dict[str, Any]:
        """Figures for operators and benchmarks: loop lag, memory, tables, connections,
        storage batches (``reset`` starts a new lag window)."""
        lags = sorted(self.lags)

        def pct(q: float) -> float:
            return round(1000 * lags[min(len(lags) - 1, int(q * len(lags)))], 2) if lags else 0.0

        commits = sorted(self.writer.commit_seconds)

        def cpct(q: float) -> float:
            if not commits:
                return 0.0
            return round(1000 * commits[min(len(commits) - 1, int(q * len(commits)))], 2)

        out = {"loop_lag_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0),
                               "samples": len(lags)},
               "commit_ms": {"p50": cpct(0.5), "p99": cpct(0.99), "max": cpct(1.0)},
               "gc_ms": {"max": round(1000 * max((p for _g, p in self.gc_pauses),
                                                 default=0.0), 2),
                         "full": sum(1 for g, _p in self.gc_pauses if g == 2)},
               "rss_mb": round(_rss_bytes() / 2**20, 1),
               "tables": len(self.rooms),
               "connections": sum(len(r.conns) for r in self.rooms.values()),
               "steps_stored": self.writer.written, "commits": self.writer.batches}
        if reset:
            self.lags.clear()
            self.writer.commit_seconds.clear()
            self.gc_pauses.clear()
        return out

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
            if self.multi:  # a step's notification that came while loading found no room
                self.spawn(self._catch_up(room, None))
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
