#!/usr/bin/env python3
"""How well does a one-ply policy predict a bot's choices?  The ceiling of modelling a seat.

A search that plays a seat in its playouts as that seat really plays gains
(``sage-om`` against ``greedy``, ``docs/bots.md``); against a ``pimc`` seat
it needs a one-ply policy that makes ``pimc``'s choices. This script records
the decisions of ``BOT`` in self-play (every seat ``BOT``; only decisions
between moves that lead to different positions) and reports, over the last
third of them, the share in which each policy makes the bot's choice:

* ``table``: ``sage``'s playout policy (:func:`~matador.players.playouts.table_choice`);
* ``greedy``: ``pimc``'s (:func:`~matador.players.playouts.greedy_choice`);
* ``fitted``: a conditional logit over the table policy's terms of each move
  (:data:`FEATURES`: pips, followers kept, matador, last matador, points, the
  chance that the next and the later seats cannot follow, blank ends, going
  out, a double, and draw or pass with the hand and boneyard sizes), fitted by
  maximum likelihood (L-BFGS) to the first two thirds: the best such policy.

* each ``--search SPEC``: that bot's own choice from the decision's view (a
  search as a model of a searching seat: how many worlds a playout would have
  to spend on each modelled decision to predict ``pimc``, say).

Each share has its 95 % Wilson interval; the fitted weights are printed too::

    python benchmarks/imitation.py pimc:1000it --preset classic --players 2 --hands 400
    python benchmarks/imitation.py greedy --players 3 --hands 100
    python benchmarks/imitation.py pimc:1000it --hands 150 --search pimc:32it pimc:1000it
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize  # type: ignore[import-untyped]

from matador.arena.stats import wilson
from matador.core.moves import DRAW, MOVE_TILE, PASS
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.tiles import ALL_TILES, HALVES, PIPS
from matador.core.view import PlayerView
from matador.players import make_bot
from matador.players.base import BotError
from matador.players.heuristic import ends_after
from matador.players.playouts import block_counts, greedy_choice, table_choice
from matador.players.timing import distinct_moves

FEATURES = ("pips", "follow", "matador", "last matador", "points", "block next",
            "blank, matador kept", "blank, none kept", "block later", "goes out", "double",
            "matadors kept fitting", "draw", "draw x next size", "draw x boneyard", "pass",
            "pass x next size", "draw, last matador", "pass, last matador")
"""The terms of a move the fitted policy weighs (the table policy's, and a few more)."""


@dataclass(frozen=True)
class Decision:
    """One recorded choice: the state before it, the legal moves and the move made."""

    state: HandState
    moves: tuple[int, ...]
    chosen: int

    def made(self, m: int) -> bool:
        """Whether ``m`` is the move made or leads to the same position."""
        s = self.state
        return m == self.chosen or distinct_moves((self.chosen, m), s.left, s.right) == [
            self.chosen]


def decisions(spec: str, preset: str, players: int, hands: int, seed: int) -> list[Decision]:
    """The decisions with a real choice of ``spec`` playing every seat of ``hands`` hands."""
    rules = Rules.from_preset(preset)
    bot = make_bot(spec)
    out: list[Decision] = []
    for hand in range(hands):
        rng = random.Random(seed * 100_003 + hand)
        state = HandState.new(rules, players, rng)
        while not state.is_over:
            view = PlayerView.of(state, state.to_move)
            legal = view.legal_move_ids()
            m = int(bot.choose(view, random.Random(rng.getrandbits(64))))
            if len(distinct_moves(legal, view.left, view.right)) > 1:
                out.append(Decision(state.copy(), tuple(legal), m))
            state.push(m)
    return out


def features(state: HandState, moves: Sequence[int]) -> np.ndarray:
    """One row of :data:`FEATURES` per move, from the mover's hand and the public state."""
    s = state.to_move
    hands = state.hands
    hand = hands[s]
    n = state.players
    tb = state._tb
    left, right, bone = state.left, state.right, state.boneyard_size
    might = ALL_TILES & ~hand & ~state.played
    total = might.bit_count()
    nxt = hands[(s + 1) % n].bit_count()
    later = [size for k in range(2, n) if (size := hands[(s + k) % n].bit_count())]
    matadors = tb.matadors
    mine = (hand & matadors).bit_count()
    goes_out = tb.ends_hand or (tb.after_boneyard and not bone)
    plays = [m for m in moves if m < DRAW]
    last = mine == 1 and bool(plays) and all(matadors >> MOVE_TILE[m] & 1 for m in plays)
    rows = np.zeros((len(moves), len(FEATURES)))
    for i, m in enumerate(moves):
        f = rows[i]
        if m == DRAW:
            f[12], f[13], f[14], f[17] = 1, nxt, bone, last
            continue
        if m == PASS:
            f[15], f[16], f[18] = 1, nxt, last
            continue
        t = MOVE_TILE[m]
        rest = hand & ~(1 << t)
        f[9] = not rest and goes_out
        a, b = ends_after(m, left, right)
        fits = tb.playable_against[a][b]
        f[0] = PIPS[t]
        f[1] = (rest & fits & tb.non_matadors).bit_count()
        f[2] = matadors >> t & 1
        f[3] = f[2] and mine == 1
        f[4] = tb.play_points(m, left, right) if tb.scores_plays else 0
        fitting = (might & fits).bit_count()
        if nxt:
            f[5] = block_counts(total, fitting, nxt, bone)
        f[6 if rest & matadors else 7] = (a == 0) + (b == 0)  # greedy's blank ends
        f[8] = sum(block_counts(total, fitting, size, bone) for size in later)
        f[10] = HALVES[t][0] == HALVES[t][1]
        f[11] = (rest & fits & matadors).bit_count()
    return rows


def fit(data: Sequence[Decision], l2: float = 1e-3) -> np.ndarray:
    """The conditional-logit weights of :data:`FEATURES` that make ``data``'s choices likeliest
    (an L2 penalty of ``l2`` per decision on standardized terms)."""
    blocks = [features(d.state, d.moves) for d in data]
    x = np.concatenate(blocks)
    scale = x.std(0) + 1e-9
    x = x / scale
    group = np.concatenate([np.full(len(b), i) for i, b in enumerate(blocks)])
    made = np.concatenate([[d.made(m) for m in d.moves] for d in data]).astype(float)
    g = len(data)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w
        top = np.full(g, -np.inf)
        np.maximum.at(top, group, z)
        e = np.exp(z - top[group])
        den = np.bincount(group, e, g)
        num = np.bincount(group, e * made, g)
        p, q = e / den[group], e * made / num[group]
        ll = float(np.log(num / den).sum()) - l2 * g * float(w @ w) / 2
        return -ll, -(x.T @ (q - p) - l2 * g * w)

    result = minimize(loss, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B")
    return np.asarray(result.x) / scale


def fitted_choice(weights: np.ndarray) -> Callable[[HandState, Sequence[int]], int]:
    """The fitted policy: the move whose terms weigh most."""
    def choose(state: HandState, moves: Sequence[int]) -> int:
        return moves[int(np.argmax(features(state, moves) @ weights))]
    return choose


def search_choice(spec: str, seed: int = 0) -> Callable[[HandState, Sequence[int]], int]:
    """The choice of the bot ``spec`` from the mover's view of a decision (its random
    generator seeded by ``seed`` and the ply, so the same for every run)."""
    bot = make_bot(spec)

    def choose(state: HandState, moves: Sequence[int]) -> int:
        rng = random.Random(seed * 1_000_003 + state.ply)
        return int(bot.choose(PlayerView.of(state, state.to_move), rng))
    return choose


def agreement(data: Sequence[Decision], choose: Callable[[HandState, Sequence[int]], int]
              ) -> int:
    """In how many of ``data``'s decisions ``choose`` makes the recorded choice."""
    return sum(d.made(choose(d.state, d.moves)) for d in data)


def main(argv: Sequence[str] | None = None) -> int:
    """Record, fit, and print each policy's share of the held-out choices."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="the bot whose choices are predicted (a bot spec)")
    parser.add_argument("--preset", default="classic", choices=PRESETS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", nargs="+", default=[], metavar="SPEC",
                        help="bots whose own choices are scored as models too")
    args = parser.parse_args(argv)
    low, high = Rules.from_preset(args.preset).players
    if not low <= args.players <= high:
        parser.error(f"--players {args.players}: {args.preset} is played by {low} to {high}")
    if args.hands < 2:
        parser.error(f"--hands {args.hands}: needs at least 2 hands")
    for spec in (args.bot, *args.search):
        try:
            make_bot(spec)
        except BotError as e:
            parser.error(str(e))
    start = time.perf_counter()
    data = decisions(args.bot, args.preset, args.players, args.hands, args.seed)
    cut = len(data) * 2 // 3
    if cut == len(data) or not cut:
        parser.error(f"--hands {args.hands}: too few decisions with a choice ({len(data)})")
    train, test = data[:cut], data[cut:]
    weights = fit(train)
    print(f"{args.bot}, {args.preset}, {args.players} players, {args.hands} hands, seed "
          f"{args.seed}: {len(data)} decisions, fitted on {len(train)}, shares of the other "
          f"{len(test)} ({time.perf_counter() - start:.0f} s)")
    models = [("table", table_choice), ("greedy", greedy_choice),
              ("fitted", fitted_choice(weights)),
              *((spec, search_choice(spec, args.seed)) for spec in args.search)]
    for name, choose in models:
        k = agreement(test, choose)
        lo, hi = wilson(k, len(test))
        print(f"  {name:<7} {k / len(test):.3f} [{lo:.3f}, {hi:.3f}]")
    print("  fitted weights: " + ", ".join(f"{name} {w:+.3g}"
                                           for name, w in zip(FEATURES, weights, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
