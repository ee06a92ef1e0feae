"""Bots for ``python_matador``: ours as ``pyspiel.Bot``, OpenSpiel's MCTS with determinisation.

* :class:`MatadorBot` seats any of our bots (``greedy``, ``pimc:200it``...) in
  OpenSpiel's loops (``evaluate_bots``): it hands the bot the
  :class:`~matador.core.view.PlayerView` of its player, nothing more.
* :func:`ismcts_bot` builds OpenSpiel's own ``ISMCTSBot`` with random
  rollouts; it runs on the game's ``resample_from_infostate``.
* :class:`DeterminizedMCTSBot` runs OpenSpiel's perfect-information
  ``MCTSBot`` on worlds drawn with ``resample_from_infostate`` and plays the
  move with the most visits summed over the worlds.

>>> import numpy as np
>>> import pyspiel
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> import matador.envs.openspiel
>>> game = pyspiel.load_game("python_matador")
>>> bots = [ismcts_bot(game, simulations=20, seed=1), MatadorBot("greedy", seed=2)]
>>> returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
>>> sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
True
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from matador.envs.openspiel import MatadorState
from matador.players.base import Bot, make_bot

__all__ = ["DeterminizedMCTSBot", "MatadorBot", "ismcts_bot"]


class MatadorBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (a spec or a :class:`~matador.players.base.Bot`) as a ``pyspiel.Bot``."""

    def __init__(self, bot: str | Bot, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(bot) if isinstance(bot, str) else bot
        self.rng = random.Random(seed)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: the bot decides from the view alone."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to track: the view carries the history."""

    def step(self, state: MatadorState) -> int:
        """The bot's move for the player to move (it sees that player's view only)."""
        return int(self.bot.choose(state.view(state.current_player()), self.rng))


class _ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ``ISMCTSBot`` unchanged, plus the two calls ``evaluate_bots`` makes.

    The search rebuilds its tree from the root at every move, so there is
    nothing to restart or to be told; ``pyspiel.Bot``'s defaults raise.
    """

    def restart_at(self, state: Any) -> None:
        """Nothing to forget."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to track."""


def ismcts_bot(game: Any, simulations: int = 200, uct_c: float = 1.0, seed: int | None = None,
               **kwargs: Any) -> ismcts.ISMCTSBot:
    """OpenSpiel's ``ISMCTSBot`` with one random rollout per leaf (``kwargs`` go to it).

    Its worlds come from ``resample_from_infostate`` with the bot's own
    generator (OpenSpiel's default sampler is seeded from the system), so a
    ``seed`` makes the bot deterministic.
    """
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = _ISMCTSBot(game=game, evaluator=evaluator, uct_c=uct_c,
                     max_simulations=simulations, random_state=rs, **kwargs)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot


class DeterminizedMCTSBot(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's ``MCTSBot`` on ``worlds`` resampled states, visits summed per move."""

    def __init__(self, game: Any, worlds: int = 10, simulations: int = 40, uct_c: float = 1.0,
                 seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.worlds = worlds
        self.rs = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rs)
        self.mcts = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False,
                                 random_state=self.rs)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to track."""

    def step(self, state: Any) -> int:
        """The move with the most MCTS visits over the determinised worlds."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        player = state.current_player()
        visits: dict[int, int] = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            world = state.resample_from_infostate(player, self.rs.uniform)
            root = self.mcts.mcts_search(world)
            for child in root.children:
                visits[int(child.action)] += child.explore_count
        return int(max(legal, key=lambda a: (visits[a], -a)))
