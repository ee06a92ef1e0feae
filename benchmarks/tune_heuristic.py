"""Tune the ``heuristic``'s weights for one preset and player count, by coordinate search.

A candidate set of weights plays at one seat and the plain ``heuristic`` at
every other, on duplicate deals (each deal once per seat of the candidate);
its score is its share of the hands (a hand with no winner counts 1/N). Each
round tries every weight times and divided by ``--step`` (the two ``SPEND_``
thresholds two up and two down) and keeps a change that gains more than
``--min-gain`` on the same deals; the result is then measured on fresh deals.
``DRAW_COST`` and ``W_OUT`` are left alone (the blocking values are memoised
with the first, the second only says "going out wins")::

    python benchmarks/tune_heuristic.py --preset classic --players 4 --deals 3000

What it found, and what it was worth as ``sage``'s playout policy, is in
``docs/bots.md`` ("Tuned playout weights").
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import heuristic as h

TUNED = ("W_PIPS", "W_FOLLOW", "W_MATADOR", "W_LAST_MATADOR", "W_BLOCK", "W_BLANK",
         "W_BLANK_NO_MATADOR", "W_BLOCK_OTHERS", "W_POINTS", "SPEND_NEXT", "SPEND_BONE")
"""The weights searched, by their names in :mod:`matador.players.heuristic`."""


def defaults() -> dict[str, float]:
    """The ``heuristic``'s weights as they are."""
    return {name: float(getattr(h, name)) for name in TUNED}


@contextmanager
def weights(values: Mapping[str, float]) -> Iterator[None]:
    """The ``heuristic`` module's weights set to ``values`` inside the block."""
    saved = {name: getattr(h, name) for name in values}
    for name, value in values.items():
        setattr(h, name, int(value) if name.startswith("SPEND_") else value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(h, name, value)


def score(candidate: Mapping[str, float], preset: str, players: int, deals: int,
          seed: int) -> float:
    """The candidate's share of the hands against ``heuristic`` seats (see the module doc)."""
    rules = Rules.from_preset(preset)
    bot = h.HeuristicBot()
    total = 0.0
    for d in range(deals):
        for seat in range(players):
            state = HandState.new(rules, players, random.Random(seed * 1_000_003 + d))
            rng = random.Random(d)
            while state.outcome is None:
                ids = state.legal_move_ids()
                if len(ids) == 1:
                    state.push(ids[0])
                    continue
                view = PlayerView.of(state, state.to_move)
                if state.to_move == seat:
                    with weights(candidate):
                        state.push(bot._choose(view, ids, rng))
                else:
                    state.push(bot._choose(view, ids, rng))
            winner = state.outcome.winner
            total += 1 / players if winner is None else float(winner == seat)
    return total / (deals * players)


def changed(current: Mapping[str, float], name: str, up: bool, step: float
            ) -> dict[str, float]:
    """``current`` with weight ``name`` moved one step up or down."""
    value = current[name]
    if name.startswith("SPEND_"):
        moved = max(0.0, value + (2 if up else -2))
    elif value == 0:
        moved = 1.0 if up else 0.0
    else:
        moved = value * step if up else value / step
    return {**current, name: moved}


def tune(preset: str, players: int, deals: int, rounds: int, step: float, min_gain: float,
         seed: int) -> dict[str, float]:
    """Coordinate search from the defaults; prints its progress and the fresh-deal check."""
    began = time.perf_counter()
    current = defaults()
    best = score(current, preset, players, deals, seed)
    print(f"defaults: {best:.4f} on {deals} deals x {players} seats, seed {seed}", flush=True)
    for r in range(rounds):
        moved = False
        for name in TUNED:
            for up in (True, False):
                candidate = changed(current, name, up, step)
                if candidate[name] == current[name]:
                    continue
                s = score(candidate, preset, players, deals, seed)
                if s > best + min_gain:
                    print(f"round {r + 1}: {name} {current[name]:g} -> {candidate[name]:g}: "
                          f"{s:.4f}", flush=True)
                    best, current, moved = s, candidate, True
                    break  # this weight moved: the next one
        print(f"round {r + 1} done: {best:.4f} ({time.perf_counter() - began:.0f} s)",
              flush=True)
        if not moved:
            break
    fresh = seed + 1
    print(f"fresh deals (seed {fresh}): defaults "
          f"{score(defaults(), preset, players, deals, fresh):.4f}, tuned "
          f"{score(current, preset, players, deals, fresh):.4f}")
    changed_only = {k: v for k, v in current.items() if v != defaults()[k]}
    print(f"changed: {json.dumps(changed_only)}")
    return current


def main(argv: list[str] | None = None) -> None:
    """Parse the options and tune."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--step", type=float, default=1.6)
    ap.add_argument("--min-gain", type=float, default=0.003)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    tune(a.preset, a.players, a.deals, a.rounds, a.step, a.min_gain, a.seed)


if __name__ == "__main__":
    main()
