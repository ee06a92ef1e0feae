"""Bots: they see a :class:`~matador.core.view.PlayerView`, never the full state.

``make_bot("pimc:500ms")`` builds a bot from its command-line spec;
:data:`LEVELS` maps strength levels (``easy``...) to specs.
"""

from matador.players.base import (
    LEVELS,
    Bot,
    BotError,
    Budget,
    OracleBot,
    bot_kinds,
    make_bot,
    register,
)
from matador.players.heuristic import GreedyBot, HeuristicBot, RandomBot

register("random", RandomBot)
register("greedy", GreedyBot)
register("heuristic", HeuristicBot)

__all__ = ["LEVELS", "Bot", "BotError", "Budget", "GreedyBot", "HeuristicBot", "OracleBot",
           "RandomBot", "bot_kinds", "make_bot", "register"]
