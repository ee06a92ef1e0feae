"""Counter-based random streams: the generator the pure-Python path and the kernel share.

A stream is a 64-bit *key*; its ``n``-th draw (``n = 1, 2, ...``) is
``mix64(key + n * GOLDEN)`` (the SplitMix64 finaliser over a Weyl sequence),
so any draw of any stream can be computed without the ones before it. The
compiled kernel (:mod:`matador.fast`) implements exactly the same
arithmetic on unsigned 64-bit integers; with equal keys both paths make the
same choices, move for move. Nothing here depends on ``random``'s state:
a stream is reproducible from its key alone, on any process or machine.

Keys of independent streams come from :func:`stream_key` (a seed and any
number of indices, e.g. the hand number of a batch, or a search's world and
move), so shards of a computation never share or overlap a stream.

Derived values, identical in both paths:

* :meth:`Stream.below` ``(n)``: ``(draw >> 32) * n >> 32``, an integer in
  ``0..n-1`` (multiply-shift; the bias, below ``n / 2**32``, is immaterial);
* :meth:`Stream.random`: ``(draw >> 11) * 2**-53``, a float in ``[0, 1)``.

>>> s = Stream(stream_key(7, 0))
>>> [s.below(6) for _ in range(8)]
[4, 5, 3, 3, 0, 1, 2, 3]
>>> s.counter
8
>>> Stream(stream_key(7, 0)).draw() == mix64((stream_key(7, 0) + GOLDEN) % 2**64)
True
"""

from __future__ import annotations

from typing import Final

MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
"""The Weyl increment between draws (2**64 / golden ratio, odd)."""
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
UNIT: Final = 2.0 ** -53


def mix64(z: int) -> int:
    """The SplitMix64 finaliser: a bijection of 64-bit integers that scrambles every bit."""
    z = (z ^ (z >> 30)) * MIX1 & MASK64
    z = (z ^ (z >> 27)) * MIX2 & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, *indices: int) -> int:
    """The key of the stream numbered ``indices`` under ``seed`` (any integers >= 0).

    ``stream_key(seed, i)`` is ``mix64(mix64(seed) + (i + 1) * GOLDEN)``; each
    further index is folded in the same way. Different index tuples give
    unrelated keys.

    >>> stream_key(1, 2) == stream_key(1, 2) != stream_key(1, 3)
    True
    """
    key = mix64(seed & MASK64)
    if seed < 0:
        raise ValueError(f"stream seeds and indices are >= 0 (got {seed}, {indices})")
    for i in indices:
        if i < 0:
            raise ValueError(f"stream seeds and indices are >= 0 (got {seed}, {indices})")
        key = mix64((key + (i + 1) * GOLDEN) & MASK64)
    return key


class Stream:
    """One counter-based stream: a key and how many draws were taken from it.

    It offers the two methods of :class:`random.Random` that the playouts use
    (:meth:`random` and :meth:`randrange` with one argument), so a stream can
    stand in for a ``Random`` there.
    """

    __slots__ = ("counter", "key")

    def __init__(self, key: int, counter: int = 0) -> None:
        self.key = key & MASK64
        """The stream's 64-bit key."""
        self.counter = counter
        """Draws taken so far; the next draw is number ``counter + 1``."""

    # The methods spell the constants out (GOLDEN, MIX1, MIX2, MASK64): this is the
    # pure-Python playouts' hottest code, and literals cost no look-up.

    def draw(self) -> int:
        """The next 64-bit draw."""
        c = self.counter = self.counter + 1
        z = (self.key + c * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in ``0..n-1`` (``n`` between 1 and ``2**32``) from the next draw."""
        c = self.counter = self.counter + 1
        z = (self.key + c * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
        return (((z ^ (z >> 31)) >> 32) * n) >> 32

    randrange = below
    """Same as :meth:`below` (the one-argument form of ``random.Random.randrange``)."""

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits, from the next draw."""
        c = self.counter = self.counter + 1
        z = (self.key + c * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
        return ((z ^ (z >> 31)) >> 11) * 1.1102230246251565e-16

    def __repr__(self) -> str:
        return f"Stream({self.key:#x}, {self.counter})"
