"""A match: hands until some total reaches ``match_target`` (R23, R14).

>>> import random
>>> from matador.core.rules import Rules
>>> match = Match(Rules.from_preset("classic"), 2, random.Random(7))
>>> while not match.is_over:
...     state = match.next_hand()
...     while not state.is_over:
...         state.push(state.legal_move_ids()[0])
...     match.finish_hand(state)
>>> match.winner is not None and max(match.scores) >= 100
True
"""

from __future__ import annotations

import random

from matador.core.errors import MatadorError
from matador.core.record import Record
from matador.core.rules import FirstLeader, Rules
from matador.core.state import Deal, HandState, Seat, highest_double_leader, rng_of, rules_of


class Match:
    """A series of hands with cumulative scores (R23).

    The first hand's leader follows ``first_leader`` (R14); later hands are led
    by the previous hand's winner, or, after a hand with no winner, by the
    seat after the previous leader. Scores may go negative. The match ends
    once, at the end of a hand, a total is at least ``match_target`` and one
    seat has the highest total (a tie for highest plays another hand);
    ``match_target = 0`` is a single hand won by its hand winner.
    """

    def __init__(self, rules: Rules | str, players: int, rng: random.Random | int) -> None:
        rules, rng = rules_of(rules), rng_of(rng)
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.rng = rng
        self.scores: list[int] = [0] * players
        """Cumulative points per seat."""
        self.records: list[Record] = []
        """The finished hands, in order."""
        self.winner: Seat | None = None
        """The match winner, once over (``None`` for a drawn single hand)."""
        self.is_over = False
        self._next_leader: Seat | None = None
        self._current: HandState | None = None

    @property
    def hand_number(self) -> int:
        """How many hands have been finished."""
        return len(self.records)

    @property
    def current(self) -> HandState | None:
        """The hand dealt by :meth:`next_hand` and not yet finished, if any."""
        return self._current

    @property
    def leader_by_rule(self) -> bool:
        """Whether the next hand's leader is chosen by ``first_leader`` (the first hand)."""
        return self._next_leader is None

    @property
    def next_leader(self) -> Seat | None:
        """The leader of the next hand once the first is over (R23); ``None`` before it,
        when R14's ``first_leader`` chooses."""
        return self._next_leader

    def next_hand(self) -> HandState:
        """Deal the next hand with :attr:`rng` (R12, R14)."""
        self._check_can_deal()
        return self.start_hand(Deal.random(self.rules, self.players, self.rng,
                                           self._next_leader))

    def start_hand(self, deal: Deal) -> HandState:
        """Start the next hand from a given ``deal`` (a stored one, or a fair shuffle).

        Its leader must be the one the rules choose: the previous hand's winner
        or the seat after its leader (R23), or for the first hand the holder of
        the best tile under ``first_leader = highest_double`` (R14; any seat
        under ``lot``). Raises :class:`MatadorError` otherwise.
        """
        self._check_can_deal()
        if deal.players != self.players:
            raise MatadorError(f"a deal for {deal.players} players at a table of {self.players}")
        if self._next_leader is not None:
            if deal.leader != self._next_leader:
                raise MatadorError(f"seat {deal.leader} leads, but the rules choose seat "
                                   f"{self._next_leader} (R23)")
        elif (self.rules.first_leader is FirstLeader.HIGHEST_DOUBLE
              and deal.leader != highest_double_leader(deal.hands)):
            raise MatadorError(f"seat {deal.leader} leads, but seat "
                               f"{highest_double_leader(deal.hands)} holds the best tile (R14)")
        self._current = HandState(self.rules, deal)
        return self._current

    def _check_can_deal(self) -> None:
        if self.is_over:
            raise MatadorError("the match is over")
        if self._current is not None and not self._current.is_over:
            raise MatadorError("the current hand is not over")

    def finish_hand(self, state: HandState) -> None:
        """Add a finished hand's points and decide the next leader or the match winner."""
        if state is not self._current or state.outcome is None:
            raise MatadorError("finish_hand takes the finished current hand")
        outcome = state.outcome
        self.records.append(Record.of(state, {"hand": len(self.records) + 1,
                                              "scores_before": list(self.scores)}))
        for seat, pts in enumerate(outcome.points):
            self.scores[seat] += pts
        leader = state.deal.leader
        self._next_leader = (
            outcome.winner if outcome.winner is not None else (leader + 1) % self.players
        )
        self._current = None
        if self.rules.match_target == 0:
            self.is_over = True
            self.winner = outcome.winner
            return
        top = max(self.scores)
        if top >= self.rules.match_target and self.scores.count(top) == 1:
            self.is_over = True
            self.winner = self.scores.index(top)
