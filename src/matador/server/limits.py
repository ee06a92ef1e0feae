"""Rate limits: a sliding window for WebSocket messages, token buckets for HTTP and chat.

>>> w = Window(limit=2, seconds=1.0)
>>> w.hit(0.0), w.hit(0.1), w.hit(0.2), w.hit(1.15)
(True, True, False, True)
>>> b = Bucket(capacity=2, per_second=1.0, now=0.0)
>>> b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)
(True, True, False, True)
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque


class Window:
    """At most ``limit`` hits in any ``seconds``-long window."""

    def __init__(self, limit: int, seconds: float = 1.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self._hits: deque[float] = deque()

    def hit(self, now: float | None = None) -> bool:
        """Count a hit at ``now``; ``False`` if it goes over the limit."""
        now = time.monotonic() if now is None else now
        hits = self._hits
        while hits and hits[0] <= now - self.seconds:
            hits.popleft()
        if len(hits) >= self.limit:
            return False
        hits.append(now)
        return True


class Bucket:
    """A token bucket: ``capacity`` tokens, refilled at ``per_second``."""

    def __init__(self, capacity: float, per_second: float, now: float | None = None) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.tokens = capacity
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Take a token at ``now``; ``False`` if none is left."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_after(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) / self.per_second) if self.per_second > 0 else 60.0


class Buckets:
    """One :class:`Bucket` per key (a client address), the least recently used forgotten
    past ``max_keys``."""

    def __init__(self, capacity: float, per_second: float, max_keys: int = 10_000) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> tuple[bool, float]:
        """Take a token for ``key``: whether allowed, and seconds to wait if not."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.capacity, self.per_second)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        ok = bucket.take()
        return ok, 0.0 if ok else bucket.retry_after()


__all__ = ["Bucket", "Buckets", "Window"]
