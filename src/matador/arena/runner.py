"""Where arena games are played: in this process, in worker processes, or on a Ray cluster.

Results do not depend on where: each task is a function of the experiment's
seed, and results are sorted by table, deal and rotation afterwards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

from matador.arena.backend import Backend, Local
from matador.arena.game import GameResult, Task, play_task


def chunks(deals: int, jobs: int) -> list[tuple[int, ...]]:
    """Split deals ``0..deals-1`` into chunks of work: one chunk for one job, else small ones
    (at most 50 deals, about 8 per job) so that workers stay busy to the end."""
    if jobs == 1:
        return [tuple(range(deals))]
    size = max(1, min(50, math.ceil(deals / (jobs * 8))))
    return [tuple(range(i, min(deals, i + size))) for i in range(0, deals, size)]


def run_tasks(tasks: list[Task], jobs: int, total: int,
              progress: Callable[[int, int], None] | None,
              backend: Backend | None = None) -> Iterator[GameResult]:
    """Play ``tasks`` here (``jobs == 1``), in ``jobs`` worker processes, or on ``backend``
    (e.g. :class:`~matador.arena.backend.RayBackend`), yielding games as they finish;
    ``progress(done, total)`` counts them."""
    done = 0
    if progress is not None:
        progress(0, total)
    backend = backend or Local(jobs)
    if isinstance(backend, Local) and backend.jobs == 1:
        def tick() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done, total)

        for task in tasks:
            yield from play_task(task, tick)
        return
    for _, results in backend.map(play_task, tasks):
        done += len(results)
        if progress is not None:
            progress(done, total)
        yield from results


__all__ = ["chunks", "run_tasks"]
