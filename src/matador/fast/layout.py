"""Offsets of the kernel's rows: a hand, a rule set, the greedy weights (plain integers).

Shared by :mod:`matador.fast.kernel` (compiled) and :mod:`matador.fast.encode`
(numpy only), so encoding needs no compiler.
"""

from __future__ import annotations

# -- layout of a hand row ----------------------------------------------------------
ROW_HANDS = 0  # 4 tile masks
ROW_LEFT = 4
ROW_RIGHT = 5
ROW_TO_MOVE = 6  # -1 once over
ROW_DRAWN = 7
ROW_PLY = 8
ROW_PLAYED = 9
ROW_POINTS = 10  # 4
ROW_EMPTY_AT = 14  # 4
ROW_BPOS = 18
ROW_BLEN = 19
ROW_BONE = 20  # 28 tiles in draw order
ROW_PLAYERS = 48
ROW_WINNER = 49  # -1: no winner
ROW_REASON = 50  # -1 running, 0 out, 1 blocked
ROW_DECISIONS = 51  # moves made by this call
ROW_PIPS = 52  # 4, filled at the end
ROW_COUNTER = 56  # draws taken from the row's stream
ROW_LEADER = 57
ROW_SIZE = 64

# -- the value network's input (matador.players.valuenet.features) -------------------


def net_features(players: int) -> int:
    """Length of the value network's input at a table of ``players``: a tile set for each
    hand, the rest and the line (28 bits each), two ends one-hot (8 each), ``3 * players``
    scalars (who moves, drawn, the hand sizes, the boneyard, the pip differences)."""
    return 28 * (players + 2) + 2 * 8 + 3 * players


NET_FEATURES = net_features(2)  # two players: four tile sets, two ends one-hot, six scalars

# -- layout of a result row ----------------------------------------------------------
OUT_WINNER = 0
OUT_REASON = 1
OUT_DECISIONS = 2
OUT_LEADER = 3
OUT_POINTS = 4  # 4
OUT_PIPS = 8  # 4
OUT_SIZE = 12

# -- layout of a rules row -----------------------------------------------------------
R_TARGET = 0
R_MATADORS = 1
R_NON_MATADORS = 2
R_ANYTIME = 3
R_OPTIONAL = 4
R_DRAW_ONE = 5
R_ENDS_HAND = 6
R_AFTER_BONEYARD = 7
R_NEVER_OUT = 8
R_PIPS_TO_WINNER = 9
R_PER_JOIN = 10
R_PER_MATADOR = 11
R_BONUS = 12
R_PASS_PENALTY = 13
R_SCORES_PLAYS = 14
R_SET_ASIDE = 15
R_HAND_SIZE = 16
R_LOT = 17
R_PLAYERS = 18
R_JOIN = 20  # 7: tiles that may join an end showing v
R_PLAYABLE = 27  # 49: playable_against[l][r] at 27 + 7 l + r
R_JPOS = 76  # 196: at 76 + 28 v + t, the bit (7 touch + exposed) of tile t joining v
R_MATPOS = 272  # 28: both orientations' bits of a matador tile
R_SIZE = 300

# -- weights of the greedy policy (filled from matador.players.heuristic) -------------
W_PIPS = 0
W_FOLLOW = 1
W_MATADOR = 2
W_LAST_MATADOR = 3
W_POINTS = 4
W_OUT = 5
W_BLOCK = 6
W_BLANK = 7
W_BLANK_NO_MATADOR = 8
W_DRAW_COST = 9
W_BLOCK_OTHERS = 10  # the table policy (matador.players.playouts) only, from here on
W_SPEND_NEXT = 11
W_SPEND_BONE = 12
W_SIZE = 13
BLOCK_TABLE = 29 ** 4  # block values after the weights (greedy policies only)

RANDOM = 0
GREEDY = 1
TABLE = 2  # greedy on every seat's blocking (matador.players.playouts.table_rollout)
SEATS = 4  # per-seat policy kinds after the gap thresholds of a greedy or table policy
SEAT_TABLE = 0  # the seat plays the table policy
SEAT_GREEDY = 1  # the seat plays the greedy bot (matador.players.playouts.greedy_choice)
