"""Where shards of work run: this process, local worker processes, or a Ray cluster.

A *shard* is a picklable description of some work (a chunk of arena deals, a
range of simulated hands, a cell of a study) and a module-level function that
does it. Shards carry their own seeds (derived from the run's seed and the
shard's identity, never from module-level random state, which Ray's reused
worker processes would carry over), so a run gives the same results on every
backend; only timings differ.

* :class:`Local` runs shards in this process (``jobs=1``) or in ``jobs``
  worker processes (``spawn``, so nothing leaks from the parent).
* :class:`RayBackend` (the ``matador[ray]`` extra) sends each shard to a Ray
  task: on a cluster given by ``address`` (``ray://HOST:10001``,
  ``HOST:6379`` or ``auto``), the ``RAY_ADDRESS`` environment variable, or a
  Ray instance started in this process and shut down when the run ends.
  Every node needs ``matador`` installed (see ``docs/scale.md``).

>>> sorted(result for _, result in Local(1).map(abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from matador.core.errors import MatadorError

T = TypeVar("T")
R = TypeVar("R")


class BackendError(MatadorError):
    """A backend that cannot run: Ray not installed, a cluster that cannot be reached."""


class Backend(Protocol):
    """Runs ``fn`` over shards and yields ``(index, result)`` pairs as shards finish."""

    @property
    def workers(self) -> int:
        """How many shards may run at once (a hint for splitting work)."""

    def map(self, fn: Callable[[T], R], shards: Sequence[T]) -> Iterator[tuple[int, R]]:
        """``(i, fn(shards[i]))`` for every shard, in the order they finish."""


@dataclass(frozen=True)
class Local:
    """This process (``jobs=1``) or ``jobs`` local worker processes."""

    jobs: int = 1

    @property
    def workers(self) -> int:
        """The number of jobs."""
        return self.jobs

    def map(self, fn: Callable[[T], R], shards: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Run the shards here in order, or in a process pool as they complete."""
        if self.jobs <= 1 or len(shards) <= 1:
            for i, shard in enumerate(shards):
                yield i, fn(shard)
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(self.jobs, len(shards)),
                                 mp_context=context) as pool:
            futures: dict[Future[R], int] = {pool.submit(fn, s): i for i, s in enumerate(shards)}
            pending = set(futures)
            try:
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in finished:
                        yield futures[f], f.result()
            except BaseException:
                for f in pending:
                    f.cancel()
                raise


@dataclass(frozen=True)
class RayBackend:
    """Ray tasks, one per shard, on a cluster or on a Ray instance started here.

    ``address`` is what :func:`ray.init` takes (``auto``, ``HOST:PORT``,
    ``ray://HOST:10001``); without it ``RAY_ADDRESS`` is used when set,
    otherwise a local Ray instance starts for the run and stops after it.
    ``cpus`` caps the CPUs of that local instance.
    """

    address: str | None = None
    cpus: int | None = None

    @property
    def workers(self) -> int:
        """The CPUs of the cluster, once connected (8 before)."""
        ray = _ray()
        if ray.is_initialized():
            return max(1, int(ray.cluster_resources().get("CPU", 1)))
        return 8

    def map(self, fn: Callable[[T], R], shards: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Submit every shard as a Ray task and yield results as ``ray.wait`` returns them."""
        ray = _ray()
        started_here = False
        if not ray.is_initialized():
            # No address: a new Ray instance in this process ("local"), never whatever
            # cluster a stale /tmp/ray/ray_current_cluster file points at.
            address = self.address or os.environ.get("RAY_ADDRESS") or "local"
            kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False,
                                      "include_dashboard": False,
                                      "configure_logging": False}
            if address == "local" and self.cpus is not None:
                kwargs["num_cpus"] = self.cpus
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise BackendError(f"cannot reach the Ray cluster at {address!r}: "
                                   f"{error}") from None
            started_here = True
        try:
            remote = ray.remote(fn)
            refs = {remote.remote(s): i for i, s in enumerate(shards)}
            pending = list(refs)
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    yield refs[ref], ray.get(ref)
        finally:
            if started_here:
                ray.shutdown()


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError("the Ray backend needs Ray: pip install 'matador[ray]'") from None
    return ray


def make_backend(name: str = "local", *, jobs: int = 1, address: str | None = None
                 ) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``); ``address`` is Ray's only."""
    if name == "local":
        if address:
            raise BackendError("--address is for the ray backend")
        if jobs < 1:
            raise BackendError(f"{jobs} jobs: use at least one")
        return Local(jobs)
    if name == "ray":
        _ray()
        return RayBackend(address)
    raise BackendError(f"unknown backend {name!r} (local or ray)")


def in_order(results: Iterator[tuple[int, R]], count: int) -> Iterator[R]:
    """The results of shards ``0..count-1`` in shard order, each as soon as it can be."""
    waiting: dict[int, R] = {}
    nxt = 0
    for i, r in results:
        waiting[i] = r
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
    if nxt != count:
        raise BackendError(f"{count - nxt} shards never returned")


__all__ = ["Backend", "BackendError", "Local", "RayBackend", "in_order", "make_backend"]
