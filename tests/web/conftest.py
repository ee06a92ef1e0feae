"""The browser tests' kit: Debian's Chromium driven by Playwright for Python, a server
process per test (restartable after ``kill -9``), pages that keep every WebSocket frame
they receive, and the truth of a table rebuilt from the server's database.

Chromium is never downloaded (``playwright install`` cannot reach its host): the tests
launch ``/usr/bin/chromium`` (``.ci/run`` installs Debian's ``chromium`` when missing),
headless, with a fresh profile each time.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from server.process import ServerProcess

CHROMIUM = os.environ.get("MATADOR_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
SERVE = Path(__file__).with_name("serve.py")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless; Playwright gives each launch a fresh profile
    (user-data directory) and each context its own storage."""
    if not Path(CHROMIUM).exists():
        why = (f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; "
               ".ci/run does it)")
        if os.environ.get("CI"):  # CI never skips the browser tests silently
            pytest.fail(why)
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield browser
        browser.close()


class Server(ServerProcess):
    """tests/web/serve.py in a subprocess on a fixed port, restartable after ``kill -9``."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__([sys.executable, str(SERVE), "--data-dir", str(data_dir)])
        self.data_dir = data_dir

    def truth(self, table_id: str) -> Any:
        """The table as the database holds it (every event, hidden ones included)."""
        from matador.server.db import Store, database_url, make_engine
        from matador.server.room import Room

        engine = make_engine(database_url(None, self.data_dir))
        try:
            rows = Store(engine).load(table_id)
            assert rows is not None, table_id
            return Room(cast(Any, None), rows).table
        finally:
            engine.dispose()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data")
    s.start()
    yield s
    s.kill()


class Person:
    """One person's page, keeping every WebSocket frame it receives."""

    def __init__(self, browser: Any, *, lang: str = "en", viewport: Any = None,
                 reduced_motion: bool = True) -> None:
        self.context = browser.new_context(
            viewport=viewport or DESKTOP, locale=lang,
            reduced_motion="reduce" if reduced_motion else "no-preference")
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.set_default_timeout(20_000)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, str) else payload.decode()))

    @property
    def seat(self) -> int:
        """The recipient of this page (its seat, or -1 for a spectator), from ``welcome``."""
        for text in self.frames:
            msg = json.loads(text)
            if msg.get("type") == "welcome":
                return -1 if msg["you"] is None else int(msg["you"])
        raise AssertionError("no welcome received")

    def state(self) -> dict[str, Any]:
        """The last version this page received."""
        version = 0
        for text in self.frames:
            version = max(version, json.loads(text).get("version") or 0)
        return {"version": version}

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def people(browser: Any) -> Iterator[Callable[..., Person]]:
    made: list[Person] = []

    def make(**kwargs: Any) -> Person:
        p = Person(browser, **kwargs)
        made.append(p)
        return p

    yield make
    for p in made:
        assert not p.errors, p.errors
        p.close()
