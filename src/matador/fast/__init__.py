"""Compiled playout kernel (the ``matador[fast]`` extra): whole hands in Numba, in batches.

The pure-Python path stays the reference; the kernel plays exactly the same
hands, move for move, for the same stream keys (:mod:`matador.core.streams`):

* :func:`play_hands` deals and plays ``count`` fresh hands, hand ``i`` on the
  stream ``stream_key(seed, first + i)`` (its deal, then its moves), as
  :func:`matador.core.playout.deal_from_stream` followed by
  :func:`matador.core.playout.random_playout` (random policy) or
  :func:`matador.players.rollout.greedy_rollout` (greedy policy) would;
* :func:`play_out` finishes given states (worlds of a search), each on its own
  stream key, optionally after a first move per state; :func:`play_rows` does
  the same for states already encoded as kernel rows;
* :func:`sample_worlds` draws the worlds of a view from its flat tables
  (:class:`matador.core.sampling.FlatWorlds`), world ``i`` from the stream
  ``keys[i]`` exactly as the pure-Python ``FlatWorlds.world`` does, as kernel
  rows (:mod:`matador.fast.worlds`).

Both return a :class:`Playouts` of numpy arrays. The random policy needs
nothing else; the greedy one carries its weights
(:func:`matador.players.rollout.kernel_policy` builds it from the heuristic).
Compilation is cached on disk: the first call in a fresh environment compiles
for a few seconds (:func:`compile_kernels` does it up front and returns the
time), later processes load the cache.

>>> from matador.core.rules import Rules
>>> if available():
...     out = play_hands(Rules.from_preset("classic"), 2, seed=1, count=1000)
...     assert out.decisions.sum() > 0 and set(out.winner.tolist()) <= {-1, 0, 1}
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from matador.core.errors import MatadorError
from matador.core.rules import Rules
from matador.core.streams import mix64
from matador.fast import layout as L

if TYPE_CHECKING:
    import numpy as np

    from matador.core.sampling import FlatWorlds
    from matador.core.state import HandState

CHUNK = 512
"""The fewest hands a thread gets when a batch is spread across threads (a batch of at most
this many plays on the calling thread alone)."""


class FastUnavailableError(MatadorError):
    """The kernel was asked for but Numba is not installed (``pip install 'matador[fast]'``)."""


def available() -> bool:
    """Whether the kernel can run here (Numba and numpy are importable)."""
    return (importlib.util.find_spec("numba") is not None
            and importlib.util.find_spec("numpy") is not None)


def _kernel() -> Any:
    if not available():
        raise FastUnavailableError(
            "the compiled playout kernel needs Numba: pip install 'matador[fast]'")
    from matador.fast import kernel

    return kernel


@dataclass(frozen=True)
class Policy:
    """How the kernel picks moves: ``random`` (uniform), ``greedy`` or ``table`` (with
    ``epsilon``).

    ``greedy`` is :func:`matador.players.rollout.greedy_rollout`'s policy (the
    mover's hand and the next seat's blocking), ``table`` the one of
    :func:`matador.players.playouts.table_rollout` (every seat's blocking, the
    last matador spent as the ``heuristic`` spends it). ``weights`` are the
    evaluation's weights in the order of :data:`matador.fast.encode.WEIGHT_NAMES`
    (empty for ``random``).
    """

    kind: str = "random"
    epsilon: float = 0.0
    weights: tuple[float, ...] = ()
    gaps: tuple[float, ...] = ()
    """For ``greedy``: P(the next j + 1 choices are greedy) for j = 0, 1, ... (decreasing);
    see :func:`matador.players.rollout.next_gap`."""
    seats: tuple[str, ...] = ()
    """For ``table``: the policy of each seat, ``"table"`` or ``"greedy"`` (the ``greedy``
    bot's choice, :func:`matador.players.playouts.greedy_choice`), as
    :func:`matador.players.playouts.seat_rollout` plays them; empty: ``table`` for every
    seat."""

    def __post_init__(self) -> None:
        if self.kind not in ("random", "greedy", "table"):
            raise ValueError(f"policy {self.kind!r}: expected 'random', 'greedy' or 'table'")
        if self.seats and self.kind != "table":
            raise ValueError(f"a {self.kind} policy plays every seat alike: per-seat policies "
                             "need kind 'table'")
        if len(self.seats) > L.SEATS or any(p not in SEAT_POLICIES for p in self.seats):
            raise ValueError(f"seat policies {self.seats!r}: expected at most {L.SEATS} of "
                             f"{', '.join(map(repr, SEAT_POLICIES))}")
        if self.kind != "random" and len(self.weights) != L.W_SIZE:
            raise ValueError(f"a {self.kind} policy needs {L.W_SIZE} weights, got "
                             f"{len(self.weights)}")
        if self.kind != "random" and not self.gaps:
            raise ValueError(f"a {self.kind} policy needs its gap thresholds "
                             "(matador.players.rollout.kernel_policy builds them)")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"epsilon {self.epsilon!r} is not a probability")


SEAT_POLICIES = {"table": L.SEAT_TABLE, "greedy": L.SEAT_GREEDY}
"""The policies a seat of a ``table`` policy may play (:attr:`Policy.seats`), with their
codes in the kernel."""

RANDOM = Policy()
"""Uniformly random legal moves."""


@dataclass
class Playouts:
    """Finished hands of a batch: one entry (or row) per hand, seats beyond ``players`` cut."""

    winner: np.ndarray
    """The winning seat of each hand, -1 for no winner (R20)."""
    reason: np.ndarray
    """0 when a player went out (R18), 1 when blocked (R19)."""
    points: np.ndarray
    """Points of each seat in the hand (R21 + R22), shape ``(hands, players)``."""
    pips: np.ndarray
    """Pips left in each hand at the end, shape ``(hands, players)``."""
    decisions: np.ndarray
    """Moves made in the kernel per hand (plays, draws, passes; a given first move included)."""
    leader: np.ndarray
    """The seat that opened each hand."""
    moves: np.ndarray | None = field(default=None)
    """With ``record``: the move ids of each hand in order, -1 after its last move."""

    @property
    def total_decisions(self) -> int:
        """All decisions of the batch."""
        return int(self.decisions.sum())


def _result(out: np.ndarray, players: int, records: np.ndarray | None) -> Playouts:
    return Playouts(
        winner=out[:, L.OUT_WINNER],
        reason=out[:, L.OUT_REASON],
        points=out[:, L.OUT_POINTS:L.OUT_POINTS + players],
        pips=out[:, L.OUT_PIPS:L.OUT_PIPS + players],
        decisions=out[:, L.OUT_DECISIONS],
        leader=out[:, L.OUT_LEADER],
        moves=records,
    )


_WEIGHTS: dict[Policy, np.ndarray] = {}
_RULES: dict[tuple[Rules, int], np.ndarray] = {}


def _weights(policy: Policy) -> np.ndarray:
    """The weights row of a policy; a greedy or table one carries after them the table of block
    values, the number of gap thresholds, the thresholds and the seats' policy codes."""
    w = _WEIGHTS.get(policy)
    if w is None:
        import numpy as np

        if policy.kind == "random":
            w = np.zeros(L.W_SIZE, dtype=np.float64)
        else:
            gaps = L.W_SIZE + L.BLOCK_TABLE + 1
            seats = gaps + len(policy.gaps)
            w = np.zeros(seats + L.SEATS, dtype=np.float64)
            w[:L.W_SIZE] = policy.weights
            _kernel().fill_block_table(w)
            w[gaps - 1] = len(policy.gaps)
            w[gaps:seats] = policy.gaps
            for s, name in enumerate(policy.seats):
                w[seats + s] = SEAT_POLICIES[name]
        _WEIGHTS[policy] = w
    return w


def _rules_row(rules: Rules, players: int) -> np.ndarray:
    """The kernel's rules row, built once per rule set and player count (never written to)."""
    r = _RULES.get((rules, players))
    if r is None:
        from matador.fast.encode import rules_row

        if len(_RULES) > 256:
            _RULES.clear()
        r = _RULES[(rules, players)] = rules_row(rules, players)
    return r


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """The threads that play chunks of a batch in parallel (one pool per thread count)."""
    pool = _POOLS.get(threads)
    if pool is None:
        pool = _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="matador-fast")
    return pool


def _run(rows: np.ndarray, keys: np.ndarray, rrow: np.ndarray, policy: Policy, do_deal: bool,
         records: np.ndarray, threads: int) -> np.ndarray:
    import numpy as np

    k = _kernel()
    kind = {"random": L.RANDOM, "greedy": L.GREEDY, "table": L.TABLE}[policy.kind]
    w = _weights(policy)
    out = np.empty((keys.shape[0], L.OUT_SIZE), dtype=np.int64)
    n = keys.shape[0]
    if threads > 1 and n > CHUNK:
        size = max(CHUNK, -(-n // threads))

        def chunk(start: int) -> None:  # the kernel releases the GIL: chunks run side by side
            k._run_range(rows, keys, rrow, w, kind, policy.epsilon, do_deal, records, out, start,
                         min(n, start + size), np.empty(64, dtype=np.int64),
                         np.empty(28, dtype=np.int64), np.zeros(L.ROW_SIZE, dtype=np.int64))

        rest = [_pool(threads - 1).submit(chunk, start) for start in range(size, n, size)]
        chunk(0)  # this thread plays the first chunk
        for future in rest:
            future.result()
    else:
        k.run_serial(rows, keys, rrow, w, kind, policy.epsilon, do_deal, records, out)
    return out


def _records(n: int, record: int) -> np.ndarray:
    import numpy as np

    if record < 0:
        raise ValueError(f"record must be >= 0, got {record}")
    return np.full((n, record), -1, dtype=np.int64)


def play_hands(rules: Rules, players: int, seed: int, count: int, *, first: int = 0,
               policy: Policy = RANDOM, threads: int = 1, record: int = 0) -> Playouts:
    """Deal and play ``count`` hands; hand ``i`` uses the stream ``stream_key(seed, first + i)``.

    ``threads`` > 1 spreads chunks of hands over that many threads (results
    do not depend on it). ``record`` keeps up to that many move ids per hand
    in :attr:`Playouts.moves`.
    """
    import numpy as np

    k = _kernel()
    rrow = _rules_row(rules, players)
    if not rrow[L.R_HAND_SIZE]:
        raise MatadorError(f"rules {rules.preset} cannot deal {players} players "
                           "(players, hand_size, set_aside)")
    if count < 0 or first < 0 or seed < 0:
        raise ValueError("seed, first and count must be >= 0")
    keys = np.empty(count, dtype=np.uint64)
    k.stream_keys(np.uint64(mix64(seed & ((1 << 64) - 1))), first, keys)
    records = _records(count, record)
    out = _run(np.zeros((0, L.ROW_SIZE), dtype=np.int64), keys, rrow, policy, True, records,
               threads)
    return _result(out, players, records if record else None)


def play_out(states: Sequence[HandState], keys: Sequence[int] | np.ndarray,
             policy: Policy = RANDOM, *,
             first_moves: Sequence[int] | None = None, threads: int = 1,
             record: int = 0) -> Playouts:
    """Finish every state (they are not modified), state ``i`` on the stream ``keys[i]``.

    All states share one rule set and player count. With ``first_moves``,
    state ``i`` first plays ``first_moves[i]`` (which must be legal there),
    exactly as ``state.copy().push(m)`` would; the playout follows. Recorded
    moves start with that move.
    """
    import numpy as np

    from matador.fast.encode import state_rows

    if len(keys) != len(states):
        raise ValueError(f"{len(keys)} keys for {len(states)} states")
    if not states:
        return _result(np.zeros((0, L.OUT_SIZE), dtype=np.int64), 0,
                       _records(0, record) if record else None)
    rules, players = states[0].rules, states[0].players
    if any(s.rules != rules or s.players != players for s in states):
        raise ValueError("every state of a batch must have the same rules and player count")
    return play_rows(state_rows(states), rules, players, keys, policy,
                     first_moves=first_moves, threads=threads, record=record)


def play_rows(rows: np.ndarray, rules: Rules, players: int,
              keys: Sequence[int] | np.ndarray, policy: Policy = RANDOM, *,
              first_moves: Sequence[int] | np.ndarray | None = None, threads: int = 1,
              record: int = 0) -> Playouts:
    """:func:`play_out` of states given as kernel rows (``matador.fast.encode.state_rows``,
    or :func:`sample_worlds`); the rows are played in place."""
    import numpy as np

    if len(keys) != rows.shape[0]:
        raise ValueError(f"{len(keys)} keys for {rows.shape[0]} states")
    key_array = keys if isinstance(keys, np.ndarray) else np.array(
        [k & ((1 << 64) - 1) for k in keys], dtype=np.uint64)
    records = _records(rows.shape[0], record)
    rrow = _rules_row(rules, players)
    if first_moves is not None:
        if len(first_moves) != rows.shape[0]:
            raise ValueError(f"{len(first_moves)} first moves for {rows.shape[0]} states")
        _kernel().push_moves(rows, rrow, np.asarray(first_moves, dtype=np.int64), records)
    out = _run(rows, key_array, rrow, policy, False, records, threads)
    return _result(out, players, records if record else None)


def push_rows(rows: np.ndarray, rules: Rules, players: int,
              moves: Sequence[int] | np.ndarray) -> None:
    """Play ``moves[i]`` (legal there) in row ``i`` of ``rows``, in place, as
    ``HandState.push`` would (the first move of :func:`play_rows`)."""
    import numpy as np

    if len(moves) != rows.shape[0]:
        raise ValueError(f"{len(moves)} moves for {rows.shape[0]} states")
    _kernel().push_moves(rows, _rules_row(rules, players), np.asarray(moves, dtype=np.int64),
                         np.zeros((rows.shape[0], 0), dtype=np.int64))


def net_values(rows: np.ndarray, seat: int, weights: Mapping[str, np.ndarray]) -> np.ndarray:
    """The chance to win for ``seat`` of the value network with ``weights`` in each row
    (:class:`matador.players.valuenet.ValueNet`'s ``w``: ``w1`` has
    :func:`~matador.fast.layout.net_features` rows for the rows' number of players, all the
    same; 0.5 where the hand is over), computed in the kernel: the same numbers as
    ``net(features(state, seat))`` up to rounding."""
    import numpy as np

    w = weights
    if rows.shape[0]:
        players = rows[:, L.ROW_PLAYERS]
        n = int(players.max())
        if int(players.min()) != n:
            raise ValueError("the rows are positions of different numbers of players")
        if w["w1"].shape[0] != L.net_features(n):
            raise ValueError(f"value network weights take {w['w1'].shape[0]} features, "
                             f"the kernel computes {L.net_features(n)} for {n} players")
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at a table of {n}")
    hidden = w["b1"].shape[0]
    out = np.empty(rows.shape[0], dtype=np.float64)
    _kernel().net_values(rows, seat, w["w1"], w["b1"], w["w2"], w["b2"],
                         np.ascontiguousarray(w["w3"][:, 0]), float(w["b3"][0]),
                         np.empty(2 * hidden, dtype=np.float64), out)
    return out


class WorldTables:
    """:class:`~matador.core.sampling.FlatWorlds` as the arrays of
    :func:`matador.fast.worlds.sample_rows` (build with :func:`world_tables`)."""

    def __init__(self, flat: FlatWorlds) -> None:
        import numpy as np

        from matador.core.sampling import COMB, FLAT_ATTEMPTS
        from matador.core.streams import Stream
        from matador.core.tables import tables_for
        from matador.fast import worlds as W
        from matador.fast.encode import state_rows

        view = flat.view
        world = flat.world(Stream(0))
        if world is None:
            raise MatadorError("no world of the view found: it has no flat tables")
        self.template = state_rows([world])[0]
        """The public part of every world's row (hands and boneyard are overwritten)."""
        seats: list[list[int]] = []
        ev: list[tuple[int, int, int]] = []
        allowed: list[int] = []
        nk: list[int] = []
        held: list[tuple[int, int]] = []
        held_cum: list[float] = []
        var_first: list[int] = []
        for variant in flat.variants:
            var_first.append(len(seats))
            for seat in variant:
                rec = [0] * W.S_SIZE
                rec[W.S_SEAT] = seat.seat
                rec[W.S_INIT_ALLOWED] = seat.init_allowed
                rec[W.S_FORCED] = seat.forced
                rec[W.S_N_INIT] = seat.n_init
                rec[W.S_EV_FIRST] = len(ev)
                rec[W.S_EV_LEN] = len(seat.ev_kind)
                rec[W.S_DRAW_FIRST] = len(allowed)
                rec[W.S_N_DRAWS] = len(seat.draw_allowed)
                rec[W.S_HELD_FIRST] = len(held)
                rec[W.S_HELD_LEN] = len(seat.held)
                seats.append(rec)
                ev.extend(zip(seat.ev_kind, seat.ev_k, seat.ev_tile, strict=True))
                allowed.extend(seat.draw_allowed)
                nk.extend(seat.nk)
                held.extend(zip(seat.held, seat.roots, strict=True))
                held_cum.extend(seat.held_cum)
        nodes = flat.nodes
        played = [0] * 4
        for s in range(view.players):
            for e in view.events[s]:
                if e.kind == "play":
                    played[s] |= 1 << e.tile
        left, right = view.left, view.right
        playable = tables_for(view.rules).playable_against[left][right] if left >= 0 else 0
        scalars = [0] * W.V_SIZE
        scalars[W.V_POOL] = flat.pool
        scalars[W.V_OTHERS] = len(flat.others)
        scalars[W.V_SET_ASIDE] = view.set_aside_size
        scalars[W.V_CHECK_BLOCK] = int(bool(view.moves) and view.boneyard_size == 0
                                       and not view.hand_mask & playable)
        scalars[W.V_PLAYABLE] = playable
        scalars[W.V_ATTEMPTS] = FLAT_ATTEMPTS

        def ints(values: Sequence[Any], width: int = 0) -> np.ndarray:
            a = np.array(values, dtype=np.int64)
            return a.reshape(-1, width) if width else a

        self.args = (ints(scalars), np.array(flat.var_cum, dtype=np.float64), ints(var_first),
                     ints(seats, W.S_SIZE), ints(ev, 3), ints(allowed), ints(nk),
                     ints(held, 2), np.array(held_cum, dtype=np.float64),
                     ints(list(zip(nodes.first, nodes.count, strict=True)), 2),
                     np.array(nodes.cum, dtype=np.float64),
                     ints(list(zip(nodes.next, nodes.choice, strict=True)), 2),
                     np.array(COMB, dtype=np.float64), ints(played))
        self.rules = view.rules
        self.players = view.players


_TABLES: WeakKeyDictionary[FlatWorlds, WorldTables] = WeakKeyDictionary()


def world_tables(flat: FlatWorlds) -> WorldTables:
    """The kernel's tables of ``flat`` (built once, kept as long as ``flat`` lives)."""
    tables = _TABLES.get(flat)
    if tables is None:
        tables = _TABLES[flat] = WorldTables(flat)
    return tables


def sample_worlds(flat: FlatWorlds, keys: Sequence[int] | np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """World ``i`` of the view of ``flat`` drawn from the stream ``keys[i]``, as kernel rows.

    The same worlds as ``flat.world(Stream(keys[i]))`` (``matador.core.sampling``)
    at their current position; ``ok[i]`` is False where that gives ``None``
    (no candidate accepted). Returns ``(rows, ok)``.
    """
    import numpy as np

    from matador.fast.worlds import sample_rows

    _kernel()
    tables = world_tables(flat)
    key_array = keys if isinstance(keys, np.ndarray) else np.array(
        [k & ((1 << 64) - 1) for k in keys], dtype=np.uint64)
    rows = np.empty((key_array.shape[0], L.ROW_SIZE), dtype=np.int64)
    ok = np.empty(key_array.shape[0], dtype=np.int64)
    sample_rows(key_array, tables.template, *tables.args, rows, ok)
    return rows, ok.astype(bool)


def stream_keys(seed: int, *indices: Sequence[int] | np.ndarray) -> np.ndarray:
    """``stream_key(seed, a[i], b[i], ...)`` for every ``i``, computed in the kernel.

    Each of ``indices`` is a sequence of indices (>= 0) of the same length.
    """
    import numpy as np

    k = _kernel()
    arrays = [np.asarray(ix, dtype=np.int64) for ix in indices]
    if not arrays:
        raise ValueError("stream_keys needs at least one index sequence")
    if any(a.shape != arrays[0].shape or a.ndim != 1 for a in arrays):
        raise ValueError("index sequences must be one-dimensional and of the same length")
    if seed < 0 or any(a.size and int(a.min()) < 0 for a in arrays):
        raise ValueError("stream seeds and indices are >= 0")
    keys = np.full(arrays[0].shape[0], mix64(seed & ((1 << 64) - 1)), dtype=np.uint64)
    for a in arrays:
        k.fold_keys(keys, a)
    return keys


def compile_kernels() -> float:
    """Compile (or load from the disk cache) every kernel entry point; the seconds it took."""
    import numpy as np

    start = time.perf_counter()
    k = _kernel()
    rules = Rules.from_preset("classic")
    from matador.fast.encode import rules_row

    rrow = rules_row(rules, 2)
    keys = np.zeros(1, dtype=np.uint64)
    k.stream_keys(np.uint64(1), 0, keys)
    w = np.zeros(L.W_SIZE, dtype=np.float64)
    rows = np.zeros((0, L.ROW_SIZE), dtype=np.int64)
    rec = np.zeros((1, 0), dtype=np.int64)
    out = np.zeros((1, L.OUT_SIZE), dtype=np.int64)
    k.run_serial(rows, keys, rrow, w, L.RANDOM, 0.0, True, rec, out)
    k.push_moves(rows, rrow, np.zeros(0, dtype=np.int64), rec[:0])
    k.fold_keys(keys, np.zeros(1, dtype=np.int64))
    from matador.core.sampling import flat_worlds
    from matador.core.state import HandState
    from matador.core.view import PlayerView

    state = HandState.new(rules, 2, Random(0))
    flat = flat_worlds(PlayerView.of(state, state.to_move))
    if flat is not None:
        rows, _ = sample_worlds(flat, [1])
        shapes = {"w1": (L.NET_FEATURES, 1), "b1": (1,), "w2": (1, 1), "b2": (1,),
                  "w3": (1, 1), "b3": (1,)}
        net_values(rows, 0, {k: np.zeros(shape, np.float32) for k, shape in shapes.items()})
    return time.perf_counter() - start


__all__ = ["CHUNK", "RANDOM", "SEAT_POLICIES", "FastUnavailableError", "Playouts", "Policy",
           "WorldTables", "available", "compile_kernels", "net_values", "play_hands", "play_out",
           "play_rows", "push_rows", "sample_worlds", "stream_keys", "world_tables"]
