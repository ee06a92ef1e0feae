"""Random-playout throughput of the Matador engine, and of two peer domino engines.

What it measures (every figure is a rate over wall-clock time, dealing included):

* For every preset in ``matador.core.rules.PRESETS`` and every player count the
  preset allows: random playouts, each a freshly dealt hand
  (``HandState.new``) played to its end by picking a uniformly random legal move
  id (``state.legal_move_ids()`` + ``state.push``) with a ``random.Random``
  seeded from ``--seed``. Reported: decisions per second (a decision is any
  move: plays, draws and passes), hands per second and mean decisions per hand.
* State copies per second: ``HandState.copy`` on a mid-hand state of that
  preset and player count.
* The "fast path" column: if ``matador.core.playout.random_playout(state, stream)``
  exists (it plays the hand out with uniformly random legal moves drawn from a
  counter-based :class:`~matador.core.streams.Stream` and returns the number of
  decisions), hands dealt by ``deal_from_stream`` and played through it.
  Without that module the column is left out.
* The compiled kernel (``matador[fast]``, Numba), side by side with the pure
  path: random playouts on one thread ("kernel 1 core") and on two threads
  ("kernel 2 cores"), greedy playouts (the search bots' rollout policy,
  epsilon 0.1) on one thread, against the pure-Python greedy rollout
  (``greedy_rollout``) of the same hands. Each kernel run plays blocks of
  fresh hands (``fast.play_hands``, dealing included) until its time is up.
  The first call's compile time is measured in a fresh process with an empty
  Numba cache (``--compile-time``, on by default), and the time to load the
  cached kernel in another fresh process. Targets: >= 60 M random decisions/s
  on both cores (classic, 2 players), every preset and player count >= 25 M
  random decisions/s per core, greedy >= 10 M decisions/s per core.
* Peers, when installed: OpenSpiel's ``python_block_dominoes`` (2 players,
  chance nodes resolved by sampling ``chance_outcomes``, only player decisions
  counted) and abw333's ``dominoes`` package (a 4-seat, 2-team game; passes are
  made automatically by that package and so are not counted as moves). Their
  moves per second are compared with ours: OpenSpiel against classic with 2
  players, abw333 against classic with 2 and with 4 players. Targets: at least
  15x OpenSpiel, 3x abw333 and 200,000 state copies per second.

Every measurement gets ``--seconds`` in total, split into ``--repeat`` runs
(default 3) taken round-robin over all measurements (every other round in
reverse order), so that a noisy moment hits one run of several measurements
rather than every run of one; a rate is the best of its runs. The peers are
timed right next to the classic runs they are compared with, and a ratio is the
median over rounds of the ratio of those side-by-side runs. Each run restarts
its generator from ``--seed``. Every measurement first gets a short untimed
warm-up run (rule tables and move-id caches fill, as they would in a long
search).

Run it from the repository root::

    python benchmarks/playout.py                        # everything, 2 s per figure
    python benchmarks/playout.py --seconds 0.5 --presets classic six
    python benchmarks/playout.py --no-peers --json figures.json
    python benchmarks/playout.py --no-peers --no-compile-time --seconds 1

Peers: ``pip install open_spiel dominoes``; kernel: ``pip install 'matador[fast]'``.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from matador.core.errors import RulesError
from matador.core.playout import deal_from_stream
from matador.core.rules import PRESETS, Rules, resolve_preset
from matador.core.state import HandState
from matador.core.streams import Stream, stream_key
from matador.players.rollout import greedy_rollout, kernel_policy

TARGET_VS_OPENSPIEL = 15.0
TARGET_VS_ABW333 = 3.0
TARGET_COPIES = 200_000.0
TARGET_KERNEL_BOTH = 60e6
TARGET_KERNEL_CORE = 25e6
TARGET_KERNEL_GREEDY = 10e6
GREEDY_EPSILON = 0.1
KERNEL_BLOCK = 20_000
PEER_HINT = "not installed (pip install open_spiel dominoes)"

FastPath = Callable[[HandState, Stream], int]


@dataclass
class Run:
    """One timed run: how many operations (decisions or copies) and hands in how long."""

    ops: int
    hands: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.ops / self.seconds if self.seconds > 0 else 0.0

    @property
    def hand_rate(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Measurement:
    """A named measurement, run ``repeat`` times; figures come from its best run."""

    name: str
    fn: Callable[[float], Run]
    runs: list[Run] = field(default_factory=list)

    def best(self) -> Run:
        return max(self.runs, key=lambda r: r.rate)

    def figures(self) -> dict[str, float]:
        best = self.best()
        ops = sum(r.ops for r in self.runs)
        hands = sum(r.hands for r in self.runs)
        return {
            "per_second": best.rate,
            "hands_per_second": best.hand_rate,
            "mean_per_hand": ops / hands if hands else 0.0,
            "runs_per_second": [r.rate for r in self.runs],
        }


# -- our engine ------------------------------------------------------------------


def playout_loop(rules: Rules, players: int, seed: int, seconds: float) -> Run:
    """Deal and play random hands with ``legal_move_ids`` + ``push`` for ``seconds``."""
    rng = random.Random(seed)
    choice = rng.choice
    new = HandState.new
    clock = time.perf_counter
    hands = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = new(rules, players, rng)
        legal = state.legal_move_ids
        push = state.push
        n = 0
        while state.outcome is None:
            push(choice(legal()))
            n += 1
        decisions += n
        hands += 1
        if clock() >= deadline:
            break
    return Run(decisions, hands, clock() - start)


def playout_fast(fast: FastPath, rules: Rules, players: int, seed: int, seconds: float) -> Run:
    """Deal hands from counter-based streams and play them out with the fast path."""
    clock = time.perf_counter
    hands = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        stream = Stream(stream_key(seed, hands))
        decisions += fast(HandState(rules, deal_from_stream(rules, players, stream)), stream)
        hands += 1
        if clock() >= deadline:
            break
    return Run(decisions, hands, clock() - start)


def greedy_python(rules: Rules, players: int, seed: int, seconds: float) -> Run:
    """The pure-Python greedy rollout (epsilon 0.1) of the hands the kernel's greedy run plays."""
    clock = time.perf_counter
    hands = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        stream = Stream(stream_key(seed, hands))
        state = HandState(rules, deal_from_stream(rules, players, stream))
        greedy_rollout(state, stream, GREEDY_EPSILON)
        decisions += state.ply
        hands += 1
        if clock() >= deadline:
            break
    return Run(decisions, hands, clock() - start)


def kernel_run(fast: Any, rules: Rules, players: int, seed: int, seconds: float,
               threads: int, greedy: bool) -> Run:
    """Blocks of fresh hands through ``fast.play_hands`` until ``seconds`` are spent."""
    policy = kernel_policy(GREEDY_EPSILON) if greedy else fast.RANDOM
    block = KERNEL_BLOCK // (10 if greedy else 1)
    clock = time.perf_counter
    hands = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        out = fast.play_hands(rules, players, seed, block, first=hands, policy=policy,
                              threads=threads)
        decisions += out.total_decisions
        hands += block
        if clock() >= deadline:
            break
    return Run(decisions, hands, clock() - start)


def load_kernel() -> tuple[Any, str]:
    """``matador.fast`` if Numba is installed, and a note."""
    try:
        from matador import fast
    except ImportError as exc:  # pragma: no cover - the package is part of matador
        return None, f"matador.fast failed to import ({exc})"
    if not fast.available():
        return None, "kernel: Numba not installed (pip install 'matador[fast]'): columns skipped"
    import numba

    return fast, f"kernel: matador.fast with Numba {numba.__version__}"


COMPILE_PROBE = "import time; t = time.perf_counter(); from matador import fast; " \
    "fast.compile_kernels(); print(time.perf_counter() - t)"


def compile_times() -> dict[str, float | str]:
    """Seconds to the first kernel call in a fresh process: empty cache, then cached."""
    out: dict[str, float | str] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for name in ("cold", "cached"):
            proc = subprocess.run([sys.executable, "-c", COMPILE_PROBE], env=env,
                                  capture_output=True, text=True, check=False)
            if proc.returncode:
                out[name] = f"failed: {proc.stderr.strip().splitlines()[-1:]}"
                break
            out[name] = float(proc.stdout.strip())
    return out


def mid_hand_state(rules: Rules, players: int, seed: int) -> HandState:
    """A state about halfway through a random hand (replayed from a random playout)."""
    rng = random.Random(seed)
    for _ in range(100):
        state = HandState.new(rules, players, rng)
        probe = state.copy()
        moves: list[int] = []
        while probe.outcome is None:
            m = rng.choice(probe.legal_move_ids())
            probe.push(m)
            moves.append(m)
        if len(moves) >= 4:
            break
    for m in moves[: len(moves) // 2]:
        state.push(m)
    return state


def copies(state: HandState, seconds: float, batch: int = 1000) -> Run:
    """Call ``state.copy()`` in batches for ``seconds``."""
    copy = state.copy
    repeat = itertools.repeat
    clock = time.perf_counter
    n = 0
    start = clock()
    deadline = start + seconds
    while True:
        for _ in repeat(None, batch):
            copy()
        n += batch
        if clock() >= deadline:
            break
    return Run(n, 0, clock() - start)


def load_fast_path() -> tuple[FastPath | None, str]:
    """``matador.core.playout.random_playout`` if it exists, and a note saying what was found."""
    try:
        module = importlib.import_module("matador.core.playout")
    except ModuleNotFoundError as exc:
        if exc.name == "matador.core.playout":
            return None, "matador.core.playout not found: fast path column skipped"
        return None, f"matador.core.playout failed to import ({exc}): fast path skipped"
    except Exception as exc:
        return None, f"matador.core.playout failed to import ({exc!r}): fast path skipped"
    fn = getattr(module, "random_playout", None)
    if fn is None or not callable(fn):
        return None, "matador.core.playout has no random_playout: fast path column skipped"
    return fn, "matador.core.playout.random_playout found: timed as the fast path"


def check_fast_path(fast: FastPath, rules: Rules, players: int, seed: int) -> str | None:
    """Play one hand with the fast path; a problem description, or None if it looks right."""
    stream = Stream(stream_key(seed, 0))
    state = HandState(rules, deal_from_stream(rules, players, stream))
    try:
        n = fast(state, stream)
    except Exception as exc:
        return f"raised {exc!r}"
    if not isinstance(n, int):
        return f"returned {n!r}, not an int"
    if state.outcome is None:
        return "left the hand unfinished"
    if n != state.ply:
        return f"returned {n} decisions but the state shows {state.ply} moves"
    return None


# -- peers -----------------------------------------------------------------------


def load_openspiel() -> tuple[Any, str]:
    """The ``python_block_dominoes`` game, or None and why not."""
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)
    except ImportError:
        return None, PEER_HINT
    try:
        return pyspiel.load_game("python_block_dominoes"), "python_block_dominoes"
    except Exception as exc:
        return None, f"failed to load python_block_dominoes: {exc!r}"


def openspiel_playouts(game: Any, seed: int, seconds: float) -> Run:
    """Random playouts of an OpenSpiel game; chance nodes sampled, player decisions counted."""
    rng = random.Random(seed)
    choice = rng.choice
    choices = rng.choices
    clock = time.perf_counter
    hands = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(actions, probs)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        hands += 1
        if clock() >= deadline:
            break
    return Run(decisions, hands, clock() - start)


def load_abw333() -> tuple[Any, str]:
    """abw333's ``dominoes`` module, or None and why not."""
    try:
        import dominoes
    except ImportError:
        return None, PEER_HINT
    if not hasattr(dominoes, "Game"):
        return None, "an unrelated 'dominoes' module is installed (no dominoes.Game)"
    return dominoes, "dominoes " + str(getattr(dominoes, "__version__", ""))


def abw333_playouts(dominoes: Any, seed: int, seconds: float) -> Run:
    """Random games of abw333's ``dominoes`` (it deals with the global ``random``: seeded here)."""
    random.seed(seed)
    rng = random.Random(seed)
    choice = rng.choice
    new = dominoes.Game.new
    clock = time.perf_counter
    hands = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        game = new()
        while game.result is None:
            game.make_move(*choice(game.valid_moves))
            decisions += 1
        hands += 1
        if clock() >= deadline:
            break
    return Run(decisions, hands, clock() - start)


# -- driver ----------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "cpu_count": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg")
        else None,
    }


def parse_preset(name: str) -> list[str]:
    out = []
    for part in name.split(","):
        if not part.strip():
            continue
        try:
            out.append(resolve_preset(part))
        except RulesError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return out


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Random-playout benchmark of the Matador engine against peer engines.",
    )
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="total time per measurement, split over --repeat runs (default 2.0)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per measurement; the best counts (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--presets", nargs="+", type=parse_preset, metavar="PRESET",
                        help=f"presets to time (default all: {' '.join(PRESETS)})")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    parser.add_argument("--no-peers", action="store_true", help="skip OpenSpiel and abw333")
    parser.add_argument("--no-kernel", action="store_true",
                        help="skip the compiled kernel's columns even if Numba is installed")
    parser.add_argument("--no-compile-time", action="store_true",
                        help="skip timing the kernel's compilation in fresh processes")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.presets is None:
        args.presets = list(PRESETS)
    else:
        flat = [p for group in args.presets for p in group]
        args.presets = [p for p in PRESETS if p in flat]  # RULES.md order, no duplicates
        if not args.presets:
            parser.error("--presets names no preset")
    return args


def fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def fmt_ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}x"


def verdict(value: float | None, target: float) -> str:
    if value is None:
        return "n/a"
    return "MET" if value >= target else "NOT MET"


def run_benchmarks(args: argparse.Namespace) -> dict[str, Any]:
    seed = args.seed
    machine = machine_info()
    fast, fast_note = load_fast_path()
    kernel, kernel_note = (None, "kernel: skipped (--no-kernel)") if args.no_kernel \
        else load_kernel()
    compile_note: dict[str, float | str] = {}
    if kernel is not None:
        if not args.no_compile_time:
            print("timing the kernel's compilation in fresh processes...", file=sys.stderr,
                  flush=True)
            compile_note = compile_times()
        kernel.compile_kernels()
    rules_of = {p: Rules.from_preset(p) for p in args.presets}
    configs = [
        (preset, n)
        for preset, rules in rules_of.items()
        for n in range(rules.players[0], rules.players[1] + 1)
    ]

    if fast is not None:
        problem = check_fast_path(fast, rules_of[configs[0][0]], configs[0][1], seed)
        if problem is not None:
            fast_note = f"matador.core.playout.random_playout {problem}: fast path skipped"
            fast = None

    measurements: dict[str, Measurement] = {}

    def add(name: str, fn: Callable[[float], Run]) -> None:
        measurements[name] = Measurement(name, fn)

    for preset, n in configs:
        rules = rules_of[preset]
        add(f"loop/{preset}/{n}", lambda s, r=rules, n=n: playout_loop(r, n, seed, s))
        if fast is not None:
            add(f"fast/{preset}/{n}",
                lambda s, f=fast, r=rules, n=n: playout_fast(f, r, n, seed, s))
        state = mid_hand_state(rules, n, seed)
        add(f"copy/{preset}/{n}", lambda s, st=state: copies(st, s))
        if kernel is not None:
            add(f"k1/{preset}/{n}",
                lambda s, r=rules, n=n: kernel_run(kernel, r, n, seed, s, 1, False))
            add(f"k2/{preset}/{n}",
                lambda s, r=rules, n=n: kernel_run(kernel, r, n, seed, s, 2, False))
            add(f"kg/{preset}/{n}",
                lambda s, r=rules, n=n: kernel_run(kernel, r, n, seed, s, 1, True))
            add(f"pg/{preset}/{n}", lambda s, r=rules, n=n: greedy_python(r, n, seed, s))

    peers: dict[str, dict[str, Any]] = {}
    if args.no_peers:
        peers["openspiel"] = {"installed": None, "note": "skipped (--no-peers)"}
        peers["abw333"] = {"installed": None, "note": "skipped (--no-peers)"}
    else:
        game, note = load_openspiel()
        peers["openspiel"] = {"installed": game is not None, "note": note}
        if game is not None:
            add("peer/openspiel", lambda s, g=game: openspiel_playouts(g, seed, s))
        dom, note = load_abw333()
        peers["abw333"] = {"installed": dom is not None, "note": note}
        if dom is not None:
            add("peer/abw333", lambda s, d=dom: abw333_playouts(d, seed, s))

    per_run = args.seconds / args.repeat
    total = len(measurements) * (args.seconds + min(0.2, per_run / 2))
    print(f"timing {len(measurements)} measurements x {args.repeat} runs of {per_run:.2f} s "
          f"(about {total:.0f} s)...", file=sys.stderr, flush=True)
    warm_up = min(0.2, per_run / 2)
    for m in measurements.values():  # fill rule tables and caches, as a long run would
        m.fn(warm_up)
    # Peers sit next to the classic runs they are compared with, and every other round
    # goes backwards, so a ratio compares runs taken moments apart.
    order = sorted(measurements.values(), key=lambda m: (
        0 if m.name.startswith(("loop/classic/", "fast/classic/")) else
        1 if m.name.startswith("peer/") else 2))
    for i in range(args.repeat):
        for m in order if i % 2 == 0 else order[::-1]:
            m.runs.append(m.fn(per_run))

    def figures(name: str) -> dict[str, float] | None:
        m = measurements.get(name)
        return m.figures() if m else None

    ours: list[dict[str, Any]] = []
    for preset, n in configs:
        loop = figures(f"loop/{preset}/{n}")
        assert loop is not None
        cp = figures(f"copy/{preset}/{n}")
        assert cp is not None
        fp = figures(f"fast/{preset}/{n}")
        k1, k2, kg, pg = (figures(f"{k}/{preset}/{n}") for k in ("k1", "k2", "kg", "pg"))
        ours.append({
            "preset": preset,
            "players": n,
            "decisions_per_second": loop["per_second"],
            "hands_per_second": loop["hands_per_second"],
            "mean_decisions_per_hand": loop["mean_per_hand"],
            "copies_per_second": cp["per_second"],
            "runs_decisions_per_second": loop["runs_per_second"],
            "runs_copies_per_second": cp["runs_per_second"],
            "fast_path": None if fp is None else {
                "decisions_per_second": fp["per_second"],
                "hands_per_second": fp["hands_per_second"],
                "mean_decisions_per_hand": fp["mean_per_hand"],
                "runs_decisions_per_second": fp["runs_per_second"],
            },
            "kernel": None if k1 is None or k2 is None or kg is None or pg is None else {
                "random_1_core": k1["per_second"],
                "random_2_cores": k2["per_second"],
                "greedy_1_core": kg["per_second"],
                "greedy_python": pg["per_second"],
                "runs_random_1_core": k1["runs_per_second"],
                "runs_random_2_cores": k2["runs_per_second"],
                "runs_greedy_1_core": kg["runs_per_second"],
            },
        })

    for key in ("openspiel", "abw333"):
        f = figures(f"peer/{key}")
        if f is not None:
            peers[key].update({
                "moves_per_second": f["per_second"],
                "hands_per_second": f["hands_per_second"],
                "mean_moves_per_hand": f["mean_per_hand"],
                "runs_moves_per_second": f["runs_per_second"],
            })
    peers["openspiel"]["game"] = "python_block_dominoes: 2 players, block game (no boneyard)"
    peers["abw333"]["game"] = "dominoes.Game: 4 seats in 2 teams, passes automatic (not counted)"

    def ratio(path: str, n: int, peer: str) -> float | None:
        """Median over rounds of ours / peer, each from runs taken side by side."""
        mine = measurements.get(f"{path}/classic/{n}")
        theirs = measurements.get(f"peer/{peer}")
        if mine is None or theirs is None:
            return None
        per_round = [a.rate / b.rate for a, b in zip(mine.runs, theirs.runs, strict=True)
                     if b.rate > 0]
        return statistics.median(per_round) if per_round else None

    best_path = "fast" if fast is not None else "loop"
    ratios = {
        f"classic{n}_vs_{peer}": {path: ratio(path, n, peer) for path in ("loop", "fast")}
        for n, peer in ((2, "openspiel"), (2, "abw333"), (4, "abw333"))
    }
    min_copies = min(r["copies_per_second"] for r in ours)
    targets = {
        "compared_with": "fast path" if fast is not None else "python loop",
        "vs_openspiel": {"target": TARGET_VS_OPENSPIEL,
                         "value": ratios["classic2_vs_openspiel"][best_path]},
        "vs_abw333_classic2": {"target": TARGET_VS_ABW333,
                               "value": ratios["classic2_vs_abw333"][best_path]},
        "vs_abw333_classic4": {"target": TARGET_VS_ABW333,
                               "value": ratios["classic4_vs_abw333"][best_path]},
        "copies_per_second": {"target": TARGET_COPIES, "value": min_copies},
    }
    with_kernel = [r for r in ours if r["kernel"]]
    if with_kernel:
        classic2 = [r for r in with_kernel if (r["preset"], r["players"]) == ("classic", 2)]
        targets["kernel_random_2_cores_classic2"] = {
            "target": TARGET_KERNEL_BOTH,
            "value": classic2[0]["kernel"]["random_2_cores"] if classic2 else None}
        targets["kernel_random_1_core_slowest"] = {
            "target": TARGET_KERNEL_CORE,
            "value": min(r["kernel"]["random_1_core"] for r in with_kernel)}
        targets["kernel_greedy_1_core_slowest"] = {
            "target": TARGET_KERNEL_GREEDY,
            "value": min(r["kernel"]["greedy_1_core"] for r in with_kernel)}
    for t in targets.values():
        if isinstance(t, dict):
            t["met"] = None if t["value"] is None else t["value"] >= t["target"]

    return {
        "machine": machine,
        "settings": {"seconds": args.seconds, "repeat": args.repeat, "seed": seed,
                     "presets": args.presets, "peers": not args.no_peers},
        "fast_path_note": fast_note,
        "kernel_note": kernel_note,
        "kernel_compile_seconds": compile_note,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()]
        if hasattr(os, "getloadavg") else None,
        "matador": ours,
        "peers": peers,
        "ratios": ratios,
        "targets": targets,
    }


def report(res: dict[str, Any]) -> str:
    lines: list[str] = []
    out = lines.append
    m, s = res["machine"], res["settings"]
    out(f"Matador playout benchmark  ({m['python']}, {m['platform']}, {m['machine']}, "
        f"{m['cpu_count']} CPUs, load average at start {m['load_average']})")
    out(f"seed {s['seed']}; each figure is the best of {s['repeat']} runs of "
        f"{s['seconds'] / s['repeat']:.2f} s; dealing included; decisions include draws "
        "and passes")
    out(res["fast_path_note"])
    out(res["kernel_note"])
    compile_s = res["kernel_compile_seconds"]
    if compile_s:
        out("kernel first call in a fresh process: " + ", ".join(
            f"{name} cache {v:.2f} s" if isinstance(v, float) else f"{name} cache {v}"
            for name, v in compile_s.items()))
    out(f"load average at end {res['load_average_at_end']}")
    out("")
    has_fast = any(r["fast_path"] for r in res["matador"])
    head = (f"{'preset':<8} {'players':>7} {'decisions/s':>12} {'hands/s':>9} "
            f"{'dec/hand':>8} {'copies/s':>11}")
    if has_fast:
        head += f" {'fast dec/s':>12} {'fast hands/s':>12} {'speedup':>7}"
    out(head)
    out("-" * len(head))
    for r in res["matador"]:
        line = (f"{r['preset']:<8} {r['players']:>7} {fmt_rate(r['decisions_per_second']):>12} "
                f"{fmt_rate(r['hands_per_second']):>9} {r['mean_decisions_per_hand']:>8.1f} "
                f"{fmt_rate(r['copies_per_second']):>11}")
        if has_fast:
            f = r["fast_path"]
            speedup = f and f["decisions_per_second"] / r["decisions_per_second"]
            line += (f" {fmt_rate(f and f['decisions_per_second']):>12}"
                     f" {fmt_rate(f and f['hands_per_second']):>12}"
                     f" {fmt_ratio(speedup):>7}")
        out(line)
    out("")

    if any(r["kernel"] for r in res["matador"]):
        out(f"Compiled kernel, decisions/s (fresh hands, dealing included; greedy epsilon "
            f"{GREEDY_EPSILON})")
        head = (f"{'preset':<8} {'players':>7} {'python fast':>12} {'kernel 1 core':>14} "
                f"{'kernel 2 cores':>15} {'speedup':>8} {'python greedy':>14} "
                f"{'kernel greedy':>14} {'speedup':>8}")
        out(head)
        out("-" * len(head))
        for r in res["matador"]:
            k = r["kernel"]
            if not k:
                continue
            f = r["fast_path"]
            base = f["decisions_per_second"] if f else r["decisions_per_second"]
            out(f"{r['preset']:<8} {r['players']:>7} {fmt_rate(base):>12} "
                f"{fmt_rate(k['random_1_core']):>14} {fmt_rate(k['random_2_cores']):>15} "
                f"{fmt_ratio(k['random_1_core'] / base):>8} "
                f"{fmt_rate(k['greedy_python']):>14} {fmt_rate(k['greedy_1_core']):>14} "
                f"{fmt_ratio(k['greedy_1_core'] / k['greedy_python']):>8}")
        out("")

    out("Peers (moves/s = player decisions per second, dealing included)")
    labels = {"openspiel": "OpenSpiel python_block_dominoes", "abw333": "abw333 dominoes"}
    for key, label in labels.items():
        p = res["peers"][key]
        if "moves_per_second" in p:
            out(f"  {label:<32} {fmt_rate(p['moves_per_second']):>10} moves/s "
                f"{fmt_rate(p['hands_per_second']):>7} hands/s "
                f"{p['mean_moves_per_hand']:5.1f} moves/hand")
            out(f"  {'':<32} ({p['game']})")
        else:
            out(f"  {label:<32} {p['note']}")
    out("")

    rat = res["ratios"]
    out("Ratios, ours / peer, median over rounds of side-by-side runs"
        + ("   (python loop | fast path)" if has_fast else "   (python loop)"))
    names = {
        "classic2_vs_openspiel": "classic 2 players vs OpenSpiel (2 players)",
        "classic2_vs_abw333": "classic 2 players vs abw333 (4 seats, 2 teams)",
        "classic4_vs_abw333": "classic 4 players vs abw333 (4 seats, 2 teams)",
    }
    if not any(r["preset"] == "classic" for r in res["matador"]):
        out("  (classic was not timed: include it in --presets to get ratios)")
    for key, label in names.items():
        line = f"  {label:<48} {fmt_ratio(rat[key]['loop']):>8}"
        if has_fast:
            line += f" | {fmt_ratio(rat[key]['fast']):>8}"
        out(line)
    out("")

    t = res["targets"]
    out(f"Targets (ours measured with the {t['compared_with']})")
    checks = [
        (f">= {TARGET_VS_OPENSPIEL:.0f}x OpenSpiel, classic 2 players", "vs_openspiel", fmt_ratio),
        (f">= {TARGET_VS_ABW333:.0f}x abw333, classic 2 players", "vs_abw333_classic2", fmt_ratio),
        (f">= {TARGET_VS_ABW333:.0f}x abw333, classic 4 players", "vs_abw333_classic4", fmt_ratio),
        (f">= {TARGET_COPIES:,.0f} state copies/s (slowest config)", "copies_per_second",
         fmt_rate),
    ]
    if "kernel_random_2_cores_classic2" in t:
        checks += [
            (f">= {TARGET_KERNEL_BOTH / 1e6:.0f} M random dec/s, both cores (classic 2)",
             "kernel_random_2_cores_classic2", fmt_rate),
            (f">= {TARGET_KERNEL_CORE / 1e6:.0f} M random dec/s per core (slowest config)",
             "kernel_random_1_core_slowest", fmt_rate),
            (f">= {TARGET_KERNEL_GREEDY / 1e6:.0f} M greedy dec/s per core (slowest config)",
             "kernel_greedy_1_core_slowest", fmt_rate),
        ]
    for label, key, fmt in checks:
        value = t[key]["value"]
        out(f"  {label:<52} {fmt(value):>12}  {verdict(value, t[key]['target'])}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    res = run_benchmarks(args)
    print(report(res))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=2)
            fh.write("\n")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
