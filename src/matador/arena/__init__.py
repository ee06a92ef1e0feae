"""Tournaments over the referee: duplicate deals, seat rotations, statistics and plots.

``matador arena`` is this package on the command line. :func:`run_arena` plays
bots (and MEP engines, ``engine:COMMAND``) against each other; every game is
refereed by a :class:`~matador.table.referee.Table`.
"""

from matador.arena.experiment import ArenaResult, BotStats, Entry, entries_of, run_arena, tables_of
from matador.arena.game import (
    MAX_MATCH_HANDS,
    ArenaError,
    ArenaForfeit,
    GameResult,
    PlayerFactory,
    deal_rng,
    derive_seed,
    seat_rng,
)
from matador.arena.plot import plot_ladder

__all__ = ["MAX_MATCH_HANDS", "ArenaError", "ArenaForfeit", "ArenaResult", "BotStats", "Entry",
           "GameResult", "PlayerFactory", "deal_rng", "derive_seed", "entries_of",
           "plot_ladder", "run_arena", "seat_rng", "tables_of"]
