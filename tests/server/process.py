"""A server in a subprocess for the tests that kill it: its own process group, a port kept
across restarts, ``kill -9`` of the whole group (its bot workers too)."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from typing import IO


class ServerProcess:
    """``argv`` started with ``--port PORT`` added (0 the first time: the port the server
    printed is kept, so a restart after :meth:`kill` serves the same address).

    Its standard error goes to ``$MATADOR_TEST_SERVER_LOG`` when that is set (for
    debugging), else to a temporary file whose end a failed start quotes.
    """

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        log = os.environ.get("MATADOR_TEST_SERVER_LOG")
        self.log: IO[str] = open(log, "a") if log else tempfile.TemporaryFile("w+")  # noqa: SIM115

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    def start(self, timeout: float = 60.0) -> float:
        """Start and wait for the printed URL; the seconds it took."""
        began = time.monotonic()
        self.proc = subprocess.Popen([*self.argv, "--port", str(self.port)],
                                     stdout=subprocess.PIPE, stderr=self.log, text=True,
                                     env=self.env, start_new_session=True)
        assert self.proc.stdout is not None
        line = ""
        while time.monotonic() - began < timeout:
            line = self.proc.stdout.readline()
            if "open http://" in line or not line:
                break
        if "open http://" not in line:
            self.kill()
            raise RuntimeError(f"the server did not start: {line!r} {self._log_tail()}")
        self.port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        return time.monotonic() - began

    def _log_tail(self) -> str:
        try:
            self.log.flush()
            self.log.seek(0)
            return self.log.read()[-2000:]
        except OSError:  # a log opened for appending only
            return ""

    def kill(self) -> None:
        """``kill -9`` the server and its whole process group (the bots' pool too)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        """Ask the server to stop (SIGINT), then make sure it did."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.proc = None
