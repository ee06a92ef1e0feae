"""matador: the reference implementation of the Matador family of domino games.

The front door of the library, as ``import chess`` is python-chess's: what a
library user needs is importable from here; anything else is internal and may
move.

>>> import random
>>> import matador
>>> rules = matador.Rules.from_preset("classic")
>>> state = matador.HandState.new(rules, 2, random.Random(1))
>>> view = matador.PlayerView.of(state, state.to_move)     # what that seat knows
>>> move = matador.make_bot("greedy").choose(view, random.Random(2))
>>> move in state.legal_moves
True
>>> state.play(move) == move
True
>>> rules.is_matador(matador.Tile.parse("3-4")), str(matador.Move.parse("L5-2"))
(True, 'L5-2')

Reading and replaying a record (RULES.md section 8):

>>> record = matador.Record.of(state)
>>> matador.replay(matador.parse_record(record.dumps(with_result=False))).state.ply
1
"""

from matador.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidTileError,
    MatadorError,
    RecordError,
    RulesError,
    ViewError,
)
from matador.core.match import Match
from matador.core.moves import Move
from matador.core.record import Record, Replay, parse_record, replay
from matador.core.rules import PRESETS, Draw, FirstLeader, GoingOut, HandPoints, Rules
from matador.core.sampling import WorldSampler, sample_world
from matador.core.state import Deal, HandState, Illegal, LegalMoves, Outcome, Reason, Seat
from matador.core.tiles import Tile
from matador.core.view import PlayerView
from matador.players import LEVELS, Bot, BotError, Budget, make_bot
from matador.players.analysis import Analysis, analyse, review

__version__ = "0.1.0"

__all__ = [
    "LEVELS",
    "PRESETS",
    "Analysis",
    "Bot",
    "BotError",
    "Budget",
    "Deal",
    "Draw",
    "FirstLeader",
    "GoingOut",
    "HandPoints",
    "HandState",
    "IllegalMoveError",
    "Illegal",
    "InvalidMoveError",
    "InvalidTileError",
    "LegalMoves",
    "MatadorError",
    "Match",
    "Move",
    "Outcome",
    "PlayerView",
    "Reason",
    "Record",
    "RecordError",
    "Replay",
    "Rules",
    "RulesError",
    "Seat",
    "Tile",
    "ViewError",
    "WorldSampler",
    "__version__",
    "analyse",
    "make_bot",
    "parse_record",
    "replay",
    "review",
    "sample_world",
]
