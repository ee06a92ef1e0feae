"""``matador arena`` with variants of ``sage`` registered as bot kinds, to screen one piece.

Each variant is ``sage`` with one piece changed, so that a duplicate-deal
match against plain ``sage`` at the same iteration budget says what that
piece is worth (``docs/bots.md``, "Inference, the ceiling, and the other seats")::

    python benchmarks/variants.py sage-e12:300it sage:300it --preset classic \\
        --players 2 --deals 500 --seed 1804 --bootstrap 0

Every argument goes to ``matador arena``; the variants are:

* ``sage-e0``: no exact endgames (playouts to the end of every world);
* ``sage-e12``: exact endgames from 12 tiles in play (``sage``: 9);
* ``sage-full``: no early stop on settled decisions (the whole budget on
  every decision with a choice);
* ``sage-eps0``, ``sage-eps20``: playouts with no random moves, or with one in
  five (``sage``: one in twenty);
* ``sage-tw``: playouts (every seat's moves in them) with the ``heuristic``
  weights that ``benchmarks/tune_heuristic.py`` found for classic with four
  players (:data:`TUNED_4P`), set around the bot's own searches only, so the
  other bots of the match keep the defaults;
* ``sage-g``: ``pimc``'s greedy playouts (``sage``: every seat the card
  counter);
* ``sage-x``: exact endgames with any number of players (``sage``: two only),
  as ``pimc`` has them;
* ``sage-cheater``: ``sage``'s whole search (playouts, endgames, time) on the true
  hands, the boneyard order still unknown, as the ``cheater`` does with ``pimc``'s:
  the ceiling of what knowing the other hands is worth to ``sage``, which only the
  arena can run;
* ``sage-gx``: both, with ``pimc``'s share of random moves in the playouts:
  ``pimc`` with ``sage``'s time management (with no early stop it is ``pimc``,
  statistic for statistic; ``tests/players/test_sage.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from random import Random

from matador.cli.main import main
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import SageBot, register
from matador.players import heuristic as h
from matador.players.base import Budget, OracleBot
from matador.players.pimc import true_worlds
from matador.players.rollout import EPSILON as ROLLOUT_EPSILON
from matador.players.rollout import kernel_policy

TUNED_4P = {"W_PIPS": 1.6, "W_MATADOR": 19.2}
"""``python benchmarks/tune_heuristic.py --preset classic --players 4 --deals 3000``."""


class TunedSage(SageBot):
    """``sage`` whose playouts use other weights (``heuristic``'s module values, and the
    kernel's policy made from them, swapped in for its own searches only)."""

    kind = "sage-tw"

    def __init__(self, budget: Budget | None = None,
                 weights: dict[str, float] | None = None) -> None:
        super().__init__(budget)
        self.weights = dict(TUNED_4P if weights is None else weights)

    def _swap(self, values: dict[str, float]) -> dict[str, float]:
        saved = {name: getattr(h, name) for name in values}
        for name, value in values.items():
            setattr(h, name, value)
        kernel_policy.cache_clear()
        return saved

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        saved = self._swap(self.weights)
        try:
            return super()._choose(view, legal, rng)
        finally:
            self._swap(saved)


class _TrueSage(SageBot):
    """``sage`` searching the worlds of one true state (set by :class:`SageCheater`)."""

    truth: HandState | None = None

    def worlds(self, view: PlayerView, budget: Budget) -> Callable[[Random], HandState]:
        assert self.truth is not None and self.truth.to_move == view.seat
        return true_worlds(self.truth)


class SageCheater(OracleBot):
    """``sage`` on the true hands (``sage-cheater``): its search, time bank and endgames, the
    worlds those of :func:`~matador.players.pimc.true_worlds` (only the boneyard order
    unknown). A measuring stick: only the arena, which knows the state, can run it."""

    kind = "sage-cheater"
    default_budget = SageBot.default_budget

    def __init__(self, budget: Budget | None = None) -> None:
        super().__init__(budget)
        self.inner = _TrueSage(budget)

    def _choose_truth(self, state: HandState, view: PlayerView, legal: tuple[int, ...],
                      rng: Random) -> int:
        self.inner.truth = state
        try:
            return self.inner._choose(view, legal, rng)
        finally:
            self.inner.truth = None


VARIANTS = {
    "sage-cheater": SageCheater,
    "sage-e0": partial(SageBot, endgame=0),
    "sage-e12": partial(SageBot, endgame=12),
    "sage-full": partial(SageBot, early_stop=False),
    "sage-eps0": partial(SageBot, epsilon=0.0),
    "sage-eps20": partial(SageBot, epsilon=0.2),
    "sage-tw": TunedSage,
    "sage-g": partial(SageBot, playout="greedy"),
    "sage-x": partial(SageBot, endgame_all=True),
    "sage-gx": partial(SageBot, playout="greedy", endgame_all=True, epsilon=ROLLOUT_EPSILON),
}


if __name__ in ("__main__", "__mp_main__"):  # the arena's workers (spawned) need them too
    for _kind, _factory in VARIANTS.items():
        register(_kind, _factory)
if __name__ == "__main__":
    sys.exit(main(["arena", *sys.argv[1:]]))
