"""An invariant checker for the rules core, in the spirit of OpenSpiel's ``random_sim_test``.

:func:`random_sim_test` plays random hands and checks, at every position:

* the 28 tiles are conserved: hands, boneyard, set-aside tiles and the line
  hold each exactly once (R1, R12);
* legal moves exist until the hand ends, each one applies through the
  validated path, and a sample of other moves is refused with a rule id;
* a copy is independent of the original;
* every seat's view agrees with the state, contains no tile it may not know,
  and survives a JSON round trip; sampled worlds reproduce the view;
* at the end: the outcome follows R18-R22 and the record replays to it.

>>> import random
>>> from matador.core.rules import Rules
>>> report = random_sim_test(Rules.from_preset("paluba"), 2, hands=3, rng=random.Random(1))
>>> report.hands, report.positions > 0
(3, True)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from matador.core.errors import IllegalMoveError, MatadorError
from matador.core.moves import DRAW, MOVE_TILE, NUM_MOVES, PLAY_BASE
from matador.core.record import Record, parse_record, replay
from matador.core.rules import Rules
from matador.core.sampling import sample_world
from matador.core.state import HandState, Reason
from matador.core.tiles import ALL_TILES, NAMES, mask_of, pips_of
from matador.core.view import PlayerView


class InvariantViolation(AssertionError):
    """An invariant of the rules core does not hold; the message says which and where."""


@dataclass
class SimReport:
    """What :func:`random_sim_test` checked."""

    hands: int = 0
    positions: int = 0
    moves: int = 0
    views: int = 0
    samples: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


def random_sim_test(rules: Rules, players: int, *, hands: int = 10, rng: random.Random,
                    check_views: bool = True, samples_per_hand: int = 2) -> SimReport:
    """Play ``hands`` random hands under ``rules`` and check every invariant at every position.

    Raises :class:`InvariantViolation` at the first violation. ``samples_per_hand``
    positions per hand also check that a world sampled from the mover's view
    reproduces that view exactly.
    """
    report = SimReport()
    for _ in range(hands):
        state = HandState.new(rules, players, rng)
        sample_plies = set(rng.sample(range(60), samples_per_hand))
        while True:
            report.positions += 1
            _check_position(state, rng)
            if check_views:
                for seat in range(players):
                    view = PlayerView.of(state, seat)
                    report.views += 1
                    _check_view(state, view)
                    if state.to_move == seat and state.ply in sample_plies:
                        _check_sample(state, view, rng)
                        report.samples += 1
            if state.is_over:
                break
            ids = state.legal_move_ids()
            state.play(ids[rng.randrange(len(ids))])
            report.moves += 1
        _check_outcome(state)
        report.hands += 1
        assert state.outcome is not None
        key = f"{state.outcome.reason.value}:{'none' if state.outcome.winner is None else 'won'}"
        report.outcomes[key] = report.outcomes.get(key, 0) + 1
    return report


def _fail(state: HandState, what: str) -> InvariantViolation:
    record = Record.of(state).dumps(with_result=False)
    return InvariantViolation(f"{what} at ply {state.ply} of {record}")


def _check_position(state: HandState, rng: random.Random) -> None:
    line = 0
    for m in state.moves:
        if m < DRAW:
            line |= 1 << MOVE_TILE[m]
    parts = [*state.hands, mask_of(state.boneyard), mask_of(state.deal.set_aside), line]
    union = 0
    for part in parts:
        if union & part:
            raise _fail(state, f"tile {NAMES[(union & part).bit_length() - 1]} is in two places")
        union |= part
    if union != ALL_TILES:
        raise _fail(state, "tiles are missing (R1)")
    legal = state.legal_mask()
    if state.is_over:
        if legal or state.to_move != -1:
            raise _fail(state, "a finished hand still has a player to move")
        return
    if not legal:
        raise _fail(state, "no legal move in an unfinished hand")
    if not 0 <= state.to_move < state.players:
        raise _fail(state, f"seat to move {state.to_move} is not a seat")
    for move_id in state.legal_move_ids():
        child = state.copy()
        before = (state.hands[:], state.left, state.right, state.ply, state.points[:])
        child.play(move_id)
        if (state.hands, state.left, state.right, state.ply, state.points) != before:
            raise _fail(state, "playing on a copy changed the original")
    for move_id in rng.sample(range(NUM_MOVES), 6):
        if legal >> move_id & 1:
            continue
        try:
            state.copy().play(move_id)
        except IllegalMoveError as e:
            if not e.rule.startswith("R"):
                raise _fail(state, f"refusal of move {move_id} names no rule: {e}") from None
        else:
            raise _fail(state, f"illegal move id {move_id} was accepted")


def _check_view(state: HandState, view: PlayerView) -> None:
    seat = view.seat
    if view.hand_mask != state.hands[seat]:
        raise _fail(state, f"seat {seat}'s view shows the wrong hand")
    if (view.left, view.right) != (state.left, state.right):
        raise _fail(state, f"seat {seat}'s view shows the wrong ends")
    if view.hand_sizes != state.hand_sizes() or view.boneyard_size != state.boneyard_size:
        raise _fail(state, f"seat {seat}'s view shows wrong counts")
    if view.to_move != state.to_move or list(view.points) != state.points:
        raise _fail(state, f"seat {seat}'s view disagrees on the turn or the points")
    if view.legal_mask() != (state.legal_mask() if state.to_move == seat else 0):
        raise _fail(state, f"seat {seat}'s view has other legal moves than the state")
    known = mask_of(view.dealt) | mask_of(view.own_draws.values())
    for m in view.moves:
        if m < DRAW:
            known |= 1 << MOVE_TILE[m]
    text = view.dumps()
    for t in range(28):
        if not known >> t & 1 and f'"{NAMES[t]}"' in text.replace("draw ", ""):
            raise _fail(state, f"seat {seat}'s view names hidden tile {NAMES[t]}")
    if any(not known >> t & 1 for t in view.own_draws.values()):
        raise _fail(state, f"seat {seat}'s view reveals a draw of another seat")
    again = PlayerView.from_json(json.loads(text))
    if again.to_json() != view.to_json() or again.hand_mask != view.hand_mask:
        raise _fail(state, f"seat {seat}'s view does not survive a JSON round trip")


def _check_sample(state: HandState, view: PlayerView, rng: random.Random) -> None:
    world = sample_world(view, rng)
    if PlayerView.of(world, view.seat).to_json() != view.to_json():
        raise _fail(state, f"a world sampled for seat {view.seat} does not reproduce its view")
    if world.hand_sizes() != state.hand_sizes() or world.legal_mask() != state.legal_mask():
        raise _fail(state, "a sampled world disagrees on public facts")


def _check_outcome(state: HandState) -> None:
    outcome = state.outcome
    if outcome is None:
        raise _fail(state, "the hand did not end")
    pips = tuple(pips_of(h) for h in state.hands)
    if outcome.pips != pips:
        raise _fail(state, "outcome pips differ from the hands (R2)")
    if outcome.reason is Reason.BLOCKED:
        low = min(pips)
        expected = pips.index(low) if pips.count(low) == 1 else None
        if outcome.winner != expected:
            raise _fail(state, "wrong winner of a blocked hand (R20)")
    elif outcome.winner is None or state.hands[outcome.winner]:
        raise _fail(state, "a hand won by going out has a winner holding tiles (R18)")
    rules = state.rules
    running = [0] * state.players
    replayed = HandState(rules, state.deal)
    for m in state.moves:
        s = replayed.to_move
        if m == DRAW:
            pass
        elif m > DRAW:
            running[s] -= rules.pass_penalty
        else:
            t = MOVE_TILE[m]
            if rules.is_matador(t):
                running[s] += rules.per_matador
            if m >= PLAY_BASE:
                end_value = replayed.right if (m - PLAY_BASE) // 49 else replayed.left
                touch = (m - PLAY_BASE) % 49 // 7
                if touch + end_value == rules.target:
                    running[s] += rules.per_join
                if (m - PLAY_BASE) % 7 == rules.target:
                    running[s] += rules.exposed_target_bonus
        replayed.push(m)
    if outcome.winner is not None and rules.hand_points.value == "pips_to_winner":
        running[outcome.winner] += sum(pips) - pips[outcome.winner]
    if tuple(running) != outcome.points:
        raise _fail(state, f"points {outcome.points} differ from R21+R22's {tuple(running)}")
    try:
        record = parse_record(Record.of(state).dumps())
    except MatadorError as e:
        raise _fail(state, f"the record does not read back: {e}") from None
    if replay(record).outcome != outcome:
        raise _fail(state, "the record replays to another outcome")
