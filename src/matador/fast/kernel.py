"""The compiled playout kernel (Numba): whole hands, from the deal to the score, in batches.

This is the third place the rules of a hand live, for speed; each of them
says so and names the others, and tests play them in lockstep:

* :meth:`matador.core.state.HandState.push` and ``legal_mask`` (the reference);
* :func:`matador.core.playout.random_playout` and
  :func:`matador.core.playout.deal_from_stream` (pure-Python fast path,
  counter-based stream);
* :func:`matador.players.rollout.policy_move` with
  :func:`matador.players.heuristic.greedy_move` (the greedy playout policy),
  :func:`matador.players.playouts.table_choice` (the table policy) and
  :func:`matador.players.playouts.greedy_choice` (a seat played as the ``greedy`` bot);
* here: ``deal``, ``_plays``, ``_greedy``, ``_table`` and ``_push`` inside ``play``
  (``tests/fast/test_identity.py``).

A hand lives in one row of an ``int64`` array (the ``ROW_*`` offsets below),
the rules of one preset and player count in another (``R_*``, filled by
:mod:`matador.fast.encode`). Random numbers come from the counter-based
generator of :mod:`matador.core.streams`, computed with the same 64-bit
arithmetic. Every function is compiled once and cached on disk
(``cache=True``; Numba keeps the cache beside this file or in
``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import binding as llvm_binding
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from matador.core.moves import MOVE_END, MOVE_EXPOSED, MOVE_TILE, MOVE_TOUCH
from matador.core.tiles import HALVES, LEAD_RANK, PIPS
from matador.fast.layout import (
    BLOCK_TABLE,
    OUT_DECISIONS,
    OUT_LEADER,
    OUT_PIPS,
    OUT_POINTS,
    OUT_REASON,
    OUT_WINNER,
    R_AFTER_BONEYARD,
    R_ANYTIME,
    R_BONUS,
    R_DRAW_ONE,
    R_ENDS_HAND,
    R_HAND_SIZE,
    R_JOIN,
    R_JPOS,
    R_LOT,
    R_MATADORS,
    R_MATPOS,
    R_NEVER_OUT,
    R_NON_MATADORS,
    R_OPTIONAL,
    R_PASS_PENALTY,
    R_PER_JOIN,
    R_PER_MATADOR,
    R_PIPS_TO_WINNER,
    R_PLAYABLE,
    R_PLAYERS,
    R_SCORES_PLAYS,
    R_SET_ASIDE,
    R_TARGET,
    RANDOM,
    ROW_BLEN,
    ROW_BONE,
    ROW_BPOS,
    ROW_COUNTER,
    ROW_DECISIONS,
    ROW_DRAWN,
    ROW_EMPTY_AT,
    ROW_HANDS,
    ROW_LEADER,
    ROW_LEFT,
    ROW_PIPS,
    ROW_PLAYED,
    ROW_PLAYERS,
    ROW_PLY,
    ROW_POINTS,
    ROW_REASON,
    ROW_RIGHT,
    ROW_SIZE,
    ROW_TO_MOVE,
    ROW_WINNER,
    SEAT_GREEDY,
    TABLE,
    W_BLANK,
    W_BLANK_NO_MATADOR,
    W_BLOCK,
    W_BLOCK_OTHERS,
    W_DRAW_COST,
    W_FOLLOW,
    W_LAST_MATADOR,
    W_MATADOR,
    W_OUT,
    W_PIPS,
    W_POINTS,
    W_SIZE,
    W_SPEND_BONE,
    W_SPEND_NEXT,
)

DRAW = 126
PASS = 127

M_TILE = np.array(MOVE_TILE, dtype=np.int64)
M_END = np.array(MOVE_END, dtype=np.int64)
M_TOUCH = np.array(MOVE_TOUCH, dtype=np.int64)
M_EXPOSED = np.array(MOVE_EXPOSED, dtype=np.int64)
T_LOW = np.array([a for a, _ in HALVES], dtype=np.int64)
T_HIGH = np.array([b for _, b in HALVES], dtype=np.int64)
T_PIPS = np.array(PIPS, dtype=np.int64)
BY_RANK = np.array(sorted(range(28), key=lambda t: -LEAD_RANK[t]), dtype=np.int64)
"""Tiles from the highest lead rank (R14) down."""
COMB = np.array([[math.comb(a, b) for b in range(29)] for a in range(29)], dtype=np.int64)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S32 = np.uint64(32)
S11 = np.uint64(11)
LOW32 = np.uint64(0xFFFFFFFF)
UNIT = 2.0 ** -53


@intrinsic
def popcount(typingctx, src):  # type: ignore[no-untyped-def]
    """The number of set bits of an integer (LLVM ctpop)."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return src(src), codegen


@intrinsic
def lowest_bit(typingctx, src):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of a non-zero integer (LLVM cttz)."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return src(src), codegen


def _target_has_bmi2() -> bool:
    from numba.core import config

    if config.CPU_FEATURES is not None:  # NUMBA_CPU_FEATURES (e.g. a portable cache)
        return "+bmi2" in config.CPU_FEATURES.split(",")
    return bool(llvm_binding.get_host_cpu_features().get("bmi2", False))


HAS_BMI2 = _target_has_bmi2()
"""Whether the CPU Numba compiles for deposits bits in one instruction (x86 BMI2 ``pdep``):
Numba compiles (and caches) for the host CPU, or the features ``NUMBA_CPU_FEATURES`` names,
so the kernel uses the instruction where it exists and a loop elsewhere."""


@intrinsic
def _pdep(typingctx, src, mask):  # type: ignore[no-untyped-def]
    """x86 BMI2 ``pdep``: the low bits of ``src`` deposited at the set bits of ``mask``."""
    if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                            "llvm.x86.bmi.pdep.64")
        a = context.cast(builder, args[0], signature.args[0], types.int64)
        b = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.call(fn, [a, b])

    return types.int64(src, mask), codegen


@njit(cache=True, _nrt=False, inline="always")
def _nth_bit_pdep(x: int, k: int) -> int:
    return lowest_bit(_pdep(np.int64(1) << k, x))


@njit(cache=True, _nrt=False, inline="always")
def _nth_bit_loop(x: int, k: int) -> int:
    for _ in range(k):
        x &= x - 1
    return lowest_bit(x)


nth_bit = _nth_bit_pdep if HAS_BMI2 else _nth_bit_loop
"""The index of set bit number ``k`` (from 0, lowest first) of ``x``, which has more than
``k`` set bits."""


@njit(cache=True, _nrt=False, inline="always")
def draw64(key: np.uint64, counter: int) -> np.uint64:
    """Draw number ``counter`` of the stream ``key`` (``matador.core.streams.Stream.draw``)."""
    z = key + np.uint64(counter) * GOLDEN
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, _nrt=False, inline="always")
def below(key: np.uint64, counter: int, n: int) -> int:
    """``Stream.below(n)`` for draw number ``counter``."""
    return np.int64(((draw64(key, counter) >> S32) * np.uint64(n)) >> S32)


@njit(cache=True, _nrt=False, inline="always")
def unit(key: np.uint64, counter: int) -> float:
    """``Stream.random()`` for draw number ``counter``."""
    return np.float64(draw64(key, counter) >> S11) * UNIT


@njit(cache=True, _nrt=False)
def deal(row: np.ndarray, r: np.ndarray, key: np.uint64, tiles: np.ndarray) -> None:
    """Shuffle and deal a fresh hand into ``row`` from the start of the stream ``key``.

    ``matador.core.playout.deal_from_stream``; every field of the row is set.
    """
    counter = 0
    for i in range(28):
        tiles[i] = i
    for i in range(27, 0, -2):  # two swaps per draw: its high and its low 32 bits
        counter += 1
        z = draw64(key, counter)
        j = np.int64(((z >> S32) * np.uint64(i + 1)) >> S32)
        x = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = x
        j = np.int64(((z & LOW32) * np.uint64(i)) >> S32)
        x = tiles[i - 1]
        tiles[i - 1] = tiles[j]
        tiles[j] = x
    n = r[R_PLAYERS]
    k = r[R_SET_ASIDE]
    size = r[R_HAND_SIZE]
    end = k + n * size
    for s in range(4):
        row[ROW_HANDS + s] = 0
        row[ROW_POINTS + s] = 0
        row[ROW_EMPTY_AT + s] = -1
        row[ROW_PIPS + s] = 0
    for s in range(n):
        h = 0
        for i in range(k + s * size, k + (s + 1) * size):
            h |= np.int64(1) << tiles[i]
        row[ROW_HANDS + s] = h
    for i in range(end, 28):
        row[ROW_BONE + i - end] = tiles[i]
    row[ROW_BLEN] = 28 - end
    row[ROW_BPOS] = 0
    if r[R_LOT]:
        counter += 1
        leader = below(key, counter, n)
    else:  # R14: whoever holds the dealt tile of the highest rank (ranks are distinct)
        leader = -1
        for t in BY_RANK:
            for s in range(n):
                if (row[ROW_HANDS + s] >> t) & 1:
                    leader = s
                    break
            if leader >= 0:
                break
    row[ROW_LEADER] = leader
    row[ROW_TO_MOVE] = leader
    row[ROW_LEFT] = -1
    row[ROW_RIGHT] = -1
    row[ROW_DRAWN] = 0
    row[ROW_PLY] = 0
    row[ROW_PLAYED] = 0
    row[ROW_PLAYERS] = n
    row[ROW_WINNER] = -1
    row[ROW_REASON] = -1
    row[ROW_DECISIONS] = 0
    row[ROW_COUNTER] = counter


@njit(cache=True, _nrt=False, inline="always")
def _plays(r: np.ndarray, hand: int, left: int, right: int, can_draw: bool, drew_one: bool,
           anytime: bool, optional: bool, matadors: int, non_matadors: int
           ) -> tuple[int, int, int]:
    """The legal moves on a line with ends ``left`` and ``right`` (R7-R10, R15-R17): plays on
    the left and on the right end as masks (bit ``7 touching + exposed``; move ids ``28 +``
    and ``77 +`` the bit) and the extra move (``DRAW``, ``PASS`` or 0). ``drew_one``: the mover
    drew its one tile this turn (``draw=one``)."""
    jl = hand & r[R_JOIN + left]
    jr = hand & r[R_JOIN + right]
    lm = np.int64(0)
    rm = np.int64(0)
    x = jl
    while x:
        lm |= r[R_JPOS + 28 * left + lowest_bit(x)]
        x &= x - 1
    x = jr
    while x:
        rm |= r[R_JPOS + 28 * right + lowest_bit(x)]
        x &= x - 1
    hm = hand & matadors
    if hm and (anytime or not (lm | rm)):  # R10
        x = hm
        while x:
            b = r[R_MATPOS + lowest_bit(x)]
            lm |= b
            rm |= b
            x &= x - 1
    extra = 0
    if lm | rm:
        # R15: a mover whose every legal play is a matador may draw instead.
        if optional and not ((jl | jr) & non_matadors):
            if can_draw:
                extra = DRAW
            elif drew_one:
                extra = PASS
    else:
        extra = DRAW if can_draw else PASS  # R16, R17
    return lm, rm, extra


@njit(cache=True, _nrt=False, inline="always")
def _play_points(r: np.ndarray, m: int, left: int, right: int) -> int:
    """Points play ``m`` scores at once (R22; ``RuleTables.play_points``)."""
    t = M_TILE[m]
    pts = 0
    if (r[R_MATADORS] >> t) & 1:
        pts += r[R_PER_MATADOR]
    if m >= 28:
        v = right if M_END[m] else left
        if M_TOUCH[m] + v == r[R_TARGET]:
            pts += r[R_PER_JOIN]
        if M_EXPOSED[m] == r[R_TARGET]:
            pts += r[R_BONUS]
    return pts


@njit(cache=True, _nrt=False)
def _block_from_counts(total: int, c: int, size: int, boneyard: int, draw_cost: float) -> float:
    """``matador.players.heuristic.block_value`` from its four counts: the same float
    operations in the same order, so the same bits."""
    if size <= 0:
        p = 1.0
    elif size > total:
        p = 0.0 if c else 1.0
    else:
        p = np.float64(COMB[total - c, size]) / np.float64(COMB[total, size])
    if p == 0.0:
        return 0.0
    in_boneyard = np.float64(c * boneyard) / np.float64(total) if total else 0.0
    return p * (1.0 + draw_cost * np.float64(boneyard + 1) / (in_boneyard + 1.0))


@njit(cache=True, _nrt=False)
def fill_block_table(w: np.ndarray) -> None:
    """Fill ``w[W_SIZE:]`` with every block value, indexed by :func:`_block_index`.

    The greedy policy then looks a value up instead of dividing three times
    per play (the playouts' hottest arithmetic).
    """
    draw_cost = w[W_DRAW_COST]
    for size in range(29):
        for boneyard in range(29):
            for total in range(29):
                for c in range(total + 1):
                    w[W_SIZE + _block_index(total, c, size, boneyard)] = _block_from_counts(
                        total, c, size, boneyard, draw_cost)


@njit(cache=True, _nrt=False, inline="always")
def _next_gap(w: np.ndarray, u: float) -> int:
    """``matador.players.rollout.next_gap``: the gap thresholds above ``u``."""
    base = W_SIZE + BLOCK_TABLE
    n = np.int64(w[base])
    k = 0
    while k < n and w[base + 1 + k] > u:
        k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def _block_index(total: int, c: int, size: int, boneyard: int) -> int:
    return ((size * 29 + boneyard) * 29 + total) * 29 + c


@njit(cache=True, _nrt=False, inline="always")
def _block_value(might: int, size: int, fits: int, boneyard: int, w: np.ndarray) -> float:
    """``matador.players.heuristic.block_value``: a look-up in :func:`fill_block_table`'s table."""
    return w[W_SIZE + _block_index(popcount(might), popcount(might & fits), size, boneyard)]


@njit(cache=True, _nrt=False, inline="always")
def _ends_after(m: int, t: int, left: int, right: int) -> tuple[int, int]:
    """The line's ends once play ``m`` (of tile ``t``) is made: an opening tile's halves, or
    the exposed half on the end played with the other end kept (R6, R7)."""
    if m < 28:
        return T_LOW[t], T_HIGH[t]
    if M_END[m]:
        return left, M_EXPOSED[m]
    return M_EXPOSED[m], right


@njit(cache=True, _nrt=False, inline="always")
def _play_score(r: np.ndarray, w: np.ndarray, hand: int, m: int, left: int, right: int,
                unseen: int, next_size: int, boneyard: int) -> float:
    """``matador.players.heuristic.play_score``, the same float operations in the same order."""
    t = M_TILE[m]
    rest = hand & ~(np.int64(1) << t)
    if not rest and (r[R_ENDS_HAND] or (r[R_AFTER_BONEYARD] and not boneyard)):
        return w[W_OUT]
    a, b = _ends_after(m, t, left, right)
    playable = r[R_PLAYABLE + 7 * a + b]
    fits = rest & playable
    score = w[W_PIPS] * np.float64(T_PIPS[t]) + w[W_FOLLOW] * np.float64(
        popcount(fits & r[R_NON_MATADORS]))
    if (r[R_MATADORS] >> t) & 1:
        score -= w[W_MATADOR]
        if not rest & r[R_MATADORS]:
            score -= w[W_LAST_MATADOR]
    if r[R_SCORES_PLAYS]:
        score += w[W_POINTS] * np.float64(_play_points(r, m, left, right))
    if next_size:
        score += w[W_BLOCK] * _block_value(unseen, next_size, playable, boneyard, w)
    elif a == 0 or b == 0:
        blanks = (a == 0) + (b == 0)
        if rest & r[R_MATADORS]:
            score += w[W_BLANK] * np.float64(blanks)
        else:
            score += w[W_BLANK_NO_MATADOR] * np.float64(blanks)
    return score


@njit(cache=True, _nrt=False, inline="always")
def _greedy(r: np.ndarray, w: np.ndarray, moves: np.ndarray, nm: int, hand: int, left: int,
            right: int, unseen: int, next_size: int, boneyard: int) -> int:
    """``matador.players.heuristic.greedy_move`` as the playouts call it (``policy_move``)."""
    best = moves[0]
    best_score = -1e9
    can_draw = False
    has_pass = False
    for i in range(nm):
        m = moves[i]
        if m >= DRAW:
            if m == DRAW:
                can_draw = True
            else:
                has_pass = True
            continue
        sc = _play_score(r, w, hand, m, left, right, unseen, next_size, boneyard)
        if sc > best_score:
            best = m
            best_score = sc
    if best >= DRAW:
        return best
    last_matador = (r[R_MATADORS] >> M_TILE[best]) & 1 and popcount(hand & r[R_MATADORS]) == 1
    if can_draw and last_matador and best_score < w[W_OUT]:
        return DRAW
    if has_pass and best_score < 0 and last_matador:
        return PASS
    return best


@njit(cache=True, _nrt=False)
def _table(r: np.ndarray, w: np.ndarray, moves: np.ndarray, nm: int, row: np.ndarray, s: int,
           n: int, hand: int, left: int, right: int, unseen: int, boneyard: int) -> int:
    """``matador.players.playouts.table_choice``: the heuristic's evaluation, every seat's
    blocking, the last matador spent only when it pays; the same float operations."""
    matadors = r[R_MATADORS]
    mine = popcount(hand & matadors)
    goes_out = r[R_ENDS_HAND] or (r[R_AFTER_BONEYARD] and not boneyard)
    total = popcount(unseen)
    nxt_seat = s + 1
    if nxt_seat == n:
        nxt_seat = 0
    nxt = popcount(row[ROW_HANDS + nxt_seat])
    best = moves[0]
    best_score = -1e18
    can_draw = False
    has_pass = False
    for i in range(nm):
        m = moves[i]
        if m >= DRAW:
            if m == DRAW:
                can_draw = True
            else:
                has_pass = True
            continue
        t = M_TILE[m]
        rest = hand & ~(np.int64(1) << t)
        if not rest and goes_out:
            return m
        a, b = _ends_after(m, t, left, right)
        fits = r[R_PLAYABLE + 7 * a + b]
        score = w[W_PIPS] * np.float64(T_PIPS[t]) + w[W_FOLLOW] * np.float64(
            popcount(rest & fits & r[R_NON_MATADORS]))
        if (matadors >> t) & 1:
            score -= w[W_MATADOR]
            if mine == 1:
                score -= w[W_LAST_MATADOR]
        if r[R_SCORES_PLAYS]:
            score += w[W_POINTS] * np.float64(_play_points(r, m, left, right))
        fitting = popcount(unseen & fits)
        if nxt:
            score += w[W_BLOCK] * w[W_SIZE + _block_index(total, fitting, nxt, boneyard)]
        elif a == 0 or b == 0:
            blanks = (a == 0) + (b == 0)
            if rest & matadors:
                score += w[W_BLANK] * np.float64(blanks)
            else:
                score += w[W_BLANK_NO_MATADOR] * np.float64(blanks)
        for k in range(2, n):
            other = s + k
            if other >= n:
                other -= n
            size = popcount(row[ROW_HANDS + other])
            if size:
                score += w[W_BLOCK_OTHERS] * w[W_SIZE + _block_index(total, fitting, size,
                                                                       boneyard)]
        if score > best_score:
            best = m
            best_score = score
    if best < DRAW and (matadors >> M_TILE[best]) & 1 and mine == 1:
        # R15: spend the last matador only when it pays; R17: or keep it by passing
        if can_draw and nxt > w[W_SPEND_NEXT] and boneyard > w[W_SPEND_BONE]:
            return DRAW
        if has_pass and nxt > 1 and not _play_points(r, best, left, right):
            return PASS
    return best


@njit(cache=True, _nrt=False)
def _finish(row: np.ndarray, r: np.ndarray, winner: int, reason: int) -> None:
    n = row[ROW_PLAYERS]
    total = 0
    for s in range(n):
        h = row[ROW_HANDS + s]
        p = 0
        while h:
            p += T_PIPS[lowest_bit(h)]
            h &= h - 1
        row[ROW_PIPS + s] = p
        total += p
    if winner >= 0 and r[R_PIPS_TO_WINNER]:  # R21
        row[ROW_POINTS + winner] += total - row[ROW_PIPS + winner]
    row[ROW_WINNER] = winner
    row[ROW_REASON] = reason
    row[ROW_TO_MOVE] = -1


@njit(cache=True, _nrt=False)
def _some_empty(row: np.ndarray, n: int) -> bool:
    for s in range(n):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if not row[ROW_HANDS + s]:
            return True
    return False


@njit(cache=True, _nrt=False)
def _check_end(row: np.ndarray, r: np.ndarray) -> bool:
    """With the boneyard empty: R18 (after_boneyard), then R19 and R20."""
    n = row[ROW_PLAYERS]
    if r[R_AFTER_BONEYARD]:
        first = -1
        for s in range(n):
            if row[ROW_HANDS + s] == 0 and (
                    first < 0 or row[ROW_EMPTY_AT + s] < row[ROW_EMPTY_AT + first]):
                first = s
        if first >= 0:
            _finish(row, r, first, 0)
            return True
    playable = r[R_PLAYABLE + 7 * row[ROW_LEFT] + row[ROW_RIGHT]]
    for s in range(n):
        if row[ROW_HANDS + s] & playable:
            return False
    low = 1 << 30
    winner = -1
    for s in range(n):
        h = row[ROW_HANDS + s]
        p = 0
        while h:
            p += T_PIPS[lowest_bit(h)]
            h &= h - 1
        if p < low:
            low = p
            winner = s
        elif p == low:
            winner = -1  # R20: a tie for fewest means no winner
    _finish(row, r, winner, 1)
    return True


@njit(cache=True, _nrt=False)
def _push(row: np.ndarray, r: np.ndarray, m: int) -> None:
    """``HandState.push``: play move ``m`` (legal) and apply R13-R22."""
    s = row[ROW_TO_MOVE]
    n = row[ROW_PLAYERS]
    ply = row[ROW_PLY] + 1
    row[ROW_PLY] = ply
    if m < DRAW:
        t = M_TILE[m]
        bit = np.int64(1) << t
        h = row[ROW_HANDS + s] ^ bit
        row[ROW_HANDS + s] = h
        row[ROW_PLAYED] |= bit
        row[ROW_DRAWN] = 0
        left = row[ROW_LEFT]
        right = row[ROW_RIGHT]
        if r[R_SCORES_PLAYS]:  # R22
            row[ROW_POINTS + s] += _play_points(r, m, left, right)
        if m < 28:  # R6
            row[ROW_LEFT] = T_LOW[t]
            row[ROW_RIGHT] = T_HIGH[t]
        elif M_END[m]:  # R7
            row[ROW_RIGHT] = M_EXPOSED[m]
        else:
            row[ROW_LEFT] = M_EXPOSED[m]
        if not h:
            if r[R_ENDS_HAND]:  # R18
                _finish(row, r, s, 0)
                return
            row[ROW_EMPTY_AT + s] = ply
        if row[ROW_BPOS] == row[ROW_BLEN] and _check_end(row, r):
            return
    elif m == DRAW:  # R16: the mover goes on
        bpos = row[ROW_BPOS]
        row[ROW_HANDS + s] |= np.int64(1) << row[ROW_BONE + bpos]
        row[ROW_BPOS] = bpos + 1
        row[ROW_DRAWN] = 1
        row[ROW_EMPTY_AT + s] = -1
        if bpos + 1 == row[ROW_BLEN]:
            _check_end(row, r)
        return
    else:  # R17
        row[ROW_POINTS + s] -= r[R_PASS_PENALTY]
        row[ROW_DRAWN] = 0
    s += 1
    if s == n:
        s = 0
    if r[R_NEVER_OUT] and row[ROW_BPOS] == row[ROW_BLEN]:
        while not row[ROW_HANDS + s]:
            s += 1
            if s == n:
                s = 0
    row[ROW_TO_MOVE] = s


@njit(cache=True, _nrt=False)
def play(row: np.ndarray, r: np.ndarray, w: np.ndarray, policy: int, epsilon: float,
         key: np.uint64, moves: np.ndarray, record: np.ndarray) -> None:
    """Play the hand in ``row`` to its end with ``policy``; ``record`` keeps its moves.

    Random: a choice among ``n > 1`` moves takes ``below(n)``. Greedy
    (``greedy_rollout``): one ``random()`` draw gives the number of greedy
    choices before the next random one (``next_gap``); a random choice takes
    ``below(n)``, then a new gap (``epsilon`` lives in the gap table of ``w``).
    Table: the same draws; each seat's choice is the table policy's, or the
    ``greedy`` bot's where its code in ``w`` says so (``seat_rollout``).
    A forced move takes no draw. ``row[ROW_DECISIONS]`` counts on from its
    value (0 for a fresh row) and says where the next move is recorded.

    One loop with the state in local variables: legal moves as two 49-bit
    masks (left and right end, bit ``7 touching + exposed``) plus draw or pass,
    the push of ``HandState.push`` inlined.
    """
    matadors = r[R_MATADORS]
    non_matadors = r[R_NON_MATADORS]
    anytime = r[R_ANYTIME] != 0
    optional = r[R_OPTIONAL] != 0
    draw_one = r[R_DRAW_ONE] != 0
    ends_hand = r[R_ENDS_HAND] != 0
    after_boneyard = r[R_AFTER_BONEYARD] != 0
    never_out = r[R_NEVER_OUT] != 0
    scores_plays = r[R_SCORES_PLAYS] != 0
    pass_penalty = r[R_PASS_PENALTY]
    greedy = policy != RANDOM
    seat_kinds = 0  # where the seats' policy codes start in w (table policies)
    if policy == TABLE:
        seat_kinds = W_SIZE + BLOCK_TABLE + 1 + np.int64(w[W_SIZE + BLOCK_TABLE])
    n = row[ROW_PLAYERS]
    s = row[ROW_TO_MOVE]
    left = row[ROW_LEFT]
    right = row[ROW_RIGHT]
    drawn = row[ROW_DRAWN] != 0
    ply = row[ROW_PLY]
    played = row[ROW_PLAYED]
    bpos = row[ROW_BPOS]
    blen = row[ROW_BLEN]
    counter = row[ROW_COUNTER]
    decisions = row[ROW_DECISIONS]
    cap = record.shape[0]
    gap = 0
    if greedy:  # greedy_rollout: one draw for the run of greedy choices that starts now
        counter += 1
        gap = _next_gap(w, unit(key, counter))
    while s >= 0:
        hand = row[ROW_HANDS + s]
        extra = 0
        if left < 0:  # R6: any tile opens; its move id is the tile
            lm = hand
            rm = np.int64(0)
            nl = popcount(lm)
            nr = 0
        else:
            lm, rm, extra = _plays(r, hand, left, right, bpos < blen and not (drawn and draw_one),
                                   drawn and draw_one, anytime, optional, matadors,
                                   non_matadors)
            nl = popcount(lm)
            nr = popcount(rm)
        nm = nl + nr + (extra != 0)
        if nm == 1:
            k = 0
        elif not greedy:
            counter += 1
            k = below(key, counter, nm)
        elif gap:
            gap -= 1
            k = -1
        else:
            counter += 1
            k = below(key, counter, nm)
            counter += 1
            gap = _next_gap(w, unit(key, counter))
        if k < 0:  # the greedy move, from the list of legal moves
            i = 0
            base = 0 if left < 0 else 28
            x = lm
            while x:
                moves[i] = base + lowest_bit(x)
                i += 1
                x &= x - 1
            x = rm
            while x:
                moves[i] = 77 + lowest_bit(x)
                i += 1
                x &= x - 1
            if extra:
                moves[i] = extra
            nxt = s + 1
            if nxt == n:
                nxt = 0
            if policy == TABLE and w[seat_kinds + s] == SEAT_GREEDY:
                m = _greedy(r, w, moves, nm, hand, left, right, 0, 0, blen - bpos)
            elif policy == TABLE:
                m = _table(r, w, moves, nm, row, s, n, hand, left, right,
                           ((np.int64(1) << 28) - 1) & ~hand & ~played, blen - bpos)
            else:
                m = _greedy(r, w, moves, nm, hand, left, right,
                            ((np.int64(1) << 28) - 1) & ~hand & ~played,
                            popcount(row[ROW_HANDS + nxt]), blen - bpos)
        elif k < nl:
            m = nth_bit(lm, k) + (0 if left < 0 else 28)
        elif k < nl + nr:
            m = 77 + nth_bit(rm, k - nl)
        else:
            m = extra
        if decisions < cap:
            record[decisions] = m
        decisions += 1
        # -- push (HandState.push) --
        ply += 1
        if m < DRAW:
            t = M_TILE[m]
            bit = np.int64(1) << t
            h = hand ^ bit
            row[ROW_HANDS + s] = h
            played |= bit
            drawn = False
            if scores_plays:  # R22
                row[ROW_POINTS + s] += _play_points(r, m, left, right)
            if m < 28:  # R6
                left = T_LOW[t]
                right = T_HIGH[t]
            elif m >= 77:  # R7
                right = M_EXPOSED[m]
            else:
                left = M_EXPOSED[m]
            if not h:
                if ends_hand:  # R18
                    row[ROW_LEFT] = left
                    row[ROW_RIGHT] = right
                    _finish(row, r, s, 0)
                    break
                row[ROW_EMPTY_AT + s] = ply
            if bpos == blen:
                # R18/R19 are checked in full only when they may apply: an empty hand
                # under after_boneyard, or no hand holding a tile that fits the ends.
                held = row[ROW_HANDS] | row[ROW_HANDS + 1] | row[ROW_HANDS + 2] | row[
                    ROW_HANDS + 3]
                if (after_boneyard and _some_empty(row, n)) or not (
                        held & r[R_PLAYABLE + 7 * left + right]):
                    row[ROW_LEFT] = left
                    row[ROW_RIGHT] = right
                    if _check_end(row, r):
                        break
        elif m == DRAW:  # R16: the mover goes on
            row[ROW_HANDS + s] = hand | np.int64(1) << row[ROW_BONE + bpos]
            bpos += 1
            drawn = True
            row[ROW_EMPTY_AT + s] = -1
            if bpos == blen:
                row[ROW_LEFT] = left
                row[ROW_RIGHT] = right
                if _check_end(row, r):
                    break
            continue
        else:  # R17
            row[ROW_POINTS + s] -= pass_penalty
            drawn = False
        s += 1  # R13
        if s == n:
            s = 0
        if never_out and bpos == blen:  # R18 never: empty hands are skipped
            while not row[ROW_HANDS + s]:
                s += 1
                if s == n:
                    s = 0
    row[ROW_LEFT] = left
    row[ROW_RIGHT] = right
    row[ROW_DRAWN] = drawn
    row[ROW_PLY] = ply
    row[ROW_PLAYED] = played
    row[ROW_BPOS] = bpos
    row[ROW_DECISIONS] = decisions
    row[ROW_COUNTER] = counter


@njit(cache=True, _nrt=False)
def _summarise(row: np.ndarray, out: np.ndarray) -> None:
    out[OUT_WINNER] = row[ROW_WINNER]
    out[OUT_REASON] = row[ROW_REASON]
    out[OUT_DECISIONS] = row[ROW_DECISIONS]
    out[OUT_LEADER] = row[ROW_LEADER]
    for s in range(4):
        out[OUT_POINTS + s] = row[ROW_POINTS + s]
        out[OUT_PIPS + s] = row[ROW_PIPS + s]


@njit(cache=True, _nrt=False, nogil=True)
def _run_range(rows: np.ndarray, keys: np.ndarray, r: np.ndarray, w: np.ndarray, policy: int,
               epsilon: float, do_deal: bool, records: np.ndarray, out: np.ndarray, start: int,
               stop: int, moves: np.ndarray, tiles: np.ndarray, scratch: np.ndarray) -> None:
    """Hands ``start`` to ``stop`` of :func:`run_serial`, with its scratch arrays given.

    It releases the GIL, so that threads can play chunks of one batch side by
    side (``matador.fast``'s ``threads``); a chunk's scratch arrays are its own."""
    for i in range(start, stop):
        if do_deal:
            row = scratch
            deal(row, r, keys[i], tiles)
        else:
            row = rows[i]
        play(row, r, w, policy, epsilon, keys[i], moves, records[i])
        _summarise(row, out[i])


@njit(cache=True)
def run_serial(rows: np.ndarray, keys: np.ndarray, r: np.ndarray, w: np.ndarray, policy: int,
               epsilon: float, do_deal: bool, records: np.ndarray, out: np.ndarray) -> None:
    """Play every hand in order on this thread; ``out[i]`` gets hand ``i``'s result (``OUT_*``).

    With ``do_deal`` hand ``i`` is dealt from ``keys[i]`` into a scratch row
    (``rows`` may then be empty); otherwise ``rows[i]`` is the hand, played in
    place. ``records`` has a row per hand; its length (0 for none) caps the
    moves kept.
    """
    _run_range(rows, keys, r, w, policy, epsilon, do_deal, records, out, 0, keys.shape[0],
               np.empty(64, dtype=np.int64), np.empty(28, dtype=np.int64),
               np.zeros(ROW_SIZE, dtype=np.int64))


@njit(cache=True, _nrt=False)
def fold_keys(keys: np.ndarray, index: np.ndarray) -> None:
    """``keys[i] = mix64(keys[i] + (index[i] + 1) * GOLDEN)``: one more index of ``stream_key``."""
    for i in range(keys.shape[0]):
        z = keys[i] + np.uint64(index[i] + 1) * GOLDEN
        z = (z ^ (z >> S30)) * MIX1
        z = (z ^ (z >> S27)) * MIX2
        keys[i] = z ^ (z >> S31)


@njit(cache=True, _nrt=False)
def push_moves(rows: np.ndarray, r: np.ndarray, first: np.ndarray, records: np.ndarray) -> None:
    """Play ``first[i]`` (a legal move) in row ``i`` and record it: one decision made."""
    for i in range(rows.shape[0]):
        row = rows[i]
        if records.shape[1] > 0:
            records[i, 0] = first[i]
        _push(row, r, first[i])
        row[ROW_DECISIONS] = 1


@njit(cache=True, _nrt=False)
def stream_keys(base: np.uint64, first: int, keys: np.ndarray) -> None:
    """``keys[i] = stream_key(seed, first + i)`` where ``base = mix64(seed)``."""
    for i in range(keys.shape[0]):
        z = base + np.uint64(first + i + 1) * GOLDEN
        z = (z ^ (z >> S30)) * MIX1
        z = (z ^ (z >> S27)) * MIX2
        keys[i] = z ^ (z >> S31)


@njit(cache=True, _nrt=False)
def net_values(rows: np.ndarray, seat: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
               b2: np.ndarray, w3: np.ndarray, b3: float, hidden: np.ndarray,
               out: np.ndarray) -> None:
    """The value network's chance to win for ``seat`` in each row (its features as
    :func:`matador.players.valuenet.features` builds them for the row's number of players;
    0.5 for a row whose hand is over).

    The first layer adds the weight rows of the features that are set (a tile's
    bit in one of the tile blocks, each end's number) and scales the rest; then
    ReLU, a second dense layer, ReLU and a sigmoid. ``hidden`` is scratch of
    ``2 * len(b1)`` floats.
    """
    nh = b1.shape[0]
    full = (np.int64(1) << 28) - 1
    for i in range(rows.shape[0]):
        row = rows[i]
        if row[ROW_TO_MOVE] < 0:
            out[i] = 0.5
            continue
        n = row[ROW_PLAYERS]
        line = row[ROW_PLAYED]
        rest = full & ~line
        for j in range(nh):
            hidden[j] = b1[j]
        for block in range(n + 2):
            if block < n:
                mask = row[ROW_HANDS + (seat + block) % n]
                rest &= ~mask
            elif block == n:
                mask = rest
            else:
                mask = line
            while mask:
                low = mask & -mask
                f = 28 * block + lowest_bit(low)
                for j in range(nh):
                    hidden[j] += w1[f, j]
                mask ^= low
        base = 28 * (n + 2)
        for k in range(2):
            end = row[ROW_LEFT] if k == 0 else row[ROW_RIGHT]
            f = base + 8 * k + (end if end >= 0 else 7)
            for j in range(nh):
                hidden[j] += w1[f, j]
        base += 16
        ahead = (row[ROW_TO_MOVE] - seat) % n
        if ahead < n - 1:
            for j in range(nh):
                hidden[j] += w1[base + ahead, j]
        if row[ROW_DRAWN]:
            for j in range(nh):
                hidden[j] += w1[base + n - 1, j]
        pips_mine = 0
        for k in range(n):
            hand = row[ROW_HANDS + (seat + k) % n]
            size = popcount(hand)
            if size:
                x = size / 7.0
                for j in range(nh):
                    hidden[j] += x * w1[base + n + k, j]
            pips = 0
            m = hand
            while m:
                low = m & -m
                pips += T_PIPS[lowest_bit(low)]
                m ^= low
            if k == 0:
                pips_mine = pips
            elif pips_mine != pips:
                x = (pips_mine - pips) / 40.0
                for j in range(nh):
                    hidden[j] += x * w1[base + 2 * n + k, j]
        bone = row[ROW_BLEN] - row[ROW_BPOS]
        if bone:
            x = bone / 14.0
            for j in range(nh):
                hidden[j] += x * w1[base + 2 * n, j]
        for j in range(nh):
            hidden[nh + j] = b2[j]
        for a in range(nh):
            h = hidden[a]
            if h > 0.0:
                for j in range(nh):
                    hidden[nh + j] += h * w2[a, j]
        z = b3
        for j in range(nh):
            h = hidden[nh + j]
            if h > 0.0:
                z += h * w3[j]
        out[i] = 1.0 / (1.0 + math.exp(-z))
