"""Train a Matador policy with masked policy gradient on the Gymnasium environment (plain numpy).

The learner plays one seat of ``matador/Matador-v0`` (a random seat each
hand) against a bot (default ``greedy``). The policy is a small multilayer
perceptron from the observation to one logit per action id; illegal actions
are masked out of its softmax. Training is REINFORCE with a learned value
baseline and an entropy bonus (advantage = hand result - value), updated
with Adam after each batch of hands. The result is a ``policy:FILE`` bot:

    pip install -e '.[rl]'
    python examples/train_policy.py --hands 60000 --out policy.npz
    matador arena policy:policy.npz random --preset classic --players 2 --deals 1000
    matador arena policy:policy.npz greedy --preset classic --players 2 --deals 1000

Everything is seeded (``--seed``), so a run is reproducible. Only numpy is
needed besides the ``rl`` extra: no GPU, no deep-learning framework.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from matador.envs.gym_env import MatadorEnv
from matador.envs.policy import save_policy

Array = npt.NDArray[np.float64]


class Net:
    """Observation -> hidden (ReLU) -> 128 action logits, plus a value head on the hidden layer."""

    def __init__(self, inputs: int, hidden: int, rng: np.random.Generator) -> None:
        self.params: dict[str, Array] = {
            "w1": rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (hidden, 128)),
            "b2": np.zeros(128),
            "wv": np.zeros(hidden),
            "bv": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def forward(self, x: Array, mask: Array) -> tuple[Array, Array, Array]:
        """Hidden activations, masked action probabilities and values for a batch."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        z = h @ p["w2"] + p["b2"]
        z = np.where(mask > 0, z, -1e9)
        z -= z.max(axis=-1, keepdims=True)
        e = np.exp(z) * (mask > 0)
        probs = e / e.sum(axis=-1, keepdims=True)
        value = h @ p["wv"] + p["bv"][0]
        return h, probs, value

    def update(self, x: Array, mask: Array, actions: npt.NDArray[np.int64], returns: Array,
               lr: float, entropy: float, value_coef: float = 0.5) -> dict[str, float]:
        """One Adam step on the REINFORCE-with-baseline loss of a batch of decisions."""
        p = self.params
        n = len(actions)
        h, probs, value = self.forward(x, mask)
        advantage = returns - value
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions] = 1.0
        # d(loss)/d(logits): policy gradient, minus the entropy bonus's gradient.
        dz = -advantage[:, None] * (onehot - probs)
        dz += entropy * probs * (logp + ent[:, None])
        dz /= n
        dv = value_coef * (value - returns) / n
        grads = {
            "w2": h.T @ dz, "b2": dz.sum(axis=0),
            "wv": h.T @ dv, "bv": np.array([dv.sum()]),
        }
        dh = dz @ p["w2"].T + dv[:, None] * p["wv"][None, :]
        dh *= h > 0
        grads["w1"] = x.T @ dh
        grads["b1"] = dh.sum(axis=0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mhat = self.m[k] / (1 - b1 ** self.t)
            vhat = self.v[k] / (1 - b2 ** self.t)
            p[k] -= lr * mhat / (np.sqrt(vhat) + eps)
        return {"entropy": float(ent.mean()), "value_loss": float((advantage ** 2).mean())}

    def layers(self) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """The policy part, for :func:`matador.envs.policy.save_policy`."""
        p = self.params
        return [(p["w1"].astype(np.float32), p["b1"].astype(np.float32)),
                (p["w2"].astype(np.float32), p["b2"].astype(np.float32))]


def collect(env: MatadorEnv, net: Net, hands: int, rng: np.random.Generator
            ) -> tuple[Array, Array, npt.NDArray[np.int64], Array, float]:
    """Play ``hands`` hands with the current policy; each decision with its hand's result."""
    xs: list[Array] = []
    masks: list[Array] = []
    actions: list[int] = []
    returns: list[float] = []
    total = 0.0
    for _ in range(hands):
        obs, info = env.reset(seed=int(rng.integers(2**62)))
        start = len(actions)
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"].astype(np.float64)
            _, probs, _ = net.forward(obs[None, :].astype(np.float64), mask[None, :])
            action = int(rng.choice(128, p=probs[0]))
            xs.append(obs)
            masks.append(mask)
            actions.append(action)
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        returns.extend([float(reward)] * (len(actions) - start))
        total += float(reward)
    return (np.asarray(xs, np.float64), np.asarray(masks), np.asarray(actions, np.int64),
            np.asarray(returns), total / hands)


def main(argv: list[str] | None = None) -> int:
    """Train and save a policy; print progress (mean reward per batch) as it goes."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="greedy", help="bot spec of the other seats")
    parser.add_argument("--hands", type=int, default=60_000, help="training hands in all")
    parser.add_argument("--batch", type=int, default=200, help="hands per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="policy.npz")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    env = MatadorEnv(preset=args.preset, players=args.players, seat=None,
                     opponents=args.opponent)
    env.reset(seed=args.seed)
    net = Net(env.observation_space.shape[0], args.hidden, rng)
    start = time.perf_counter()
    done = 0
    batches = max(1, args.hands // args.batch)
    for b in range(batches):
        x, mask, actions, returns, mean = collect(env, net, args.batch, rng)
        stats = net.update(x, mask, actions, returns, args.lr, args.entropy)
        done += args.batch
        if b % 10 == 0 or b == batches - 1:
            print(f"hands {done:7d}  mean reward {mean:+.3f}  entropy {stats['entropy']:.3f}  "
                  f"value loss {stats['value_loss']:.3f}  {time.perf_counter() - start:6.1f} s",
                  flush=True)
    facts: dict[str, Any] = {"preset": args.preset, "trained_against": args.opponent,
                             "hands": done, "seed": args.seed,
                             "method": "REINFORCE with value baseline, numpy"}
    save_policy(args.out, net.layers(), players=args.players, activation="relu", **facts)
    print(f"saved {args.out}: try  matador arena policy:{args.out} random "
          f"--preset {args.preset} --players {args.players} --deals 1000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
