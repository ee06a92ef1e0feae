"""One client connection: who it is, what it has seen, and an outgoing queue.

Messages to a client are queued and written by the connection's own task,
so a table never waits for a slow client; a client that lets
:data:`MAX_QUEUE` messages pile up is closed (:data:`~matador.server.protocol.CLOSE_SLOW`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from matador.server.limits import Bucket
from matador.server.protocol import CLOSE_SLOW

MAX_QUEUE = 1000
"""Messages waiting for one client before it is closed as too slow."""

Send = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


class Conn:
    """A joined client: a seat's (``recipient`` 0..n-1) or a spectator's (-1)."""

    def __init__(self, send: Send, close: Close, *, chat_lines: int = 5,
                 chat_seconds: float = 10.0) -> None:
        self._send = send
        self._close = close
        self.recipient: int = -1
        self.seat: int | None = None
        """The seat, or ``None`` for a spectator."""
        self.version = 0
        """The table version this client has been sent up to."""
        self.name = ""
        self.lang = "en"
        self.connected = time.monotonic()
        self.chat = Bucket(chat_lines, chat_lines / chat_seconds)
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (a JSON object) for the client."""
        self.send_text(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def send_text(self, text: str) -> None:
        """Queue an already encoded message."""
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            self.close(CLOSE_SLOW, "too many unread messages")
            return
        self._queue.put_nowait(text)

    def close(self, code: int, reason: str = "") -> None:
        """Send what is queued, then close the connection with ``code``."""
        if self.closed:
            return
        self.closed = True
        self._close_with = (code, reason)
        self._queue.put_nowait(None)

    async def _run(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                code, reason = self._close_with
                with contextlib.suppress(Exception):  # already gone
                    await self._close(code, reason)
                return
            try:
                await self._send(text)
            except Exception:  # the client went away; the reader sees it too
                self.closed = True
                return

    async def drain(self) -> None:
        """Wait until the queued messages are written (or the connection is gone)."""
        while not self._queue.empty() and not self._task.done():
            await asyncio.sleep(0.005)

    async def finish(self, timeout: float = 2.0) -> None:
        """The connection is over: write a pending close (a little while at most), then stop."""
        if self.closed and not self._task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._task), timeout)
        self.stop()

    def stop(self) -> None:
        """Stop the writing task (the connection is over)."""
        self.closed = True
        if not self._task.done():
            self._task.cancel()


__all__ = ["MAX_QUEUE", "Conn"]
