"""Helpers for the MEP tests: drive an engine through a pipe, as a host would, line by line."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

MATADOR = Path(sys.executable).parent / "matador"
"""The installed ``matador`` executable."""
ENGINES = Path(__file__).parent / "engines"
"""The deliberately broken test engines."""
ROOT = Path(__file__).parents[2]
"""The repository."""


def engine_command(bot: str) -> str:
    """The command line of ``matador engine BOT`` (for ``engine:`` specs)."""
    return f"{MATADOR} engine {bot}"


def broken(script: str, *args: str) -> str:
    """The command line of a broken test engine."""
    return " ".join([sys.executable, str(ENGINES / f"{script}.py"), *args])


class Pipe:
    """A raw pipe to an engine process: send lines, read lines with a deadline."""

    def __init__(self, *argv: str | Path) -> None:
        self.proc = subprocess.Popen([str(a) for a in argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    @classmethod
    def engine(cls, bot: str) -> Pipe:
        """``matador engine BOT``."""
        return cls(MATADOR, "engine", bot)

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        """Send one line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 30.0) -> str:
        """The next line the engine writes; fails the test on silence or exit."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer within {timeout} s") from None
        assert line is not None, "the engine closed its output"
        return line

    def ask(self, line: str, until: str, timeout: float = 30.0) -> list[str]:
        """Send ``line``; the lines read up to and including one starting with ``until``."""
        self.send(line)
        out = [self.read(timeout)]
        while not out[-1].startswith(until):
            out.append(self.read(timeout))
        return out

    def quiet(self, line: str) -> list[str]:
        """Send ``line`` then ``isready``: what the engine said before ``readyok``."""
        self.send(line)
        return self.ask("isready", "readyok")[:-1]

    def close(self) -> int:
        """``quit`` and the exit status."""
        if self.proc.poll() is None:
            self.send("quit")
        return self.proc.wait(timeout=10)
