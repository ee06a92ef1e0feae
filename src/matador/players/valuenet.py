"""A learned evaluation: a small network's chance to win a position with everything known.

``sage`` mixes it into the value of each move in each world it searches
(:class:`~matador.players.sage.SageBot`, ``evaluation``): the value is
``(1 - mix)`` times the playout's outcome plus ``mix`` times the network's
chance to win right after the move. The network was trained on self-play
positions of ``sage`` (``benchmarks/value_net.py``, ``docs/bots.md``, "A learned
evaluation"); the package ships its weights for the tables it was trained on
(:data:`SHIPPED`), and the compiled kernel evaluates it beside the playouts
(:func:`matador.fast.net_values`), so it needs the ``matador[fast]`` extra.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> net = shipped_net(Rules.from_preset("classic"), 2)
>>> if net is not None:
...     state = HandState.new(Rules.from_preset("classic"), 2, random.Random(3))
...     p = float(net(features(state, 0)[None])[0])
...     assert 0.0 < p < 1.0
"""

from __future__ import annotations

import importlib.util
import os
from importlib import resources
from typing import TYPE_CHECKING

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.fast.layout import NET_FEATURES, net_features

if TYPE_CHECKING:
    import numpy as np

FEATURES = NET_FEATURES
"""Length of :func:`features` with two players (the kernel computes the same features,
``net_values``)."""
SHIPPED = (("classic", 2), ("russian", 2), ("six", 2))
"""The tables (preset, players) whose weights come with the package
(``weights/<preset>-<players>p.npz``)."""
NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
"""The weight arrays of a network, in order."""


def features(state: HandState, seat: int) -> np.ndarray:
    """What the network sees of a full-information position, from ``seat``'s side.

    The tiles of ``seat``'s hand, of each other hand in playing order (the
    next seat's first), of the rest (boneyard and set aside) and on the line
    (28 bits each); each end's number (one-hot, or "no line yet"); then, scaled
    to about 0-1, who is to move (one bit for ``seat`` and each later seat but
    the last, none for the last), whether the mover has drawn, every hand's
    size in the same order, the boneyard's size and the pip difference between
    ``seat``'s hand and each other one. With two players that is 134 numbers
    (:data:`FEATURES`); :func:`~matador.fast.layout.net_features` gives the
    length for any number of players.
    """
    import numpy as np

    n = len(state.hands)
    x = np.zeros(net_features(n), dtype=np.float32)
    order = [(seat + k) % n for k in range(n)]
    line = state.played
    rest = ((1 << 28) - 1) & ~line
    for s in order:
        rest &= ~state.hands[s]
    for block, mask in enumerate([*(state.hands[s] for s in order), rest, line]):
        base = 28 * block
        while mask:
            low = mask & -mask
            x[base + low.bit_length() - 1] = 1.0
            mask ^= low
    base = 28 * (n + 2)
    for k, end in enumerate((state.left, state.right)):
        x[base + 8 * k + (end if end >= 0 else 7)] = 1.0
    base += 16
    sizes = state.hand_sizes()
    pips = state.pips()
    ahead = (state.to_move - seat) % n if state.to_move >= 0 else n
    if ahead < n - 1:
        x[base + ahead] = 1.0
    x[base + n - 1] = 1.0 if state.drawn else 0.0
    for k, s in enumerate(order):
        x[base + n + k] = sizes[s] / 7
    x[base + 2 * n] = state.boneyard_size / 14
    for k, s in enumerate(order[1:]):
        x[base + 2 * n + 1 + k] = (pips[seat] - pips[s]) / 40
    return x


def players_of(features_count: int) -> int:
    """The table size whose :func:`features` have ``features_count`` numbers (0: none).

    >>> players_of(FEATURES), players_of(net_features(4)), players_of(135)
    (2, 4, 0)
    """
    return next((n for n in range(2, 5) if net_features(n) == features_count), 0)


class ValueNet:
    """A two-hidden-layer network (ReLU), a sigmoid out: the chance to win (numpy).

    Its input is :func:`features` of a position at a table of :attr:`players`;
    with more than two players "win" is the seat's win value (1 for a win,
    ``1/N`` for a hand without a winner, 0 for a loss), which it learns by the
    same cross-entropy.

    ``weights`` maps :data:`NAMES` to float32 arrays: ``w1`` (features x
    hidden), ``b1``, ``w2`` (hidden x hidden), ``b2``, ``w3`` (hidden x 1) and
    ``b3`` (1).
    """

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        missing = [k for k in NAMES if k not in weights]
        if missing:
            raise ValueError(f"value network weights miss {', '.join(missing)}")
        count = weights["w1"].shape[0]
        self.players = players_of(count)
        """The table size the network evaluates (from the length of its input)."""
        if not self.players:
            raise ValueError(f"value network weights take {count} features, expected "
                             + ", ".join(f"{net_features(n)} ({n} players)" for n in (2, 3, 4)))
        self.w = weights

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator, players: int = 2) -> ValueNet:
        """He-initialised weights, ``hidden`` units a layer, for a table of ``players``."""
        import numpy as np

        def layer(n: int, m: int) -> np.ndarray:
            out: np.ndarray = (rng.standard_normal((n, m)) * np.sqrt(2.0 / n)).astype(np.float32)
            return out
        return cls({"w1": layer(net_features(players), hidden),
                    "b1": np.zeros(hidden, np.float32),
                    "w2": layer(hidden, hidden), "b2": np.zeros(hidden, np.float32),
                    "w3": layer(hidden, 1), "b3": np.zeros(1, np.float32)})

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ValueNet:
        """The network saved by :meth:`save` (or ``value_net.py train``) at ``path``."""
        import numpy as np

        with np.load(path) as data:
            return cls({k: data[k].astype(np.float32) for k in data.files})

    def save(self, path: str) -> None:
        """Write the weights to ``path`` (``.npz``)."""
        import numpy as np

        np.savez(path, **self.w)  # type: ignore[arg-type]

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The logit of each row of ``x``."""
        import numpy as np

        w = self.w
        h1 = np.maximum(x @ w["w1"] + w["b1"], 0.0)
        h2 = np.maximum(h1 @ w["w2"] + w["b2"], 0.0)
        out: np.ndarray = (h2 @ w["w3"] + w["b3"])[:, 0]
        return out

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The chance to win of each row of ``x``."""
        import numpy as np

        out: np.ndarray = 1.0 / (1.0 + np.exp(-self.logits(x)))
        return out

    def fit(self, x: np.ndarray, y: np.ndarray, epochs: int, rng: np.random.Generator,
            batch: int = 1024, lr: float = 1e-3) -> None:
        """Cross-entropy by Adam on minibatches of the rows of ``x`` and win values ``y``."""
        import numpy as np

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


_SHIPPED: dict[tuple[str, int], ValueNet | None] = {}


def shipped_net(rules: Rules, players: int) -> ValueNet | None:
    """The network shipped for ``rules`` at a table of ``players``, or ``None``: only for the
    tables of :data:`SHIPPED`, under the unchanged rules of their preset, and with numpy
    installed (loaded once a process)."""
    table = (rules.preset, players)
    if table not in SHIPPED or importlib.util.find_spec("numpy") is None:
        return None
    if rules != Rules.from_preset(rules.preset):
        return None  # house rules: the network never saw them
    if table not in _SHIPPED:
        ref = resources.files("matador.players") / "weights" / f"{rules.preset}-{players}p.npz"
        with resources.as_file(ref) as path:
            _SHIPPED[table] = ValueNet.load(path) if path.exists() else None
    return _SHIPPED[table]


__all__ = ["FEATURES", "NAMES", "SHIPPED", "ValueNet", "features", "players_of", "shipped_net"]
