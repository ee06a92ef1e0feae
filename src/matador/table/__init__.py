"""The referee of every table: the arena, the terminal game and the server share it.

* :class:`Table` (:mod:`matador.table.referee`) keeps the true state, validates
  moves and emits per-recipient :class:`Event` values;
* :mod:`matador.table.players` has the :class:`Player` interface and the bot and
  engine players;
* :mod:`matador.table.drive` runs a game by asking players, synchronously
  (:func:`play_game`) or from an event loop (:func:`aplay_game`);
* :mod:`matador.table.snapshot` gives each recipient its picture of the table
  as JSON, with the legal moves a rule-free client can render.
"""

from matador.table.drive import GameReport, aplay_game, play_game
from matador.table.events import SPECTATOR, Event, EventKind
from matador.table.players import (
    ENGINE_PREFIX,
    BotPlayer,
    EnginePlayer,
    Player,
    PlayerError,
    make_player,
)
from matador.table.referee import Forfeit, Phase, Table, TableError
from matador.table.snapshot import brief_json, legal_json, move_json, snapshot

__all__ = ["ENGINE_PREFIX", "SPECTATOR", "BotPlayer", "EnginePlayer", "Event", "EventKind",
           "Forfeit", "GameReport", "Phase", "Player", "PlayerError", "Table",
           "TableError", "aplay_game", "brief_json", "legal_json", "make_player", "move_json",
           "play_game", "snapshot"]
