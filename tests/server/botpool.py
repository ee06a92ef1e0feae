"""One warm bot worker process for every test server of a test process.

A server started by a test would otherwise spawn its own worker and warm it (imports, the
Numba kernel, a tiny search: about 4 s of CPU) and join it when it stops, for each test.
The tests' servers share this real process pool instead (``Hub(settings, pool=...)``);
the server's own pool, started, warmed and joined by the hub, is what ``matador serve``
runs, and the tests that start it as a process (``tests/cli/test_cli_serve.py``, the
browser tests, ``kill -9``) use it.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
from concurrent.futures import ProcessPoolExecutor

from matador.server.hub import warm_worker

_POOL: list[ProcessPoolExecutor] = []


def shared_bot_pool() -> ProcessPoolExecutor:
    """The pool, started and warmed at the first call, shut down as the process exits.

    Shut down by a multiprocessing finalizer, not only by ``atexit``: in a worker process
    of its own (the ten-thousand-game leak test runs servers in two), multiprocessing's
    exit joins the process's children without running ``atexit``, and would wait forever
    for a pool worker nobody told to stop.
    """
    if not _POOL:
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        pool.submit(warm_worker).result()
        multiprocessing.util.Finalize(pool, pool.shutdown, exitpriority=10)
        _POOL.append(pool)
    return _POOL[0]
