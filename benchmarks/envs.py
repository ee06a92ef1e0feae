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
* ``pettingzoo's wrappers over a do-nothing env`` -- the ceiling of the wrapped
  row: an AEC env whose steps do no work (a fixed observation and mask, two
  agents taking turns, 20 steps an episode) behind the same three wrappers
  and driven by the same loop. No environment wrapped this way steps faster;
* ``gymnasium Matador-v0`` -- one ``step`` per learner decision, the other
  seat played inside by a random callable (its observation encoded too);
  with ``bot greedy`` the other seat is our ``greedy`` bot, which is handed a
  :class:`PlayerView` at each of its moves.

Run: ``python benchmarks/envs.py [--seconds 3] [--repeat 3] [--preset classic]
[--players 2] [--json FILE]``. Each row gets ``--seconds`` split into
``--repeat`` runs taken round-robin over the rows (every other round in
reverse order); a rate is the best of its runs and the ratio to the first row
the median over rounds of the ratios of the same round's runs. The machine's
load changes the figures; the ratios are what to compare.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pyspiel
from gymnasium import spaces
from open_spiel.python import games as _open_spiel_python_games  # noqa: F401 (registers)
from open_spiel.python import rl_environment
from pettingzoo import AECEnv

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
    return aec_loop(env, seed)


def aec_loop(env: AECEnv, seed: int) -> Runner:
    """The ``agent_iter``/``last``/``step`` loop of random legal actions over ``env``."""
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


class NullEnv(AECEnv):  # type: ignore[misc]
    """An AEC env that does nothing: two agents alternate for 20 steps on a fixed observation."""

    metadata: ClassVar[dict[str, Any]] = {"name": "null_v0", "render_modes": [],
                                          "is_parallelizable": False}
    LENGTH = 20

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        mask = np.zeros(128, dtype=np.int8)
        mask[:3] = 1
        self._obs = {"observation": np.zeros(200, dtype=np.float32), "action_mask": mask}
        self._spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (200,), np.float32),
            "action_mask": spaces.Box(0, 1, (128,), np.int8)}) for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(128) for a in self.possible_agents}

    def observation_space(self, agent: str) -> Any:
        return self._spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._actions[agent]

    def observe(self, agent: str) -> Any:
        return self._obs

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._steps = 0

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._steps += 1
        if self._steps >= self.LENGTH:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[self._steps % 2]


def pettingzoo_ceiling(seed: int) -> Runner:
    """The same loop as :func:`pettingzoo` over :class:`NullEnv` behind the standard wrappers."""
    return aec_loop(matador_v0.wrap(NullEnv()), seed)


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
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds over the rows, the seconds split among them (default 3)")
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
        ("pettingzoo's wrappers over a do-nothing env (the wrapped row's ceiling)",
         pettingzoo_ceiling(args.seed)),
        (f"gymnasium Matador-v0, random callable opponents, {config}",
         gymnasium(args.preset, args.players, args.seed, None)),
        (f"gymnasium Matador-v0, bot greedy opponents, {config}",
         gymnasium(args.preset, args.players, args.seed, "greedy")),
    ]
    # Rounds over all rows (every other one in reverse order), so that a noisy moment hits one
    # run of several rows rather than every run of one; a rate is the best of its runs and a
    # ratio the median over rounds of the ratio of the runs of the same round.
    rates: list[list[float]] = [[] for _ in rows]
    steps_of = [0] * len(rows)
    for r in range(args.repeat):
        order = range(len(rows)) if r % 2 == 0 else range(len(rows) - 1, -1, -1)
        for i in order:
            steps, elapsed = rows[i][1](args.seconds / args.repeat)
            rates[i].append(steps / elapsed)
            steps_of[i] += steps
    results: list[dict[str, Any]] = []
    print(f"{'environment':<72} {'steps/s':>10} {'x dominoes':>10}")
    for i, (name, _) in enumerate(rows):
        rate = max(rates[i])
        ratio = statistics.median(a / b for a, b in zip(rates[i], rates[0], strict=True))
        results.append({"environment": name, "steps": steps_of[i], "rates": rates[i],
                        "steps_per_second": rate, "ratio_to_block_dominoes": ratio})
        print(f"{name:<72} {rate:>10.0f} {ratio:>10.2f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"python": platform.python_version(), "machine": platform.machine(),
                       "seconds_per_row": args.seconds, "repeat": args.repeat,
                       "rows": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
