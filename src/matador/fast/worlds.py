"""The flat world sampler in compiled code: :class:`matador.core.sampling.FlatWorlds`, draw
for draw.

:func:`sample_rows` draws world ``i`` of a batch from the stream ``keys[i]``
exactly as ``FlatWorlds.world(Stream(keys[i]))`` does in pure Python (the
same tables, the same draws, in the same order), and writes the state it
leads to *now* as a kernel row: the public part from a template row, each
other seat's hand (its dealt and drawn tiles less those it played) and the
boneyard's remaining tiles. The pure path replays the deal through the
engine; here a candidate is rejected only when the hand would be blocked
now (R19), which is the one way a candidate the tables accept can fail that
replay (a block found earlier would still hold now: the hands and the ends
only change by plays, and a play is a legal move the block would forbid).
The tests check that both paths give the same worlds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from matador.core.sampling import DRAW_EVENT
from matador.fast.kernel import below, lowest_bit, nth_bit, popcount, unit
from matador.fast.layout import ROW_BLEN, ROW_BONE, ROW_HANDS, ROW_PLAYERS

# Columns of the seat table.
S_SEAT = 0
S_INIT_ALLOWED = 1
S_FORCED = 2
S_N_INIT = 3
S_EV_FIRST = 4
S_EV_LEN = 5
S_DRAW_FIRST = 6
S_N_DRAWS = 7
S_HELD_FIRST = 8
S_HELD_LEN = 9
S_SIZE = 10

# Entries of the view's scalars.
V_POOL = 0
V_OTHERS = 1
V_SET_ASIDE = 2
V_CHECK_BLOCK = 3  # 1: reject a world blocked now (R19)
V_PLAYABLE = 4  # tiles playable against the ends now
V_ATTEMPTS = 5
V_SIZE = 6


@njit(cache=True, _nrt=False)
def _seat(row: np.ndarray, key: np.uint64, c: int, rec: np.ndarray, pool: int,
          ev: np.ndarray, draw_allowed: np.ndarray, nk: np.ndarray, held: np.ndarray,
          held_cum: np.ndarray, nodes: np.ndarray, step_cum: np.ndarray, steps: np.ndarray,
          comb: np.ndarray, future: np.ndarray, slots: np.ndarray, tiles: np.ndarray,
          played: np.ndarray) -> tuple[int, int]:
    """One seat's configuration (``FlatWorlds._seat``): its tiles, as a mask (-1: rejected),
    and the stream's counter after it."""
    h0 = rec[S_HELD_FIRST]
    h = 0
    if rec[S_HELD_LEN] > 1:
        c += 1
        u = unit(key, c)
        while held_cum[h0 + h] <= u:
            h += 1
    n_held = held[h0 + h, 0]
    node = held[h0 + h, 1]
    d0 = rec[S_DRAW_FIRST]
    n_slots = rec[S_N_DRAWS]
    for q in range(n_slots):
        future[q] = -1
        slots[q] = -1
    n_hs = 0  # held draw slots, in order: tiles[28 + i]
    dealt = 0
    drawn = 0
    for e in range(rec[S_EV_FIRST], rec[S_EV_FIRST] + rec[S_EV_LEN]):
        step = nodes[node, 0]
        if nodes[node, 1] > 1:
            c += 1
            u = unit(key, c)
            while step_cum[step] <= u:
                step += 1
        choice = steps[step, 1]
        node = steps[step, 0]
        k = ev[e, 1]
        if ev[e, 0] == DRAW_EVENT:
            if choice < 0:
                slots[n_hs] = k
                n_hs += 1
            else:
                future[k] = choice
            continue
        tile = ev[e, 2]
        if choice < 0:
            dealt |= 1 << tile
        else:
            same = 0
            for q in range(n_slots):
                if future[q] == choice:
                    same += 1
            r = 0
            if same > 1:
                c += 1
                r = below(key, c, same)
            for q in range(n_slots):
                if future[q] == choice:
                    if r == 0:
                        drawn |= 1 << tile
                        future[q] = -1
                        break
                    r -= 1
        for q in range(n_slots):
            if future[q] > 0:
                future[q] >>= 1
    # Fill: the dealt tiles still held, then each held draw slot.
    forced = rec[S_FORCED]
    n_init = rec[S_N_INIT]
    if forced >= 0:
        bound = comb[n_init - 1, n_held - 1] if n_held and n_init else 0.0
    else:
        bound = comb[n_init, n_held]
    avail = rec[S_INIT_ALLOWED] & pool
    n_avail = popcount(avail)
    if forced >= 0 and not (pool >> forced) & 1:
        actual = 0.0
    elif forced >= 0:
        actual = comb[n_avail - 1, n_held - 1] if n_held and n_avail else 0.0
    else:
        actual = comb[n_avail, n_held]
    for i in range(n_hs):
        k = slots[i]
        bound *= nk[d0 + k] - n_held - i
        actual *= max(0, popcount(draw_allowed[d0 + k] & pool) - n_held - i)
    if actual == 0.0:
        return -1, c
    if actual < bound:
        c += 1
        if unit(key, c) * bound >= actual:
            return -1, c
    need = n_held
    if forced >= 0:
        avail &= ~(1 << forced)
        dealt |= 1 << forced
        need -= 1
    n = 0
    while avail:
        tiles[n] = lowest_bit(avail)
        avail &= avail - 1
        n += 1
    for i in range(need):
        c += 1
        j = i + below(key, c, n - i)
        t = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = t
        dealt |= 1 << tiles[i]
    taken = dealt
    for i in range(n_hs):
        left = draw_allowed[d0 + slots[i]] & pool & ~taken
        c += 1
        t = nth_bit(left, below(key, c, popcount(left)))
        taken |= 1 << t
    seat = rec[S_SEAT]
    mine = taken | drawn
    row[ROW_HANDS + seat] = mine & ~played[seat]
    return mine, c


@njit(cache=True)
def sample_rows(keys: np.ndarray, template: np.ndarray, scalars: np.ndarray,
                var_cum: np.ndarray, var_first: np.ndarray, seats: np.ndarray, ev: np.ndarray,
                draw_allowed: np.ndarray, nk: np.ndarray, held: np.ndarray,
                held_cum: np.ndarray, nodes: np.ndarray, step_cum: np.ndarray,
                steps: np.ndarray, comb: np.ndarray, played: np.ndarray, rows: np.ndarray,
                ok: np.ndarray) -> None:
    """World ``i`` from the stream ``keys[i]`` into ``rows[i]``; ``ok[i]`` is 0 when no
    candidate was accepted in ``scalars[V_ATTEMPTS]`` tries. (Tables: see
    :func:`matador.fast.sample_worlds`.)"""
    _sample(keys, template, scalars, var_cum, var_first, seats, ev, draw_allowed, nk, held,
            held_cum, nodes, step_cum, steps, comb, played, rows, ok,
            np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64),
            np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64))


@njit(cache=True, _nrt=False)
def _sample(keys: np.ndarray, template: np.ndarray, scalars: np.ndarray, var_cum: np.ndarray,
            var_first: np.ndarray, seats: np.ndarray, ev: np.ndarray, draw_allowed: np.ndarray,
            nk: np.ndarray, held: np.ndarray, held_cum: np.ndarray, nodes: np.ndarray,
            step_cum: np.ndarray, steps: np.ndarray, comb: np.ndarray, played: np.ndarray,
            rows: np.ndarray, ok: np.ndarray, future: np.ndarray, slots: np.ndarray,
            tiles: np.ndarray, rest: np.ndarray) -> None:
    """:func:`sample_rows` with its scratch arrays given (no reference counting inside: a
    function that allocates nothing is compiled without it, several times faster)."""
    n_others = scalars[V_OTHERS]
    n_var = var_cum.shape[0]
    players = template[ROW_PLAYERS]
    for i in range(keys.shape[0]):
        key = keys[i]
        c = 0
        row = rows[i]
        ok[i] = 0
        for _ in range(scalars[V_ATTEMPTS]):
            for j in range(template.shape[0]):
                row[j] = template[j]
            v = 0
            if n_var > 1:
                c += 1
                u = unit(key, c)
                while var_cum[v] <= u:
                    v += 1
            pool = scalars[V_POOL]
            good = True
            for o in range(n_others):
                got, c = _seat(row, key, c, seats[var_first[v] + o], pool, ev, draw_allowed,
                               nk, held, held_cum, nodes, step_cum, steps, comb, future,
                               slots, tiles, played)
                if got < 0:
                    good = False
                    break
                pool &= ~got
            if not good:
                continue
            n = 0
            while pool:
                rest[n] = lowest_bit(pool)
                pool &= pool - 1
                n += 1
            for j in range(n - 1, 0, -1):
                c += 1
                k = below(key, c, j + 1)
                t = rest[j]
                rest[j] = rest[k]
                rest[k] = t
            split = n - scalars[V_SET_ASIDE]
            row[ROW_BLEN] = split
            for j in range(split):
                row[ROW_BONE + j] = rest[j]
            if scalars[V_CHECK_BLOCK]:
                playable = scalars[V_PLAYABLE]
                blocked = True
                for s in range(players):
                    if row[ROW_HANDS + s] & playable:
                        blocked = False
                        break
                if blocked:
                    continue
            ok[i] = 1
            break
