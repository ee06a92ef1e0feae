#!/usr/bin/env python3
"""A learned evaluation in place of ``sage``'s playouts: trained on self-play, measured in matches.

Issue 14 names "a learned evaluation (a small model trained on self-play
positions ...) that replaces or cuts playouts". This script builds one for
a table of two to four players and measures it (``docs/bots.md``, "A learned
evaluation", and "A learned evaluation with three and four players"):

``data``
    plays hands of a bot against itself (``sage:100it`` by default) at a
    table of ``--players`` (2 by default) and keeps every position of them,
    full information, from every seat's side, with the win value that seat
    got in the end;
``train``
    fits a small network (:class:`~matador.players.valuenet.ValueNet`,
    :func:`~matador.players.valuenet.features` in, the chance to win out) to
    those positions by cross-entropy, and prints the held-out loss beside a
    constant's and a logistic regression's; the weights it writes for a
    preset are what the package ships (``src/matador/players/weights``);
``predict``
    scores the network, table playouts and their mean as predictions of how
    new self-play hands end (Brier scores);
``arena``
    runs ``matador arena`` with the network at ``$MATADOR_VALUE_NET`` in
    these bot kinds: ``sage-w`` (``sage`` mixing it into its playouts, as
    ``sage`` mixes the shipped one; ``$MATADOR_MIX`` sets the share),
    ``sage-vnm`` (the same without early stops), ``sage-vn`` (each move
    valued in each world by the network alone, right after the move) and
    ``sage-vnD`` (``D`` plies of ``sage``'s table playout first, then the
    network).

::

    python benchmarks/value_net.py data --hands 30000 --seed 1 --jobs 2 --out /tmp/vn.npz
    python benchmarks/value_net.py train --data /tmp/vn.npz --out /tmp/vn-w.npz
    MATADOR_VALUE_NET=/tmp/vn-w.npz python benchmarks/value_net.py arena \\
        sage-w:300it sage-po:300it --preset classic --players 2 --deals 300 --seed 1901 \\
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
from matador.core.state import HandState
from matador.core.streams import Stream, stream_key
from matador.core.view import PlayerView
from matador.players import SageBot, make_bot, register
from matador.players.base import Bot, Budget
from matador.players.pimc import MoveStats, SearchResult
from matador.players.playouts import table_move, table_rollout
from matador.players.rollout import tiles_in_play, win_values
from matador.players.sage import MIX, _with_twins, known_nodes, known_world, solve_known
from matador.players.timing import distinct_moves
from matador.players.valuenet import ValueNet, features, players_of

# ---------------------------------------------------------------- data


def self_play(bot: Bot, rules: Rules, seed: int, hand: int, players: int = 2
              ) -> tuple[list[HandState], list[float]]:
    """Hand number ``hand`` of ``bot`` against itself at a table of ``players``: its positions
    and each seat's win value."""
    rng = Random(seed * 1_000_003 + hand + (0 if players == 2 else 7_919 * players))
    state = HandState.new(rules, players, rng)
    positions: list[HandState] = []
    while not state.is_over:
        positions.append(state.copy())
        state.play(bot.choose(PlayerView.of(state, state.to_move), rng))
    return positions, win_values(state)


def _play(bot_spec: str, preset: str, seed: int, players: int, hands: range
          ) -> tuple[np.ndarray, np.ndarray]:
    """Every position of ``hands`` self-play hands, from every seat's side, with the win value
    that seat got."""
    rules = Rules.from_preset(preset)
    bot = make_bot(bot_spec)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for hand in hands:
        positions, won = self_play(bot, rules, seed, hand, players)
        for position in positions:
            for seat in range(players):
                xs.append(features(position, seat))
                ys.append(won[seat])
    return np.stack(xs), np.asarray(ys, dtype=np.float32)


def generate(bot_spec: str, preset: str, hands: int, seed: int, jobs: int, players: int = 2
             ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_play` over ``hands`` hands in ``jobs`` processes (the same data for any)."""
    size = max(1, min(500, -(-hands // (4 * jobs))))
    chunks = [range(i, min(i + size, hands)) for i in range(0, hands, size)]
    play = partial(_play, bot_spec, preset, seed, players)
    if jobs <= 1:
        parts = [play(chunk) for chunk in chunks]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(play, chunks))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


# ---------------------------------------------------------------- the network


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of chances ``p`` for outcomes ``y`` (win values in [0, 1])."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int,
          batch: int = 1024, init: ValueNet | None = None, lr: float = 1e-3
          ) -> tuple[ValueNet, dict[str, float]]:
    """Fit on the first 90 % of the positions and report on the rest (the last hands).

    ``init`` starts from a trained network instead of fresh weights (``hidden`` is then
    its own); the report then has its held-out loss before the fit too.
    """
    rng = np.random.default_rng(seed)
    cut = int(len(x) * 0.9)
    before = None
    if init is None:
        net = ValueNet.fresh(hidden, rng, players_of(x.shape[1]))
    else:
        net = ValueNet({k: v.copy() for k, v in init.w.items()})
        before = log_loss(net(x[cut:]), y[cut:])
    net.fit(x[:cut], y[:cut], epochs, rng, batch, lr)
    linear = {"w1": np.zeros((x.shape[1], 1), np.float32),  # a logistic regression
              "b1": np.zeros(1, np.float32)}
    _fit_logistic(linear, x[:cut], y[:cut], rng)
    held_x, held_y = x[cut:], y[cut:]
    base = float(y[:cut].mean())
    report = {"positions": float(len(x)), "held_out": float(len(held_x)),
              "loss_constant": log_loss(np.full(len(held_y), base), held_y),
              "loss_logistic": log_loss(_logistic(linear, held_x), held_y),
              "loss_network": log_loss(net(held_x), held_y)}
    if before is not None:
        report["loss_init"] = before
    return net, report


def _logistic(w: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    p: np.ndarray = 1.0 / (1.0 + np.exp(-(x @ w["w1"] + w["b1"])[:, 0]))
    return p


def _fit_logistic(w: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray,
                  rng: np.random.Generator, epochs: int = 2, batch: int = 256, lr: float = 0.5
                  ) -> None:
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            p = _logistic(w, x[idx])
            d = ((p - y[idx]) / len(idx))[:, None].astype(np.float32)
            w["w1"] -= lr * (x[idx].T @ d)
            w["b1"] -= lr * d.sum(0)


def predictions(net: ValueNet, preset: str, hands: int, playouts: int, seed: int
                ) -> dict[str, float]:
    """Brier scores of three predictions of the outcome for the mover, over every position
    of ``hands`` new ``sage:100it`` self-play hands at the network's table: the mean of
    ``playouts`` table playouts, the network, and the mean of the two."""
    rules = Rules.from_preset(preset)
    bot = make_bot("sage:100it")
    by_playouts: list[float] = []
    by_net: list[float] = []
    got: list[float] = []
    for hand in range(hands):
        positions, won = self_play(bot, rules, seed, hand, net.players)
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


def weights_path() -> str:
    """The weights the bot kinds use: ``$MATADOR_VALUE_NET`` (a file ``train`` wrote)."""
    path = os.environ.get("MATADOR_VALUE_NET", "")
    if not path:
        raise ValueError(f"{', '.join(VARIANTS)} need MATADOR_VALUE_NET: the weights saved "
                         "by 'value_net.py train'")
    return path


class ValueSage(SageBot):
    """``sage`` whose value of a move in a world is the network's chance to win (``sage-vn``),
    or that after ``plies`` plies of the table playout (``sage-vnD``): no playout to the end;
    worlds, exact endgames and determined positions as ``sage``'s. No early stops."""

    kind = "sage-vn"

    def __init__(self, budget: Budget | None = None, plies: int = 0) -> None:
        super().__init__(budget, early_stop=False, evaluation="off")
        self.plies = plies
        self.net = ValueNet.load(weights_path())

    def search(self, view: PlayerView, rng: Random, budget: Budget | None = None,
               *, early_stop: bool | None = None) -> SearchResult:
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


def mixing_sage(budget: Budget | None = None, *, early_stop: bool = True) -> SageBot:
    """``sage`` mixing the network at ``$MATADOR_VALUE_NET`` into its playouts, with
    ``$MATADOR_MIX`` of the value (default :data:`~matador.players.sage.MIX`)."""
    return SageBot(budget, early_stop=early_stop, evaluation=weights_path(),
                   mix=float(os.environ.get("MATADOR_MIX", MIX)))


VARIANTS: dict[str, Callable[..., SageBot]] = {
    "sage-vn": ValueSage,
    "sage-vn4": partial(ValueSage, plies=4),
    "sage-vn8": partial(ValueSage, plies=8),
    "sage-vnm": partial(mixing_sage, early_stop=False),
    "sage-w": mixing_sage,
}


def main_cli(argv: list[str]) -> int:
    """``data``, ``train``, ``predict`` or ``arena`` (see the module docstring)."""
    if argv[:1] == ["arena"]:
        if any(a.partition(":")[0] in VARIANTS for a in argv) \
                and not os.environ.get("MATADOR_VALUE_NET"):
            print(f"value_net.py arena: {', '.join(VARIANTS)} need MATADOR_VALUE_NET, the "
                  "weights saved by 'value_net.py train'", file=sys.stderr)
            return 2
        return main(["arena", *argv[1:]])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="self-play positions with their outcomes")
    data.add_argument("--bot", default="sage:100it")
    data.add_argument("--preset", default="classic")
    data.add_argument("--players", type=int, default=2)
    data.add_argument("--hands", type=int, default=2000)
    data.add_argument("--seed", type=int, default=1)
    data.add_argument("--jobs", type=int, default=1)
    data.add_argument("--out", required=True)
    fit = sub.add_parser("train", help="fit the network and report held-out losses")
    fit.add_argument("--data", required=True)
    fit.add_argument("--hidden", type=int, default=64)
    fit.add_argument("--epochs", type=int, default=6)
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--init", help="start from these weights (fine-tuning)")
    fit.add_argument("--lr", type=float, default=1e-3)
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
        x, y = generate(args.bot, args.preset, args.hands, args.seed, args.jobs, args.players)
        np.savez_compressed(args.out, x=x, y=y)
        print(f"{args.hands} hands of {args.bot} ({args.preset}, {args.players} players, seed "
              f"{args.seed}): {len(x)} positions (every seat's side) in "
              f"{time.perf_counter() - start:.0f} s")
        return 0
    if args.command == "predict":
        got = predictions(ValueNet.load(args.weights), args.preset, args.hands, args.playouts,
                          args.seed)
        print(f"{int(got['positions'])} positions of {args.hands} new hands; Brier score: "
              f"{args.playouts} table playouts {got['playouts']:.4f}, network "
              f"{got['network']:.4f}, their mean {got['mean']:.4f} "
              f"({time.perf_counter() - start:.0f} s)")
        return 0
    with np.load(args.data) as d:
        x, y = d["x"], d["y"]
    net, report = train(x, y, args.hidden, args.epochs, args.seed,
                        init=ValueNet.load(args.init) if args.init else None, lr=args.lr)
    net.save(args.out)
    print(f"{int(report['positions'])} positions, held out {int(report['held_out'])}; "
          f"log loss: constant {report['loss_constant']:.4f}, logistic "
          f"{report['loss_logistic']:.4f}, network {report['loss_network']:.4f}"
          + (f" (from {report['loss_init']:.4f} before the fit)" if "loss_init" in report
             else "") + f" ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ in ("__main__", "__mp_main__"):  # the arena's workers (spawned) need them too
    for _kind, _factory in VARIANTS.items():
        register(_kind, _factory)
if __name__ == "__main__":
    sys.exit(main_cli(sys.argv[1:]))
