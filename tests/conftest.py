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
"""

from __future__ import annotations

import compileall
import sys
from pathlib import Path

import pytest

import lanes

SRC = Path(__file__).resolve().parents[1] / "src" / "matador"

sys.dont_write_bytecode = False  # before pytest imports (and rewrites) the test modules


def pytest_configure(config: pytest.Config) -> None:
    lanes.FAST = "not slow" in (config.option.markexpr or "")
    if not hasattr(config, "workerinput"):  # once, in the main process (not each xdist worker)
        compileall.compile_dir(SRC, quiet=1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = lanes.long_first(items)
