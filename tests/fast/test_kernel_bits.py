"""The kernel's bit helpers against plain Python: both ways of finding set bit number k."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from matador import fast
from matador.core.rules import Rules
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


@pytest.mark.slow
def test_a_portable_target_without_bmi2_plays_the_same_hands(tmp_path: Path) -> None:
    """``NUMBA_CPU_NAME=generic`` (a cache for any x86-64 CPU): the loop, the same moves."""
    code = ("from matador import fast; from matador.fast import kernel; "
            "from matador.core.rules import Rules; "
            "out = fast.play_hands(Rules.from_preset('six'), 4, 5, 300, record=40); "
            "print(kernel.HAS_BMI2, out.moves.sum(), out.winner.sum())")
    env = {**os.environ, "NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": str(tmp_path)}
    ran = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600, check=True)
    here = fast.play_hands(Rules.from_preset("six"), 4, 5, 300, record=40)
    assert ran.stdout.split() == ["False", str(here.moves.sum()), str(here.winner.sum())]
