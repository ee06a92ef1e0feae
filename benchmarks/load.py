"""Load on ``matador serve``: many tables at human pace, and bots thinking at once.

Starts ``matador serve`` (a fresh SQLite database, ``synchronous=FULL``, or
``--db URL``) pinned to one core with ``taskset``, and runs the load generator
pinned to the other: bounded asyncio WebSocket clients on loopback, ramped up
table by table. Two scenarios:

* ``tables``: ``--tables`` two-person tables (two clients each), every person
  thinking ``--think`` seconds (uniform around it) before each move, so about
  one move a second per table; a finished table is replaced by a new one;
* ``bots``: ``--bots`` tables of a person against a searching bot (``normal``,
  PIMC 150 ms, in the server's process pool with ``--bot-workers`` workers):
  the person answers at once, so the bots think all the time.

Printed per scenario: moves/s, the move round trip (send to the mover's own
``ack``, sent once the move is stored) p50/p99/max, the server's event-loop
lag p50/p99/max (its ``/api/stats``, a 10 ms timer), the server's RSS (main
process and bot workers), errors and closed connections. ``--json FILE``
writes the figures.

    python benchmarks/load.py                       # 500 tables for 60 s, then 8 bots
    python benchmarks/load.py --tables 50 --seconds 10 --bots 0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


@dataclass
class Figures:
    """What the clients measured."""

    rtts: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    closed: int = 0
    tables_done: int = 0
    measuring: bool = False
    closed_at_stop: int = 0
    stopping: bool = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Seat:
    """One person's client: contributes to each deal, moves after thinking a while."""

    def __init__(self, address: str, table: str, token: str, figures: Figures, think: float,
                 rng: random.Random) -> None:
        self.url = f"ws://{address}/ws/tables/{table}"
        self.token = token
        self.f = figures
        self.think = think
        self.rng = rng
        self.version = 0
        self.sent_at: dict[str, float] = {}
        self.contributed: set[int] = set()
        self.moving = False
        self.over = False
        self.last_sent = 0.0

    async def run(self) -> None:
        async with websockets.connect(self.url, max_size=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            try:
                async for frame in ws:
                    msg = json.loads(frame)
                    await self.on(ws, msg)
                    if self.over:
                        return
            except websockets.ConnectionClosed as e:
                if not self.f.stopping:
                    self.f.closed += 1
                    code = e.rcvd.code if e.rcvd else None
                    self.f.error(f"closed_{code}")

    async def on(self, ws: Any, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ack":
            sent = self.sent_at.pop(str(msg.get("ref")), None)
            if sent is not None and self.f.measuring:
                self.f.rtts.append(time.perf_counter() - sent)
                self.f.moves += 1
            return
        if kind == "error":
            self.sent_at.pop(str(msg.get("ref")), None)
            self.f.error(msg["code"])
            self.moving = False
            return
        if kind not in ("events", "snapshot"):
            return
        self.version = msg["version"]
        view = msg.get("view") or msg.get("snapshot") or {}
        if view.get("phase") == "over":
            self.over = True
            return
        fair = msg["room"]["fair"]
        me = view.get("you")
        if fair and me in fair["awaiting"] and fair["hand"] not in self.contributed:
            self.contributed.add(fair["hand"])
            await ws.send(json.dumps({"type": "contribute", "hand": fair["hand"],
                                      "value": secrets.token_hex(16)}))
        legal = view.get("legal")
        if legal is None:
            legal = (view.get("position") or {}).get("legal") or []
        if legal and not self.moving:
            self.moving = True
            asyncio.get_running_loop().create_task(self.move(ws, legal, self.version))

    async def move(self, ws: Any, legal: list[dict[str, Any]], version: int) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        # a polite client: at most about 15 messages a second (the server closes at 20)
        wait = self.last_sent + 0.065 - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last_sent = time.monotonic()
        choice = self.rng.choice(legal)
        ref = f"{version}/{choice['id']}"
        self.sent_at[ref] = time.perf_counter()
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "move", "move": choice["move"],
                                      "version": version, "ref": ref}))
        # the next position (after the other seat's move) lets this seat move again
        self.moving = False


async def table_loop(address: str, http: httpx.AsyncClient, seats: list[str], figures: Figures,
                     think: float, rng: random.Random, stop: asyncio.Event) -> None:
    """Keep one table going: play it to the end, then open a new one."""
    while not stop.is_set():
        r = await http.post("/api/tables", json={"preset": "classic", "seats": seats,
                                                 "rules": {"match_target": 150}})
        if r.status_code != 201:
            figures.error(f"http_{r.status_code}")
            await asyncio.sleep(1)
            continue
        made = r.json()
        players = [Seat(address, made["id"], tok, figures, think, random.Random(rng.random()))
                   for tok in made["tokens"]["seats"].values()]
        tasks = [asyncio.ensure_future(p.run()) for p in players]
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            for t in tasks:
                t.cancel()
            return
        await asyncio.gather(*tasks, return_exceptions=True)
        stopper.cancel()
        figures.tables_done += 1


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def children(pid: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                             check=False).stdout
    except OSError:
        return []
    return [int(x) for x in out.split()]


async def scenario(name: str, address: str, server_pid: int, tables: int, seats: list[str],
                   think: float, seconds: float, ramp: float, seed: int) -> dict[str, Any]:
    figures = Figures()
    stop = asyncio.Event()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=60, limits=limits) as http:
        loops = []
        began = time.monotonic()
        for k in range(tables):  # ramp up: tables spread over `ramp` seconds
            loops.append(asyncio.ensure_future(table_loop(address, http, seats, figures, think,
                                                          random.Random(rng.random()), stop)))
            await asyncio.sleep(max(0.0, began + ramp * (k + 1) / tables - time.monotonic()))
        await asyncio.sleep(max(2.0, think * 2))  # settle
        await http.get("/api/stats", params={"reset": "true"})
        figures.measuring = True
        cpu0 = cpu_seconds(server_pid)
        start = time.monotonic()
        rss_peak = 0.0
        while time.monotonic() - start < seconds:
            await asyncio.sleep(1.0)
            rss_peak = max(rss_peak, rss_mb(server_pid))
        elapsed = time.monotonic() - start
        figures.measuring = False
        stats = (await http.get("/api/stats")).json()
        workers = [rss_mb(p) for p in children(server_pid)]
        figures.closed_at_stop = figures.closed
        figures.stopping = True
        stop.set()
        await asyncio.gather(*loops, return_exceptions=True)
    return {
        "scenario": name, "tables": tables, "seats": seats, "seconds": round(elapsed, 1),
        "moves": figures.moves, "moves_per_s": round(figures.moves / elapsed, 1),
        "rtt_ms": {"p50": round(1000 * pct(figures.rtts, 0.5), 2),
                   "p99": round(1000 * pct(figures.rtts, 0.99), 2),
                   "max": round(1000 * max(figures.rtts, default=0.0), 2),
                   "mean": round(1000 * statistics.fmean(figures.rtts), 2)
                   if figures.rtts else 0.0},
        "loop_lag_ms": stats["loop_lag_ms"], "commit_ms": stats["commit_ms"],
        "gc_ms": stats["gc_ms"],
        "server_cpu": round((cpu_seconds(server_pid) - cpu0) / elapsed, 2),
        "server_rss_mb": {"main": round(rss_peak, 1), "bot_workers": [round(w, 1)
                                                                      for w in workers]},
        "errors": figures.errors, "closed": figures.closed_at_stop,
        "tables_finished": figures.tables_done, "connections": stats["connections"],
        "commits": stats["commits"], "steps_stored": stats["steps_stored"],
    }


def _die_with_parent() -> None:
    """In the server's process, before it starts: on Linux, be sent SIGTERM (a graceful stop
    that joins the bot workers) when this benchmark dies, however it dies (a SIGKILL too).
    The server runs in a session of its own, so it outlives its parent otherwise."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def start_server(args: argparse.Namespace, data: Path) -> tuple[subprocess.Popen[str], str]:
    matador = Path(sys.executable).parent / "matador"
    cmd = [str(matador), "serve", "--port", "0", "--bot-workers", str(args.bot_workers),
           "--http-limit", "100000/100000", "--create-limit", "100000/100000"]
    cmd += ["--db", args.db] if args.db else ["--data-dir", str(data)]
    if shutil.which("taskset") and args.server_core >= 0:
        cmd = ["taskset", "-c", str(args.server_core), *cmd]
    log = open(args.server_log, "a") if args.server_log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True,
                            start_new_session=True, preexec_fn=_die_with_parent)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "open http://" not in line:
        proc.kill()
        raise SystemExit(f"matador serve did not start: {line!r}")
    address = line.split("http://", 1)[1].strip().rstrip("/")
    return proc, address


def print_figures(out: dict[str, Any]) -> None:
    r, lag = out["rtt_ms"], out["loop_lag_ms"]
    print(f"{out['scenario']}: {out['tables']} tables x {len(out['seats'])} seats "
          f"({', '.join(out['seats'])}), {out['seconds']} s measured")
    print(f"  moves/s        {out['moves_per_s']} ({out['moves']} moves acknowledged)")
    print(f"  round trip ms  p50 {r['p50']}  p99 {r['p99']}  max {r['max']}  (send to ack)")
    print(f"  loop lag ms    p50 {lag['p50']}  p99 {lag['p99']}  max {lag['max']}")
    c = out["commit_ms"]
    print(f"  commits ms     p50 {c['p50']}  p99 {c['p99']}  max {c['max']}; server CPU "
          f"{out['server_cpu']:.0%} of a core; longest garbage collection "
          f"{out['gc_ms']['max']} ms ({out['gc_ms']['full']} full)")
    print(f"  server RSS MB  {out['server_rss_mb']['main']} "
          f"(bot workers: {out['server_rss_mb']['bot_workers']})")
    print(f"  errors         {out['errors'] or 0}, connections closed: {out['closed']}, "
          f"tables finished: {out['tables_finished']}, commits {out['commits']} for "
          f"{out['steps_stored']} steps")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a person thinks before a move (uniform 0.5x to 1.5x of "
                             "it): a table makes about one move per THINK seconds")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds to open the tables")
    parser.add_argument("--bots", type=int, default=8, help="tables of the bots scenario")
    parser.add_argument("--bot-workers", type=int, default=8)
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--server-core", type=int, default=1)
    parser.add_argument("--client-core", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--server-log", type=Path, help="append the server's log to this file")
    args = parser.parse_args(argv)
    if args.client_core >= 0 and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {args.client_core})
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        proc, address = start_server(args, Path(tmp))
        try:
            if args.tables:
                out = asyncio.run(scenario("tables", address, proc.pid, args.tables,
                                           ["human", "human"], args.think, args.seconds,
                                           args.ramp, args.seed))
                print_figures(out)
                results.append(out)
            if args.bots:
                out = asyncio.run(scenario("bots", address, proc.pid, args.bots,
                                           ["human", "bot:normal"], 0.0,
                                           min(args.seconds, 30.0), 1.0, args.seed + 1))
                print_figures(out)
                results.append(out)
        finally:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
