"""Fixtures of the server tests: a real uvicorn server in the test's event loop, a
``matador serve`` subprocess (for ``kill -9``), a fresh PostgreSQL database per test.

PostgreSQL: ``MATADOR_TEST_PG`` is the URL of a server the tests may create databases
on (``.ci/postgres start DIR`` starts a throwaway one and prints it). Without it the
PostgreSQL tests are skipped on a developer's machine, and fail under CI (``CI`` set),
so CI never skips them silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
from collections.abc import AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn

from matador.server.app import create_app
from matador.server.config import Settings
from matador.server.hub import Hub

from .botpool import shared_bot_pool
from .process import ServerProcess

T = TypeVar("T")
MATADOR = Path(sys.executable).parent / "matador"
PG_URL = os.environ.get("MATADOR_TEST_PG", "")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a new event loop."""
    return asyncio.run(coro)


def fast_settings(tmp: Path, **changes: Any) -> Settings:
    """Settings for tests: SQLite in ``tmp`` (durable as in production), quick waits."""
    values: dict[str, Any] = {"data_dir": tmp, "bot_workers": 1, "contribution_wait": 5.0,
                              "http_capacity": 10_000.0, "http_per_second": 10_000.0,
                              "create_capacity": 10_000.0, "create_per_second": 10_000.0}
    values.update(changes)
    return Settings(**values)


class Live:
    """A running server: its address, its hub, an HTTP client."""

    def __init__(self, address: str, hub: Hub, http: httpx.AsyncClient) -> None:
        self.address = address
        self.hub = hub
        self.http = http


@contextlib.asynccontextmanager
async def live_server(settings: Settings) -> AsyncIterator[Live]:
    """uvicorn serving the application on a free loopback port, in this event loop."""
    app = create_app(settings, Hub(settings, pool=shared_bot_pool()))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, ws_max_size=4096,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    task = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        if task.done():
            await task
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    address = f"127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
        try:
            yield Live(address, app.state.hub, http)
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 30)


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[Any]:
    """A factory of :class:`ServerProcess`, all killed at the end of the test."""
    made: list[ServerProcess] = []

    def make(*args: str, env: dict[str, str] | None = None) -> ServerProcess:
        p = ServerProcess([str(MATADOR), "serve", *args], env=env)
        made.append(p)
        return p

    yield make
    for p in made:
        p.kill()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The URL of a fresh, empty PostgreSQL database (dropped after the test)."""
    if not PG_URL:
        if os.environ.get("CI"):
            pytest.fail("MATADOR_TEST_PG is not set: CI must run the PostgreSQL tests "
                        "(.ci/run starts a throwaway server with .ci/postgres)")
        pytest.skip("no PostgreSQL: set MATADOR_TEST_PG (.ci/postgres start DIR prints it)")
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(PG_URL)
    name = f"t_{secrets.token_hex(6)}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
