#!/usr/bin/env python3
"""A learned evaluation in place of ``sage``'s playouts: trained on self-play, measured in matches.

Issue 14 names "a learned evaluation (a small model trained on self-play
positions ...) that replaces or cuts playouts". This script builds one for
two players and measures it (``docs/bots.md``, "A learned evaluation"):

``data``
    plays hands of a bot against itself (``sage:100it`` by default) and keeps
    every position of them, full information, from both seats' sides, with
    the win value that seat got in the end;
``train``
    fits a small network (numpy; :func:`features` in, the chance to win
    out) to those positions by cross-entropy, and prints the held-out loss
    beside a constant's and a logistic regression's;
``predict``
    scores the network, table playouts and their mean as predictions of how
    new self-play hands end (Brier scores);
``arena``
    runs ``matador arena`` with ``sage-vn`` (each move valued in each world
    by the network, right after the move: no playout), ``sage-vnD`` (``D``
    plies of ``sage``'s table playout first, then the network) and
    ``sage-vnm`` (``sage``'s search, then half the network's value mixed into
    each world's playout value: the one that wins) registered as bot kinds;
    the weights come from ``$MATADOR_VALUE_NET``.

::

    python benchmarks/value_net.py data --hands 30000 --seed 1 --jobs 2 --out /tmp/vn.npz
    python benchmarks/value_net.py train --data /tmp/vn.npz --out /tmp/vn-w.npz
    MATADOR_VALUE_NET=/tmp/vn-w.npz python benchmarks/value_net.py arena \\
        sage-vnm:200ms pimc:200ms --preset classic --players 2 --deals 1000 --seed 1910 \\
        --bootstrap 0 --jobs 2

Worlds, exact endgames (9 tiles or fewer in play) and the positions with
nothing hidden are ``sage``'s; only the value of a move in a world changes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from random import Random

import numpy as np

from matador.cli.main import main
from matador.core.rules import Rules
from matador.core.sampling import flat_worlds
from matador.core.state import HandState
from matador.core.streams import Stream, stream_key
from matador.core.view import PlayerView
from matador.players import SageBot, make_bot, register
from matador.players.base import Bot, Budget
from matador.players.pimc import WORLD_STREAM, MoveStats, SearchResult
from matador.players.playouts import table_move, table_rollout
from matador.players.rollout import tiles_in_play, win_values
from matador.players.sage import _with_twins, known_nodes, known_world, solve_known
from matador.players.timing import distinct_moves

FEATURES = 28 * 4 + 2 * 8 + 6
"""Length of :func:`features`."""


def features(state: HandState, seat: int) -> np.ndarray:
    """What the network sees of a full-information two-player position, from ``seat``'s side.

    The tiles of ``seat``'s hand, of the other hand, of the boneyard and on
    the line (28 bits each); each end's number (one-hot, or "no line yet");
    who is to move, whether the mover has drawn, both hand sizes, the
    boneyard's size and the pip difference (scaled to about 0-1).
    """
    x = np.zeros(FEATURES, dtype=np.float32)
    mine, theirs = state.hands[seat], state.hands[1 - seat]
    line = state.played
    rest = ((1 << 28) - 1) & ~(mine | theirs | line)
    for block, mask in enumerate((mine, theirs, rest, line)):
        base = 28 * block
        while mask:
            low = mask & -mask
            x[base + low.bit_length() - 1] = 1.0
            mask ^= low
    base = 112
    for k, end in enumerate((state.left, state.right)):
        x[base + 8 * k + (end if end >= 0 else 7)] = 1.0
    base = 128
    sizes = state.hand_sizes()
    pips = state.pips()
    x[base] = 1.0 if state.to_move == seat else 0.0
    x[base + 1] = 1.0 if state.drawn else 0.0
    x[base + 2] = sizes[seat] / 7
    x[base + 3] = sizes[1 - seat] / 7
    x[base + 4] = state.boneyard_size / 14
    x[base + 5] = (pips[seat] - pips[1 - seat]) / 40
    return x


# ---------------------------------------------------------------- data


def self_play(bot: Bot, rules: Rules, seed: int, hand: int
              ) -> tuple[list[HandState], list[float]]:
    """Hand number ``hand`` of ``bot`` against itself: its positions and each seat's win value."""
    rng = Random(seed * 1_000_003 + hand)
    state = HandState.new(rules, 2, rng)
    positions: list[HandState] = []
    while not state.is_over:
        positions.append(state.copy())
        state.play(bot.choose(PlayerView.of(state, state.to_move), rng))
    return positions, win_values(state)


def _play(bot_spec: str, preset: str, seed: int, hands: range
          ) -> tuple[np.ndarray, np.ndarray]:
    """Every position of ``hands`` self-play hands, both sides, with the win value it got."""
    rules = Rules.from_preset(preset)
    bot = make_bot(bot_spec)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for hand in hands:
        positions, won = self_play(bot, rules, seed, hand)
        for position in positions:
            for seat in (0, 1):
                xs.append(features(position, seat))
                ys.append(won[seat])
    return np.stack(xs), np.asarray(ys, dtype=np.float32)


def generate(bot_spec: str, preset: str, hands: int, seed: int, jobs: int
             ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_play` over ``hands`` hands in ``jobs`` processes (the same data for any)."""
    size = max(1, min(500, -(-hands // (4 * jobs))))
    chunks = [range(i, min(i + size, hands)) for i in range(0, hands, size)]
    play = partial(_play, bot_spec, preset, seed)
    if jobs <= 1:
        parts = [play(chunk) for chunk in chunks]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(play, chunks))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


# ---------------------------------------------------------------- the network


class ValueNet:
    """A two-hidden-layer network (ReLU), a sigmoid out: the chance to win."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.w = weights

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator, inputs: int = FEATURES
              ) -> ValueNet:
        """He-initialised weights."""
        def layer(n: int, m: int) -> np.ndarray:
            return (rng.standard_normal((n, m)) * np.sqrt(2.0 / n)).astype(np.float32)
        return cls({"w1": layer(inputs, hidden), "b1": np.zeros(hidden, np.float32),
                    "w2": layer(hidden, hidden), "b2": np.zeros(hidden, np.float32),
                    "w3": layer(hidden, 1), "b3": np.zeros(1, np.float32)})

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The logit of each row of ``x``."""
        w = self.w
        h1 = np.maximum(x @ w["w1"] + w["b1"], 0.0)
        h2 = np.maximum(h1 @ w["w2"] + w["b2"], 0.0)
        return (h2 @ w["w3"] + w["b3"])[:, 0]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The chance to win of each row of ``x``."""
        return 1.0 / (1.0 + np.exp(-self.logits(x)))

    def fit(self, x: np.ndarray, y: np.ndarray, epochs: int, rng: np.random.Generator,
            batch: int = 1024, lr: float = 1e-3) -> None:
        """Cross-entropy by Adam on minibatches."""
        w = self.w
        m = {k: np.zeros_like(v) for k, v in w.items()}
        v2 = {k: np.zeros_like(v) for k, v in w.items()}
        t = 0
        for _ in range(epochs):
            order = rng.permutation(len(x))
            for start in range(0, len(x), batch):
                idx = order[start:start + batch]
                xb, yb = x[idx], y[idx]
                a1 = xb @ w["w1"] + w["b1"]
                h1 = np.maximum(a1, 0.0)
                a2 = h1 @ w["w2"] + w["b2"]
                h2 = np.maximum(a2, 0.0)
                p = 1.0 / (1.0 + np.exp(-(h2 @ w["w3"] + w["b3"])[:, 0]))
                d3 = ((p - yb) / len(idx))[:, None].astype(np.float32)
                g = {"w3": h2.T @ d3, "b3": d3.sum(0)}
                d2 = (d3 @ w["w3"].T) * (a2 > 0)
                g["w2"], g["b2"] = h1.T @ d2, d2.sum(0)
                d1 = (d2 @ w["w2"].T) * (a1 > 0)
                g["w1"], g["b1"] = xb.T @ d1, d1.sum(0)
                t += 1
                for k in w:
                    m[k] = 0.9 * m[k] + 0.1 * g[k]
                    v2[k] = 0.999 * v2[k] + 0.001 * g[k] ** 2
                    step = lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v2[k] / (1 - 0.999 ** t))
                                                           + 1e-8)
                    w[k] -= step.astype(np.float32)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of chances ``p`` for outcomes ``y`` (win values in [0, 1])."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int,
          batch: int = 1024) -> tuple[ValueNet, dict[str, float]]:
    """Fit on the first 90 % of the positions and report on the rest (the last hands)."""
    rng = np.random.default_rng(seed)
    cut = int(len(x) * 0.9)
    net = ValueNet.fresh(hidden, rng)
    net.fit(x[:cut], y[:cut], epochs, rng, batch)
    linear = ValueNet({"w1": np.zeros((x.shape[1], 1), np.float32),  # a logistic regression
                       "b1": np.zeros(1, np.float32)})
    _fit_logistic(linear, x[:cut], y[:cut], rng)
    held_x, held_y = x[cut:], y[cut:]
    base = float(y[:cut].mean())
    report = {"positions": float(len(x)), "held_out": float(len(held_x)),
              "loss_constant": log_loss(np.full(len(held_y), base), held_y),
              "loss_logistic": log_loss(_logistic(linear, held_x), held_y),
              "loss_network": log_loss(net(held_x), held_y)}
    return net, report


def _logistic(model: ValueNet, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ model.w["w1"] + model.w["b1"])[:, 0]))


def _fit_logistic(model: ValueNet, x: np.ndarray, y: np.ndarray, rng: np.random.Generator,
                  epochs: int = 2, batch: int = 256, lr: float = 0.5) -> None:
    w = model.w
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            p = _logistic(model, x[idx])
            d = ((p - y[idx]) / len(idx))[:, None].astype(np.float32)
            w["w1"] -= lr * (x[idx].T @ d)
            w["b1"] -= lr * d.sum(0)


def predictions(net: ValueNet, preset: str, hands: int, playouts: int, seed: int
                ) -> dict[str, float]:
    """Brier scores of three predictions of the outcome for the mover, over every position
    of ``hands`` new ``sage:100it`` self-play hands: the mean of ``playouts`` table playouts,
    the network, and the mean of the two."""
    rules = Rules.from_preset(preset)
    bot = make_bot("sage:100it")
    by_playouts: list[float] = []
    by_net: list[float] = []
    got: list[float] = []
    for hand in range(hands):
        positions, won = self_play(bot, rules, seed, hand)
        for i, position in enumerate(positions):
            seat = position.to_move
            values = []
            for j in range(playouts):
                child = position.copy()
                table_rollout(child, Stream(stream_key(seed, hand, i, j)))
                values.append(win_values(child)[seat])
            by_playouts.append(sum(values) / playouts)
            by_net.append(float(net(features(position, seat)[None])[0]))
            got.append(won[seat])
    p, n, y = np.asarray(by_playouts), np.asarray(by_net), np.asarray(got)
    return {"positions": float(len(y)), "playouts": float(np.mean((p - y) ** 2)),
            "network": float(np.mean((n - y) ** 2)),
            "mean": float(np.mean(((p + n) / 2 - y) ** 2))}


# ---------------------------------------------------------------- the bot


_NETS: dict[str, ValueNet] = {}


def load_net(path: str) -> ValueNet:
    """The network saved at ``path`` by ``train`` (loaded once a process)."""
    if not path:
        raise ValueError("sage-vn needs MATADOR_VALUE_NET: the weights saved by "
                         "'value_net.py train'")
    net = _NETS.get(path)
    if net is None:
        with np.load(path) as data:
            net = _NETS[path] = ValueNet({k: data[k] for k in data.files})
    return net


class ValueSage(SageBot):
    """``sage`` whose value of a move in a world is the network's chance to win (``sage-vn``),
    after ``plies`` plies of the table playout (``sage-vnD``), or with ``mix`` that share of
    it mixed into ``sage``'s playout value (``sage-vnm``, :meth:`_mixed`); worlds, exact
    endgames and determined positions as ``sage``'s. No early stops."""

    kind = "sage-vn"

    def __init__(self, budget: Budget | None = None, plies: int = 0,
                 mix: float | None = None) -> None:
        super().__init__(budget, early_stop=False)
        self.plies = plies
        self.mix = mix
        self.net = load_net(os.environ.get("MATADOR_VALUE_NET", ""))

    def search(self, view: PlayerView, rng: Random, budget: Budget | None = None,
               *, early_stop: bool | None = None) -> SearchResult:
        if self.mix is not None:
            return self._mixed(view, rng, budget)
        spec = budget or self.budget or self.default_budget
        legal = view.legal_move_ids()
        moves = distinct_moves(legal, view.left, view.right)
        seat = view.seat
        if len(moves) > 1 and known_world(view):
            exact = solve_known(view, moves, known_nodes(spec))
            if exact is not None:
                return SearchResult(_with_twins(exact, legal, view), 1, {"exact": 1.0})
        stats = {m: MoveStats(m) for m in moves}
        if len(moves) == 1:
            stats[moves[0]].add(0.5, 0.0)
            return SearchResult(_with_twins(stats, legal, view), 0)
        make_world = self.worlds(view, spec)
        seed = rng.getrandbits(64)
        limit = spec.iterations
        deadline = None if spec.millis is None else time.perf_counter() + spec.millis / 1000
        done = 0
        while (limit is None or done < limit) and (deadline is None or done == 0
                                                    or time.perf_counter() < deadline):
            world = make_world(rng)
            rows: list[np.ndarray] = []
            open_moves: list[int] = []
            for m in moves:
                child = world.copy()
                child.push(m)
                s = Stream(stream_key(seed, done, m))
                for _ in range(self.plies):
                    if child.is_over or tiles_in_play(child) <= self.endgame:
                        break
                    child.push(table_move(child, s, self.epsilon))
                if child.is_over:
                    stats[m].add(win_values(child)[seat], 0.0)
                elif tiles_in_play(child) <= self.endgame:
                    value = self._solver.solve(child)
                    if len(self._solver.memo) > 200_000:
                        self._solver.memo.clear()
                    if value is not None:
                        stats[m].add(value[seat], 0.0)
                    else:
                        rows.append(features(child, seat))
                        open_moves.append(m)
                else:
                    rows.append(features(child, seat))
                    open_moves.append(m)
            if rows:
                for m, p in zip(open_moves, self.net(np.stack(rows)).tolist(), strict=True):
                    stats[m].add(float(p), 0.0)
            done += 1
        return SearchResult(_with_twins(stats, legal, view), done)


    def _mixed(self, view: PlayerView, rng: Random, budget: Budget | None) -> SearchResult:
        """``sage``'s own search (kernel playouts, no early stop), then each move's value in
        each of its worlds mixed with the network's: ``mix`` of the network, the rest the
        playout. The worlds are drawn again from the same streams (the flat tables), so
        both values are of the same world; solved worlds keep their exact values.

        With a time budget the search gets :data:`SEARCH_SHARE` of it and the network
        the rest, as many of the search's worlds as that time allows (at least
        :data:`MIX_CHUNK`): a move's value is then its playouts' mean over all worlds
        plus ``mix`` times the network's mean minus the playouts' over the worlds it
        saw (the plain mixture when it saw them all)."""
        spec = budget or self.budget or self.default_budget
        begin = time.perf_counter()
        state = rng.getstate()
        seed = rng.getrandbits(64)  # the search's seed: its first draw
        rng.setstate(state)
        searched = spec if spec.millis is None else Budget(spec.millis * SEARCH_SHARE,
                                                             spec.iterations)
        result = SageBot.search(self, view, rng, searched, early_stop=False)
        flat = flat_worlds(view)
        legal = view.legal_move_ids()
        moves = distinct_moves(legal, view.left, view.right)
        if result.extra.get("exact") or flat is None or len(moves) < 2:
            return result
        mix = self.mix
        assert mix is not None
        deadline = None if spec.millis is None else begin + spec.millis / 1000
        seat = view.seat
        gain = dict.fromkeys(moves, 0.0)  # mix x (network - playout), summed over the worlds
        seen = 0
        while seen < result.worlds:
            if seen and deadline is not None and time.perf_counter() >= deadline:
                break
            rows: list[np.ndarray] = []
            slots: list[tuple[int, int]] = []  # (world, move) of each row
            for b in range(seen, min(seen + MIX_CHUNK, result.worlds)):
                world = flat.world(Stream(stream_key(seed, b, WORLD_STREAM)))
                assert world is not None  # the search found it from the same stream
                solved = tiles_in_play(world) <= self.endgame
                if solved:
                    continue
                for m in moves:
                    child = world.copy()
                    child.push(m)
                    if not child.is_over:
                        rows.append(features(child, seat))
                        slots.append((b, m))
            if rows:
                for (b, m), value in zip(slots, self.net(np.stack(rows)).tolist(),
                                         strict=True):
                    gain[m] += mix * (value - result.stats[m].wins[b])
            seen = min(seen + MIX_CHUNK, result.worlds)
        stats = {m: MoveStats(m) for m in moves}
        for m in moves:
            shift = gain[m] / seen
            for p in result.stats[m].wins:
                stats[m].add(p + shift, 0.0)
        return SearchResult(_with_twins(stats, legal, view), result.worlds, {"mixed": seen})


SEARCH_SHARE = 0.3
"""With a time budget, the share of it ``sage-vnm``'s search has (the network the rest)."""
MIX_CHUNK = 64
"""Worlds the network values at once (one batch)."""


VARIANTS: dict[str, Callable[..., SageBot]] = {
    "sage-vn": ValueSage,
    "sage-vn4": partial(ValueSage, plies=4),
    "sage-vn8": partial(ValueSage, plies=8),
    "sage-vnm": partial(ValueSage, mix=0.5),
}


def main_cli(argv: list[str]) -> int:
    """``data``, ``train``, ``predict`` or ``arena`` (see the module docstring)."""
    if argv[:1] == ["arena"]:
        if any(a.startswith("sage-vn") for a in argv) and not os.environ.get("MATADOR_VALUE_NET"):
            print("value_net.py arena: sage-vn needs MATADOR_VALUE_NET, the weights saved by "
                  "'value_net.py train'", file=sys.stderr)
            return 2
        return main(["arena", *argv[1:]])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="self-play positions with their outcomes")
    data.add_argument("--bot", default="sage:100it")
    data.add_argument("--preset", default="classic")
    data.add_argument("--hands", type=int, default=2000)
    data.add_argument("--seed", type=int, default=1)
    data.add_argument("--jobs", type=int, default=1)
    data.add_argument("--out", required=True)
    fit = sub.add_parser("train", help="fit the network and report held-out losses")
    fit.add_argument("--data", required=True)
    fit.add_argument("--hidden", type=int, default=64)
    fit.add_argument("--epochs", type=int, default=6)
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--out", required=True)
    check = sub.add_parser("predict", help="the network and playouts as predictions of "
                           "the outcome (Brier scores)")
    check.add_argument("--weights", required=True)
    check.add_argument("--preset", default="classic")
    check.add_argument("--hands", type=int, default=150)
    check.add_argument("--playouts", type=int, default=16)
    check.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.command == "data":
        x, y = generate(args.bot, args.preset, args.hands, args.seed, args.jobs)
        np.savez_compressed(args.out, x=x, y=y)
        print(f"{args.hands} hands of {args.bot} ({args.preset}, seed {args.seed}): "
              f"{len(x)} positions (both sides) in {time.perf_counter() - start:.0f} s")
        return 0
    if args.command == "predict":
        got = predictions(load_net(args.weights), args.preset, args.hands, args.playouts,
                          args.seed)
        print(f"{int(got['positions'])} positions of {args.hands} new hands; Brier score: "
              f"{args.playouts} table playouts {got['playouts']:.4f}, network "
              f"{got['network']:.4f}, their mean {got['mean']:.4f} "
              f"({time.perf_counter() - start:.0f} s)")
        return 0
    with np.load(args.data) as d:
        x, y = d["x"], d["y"]
    net, report = train(x, y, args.hidden, args.epochs, args.seed)
    np.savez(args.out, **net.w)
    print(f"{int(report['positions'])} positions, held out {int(report['held_out'])}; "
          f"log loss: constant {report['loss_constant']:.4f}, logistic "
          f"{report['loss_logistic']:.4f}, network {report['loss_network']:.4f} "
          f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ in ("__main__", "__mp_main__"):  # the arena's workers (spawned) need them too
    for _kind, _factory in VARIANTS.items():
        register(_kind, _factory)
if __name__ == "__main__":
    sys.exit(main_cli(sys.argv[1:]))
