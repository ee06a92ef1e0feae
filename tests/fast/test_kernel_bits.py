"""The kernel's bit helpers against plain Python: both ways of finding set bit number k."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from matador.fast import kernel


@njit(cache=False)
def _both(x: np.int64, k: int) -> tuple[int, int]:
    return kernel._nth_bit_loop(x, k), kernel.nth_bit(x, k)


def nth_set_bit(x: int, k: int) -> int:
    return [i for i in range(64) if x >> i & 1][k]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, (1 << 62) - 1), st.data())
def test_nth_bit_is_the_kth_set_bit_both_ways(x: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, x.bit_count() - 1))
    assert _both(np.int64(x), k) == (nth_set_bit(x, k), nth_set_bit(x, k))


def test_nth_bit_edges() -> None:
    full = (1 << 49) - 1  # the widest move mask
    for k in (0, 1, 47, 48):
        assert _both(np.int64(full), k) == (k, k)
    assert _both(np.int64(1 << 48), 0) == (48, 48)
    assert kernel.nth_bit is (kernel._nth_bit_pdep if kernel.HAS_BMI2 else kernel._nth_bit_loop)
