"""What every environment shows a learner: action ids, the observation tensor, the action mask.

One encoding serves Gymnasium, PettingZoo, OpenSpiel and the ``policy:FILE``
bot, so a policy trained in one of them plays in all (docs/research.md has
the tables).

* **Actions** are the core's dense move ids (:mod:`matador.core.moves`):
  ``0..27`` open with a tile, ``28 + 49 * end + 7 * touching + exposed`` play
  on the left (``end = 0``) or right end, ``126`` draw, ``127`` pass. The same
  128 ids serve every preset and player count; sorting ids sorts the record
  notation, and ``Move(id)`` / ``Move.parse(text)`` convert both ways.
* **The mask** is 128 ``int8`` values, 1 for each legal move of the seat to
  move (all 0 for any other seat).
* **The observation** of one seat is a flat ``float32`` vector of
  :func:`observation_size` values for ``players`` seats, every value in
  ``[-1, 1]``. Seats are counted from the observer: ``0`` is the observer,
  ``1`` the next seat to play after it (R13), and so on. Its pieces, in
  order (:data:`PIECES`), are 0/1 flags first, then scaled counts.

The observation is a function of the seat's :class:`PlayerView` alone:
:func:`encode_view` computes it from a view, the reference. The
environments, which referee a live :class:`HandState`, keep a
:class:`PublicTrack` of the public history instead of rebuilding a view at
every step; ``tests/envs`` play the two in lockstep over thousands of random
hands (the same inference lives in :func:`matador.core.view.PlayerView.might_hold`).

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> from matador.core.view import PlayerView
>>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(3))
>>> obs = encode_view(PlayerView.of(state, 0))
>>> obs.shape, obs.dtype, observation_size(2), observation_size(4)
((196,), dtype('float32'), 196, 262)
>>> mask = action_mask_of(state, state.to_move)
>>> [str(Move(int(i))) for i in np.flatnonzero(mask)] == [str(m) for m in state.legal_moves]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from matador.core.moves import DRAW, MOVE_END, MOVE_TILE, MOVE_TOUCH, NUM_MOVES, PLAY_BASE, Move
from matador.core.rules import FirstLeader, Rules
from matador.core.state import HandState
from matador.core.tables import RuleTables, tables_for
from matador.core.tiles import ALL_TILES, LEAD_RANK, NUM_TILES, TileMask
from matador.core.view import PlayerView

__all__ = [
    "NUM_ACTIONS",
    "PIECES",
    "POINTS_SCALE",
    "Encoder",
    "Move",
    "PublicTrack",
    "action_mask_of",
    "encode_view",
    "observation_size",
    "pieces",
]

NUM_ACTIONS: Final = NUM_MOVES
"""Distinct action ids, the same for every preset and player count (128)."""

POINTS_SCALE: Final = 100.0
"""Points and match scores are divided by this and clipped to ``[-1, 1]``."""

PIECES: Final = (
    ("hand", "flags", "28: tiles the observer holds now"),
    ("played", "flags", "28: tiles on the line"),
    ("might_hold", "flags", "28 per other seat: tiles it may hold, i.e. unseen by the observer "
                            "and not proved absent by a forced draw or pass, or a non-joining "
                            "matador under matador_anytime = false, since it last drew"),
    ("left_end", "flags", "7: the left end's number, one-hot (all 0 before the opening)"),
    ("right_end", "flags", "7: the right end's number, one-hot"),
    ("line_empty", "flags", "1: no tile has been laid yet"),
    ("left_takes", "flags", "28: tiles that join the left end (R8, R9)"),
    ("right_takes", "flags", "28: tiles that join the right end"),
    ("matadors", "flags", "28: the matadors of these rules (R4), playable on any end (R10)"),
    ("to_move", "flags", "1 per seat: the seat to move, one-hot (all 0 once over)"),
    ("leader", "flags", "1 per seat: the seat that opened, one-hot"),
    ("drawn", "flags", "1: the seat to move has drawn this turn"),
    ("bias", "flags", "1: always 1"),
    ("hand_sizes", "counts", "1 per seat: tiles held / 28"),
    ("boneyard", "counts", "1: tiles in the boneyard / 28"),
    ("points", "counts", "1 per seat: points scored this hand (R22) / 100, clipped to [-1, 1]"),
    ("scores", "counts", "1 per seat: match totals before this hand / 100, clipped to [-1, 1] "
                         "(0 outside a match)"),
)
"""The pieces of the observation: name, kind, size and meaning."""


def pieces(players: int) -> list[tuple[str, int]]:
    """The (name, size) of each piece of the observation for ``players`` seats, in order."""
    _check_players(players)
    sizes = {
        "hand": 28, "played": 28, "might_hold": 28 * (players - 1), "left_end": 7,
        "right_end": 7, "line_empty": 1, "left_takes": 28, "right_takes": 28, "matadors": 28,
        "to_move": players, "leader": players, "drawn": 1, "bias": 1, "hand_sizes": players,
        "boneyard": 1, "points": players, "scores": players,
    }
    return [(name, sizes[name]) for name, _, _ in PIECES]


def observation_size(players: int) -> int:
    """The length of the observation vector for ``players`` seats (196, 229 or 262)."""
    return sum(size for _, size in pieces(players))


def _check_players(players: int) -> None:
    from matador.core.errors import MatadorError

    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise MatadorError(f"players: {players!r} is not a player count (2, 3 or 4)")


def _lead_excluded(rules: Rules, dealt: TileMask, leader_by_rule: bool) -> TileMask:
    """Tiles no other seat was dealt when a seat holding ``dealt`` led by rule (R14)."""
    if not leader_by_rule or rules.first_leader is not FirstLeader.HIGHEST_DOUBLE:
        return 0
    best = max(LEAD_RANK[t] for t in range(NUM_TILES) if dealt >> t & 1)
    return sum(1 << t for t in range(NUM_TILES) if LEAD_RANK[t] > best)


class PublicTrack:
    """What the public history has proved about each seat's hand, kept move by move.

    The incremental twin of :meth:`PlayerView.might_hold` (which replays the
    history; ``tests/envs`` check that both agree on every move of thousands
    of hands). ``voids[s]`` holds the tiles seat ``s`` was proved not to hold
    since its last draw: a forced draw or pass (R15-R17) and a non-joining
    matador under ``matador_anytime = false`` (R10) prove them, a draw
    forgets them. ``drew[s]`` says whether ``s`` has drawn this hand.
    """

    __slots__ = ("drew", "lead_excluded", "leader", "tb", "voids")

    def __init__(self, rules: Rules, dealt: Sequence[TileMask], leader: int,
                 leader_by_rule: bool = True) -> None:
        self.tb: RuleTables = tables_for(rules)
        self.voids = [0] * len(dealt)
        self.drew = [False] * len(dealt)
        self.leader = leader
        self.lead_excluded = _lead_excluded(rules, dealt[leader], leader_by_rule)
        """Tiles no other seat was dealt, which the leader knows (R14)."""

    @classmethod
    def of(cls, state: HandState, leader_by_rule: bool = True) -> PublicTrack:
        """A track of ``state``, replaying its history."""
        deal = state.deal
        track = cls(state.rules, [sum(1 << t for t in h) for h in deal.hands], deal.leader,
                    leader_by_rule)
        replay = HandState(state.rules, deal)
        for _, m in state.history():
            track.update(replay.to_move, m, replay.left, replay.right, replay.drawn)
            replay.push(m)
        return track

    def copy(self) -> PublicTrack:
        """An independent copy."""
        new = object.__new__(PublicTrack)
        new.tb = self.tb
        new.voids = self.voids[:]
        new.drew = self.drew[:]
        new.leader = self.leader
        new.lead_excluded = self.lead_excluded
        return new

    def update(self, seat: int, m: int, left: int, right: int, drawn: bool) -> None:
        """Record move ``m`` of ``seat``, played against ends ``left``/``right`` (before it).

        ``drawn`` says whether ``seat`` had drawn this turn before ``m``.
        """
        tb = self.tb
        if m < PLAY_BASE:
            return
        if m < DRAW:
            if not tb.anytime:
                t = MOVE_TILE[m]
                v = right if MOVE_END[m] else left
                joins = MOVE_TOUCH[m] + v == tb.target and (v != 0 or tb.matadors >> t & 1)
                if not joins:  # R10: a non-joining matador proves no joining play
                    self.voids[seat] |= tb.join[left] | tb.join[right]
        elif m == DRAW:
            self.voids[seat] = 0
            self.drew[seat] = True
        else:
            self.voids[seat] |= tb.forced_free(left, right, tb.optional and drawn and tb.draw_one)

    def might_hold(self, observer: int, seat: int, unseen: TileMask) -> TileMask:
        """Tiles ``seat`` may hold as far as ``observer`` knows (``unseen`` by it)."""
        excluded = self.voids[seat]
        if observer == self.leader and not self.drew[seat]:
            excluded |= self.lead_excluded
        return unseen & ~excluded


class Encoder:
    """Fills observation vectors for one rule set and player count; reused across hands.

    :meth:`encode` takes the raw facts of one seat's view; :func:`encode_view`
    and the environments call it.
    """

    def __init__(self, rules: Rules, players: int) -> None:
        _check_players(players)
        self.rules = rules
        self.players = players
        self.tb = tables_for(rules)
        self.size = observation_size(players)
        self.offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in pieces(players):
            self.offsets[name] = (at, at + size)
            at += size
        self.flag_bits = self.offsets["bias"][1]
        self.count_at = self.flag_bits
        n = players
        # Bit positions of the flag pieces in the one big int that is unpacked at once.
        self._at_ends = 28 * (n + 1)
        self._at_takes = self._at_ends + 15
        self._at_tomove = self._at_takes + 84
        self._const = (rules.matadors << (self._at_takes + 56)) | (
            1 << (self.flag_bits - 1))  # matadors, bias
        self._nbytes = (self.flag_bits + 7) // 8

    def empty(self) -> npt.NDArray[np.float32]:
        """A zeroed observation vector of the right size."""
        return np.zeros(self.size, np.float32)

    def encode(self, out: npt.NDArray[np.float32], observer: int, hand: TileMask,
               played: TileMask, might_hold: Sequence[TileMask], left: int, right: int,
               to_move: int, leader: int, drawn: bool, hand_sizes: Sequence[int],
               boneyard: int, points: Sequence[int], scores: Sequence[int] | None) -> None:
        """Write one seat's observation into ``out`` (see :data:`PIECES`).

        Seats are absolute here; ``might_hold`` lists the other seats in turn
        order after ``observer``; ``to_move`` is -1 once the hand is over.
        """
        n = self.players
        big = self._const | hand | played << 28
        at = 56
        for mask in might_hold:
            big |= mask << at
            at += 28
        if left >= 0:
            tb = self.tb
            big |= (1 << left | 1 << (7 + right)) << self._at_ends
            big |= (tb.join[left] | tb.join[right] << 28) << self._at_takes
        else:
            big |= 1 << (self._at_ends + 14)
        at = self._at_tomove
        if to_move >= 0:
            big |= 1 << (at + (to_move - observer) % n)
        if leader >= 0:
            big |= 1 << (at + n + (leader - observer) % n)
        if drawn:
            big |= 1 << (at + 2 * n)
        raw = np.frombuffer(big.to_bytes(self._nbytes, "little"), dtype=np.uint8)
        out[:self.flag_bits] = np.unpackbits(raw, count=self.flag_bits, bitorder="little")
        counts = [0.0] * (3 * n + 1)
        for i in range(n):
            s = (observer + i) % n
            counts[i] = hand_sizes[s] / 28.0
            counts[n + 1 + i] = _clip(points[s] / POINTS_SCALE)
            if scores:
                counts[2 * n + 1 + i] = _clip(scores[s] / POINTS_SCALE)
        counts[n] = boneyard / 28.0
        out[self.count_at:] = counts

    def encode_state(self, out: npt.NDArray[np.float32], state: HandState, track: PublicTrack,
                     seat: int, scores: Sequence[int] | None = None) -> None:
        """Write ``seat``'s observation of a live hand, from its own tiles and the public track.

        Only ``seat``'s hand and the public facts of ``state`` are read: the
        result equals :func:`encode_view` of the seat's view.
        """
        n = self.players
        hand = state.hands[seat]
        played = state.played
        unseen = ALL_TILES & ~(hand | played)
        others = [track.might_hold(seat, (seat + i) % n, unseen) for i in range(1, n)]
        over = state.outcome is not None
        points = state.outcome.points if over and state.outcome else state.points
        self.encode(out, seat, hand, played, others, state.left, state.right,
                    -1 if over else state.to_move, state.deal.leader,
                    state.drawn and not over, [h.bit_count() for h in state.hands],
                    state.boneyard_size, points, scores)


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


_ENCODERS: dict[tuple[Rules, int], Encoder] = {}


def encoder_for(rules: Rules, players: int) -> Encoder:
    """The (cached) encoder of ``rules`` at ``players`` seats."""
    key = (rules, players)
    enc = _ENCODERS.get(key)
    if enc is None:
        enc = _ENCODERS[key] = Encoder(rules, players)
    return enc


def encode_view(view: PlayerView, out: npt.NDArray[np.float32] | None = None
                ) -> npt.NDArray[np.float32]:
    """The observation of ``view.seat``, from its view alone (the reference encoding).

    Writes into ``out`` if given (it must have :func:`observation_size` values).
    """
    enc = encoder_for(view.rules, view.players)
    if out is None:
        out = enc.empty()
    n = view.players
    seat = view.seat
    others = [view.might_hold((seat + i) % n) for i in range(1, n)]
    enc.encode(out, seat, view.hand_mask, view.played, others, view.left, view.right,
               view.to_move, view.leader, view.drawn_this_turn and view.to_move >= 0,
               view.hand_sizes, view.boneyard_size, view.points, view.scores)
    return out


def action_mask_of(state: HandState, seat: int) -> npt.NDArray[np.int8]:
    """The 128 action flags of ``seat`` in ``state``: its legal moves if it is to move, else 0."""
    mask = state.legal_mask() if state.to_move == seat else 0
    return mask_array(mask)


def mask_array(mask: int) -> npt.NDArray[np.int8]:
    """A 128-bit move mask as 128 ``int8`` flags (a new array)."""
    flags = _MASKS.get(mask)
    if flags is None:
        raw = np.frombuffer(mask.to_bytes(16, "little"), dtype=np.uint8)
        flags = np.unpackbits(raw, bitorder="little").view(np.int8)
        flags.flags.writeable = False
        if len(_MASKS) < 100_000:
            _MASKS[mask] = flags
    return flags.copy()


_MASKS: dict[int, npt.NDArray[np.int8]] = {}
