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
from matador.players.ismcts import ISMCTSBot
from matador.players.pimc import CheaterBot, PIMCBot
from matador.players.sage import SageBot

register("random", RandomBot)
register("greedy", GreedyBot)
register("heuristic", HeuristicBot)
register("pimc", PIMCBot)
register("ismcts", ISMCTSBot)
register("cheater", CheaterBot)
register("sage", SageBot)

# Strength levels offered to players (the cheater never is): the budgets keep
# "normal" under 200 ms and "strong" under 1 s per move on one core. PIMC is the
# strongest search measured (ISMCTS does not beat it at equal time: README).
LEVELS.update({
    "easy": "greedy",
    "normal": "pimc:150ms",
    "strong": "pimc:800ms",
    "max": "pimc:3s",
})

__all__ = ["LEVELS", "Bot", "BotError", "Budget", "CheaterBot", "GreedyBot", "HeuristicBot",
           "ISMCTSBot", "OracleBot", "PIMCBot", "RandomBot", "SageBot", "bot_kinds", "make_bot", "register"]
