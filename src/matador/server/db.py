"""Storage: the server's tables in SQLAlchemy Core, migrations, and a group-committing writer.

Everything a table needs to be rebuilt after a crash is here:

* ``tables``: one row per table (its configuration, status, whether a bot
  replaced a person, the next match's table);
* ``seats``: who sits where (a person's invite token only as a SHA-256);
* ``steps``: the table's inputs to the referee in order (a deal, a move, a
  host event, a forfeit), keyed by ``(table, version)``, the version of the
  first event the step emitted: the database refuses a second step at the
  same place, across processes;
* ``moves``: every move, keyed by ``(table, hand, ply)``, written in the same
  transaction as its step, so a second writer of the same move is refused;
* ``fair_secrets``: the committed secret of each hand, until it is revealed.

:class:`Store` is synchronous (its methods run in worker threads);
:class:`Writer` batches the steps that arrive while a commit is under way
into one transaction (group commit), so SQLite's ``synchronous=FULL`` fsync
is paid once per batch. On PostgreSQL each step also sends
``NOTIFY matador, '{"table": ID, "version": V}'``, delivered at commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import IntegrityError

CHANNEL = "matador"
"""The PostgreSQL LISTEN/NOTIFY channel of step notifications."""

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),  # live, over
    Column("marked", Boolean, nullable=False, default=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("next_table", String(32), nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # human, bot, engine
    Column("spec", String(200), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("name", String(100), nullable=True),
    Column("claimed", Boolean, nullable=False, default=False),
)

steps = Table(
    "steps", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # deal, move, event, forfeit
    Column("data", Text, nullable=False),
    Column("created", Float, nullable=False),
)

moves = Table(
    "moves", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", Integer, nullable=False),
    Column("version", Integer, nullable=False),
)

fair_secrets = Table(
    "fair_secrets", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("secret", String(128), nullable=False),
)


class Conflict(Exception):
    """Another writer already stored a step at this place (``(table, version)`` or
    ``(table, hand, ply)``): the step was not stored."""


@dataclass
class StepWrite:
    """One step to store, with what goes in the same transaction."""

    table_id: str
    version: int
    """The version of the first event the step emitted."""
    kind: str
    data: Mapping[str, Any]
    move: tuple[int, int, int, int] | None = None
    """``(hand, ply, seat, move id)`` for a move."""
    secret: tuple[int, str] | None = None
    """``(hand, secret hex)`` stored with a deal commitment."""
    table_update: Mapping[str, Any] | None = None
    """Columns of the ``tables`` row to change with the step."""
    notify_version: int = 0
    """The table's version after the step (sent by NOTIFY on PostgreSQL)."""


@dataclass
class StoredStep:
    """A step read back from the database."""

    version: int
    kind: str
    data: dict[str, Any]


@dataclass
class TableRows:
    """A table's rows: enough to rebuild it."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    steps: list[StoredStep] = field(default_factory=list)


def database_url(url: str | None, data_dir: Path | None = None) -> URL:
    """The SQLAlchemy URL to use: ``url``, or a SQLite file in the user's data directory.

    ``postgresql://`` and ``postgres://`` URLs get the psycopg 3 driver.

    >>> database_url("postgresql://u@localhost/m").drivername
    'postgresql+psycopg'
    >>> database_url(None, Path("/tmp/x")).database
    '/tmp/x/server.sqlite3'
    """
    if url is None:
        if data_dir is None:
            import platformdirs

            data_dir = Path(platformdirs.user_data_dir("matador", appauthor=False))
        data_dir.mkdir(parents=True, exist_ok=True)
        return make_url(f"sqlite:///{data_dir / 'server.sqlite3'}")
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def is_postgres(url: URL) -> bool:
    """Whether ``url`` is a PostgreSQL database."""
    return url.get_backend_name() == "postgresql"


def libpq_conninfo(url: URL) -> str:
    """``url`` as a libpq connection string for psycopg (password included)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def make_engine(url: URL, *, synchronous: str = "FULL") -> Engine:
    """An engine for ``url``; SQLite runs in WAL mode with ``synchronous`` (FULL: a commit
    is on disk before it returns) and waits up to 10 s for a lock."""
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        # checkpoints run from Store.checkpoint, off the commit path (see Hub)
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def migrate(engine: Engine) -> str:
    """Bring the schema to the newest Alembic revision; return that revision."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    head = ScriptDirectory.from_config(config).get_current_head()
    return head or ""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    """The server's storage over one SQLAlchemy engine (synchronous: call from threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    # -- tables and seats ----------------------------------------------------------------

    def create_table(self, row: Mapping[str, Any], seat_rows: Sequence[Mapping[str, Any]],
                     first: Sequence[StepWrite] = ()) -> None:
        """Store a new table, its seats and its first steps in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(insert(tables).values(**row))
            conn.execute(insert(seats), [dict(s) for s in seat_rows])
            for step in first:
                self._write(conn, step)

    def live_table_ids(self) -> list[str]:
        """The tables whose game is not over."""
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(tables.c.id).where(tables.c.status == "live").order_by(tables.c.created))]

    def load(self, table_id: str) -> TableRows | None:
        """A table's rows and every step, in order (``None``: no such table)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seat_rows = [dict(r) for r in conn.execute(
                select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
            ).mappings()]
            found = self._steps(conn, table_id, 0)
        return TableRows(dict(row), seat_rows, found)

    def steps_after(self, table_id: str, version: int) -> list[StoredStep]:
        """The steps of ``table_id`` whose version is above ``version``, in order."""
        with self.engine.connect() as conn:
            return self._steps(conn, table_id, version)

    @staticmethod
    def _steps(conn: Connection, table_id: str, version: int) -> list[StoredStep]:
        rows = conn.execute(select(steps.c.version, steps.c.kind, steps.c.data)
                            .where(steps.c.table_id == table_id, steps.c.version > version)
                            .order_by(steps.c.version))
        return [StoredStep(v, k, json.loads(d)) for v, k, d in rows]

    def secret(self, table_id: str, hand: int) -> str | None:
        """The committed secret of a hand (hex), if stored."""
        with self.engine.connect() as conn:
            return conn.execute(select(fair_secrets.c.secret).where(
                fair_secrets.c.table_id == table_id, fair_secrets.c.hand == hand)).scalar()

    def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        """Change a seat's row (``name``, ``claimed``)."""
        with self.engine.begin() as conn:
            conn.execute(update(seats).where(seats.c.table_id == table_id,
                                             seats.c.seat == seat).values(**values))

    def update_table(self, table_id: str, **values: Any) -> None:
        """Change a table's row (``status``, ``marked``, ``next_table``)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(**values))

    # -- steps ---------------------------------------------------------------------------

    def write(self, batch: Sequence[StepWrite]) -> list[bool]:
        """Store each step of ``batch``; ``False`` for a step another writer got first.

        One transaction for the whole batch; if it hits a conflict, each step is
        then written in its own transaction, so only the conflicting ones fail.
        """
        try:
            with self.engine.begin() as conn:
                for step in batch:
                    self._write(conn, step)
            return [True] * len(batch)
        except IntegrityError:
            if len(batch) == 1:
                return [False]
        results = []
        for step in batch:
            try:
                with self.engine.begin() as conn:
                    self._write(conn, step)
                results.append(True)
            except IntegrityError:
                results.append(False)
        return results

    def _write(self, conn: Connection, step: StepWrite) -> None:
        conn.execute(insert(steps).values(table_id=step.table_id, version=step.version,
                                          kind=step.kind, data=_dumps(step.data),
                                          created=time.time()))
        if step.move is not None:
            hand, ply, seat, move = step.move
            conn.execute(insert(moves).values(table_id=step.table_id, hand=hand, ply=ply,
                                              seat=seat, move=move, version=step.version))
        if step.secret is not None:
            conn.execute(insert(fair_secrets).values(table_id=step.table_id,
                                                     hand=step.secret[0],
                                                     secret=step.secret[1]))
        if step.table_update:
            conn.execute(update(tables).where(tables.c.id == step.table_id)
                         .values(**step.table_update))
        if self.postgres:
            payload = _dumps({"table": step.table_id,
                              "version": step.notify_version or step.version})
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": payload})

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file (PASSIVE: writers go on
        meanwhile); nothing on other databases."""
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def count_moves(self, table_id: str) -> int:
        """How many moves of ``table_id`` are stored (for tests and checks)."""
        with self.engine.connect() as conn:
            return len(conn.execute(select(moves.c.ply).where(
                moves.c.table_id == table_id)).all())


class Writer:
    """Stores steps from the event loop, batching those that arrive during a commit.

    ``await writer.write(step)`` returns once the step is committed (``True``)
    or refused as a conflict (``False``). One thread does every write, so a
    SQLite database has a single writer and PostgreSQL gets one connection's
    worth of commits; each commit carries every step queued meanwhile.
    """

    def __init__(self, store: Store, *, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: list[tuple[StepWrite, asyncio.Future[bool]]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="matador-writer")
        self.batches = 0
        """Transactions committed so far."""
        self.written = 0
        """Steps stored so far."""
        self.commit_seconds: deque[float] = deque(maxlen=100_000)
        """How long each recent transaction took, newest last."""

    def start(self) -> None:
        """Start the writing task on the running loop."""
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="matador-writer")

    async def stop(self) -> None:
        """Write what is queued, then stop."""
        if self._task is None:
            return
        while self._queue:
            await asyncio.sleep(0.01)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def write(self, step: StepWrite) -> bool:
        """Store ``step``; ``False`` if another writer already stored one at its place."""
        if self._wake is None:
            raise RuntimeError("the writer is not started")
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append((step, future))
        self._wake.set()
        return await future

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = self._queue[:self.max_batch]
                del self._queue[:len(batch)]
                began = time.perf_counter()
                try:
                    results = await loop.run_in_executor(
                        self._thread, self.store.write, [s for s, _f in batch])
                except Exception as e:  # the database is gone: every waiter learns it
                    for _s, f in batch:
                        if not f.done():
                            f.set_exception(e)
                    continue
                self.commit_seconds.append(time.perf_counter() - began)
                self.batches += 1
                self.written += sum(results)
                for (_s, f), ok in zip(batch, results, strict=True):
                    if not f.done():
                        f.set_result(ok)


__all__ = ["CHANNEL", "Conflict", "Store", "StepWrite", "StoredStep", "TableRows", "Writer",
           "database_url", "fair_secrets", "is_postgres", "libpq_conninfo", "make_engine",
           "metadata", "migrate", "moves", "seats", "steps", "tables"]
