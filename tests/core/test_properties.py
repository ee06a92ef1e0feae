"""Property tests (Hypothesis): random rules, deals and move sequences.

Random overrides, deals and moves never crash, conserve all 28 tiles, agree
with their records written and read back, and keep views free of hidden tiles.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from matador.core.errors import InvalidMoveError, InvalidTileError, MatadorError, RulesError
from matador.core.moves import DRAW, MOVE_TILE, Move
from matador.core.record import Record, parse_record, replay
from matador.core.rules import PARAMETERS, PRESETS, Rules
from matador.core.sampling import sample_world
from matador.core.state import HandState
from matador.core.tiles import ALL_TILES, NAMES, Tile, mask_of
from matador.core.view import PlayerView

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def rule_sets(draw: st.DrawFn) -> tuple[Rules, int]:
    """A valid rule set (random overrides of a random preset) and a player count it allows."""
    preset = draw(st.sampled_from(PRESETS))
    lo = draw(st.integers(2, 4))
    hi = draw(st.integers(lo, 4))
    overrides: dict[str, Any] = {"players": [lo, hi]}
    if draw(st.booleans()):
        overrides["target"] = draw(st.integers(1, 12))
    set_aside = draw(st.integers(0, 6))
    overrides["set_aside"] = set_aside
    if draw(st.booleans()):
        overrides["hand_size"] = draw(st.integers(1, (28 - set_aside) // hi))
    else:
        overrides["hand_size"] = {str(n): draw(st.integers(1, (28 - set_aside) // n))
                                  for n in range(lo, hi + 1)}
    overrides["first_leader"] = draw(st.sampled_from(["highest_double", "lot"]))
    overrides["matador_anytime"] = draw(st.booleans())
    overrides["matador_optional"] = draw(st.booleans())
    overrides["draw"] = draw(st.sampled_from(["until_playable", "one"]))
    overrides["going_out"] = draw(st.sampled_from(["ends_hand", "after_boneyard", "never"]))
    overrides["hand_points"] = draw(st.sampled_from(["pips_to_winner", "none"]))
    for name in ("per_join", "per_matador", "exposed_target_bonus", "pass_penalty"):
        overrides[name] = draw(st.integers(-20, 20))
    overrides["match_target"] = draw(st.integers(0, 200))
    rules = Rules.from_preset(preset, overrides)
    return rules, draw(st.integers(lo, hi))


def _line(state: HandState) -> int:
    return mask_of(MOVE_TILE[m] for m in state.moves if m < DRAW)


@SETTINGS
@given(rule_sets(), st.randoms(use_true_random=False))
def test_random_hands_conserve_tiles_and_round_trip(case: tuple[Rules, int],
                                                    rng: random.Random) -> None:
    """R1, R12-R22 under random rules: no crash, 28 tiles, records and views round-trip."""
    rules, players = case
    state = HandState.new(rules, players, rng)
    seats_checked = 0
    while True:
        parts = [*state.hands, mask_of(state.boneyard), mask_of(state.deal.set_aside),
                 _line(state)]
        assert sum(p.bit_count() for p in parts) == 28
        union = 0
        for p in parts:
            union |= p
        assert union == ALL_TILES
        if rng.random() < 0.2:
            seat = rng.randrange(players)
            view = PlayerView.of(state, seat)
            seats_checked += 1
            known = mask_of(view.dealt) | mask_of(view.own_draws.values()) | _line(state)
            hidden = ALL_TILES & ~known
            text = json.dumps(view.to_json())
            assert not any(f'"{NAMES[t]}"' in text or f"draw {NAMES[t]}" in text
                           for t in range(28) if hidden >> t & 1)
            assert view.hand_mask == state.hands[seat]
        if state.is_over:
            break
        ids = state.legal_move_ids()
        assert ids
        state.play(ids[rng.randrange(len(ids))])
    record = Record.of(state)
    again = parse_record(record.dumps())
    assert again.deal == record.deal and again.moves == record.moves
    assert again.rules == rules
    assert replay(again).outcome == state.outcome


@SETTINGS
@given(rule_sets(), st.randoms(use_true_random=False), st.integers(0, 40))
def test_sampled_worlds_reproduce_the_view(case: tuple[Rules, int], rng: random.Random,
                                           plies: int) -> None:
    """R12-R19: a world sampled from a view is a legal hand giving exactly that view."""
    rules, players = case
    state = HandState.new(rules, players, rng)
    for _ in range(plies):
        if state.is_over:
            break
        ids = state.legal_move_ids()
        state.push(ids[rng.randrange(len(ids))])
    assume(not state.is_over)
    view = PlayerView.of(state, state.to_move)
    world = sample_world(view, rng)
    assert PlayerView.of(world, view.seat).to_json() == view.to_json()
    replayed = parse_record(Record.of(world).dumps(with_result=False))
    assert replayed.moves == tuple(state.moves)


@SETTINGS
@given(st.sampled_from(PRESETS), st.sampled_from(PARAMETERS),
       st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=8),
                 st.floats(allow_nan=False), st.lists(st.integers(-2, 6), max_size=3),
                 st.dictionaries(st.text(max_size=2), st.integers(-3, 30), max_size=3)))
def test_overrides_are_validated(preset: str, name: str, value: object) -> None:
    """Section 7: a wrong type or range is refused with an error naming the parameter."""
    try:
        Rules.from_preset(preset, {name: value})
    except RulesError as e:
        assert name in e.where
    else:
        assert value is not None


@SETTINGS
@given(st.text(max_size=12))
def test_move_and_tile_parsing_never_crash(text: str) -> None:
    """Section 8 notation: a string is a move (which round-trips) or an InvalidMoveError."""
    with contextlib.suppress(InvalidMoveError):
        assert str(Move.parse(text)) == text
    with contextlib.suppress(InvalidTileError):
        assert str(Tile.parse(text)) == text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)


@SETTINGS
@given(JSON)
def test_garbage_records_are_refused_cleanly(data: object) -> None:
    """Section 8: anything that is not a record is refused with a RecordError."""
    with contextlib.suppress(MatadorError):
        parse_record(json.dumps(data))


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(0, 30), st.data())
def test_mutated_records_are_refused_or_replay(rng: random.Random, plies: int,
                                               data: st.DataObject) -> None:
    """Section 8: a record with one field or move changed is refused cleanly or replays."""
    state = HandState.new(Rules.from_preset(rng.choice(PRESETS)), 2, rng)
    for _ in range(plies):
        if state.is_over:
            break
        ids = state.legal_move_ids()
        state.push(ids[rng.randrange(len(ids))])
    record = Record.of(state).to_json()
    kind = data.draw(st.sampled_from(["move", "tile", "leader", "players", "drop"]))
    if kind == "move" and record["moves"]:
        i = data.draw(st.integers(0, len(record["moves"]) - 1))
        record["moves"][i] = data.draw(st.sampled_from(
            ["draw", "pass", "L0-0", "R6-1", "3-4", "L9-9", "", "x"]))
    elif kind == "tile":
        record["deal"]["boneyard"][0] = data.draw(st.sampled_from(["0-0", "6-6", "7-1", "2-1"]))
    elif kind == "leader":
        record["deal"]["leader"] = data.draw(st.sampled_from([-1, 1, 2, True, "0"]))
    elif kind == "players":
        record["players"] = data.draw(st.sampled_from([1, 3, 5, 2.0]))
    else:
        record.pop(data.draw(st.sampled_from(["rules", "players", "deal", "moves"])))
    try:
        parsed = parse_record(json.dumps(record))
    except MatadorError as e:
        assert str(e).split(":")[0]
    else:
        assert replay(parsed).result is not None


def test_views_from_json_refuse_impossible_views() -> None:
    """An MEP view naming a tile twice, or an illegal own move, is refused."""
    rng = random.Random(4)
    state = HandState.new(Rules.from_preset("classic"), 2, rng)
    view = PlayerView.of(state, 0).to_json()
    bad = dict(view, hand=[view["hand"][0]] * len(view["hand"]))
    try:
        PlayerView.from_json(bad)
    except MatadorError as e:
        assert "hand" in str(e)
    else:
        raise AssertionError("a repeated tile was accepted")
