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
from matador.players.sage import SageBot, SageOMBot, SagePlayoutsBot

register("random", RandomBot)
register("greedy", GreedyBot)
register("heuristic", HeuristicBot)
register("pimc", PIMCBot)
register("ismcts", ISMCTSBot)
register("cheater", CheaterBot)
register("sage", SageBot)
register("sage-om", SageOMBot)
register("sage-po", SagePlayoutsBot)

# Strength levels offered to players (the cheater never is). The searching levels use
# sage (docs/bots.md); a move may take up to sage.MAX_FACTOR times the
# budget when earlier moves saved time, so "normal" stays under 200 ms and "strong" under
# 1 s per move (benchmarks/think_time.py).
LEVELS.update({
    "easy": "greedy",
    "normal": "sage:100ms",
    "strong": "sage:600ms",
    "max": "sage:3s",
})

__all__ = ["LEVELS", "Bot", "BotError", "Budget", "CheaterBot", "GreedyBot", "HeuristicBot",
           "ISMCTSBot", "OracleBot", "PIMCBot", "RandomBot", "SageBot", "SageOMBot",
           "SagePlayoutsBot", "bot_kinds",
           "make_bot", "register"]
