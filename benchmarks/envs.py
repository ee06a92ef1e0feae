"""Steps per second of the research environments, next to OpenSpiel's Python dominoes.

Every row plays uniformly random legal actions for ``--seconds`` (after a
short warm-up) and counts environment steps, one per action taken:

* ``openspiel python_block_dominoes (rl_environment)`` -- the reference:
  OpenSpiel's own Python dominoes through ``rl_environment.Environment``
  (chance nodes sampled inside, information state tensors for every player
  at each step, as that environment does by default);
* ``openspiel python_matador (rl_environment)`` -- our game the same way;
* ``pettingzoo matador_v0 (wrapped)`` -- ``matador_v0.env()``, the standard
  wrappers included, the ``agent_iter``/``last``/``step`` loop (the
  observation of the agent to move is encoded at each step);
* ``pettingzoo matador_v0 (raw)`` -- the same without PettingZoo's wrappers;
* ``gymnasium Matador-v0`` -- one ``step`` per learner decision, the other
  seat played inside by a random callable (its observation encoded too);
  with ``bot greedy`` the other seat is our ``greedy`` bot, which is handed a
  :class:`PlayerView` at each of its moves.

Run: ``python benchmarks/envs.py [--seconds 3] [--preset classic] [--players 2]
[--json FILE]``. The machine's load changes the figures; the ratios to the
first row, measured in the same run, are what to compare.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import games as _open_spiel_python_games  # noqa: F401 (registers)
from open_spiel.python import rl_environment

import matador.envs.openspiel  # noqa: F401 (registers python_matador)
from matador.envs import matador_v0
from matador.envs.gym_env import MatadorEnv

Runner = Callable[[float], tuple[int, float]]


def timed(loop: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Run ``loop`` (it returns the steps it took) until ``seconds`` have passed."""
    loop()  # warm-up
    steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += loop()
    return steps, elapsed


def openspiel_rl(game: Any, seed: int) -> Callable[[float], tuple[int, float]]:
    env = rl_environment.Environment(game, seed=seed)
    rng = random.Random(seed)

    def episode() -> int:
        step = env.reset()
        n = 0
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][player])])
            n += 1
        return n

    return lambda seconds: timed(episode, seconds)


def pettingzoo(preset: str, players: int, seed: int, wrapped: bool) -> Runner:
    env = (matador_v0.env if wrapped else matador_v0.raw_env)(preset=preset, players=players)
    rng = random.Random(seed)
    env.reset(seed=seed)

    def episode() -> int:
        env.reset()
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
        return n

    return lambda seconds: timed(episode, seconds)


def gymnasium(preset: str, players: int, seed: int, bot: str | None) -> Runner:
    rng = random.Random(seed)

    def random_policy(obs: Any, mask: Any) -> int:
        return int(rng.choice(np.flatnonzero(mask).tolist()))

    env = MatadorEnv(preset=preset, players=players,
                     opponents=bot if bot is not None else random_policy)
    env.reset(seed=seed)

    def episode() -> int:
        _, info = env.reset()
        n = 0
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            n += 1
        return n

    return lambda seconds: timed(episode, seconds)


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table (and write ``--json``)."""
    parser = argparse.ArgumentParser(description="Steps/s of Matador's research environments "
                                                 "next to OpenSpiel's Python dominoes.")
    parser.add_argument("--seconds", type=float, default=3.0, help="per row (default 3)")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)

    matador_game = pyspiel.load_game("python_matador",
                                     {"preset": args.preset, "players": args.players})
    config = f"{args.preset}, {args.players} players"
    rows: list[tuple[str, Runner]] = [
        ("openspiel python_block_dominoes (rl_environment)",
         openspiel_rl(pyspiel.load_game("python_block_dominoes"), args.seed)),
        (f"openspiel python_matador (rl_environment), {config}",
         openspiel_rl(matador_game, args.seed)),
        (f"pettingzoo matador_v0 (wrapped), {config}",
         pettingzoo(args.preset, args.players, args.seed, True)),
        (f"pettingzoo matador_v0 (raw), {config}",
         pettingzoo(args.preset, args.players, args.seed, False)),
        (f"gymnasium Matador-v0, random callable opponents, {config}",
         gymnasium(args.preset, args.players, args.seed, None)),
        (f"gymnasium Matador-v0, bot greedy opponents, {config}",
         gymnasium(args.preset, args.players, args.seed, "greedy")),
    ]
    results: list[dict[str, Any]] = []
    base = 0.0
    print(f"{'environment':<72} {'steps/s':>10} {'x dominoes':>10}")
    for name, run in rows:
        steps, elapsed = run(args.seconds)
        rate = steps / elapsed
        base = base or rate
        results.append({"environment": name, "steps": steps, "seconds": elapsed,
                        "steps_per_second": rate, "ratio_to_block_dominoes": rate / base})
        print(f"{name:<72} {rate:>10.0f} {rate / base:>10.2f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"python": platform.python_version(), "machine": platform.machine(),
                       "seconds_per_row": args.seconds, "rows": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
