"""Search throughput and strength with the compiled kernel against the pure-Python search.

Two measurements (issue 13):

* ``worlds`` (default): worlds per second of PIMC (and ISMCTS iterations per
  second) at a fixed think time, with the kernel and without it, on the same
  positions: the decisions with a real choice of the seat 0 player in greedy
  games of each preset and player count asked for. Every search gets the
  think time (``--millis``, default 200) and a fresh ``Random(seed)``; the
  two paths alternate position by position so that a noisy moment hits both.
* ``arena``: ``pimc`` at the same think time with the kernel against ``pimc``
  without it, on duplicate deals (every deal in both seat rotations), through
  :func:`matador.arena.run_arena` with a player factory that builds each.
  Prints the kernel's score with its 95% Wilson interval (0.5 means equal
  strength).

    python benchmarks/search.py worlds --presets classic --players 2 --positions 40
    python benchmarks/search.py arena --deals 200 --jobs 2 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any
from unittest import mock

from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.base import Bot, Budget
from matador.players.ismcts import ISMCTSBot
from matador.players.pimc import PIMCBot
from matador.players.rollout import policy_move
from matador.table.players import BotPlayer, Player


def positions(preset: str, players: int, count: int, seed: int) -> list[PlayerView]:
    """Views of seat 0 with more than one legal move, from greedy games (epsilon 0.1)."""
    rng = random.Random(seed)
    out: list[PlayerView] = []
    rules = Rules.from_preset(preset)
    while len(out) < count:
        state = HandState.new(rules, players, rng)
        while not state.is_over and len(out) < count:
            if state.to_move == 0 and len(state.legal_move_ids()) > 1:
                out.append(PlayerView.of(state, 0))
            state.push(policy_move(state, rng, 0.1))
    return out


def worlds(args: argparse.Namespace) -> dict[str, Any]:
    """Worlds (PIMC) and iterations (ISMCTS) per second at ``--millis``, kernel vs pure."""
    from matador import fast

    compile_s = fast.compile_kernels()
    budget = Budget(millis=args.millis)
    rows = []
    for preset in args.presets:
        lo, hi = Rules.from_preset(preset).players
        for n in args.players or range(lo, hi + 1):
            if not lo <= n <= hi:
                continue
            views = positions(preset, n, args.positions, args.seed)
            row: dict[str, Any] = {"preset": preset, "players": n, "positions": len(views)}
            for kind, make in (("pimc", PIMCBot), ("ismcts", ISMCTSBot)):
                if kind not in args.bots:
                    continue
                # PIMC: "before" is the search without the kernel and without the flat
                # tables (every world from the exact sampler, as before issue 13).
                paths = ("before", "python", "kernel") if kind == "pimc" else ("python", "kernel")
                per: dict[str, list[float]] = {path: [] for path in paths}
                for i, view in enumerate(views):
                    for path in paths if i % 2 == 0 else paths[::-1]:
                        bot = make(budget, kernel=path == "kernel")
                        with no_flat_tables(path == "before"):
                            start = time.perf_counter()
                            result = bot.search(view, random.Random(args.seed + i))
                            per[path].append(result.worlds / (time.perf_counter() - start))
                row[kind] = {path: statistics.mean(per[path]) for path in paths}
                row[kind]["speedup"] = row[kind]["kernel"] / row[kind]["python"]
                row[kind]["speedup_median"] = statistics.median(
                    k / p for k, p in zip(per["kernel"], per["python"], strict=True))
                if kind == "pimc":
                    row[kind]["speedup_vs_before"] = row[kind]["kernel"] / row[kind]["before"]
                    row[kind]["speedup_vs_before_median"] = statistics.median(
                        k / p for k, p in zip(per["kernel"], per["before"], strict=True))
            rows.append(row)
            print(_line(row), flush=True)
    return {"millis": args.millis, "compile_or_load_seconds": compile_s, "rows": rows}


@contextlib.contextmanager
def no_flat_tables(off: bool) -> Iterator[None]:
    """While ``off``, PIMC finds no flat tables and draws every world from the exact sampler."""
    if not off:
        yield
        return
    from matador.players import pimc

    with mock.patch.object(pimc, "flat_worlds", lambda view: None):
        yield


def _line(row: dict[str, Any]) -> str:
    parts = [f"{row['preset']:<8} {row['players']} players, {row['positions']} positions:"]
    for kind in ("pimc", "ismcts"):
        if kind in row:
            r = row[kind]
            before = (f"{r['before']:,.0f} before, " if "before" in r else "")
            parts.append(f"{kind} {before}{r['python']:,.0f} pure -> {r['kernel']:,.0f} "
                         f"kernel per s ({r['speedup']:.1f}x pure, median "
                         f"{r['speedup_median']:.1f}x")
            if "before" in r:
                parts[-1] += (f"; {r['speedup_vs_before']:.1f}x before, median "
                              f"{r['speedup_vs_before_median']:.1f}x")
            parts[-1] += ")"
    return "  ".join(parts)


def kernel_factory(spec: str) -> Player:
    """``pimc-kernel:200ms`` and ``pimc-python:200ms`` (and the same for ismcts)."""
    kind, _, budget = spec.partition(":")
    base, _, path = kind.partition("-")
    classes: dict[str, type[Bot]] = {"pimc": PIMCBot, "ismcts": ISMCTSBot}
    cls = classes[base]
    use = {"kernel": True, "python": False}[path]

    def make(_: str) -> Bot:
        return cls(Budget.parse(budget), kernel=use)  # type: ignore[call-arg]

    return BotPlayer(spec, make)


def arena(args: argparse.Namespace) -> dict[str, Any]:
    """pimc with the kernel against pimc without it, duplicate deals."""
    from matador.arena import run_arena

    a, b = f"pimc-kernel:{args.millis:g}ms", f"pimc-python:{args.millis:g}ms"
    done = [0]

    def progress(games: int, total: int) -> None:
        if games - done[0] >= max(1, total // 20) or games == total:
            done[0] = games
            print(f"  {games}/{total} games", file=sys.stderr, flush=True)

    result = run_arena([a, b], preset=args.presets[0], players=(args.players or [2])[0],
                       deals=args.deals, seed=args.seed, jobs=args.jobs,
                       factory=kernel_factory, bootstrap=0, progress=progress)
    k = result.bot(a)
    p = result.bot(b)
    print(f"{a} against {b}: {result.deals} deals, {len(result.games)} games "
          f"({result.preset}, {result.players} players, seed {result.seed})")
    print(f"  {a}: score {k.score:.3f}, 95% interval [{k.ci95[0]:.3f}, {k.ci95[1]:.3f}], "
          f"{k.ms_per_move:.1f} ms/move")
    print(f"  {b}: score {p.score:.3f}, 95% interval [{p.ci95[0]:.3f}, {p.ci95[1]:.3f}], "
          f"{p.ms_per_move:.1f} ms/move")
    print(f"  {result.seconds:.0f} s")
    return result.to_json()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["worlds", "arena"], nargs="?", default="worlds")
    parser.add_argument("--millis", type=float, default=200.0, help="think time (default 200)")
    parser.add_argument("--presets", nargs="+", default=["classic"], choices=PRESETS)
    parser.add_argument("--players", nargs="+", type=int, help="player counts (default all)")
    parser.add_argument("--positions", type=int, default=30,
                        help="positions per preset and player count (worlds; default 30)")
    parser.add_argument("--bots", nargs="+", default=["pimc", "ismcts"],
                        choices=["pimc", "ismcts"])
    parser.add_argument("--deals", type=int, default=100, help="arena deals (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="arena worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    print(f"load average at start {os.getloadavg()}", file=sys.stderr)
    res = worlds(args) if args.what == "worlds" else arena(args)
    res["load_average_at_end"] = os.getloadavg()
    print(f"load average at end {res['load_average_at_end']}", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
