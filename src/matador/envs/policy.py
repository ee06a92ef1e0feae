"""Trained policies as bots: the ``policy:FILE`` spec of ``matador arena`` and ``play``.

A policy file (``.npz``, no pickles) holds a small multilayer perceptron
from the observation of :mod:`matador.envs.encoding` to one logit per
action id, and a JSON ``meta`` entry: ``format`` (``matador-policy``),
``version`` (1), ``players`` and ``observation_size`` (the encoding it was
trained on), ``activation`` (``relu`` or ``tanh``) and free-form facts
(``preset``, how it was trained). :class:`PolicyBot` plays the legal move
with the highest logit, from its seat's :class:`PlayerView` alone.

>>> import tempfile, random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> from matador.core.view import PlayerView
>>> rng = np.random.default_rng(0)
>>> layers = [(rng.normal(size=(196, 8)).astype(np.float32), np.zeros(8, np.float32)),
...           (rng.normal(size=(8, 128)).astype(np.float32), np.zeros(128, np.float32))]
>>> path = tempfile.mkdtemp() + "/tiny.npz"
>>> save_policy(path, layers, players=2, preset="classic")
>>> bot = make_bot(f"policy:{path}")
>>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
>>> bot.choose(PlayerView.of(state, state.to_move), random.Random(1)) in state.legal_moves
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import numpy.typing as npt

from matador.core.view import PlayerView
from matador.envs.encoding import NUM_ACTIONS, encode_view, observation_size
from matador.players.base import Bot, BotError, make_bot, register_loader

__all__ = ["FORMAT", "Policy", "PolicyBot", "load_policy", "make_bot", "save_policy"]

FORMAT = "matador-policy"
VERSION = 1

Layer = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


class Policy:
    """A multilayer perceptron: ``layers`` of (weights, bias); ``activation`` between them."""

    def __init__(self, layers: Sequence[Layer], activation: str = "relu",
                 meta: dict[str, Any] | None = None) -> None:
        if activation not in ("relu", "tanh"):
            raise BotError(f"activation: {activation!r} is not 'relu' or 'tanh'")
        if not layers:
            raise BotError("a policy needs at least one layer")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        for i, (w, b) in enumerate(self.layers):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise BotError(f"layer {i}: weights {w.shape} and bias {b.shape} do not fit")
            if i and w.shape[0] != self.layers[i - 1][0].shape[1]:
                raise BotError(f"layer {i}: takes {w.shape[0]} inputs, the layer before gives "
                               f"{self.layers[i - 1][0].shape[1]}")
        if self.layers[-1][0].shape[1] != NUM_ACTIONS:
            raise BotError(f"the last layer gives {self.layers[-1][0].shape[1]} logits, "
                           f"not one per action ({NUM_ACTIONS})")
        self.activation = activation
        self.meta = dict(meta or {})
        self.inputs = int(self.layers[0][0].shape[0])

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The logits of observation(s) ``x`` (one vector, or a batch as rows)."""
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0) if self.activation == "relu" else np.tanh(h)
        return h

    def best(self, x: npt.NDArray[np.float32], legal: Sequence[int]) -> int:
        """The legal action with the highest logit (the lowest id on a tie)."""
        z = self.logits(x)
        return max(legal, key=lambda a: (z[a], -a))


def save_policy(path: str | Path, layers: Sequence[Layer], *, players: int,
                activation: str = "relu", **facts: Any) -> None:
    """Write a policy file (see the module docstring); ``facts`` go into ``meta``."""
    policy = Policy(layers, activation)
    size = observation_size(players)
    if policy.inputs != size:
        raise BotError(f"the first layer takes {policy.inputs} inputs, but the observation of "
                       f"{players} players has {size}")
    meta = {"format": FORMAT, "version": VERSION, "players": players,
            "observation_size": size, "activation": activation, "layers": len(layers), **facts}
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    for i, (w, b) in enumerate(policy.layers):
        arrays[f"w{i}"] = w
        arrays[f"b{i}"] = b
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def load_policy(path: str | Path) -> Policy:
    """Read a policy file; raise :class:`BotError` naming what is wrong with it."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except OSError as e:
        raise BotError(f"policy {path}: cannot read it ({e.strerror or e})") from None
    except ValueError as e:
        raise BotError(f"policy {path}: not a policy file ({e})") from None
    if "meta" not in arrays:
        raise BotError(f"policy {path}: no 'meta' entry (not a {FORMAT} file)")
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError:
        raise BotError(f"policy {path}: 'meta' is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise BotError(f"policy {path}: format is not {FORMAT!r}")
    if meta.get("version") != VERSION:
        raise BotError(f"policy {path}: version {meta.get('version')!r} (this matador reads "
                       f"{VERSION})")
    count = meta.get("layers")
    if not isinstance(count, int) or any(f"{k}{i}" not in arrays for i in range(count)
                                         for k in "wb"):
        raise BotError(f"policy {path}: 'layers' does not match the arrays stored")
    layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)]
    try:
        policy = Policy(layers, str(meta.get("activation")), meta)
    except BotError as e:
        raise BotError(f"policy {path}: {e}") from None
    if policy.inputs != meta.get("observation_size"):
        raise BotError(f"policy {path}: takes {policy.inputs} inputs, its meta says "
                       f"{meta.get('observation_size')}")
    return policy


class PolicyBot(Bot):
    """A trained policy as a bot: the legal move of highest logit for its seat's view."""

    kind = "policy"

    def __init__(self, path: str | Path) -> None:
        super().__init__(None)
        self.path = str(path)
        self.policy = load_policy(path)
        self.players = int(self.policy.meta.get("players", 0))

    @property
    def name(self) -> str:
        """``policy:FILE``."""
        return f"policy:{self.path}"

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        if view.players != self.players:
            raise BotError(f"policy {self.path} was trained for {self.players} players, "
                           f"this hand has {view.players}")
        return self.policy.best(encode_view(view), legal)


register_loader("policy", PolicyBot)
