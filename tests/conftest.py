"""What every test directory shares: bytecode written once, not compiled on every run.

The suite starts hundreds of ``matador`` processes (engines, the CLI, the docs'
examples). Each imports the package; without its bytecode on disk each compiles every
module it imports again, about 0.15 s of CPU a process. An editable install has no
bytecode until something writes it, and with ``PYTHONDONTWRITEBYTECODE`` set nothing
does; so the suite writes it once, as ``pip install`` does for a regular install
(``compileall``; a no-op when it is up to date). Processes read it whatever that
variable says.

The same variable stops pytest from caching its assertion-rewritten test modules, so
each run (and each xdist worker) would rewrite all of them again, seconds of CPU; the
test processes write their bytecode whatever the environment says.

The whole suite runs on every core (``-n auto``). A few tests take minutes
(``@pytest.mark.long(SECONDS)``, about what one takes on one core); started last, one
of them would keep the run going long after the other workers are idle. So they run
first, longest first, each followed by an ordinary test: pytest-xdist hands each
worker two tests at the start and then one at a time (``--maxschedchunk=1`` in
pyproject.toml), so the longest tests start at once on different workers and the
short ones fill the time around them.

Each process that first runs the compiled kernel (``matador[fast]``) with a cold Numba
cache compiles it, some 18 s of CPU; with two workers both would, at the same time. So
the main process compiles it once in a background process (:func:`compile_in_background`)
while the workers run the tests that do not use the kernel; those that do run after them
(``lanes.KERNEL_PATHS``; only the browser tests come later, ``lanes.BROWSER_PATHS``) and
load the compiled kernel from the disk cache. With a warm
cache the background process only loads it (under a second).
"""

from __future__ import annotations

import compileall
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import lanes

SRC = Path(__file__).resolve().parents[1] / "src" / "matador"

sys.dont_write_bytecode = False  # before pytest imports (and rewrites) the test modules


COMPILER = pytest.StashKey[subprocess.Popen[bytes]]()


def compile_in_background() -> subprocess.Popen[bytes] | None:
    """A process that compiles the kernel into the disk cache (or loads it from there), or
    ``None`` without Numba."""
    if importlib.util.find_spec("numba") is None:
        return None
    return subprocess.Popen(
        [sys.executable, "-c", "from matador import fast; fast.compile_kernels()"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_configure(config: pytest.Config) -> None:
    lanes.FAST = "not slow" in (config.option.markexpr or "")
    if not hasattr(config, "workerinput"):  # once, in the main process (not each xdist worker)
        compileall.compile_dir(SRC, quiet=1)
        if getattr(config.option, "numprocesses", None):  # workers to share the compile
            compiler = compile_in_background()
            if compiler is not None:
                config.stash[COMPILER] = compiler


def pytest_unconfigure(config: pytest.Config) -> None:
    compiler = config.stash.get(COMPILER, None)
    if compiler is not None and compiler.poll() is None:  # a short run: not needed any more
        compiler.kill()  # Numba writes each cache file to a temporary name first: none is torn
        compiler.wait()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = lanes.long_first(items)
