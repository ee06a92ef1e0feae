"""What the core makes of the inputs people and hosts actually give it (issue 9).

The obvious Python forms are accepted or refused with the package's own errors
(item 16); any leader is replayable and analysable (item 7, RULES.md section 8);
views no deal can give are refused when read, and the sampler gives up within
the time a caller allows (item 8, R14, R15-R19).
"""

from __future__ import annotations

import json
import random
import time

import pytest

from matador.core import sampling
from matador.core.errors import InvalidMoveError, RulesError, ViewError
from matador.core.match import Match
from matador.core.moves import Move
from matador.core.record import Record, parse_record, parse_records
from matador.core.rules import Rules
from matador.core.sampling import WorldSampler, sampler_for
from matador.core.state import Deal, HandState, highest_double_leader
from matador.core.view import PlayerView

CLASSIC = Rules.from_preset("classic")


# -- item 16: the obvious forms ---------------------------------------------------------


def test_new_hand_takes_a_preset_name_and_a_seed() -> None:
    """``HandState.new("classic", 2, 7)`` is the hand of ``Rules`` and ``Random(7)`` (R12)."""
    by_name = HandState.new("classic", 2, 7)
    by_value = HandState.new(CLASSIC, 2, random.Random(7))
    assert by_name.deal == by_value.deal and by_name.rules == CLASSIC
    assert HandState.new("czech", 2, 1).rules.preset == "paluba"  # an alias
    assert Deal.random("six", 4, 3) == Deal.random(Rules.from_preset("six"), 4, random.Random(3))
    match = Match("russian", 3, 5)
    assert match.rules.preset == "russian" and match.players == 3


@pytest.mark.parametrize(("args", "where"), [
    (("chess", 2, 1), "preset"),
    ((None, 2, 1), "rules"),
    ((CLASSIC, 2, None), "rng"),
    ((CLASSIC, 2, "seed"), "rng"),
    ((CLASSIC, 2, 1.5), "rng"),
    ((Rules.from_preset("paluba"), 3, 1), "players"),  # R13: paluba is for two
    ((CLASSIC, "2", 1), "players"),
])
def test_new_hand_refuses_with_a_rules_error(args: tuple[object, ...], where: str) -> None:
    with pytest.raises(RulesError) as caught:
        HandState.new(*args)  # type: ignore[arg-type]
    assert caught.value.where == where


def test_a_deal_for_a_bad_leader_is_refused() -> None:
    with pytest.raises(RulesError, match="leader"):
        Deal.random(CLASSIC, 2, 1, leader=2)


def test_explain_illegal_takes_notation() -> None:
    """``explain_illegal("R1-1")`` reads the notation, like ``play`` (R6: open first)."""
    state = HandState.new("classic", 2, 4)
    reason = state.explain_illegal("R1-1")
    assert reason.rule == "R6" and reason.code == "open_with_tile"
    assert state.explain_illegal(Move.parse("R1-1")) == reason
    view = PlayerView.of(state, state.to_move)
    assert view.explain_illegal("R1-1") == reason
    with pytest.raises(InvalidMoveError):
        state.explain_illegal("R9-9")


# -- item 7: whoever leads ---------------------------------------------------------------


def _not_the_r14_leader(seed: int) -> HandState:
    deal = Deal.random(CLASSIC, 2, seed)
    other = 1 - highest_double_leader(deal.hands)
    state = HandState(CLASSIC, Deal(deal.hands, deal.boneyard, deal.set_aside, other))
    rng = random.Random(seed)
    for _ in range(3):
        state.push(rng.choice(state.legal_move_ids()))
    return state


def test_a_record_led_by_anyone_is_valid_and_infers_nothing() -> None:
    """RULES.md section 8 does not check the leader; R14's inference needs a fitting deal."""
    state = _not_the_r14_leader(11)
    record = parse_record(Record.of(state).dumps())
    assert not record.led_by_rule
    view = PlayerView.of(state, state.to_move)  # leader_by_rule=True is overruled by the deal
    assert not view.leader_by_rule
    start = time.perf_counter()
    world = sampler_for(view).sample(random.Random(1))
    assert time.perf_counter() - start < 1.0 and world.moves == state.moves
    fits = HandState.new(CLASSIC, 2, 11)
    assert Record.of(fits).led_by_rule
    assert not Record.of(fits, meta={"hand": 2}).led_by_rule
    assert Record.of(fits, meta=5).led_by_rule  # meta is free-form


def test_meta_may_be_anything() -> None:
    state = HandState.new(CLASSIC, 2, 3)
    for meta in (5, "x", [1, 2], None, {"hand": "2"}, {"seats": "\ud800"}):
        text = json.dumps(dict(Record.of(state).to_json(), meta=meta))
        record = parse_record(text)
        assert record.meta == meta and record.meta_field("hand") == (
            meta.get("hand") if isinstance(meta, dict) else None)
        assert json.loads(record.dumps()).get("meta") == meta


# -- item 1: files of records ------------------------------------------------------------


def test_files_of_records() -> None:
    """One record, pretty-printed or not, or one per line; bad lines named, others kept."""
    one = Record.of(HandState.new(CLASSIC, 2, 1)).dumps()
    two = Record.of(HandState.new(CLASSIC, 3, 2)).dumps()
    assert [e.line for e in parse_records(one)] == [None]
    pretty = json.dumps(json.loads(one), indent=2)
    assert [e.line for e in parse_records(pretty)] == [None]
    entries = parse_records(f"{one}\n{{bad\n\n{two}\n")
    assert [e.line for e in entries] == [1, 2, 4]
    assert entries[0].record is not None and entries[2].record is not None
    assert entries[1].error is not None and entries[1].error.where == "line 2: record"
    broken = parse_records(pretty[:-3])  # one damaged pretty-printed record: one error
    assert len(broken) == 1 and broken[0].error is not None and broken[0].line is None
    assert parse_records('"text"')[0].error is not None


# -- item 8: views no deal can give -----------------------------------------------------------


def _view(**changes: object) -> str:
    view = {"rules": {"preset": "classic", "overrides": {}}, "players": 2, "seat": 1,
            "hand": ["2-2", "0-4", "4-6", "0-6", "1-4"], "leader": 0,
            "moves": ["0-3", "R4-0", "draw", "L0-0", "draw 2-5"]}
    view.update(changes)
    return json.dumps(view)


@pytest.mark.parametrize(("changes", "why"), [
    # R14: seat 0 led by highest_double, yet seat 1 was dealt 6-6.
    ({"hand": ["6-6", "0-4", "4-6", "0-6", "1-4"], "moves": ["0-3"]}, "cannot have led by R14"),
    # R14: seat 1 leads with 1-4 as its best: 21 better tiles, 18 undealt.
    ({"hand": ["0-1", "0-2", "0-3", "0-4", "1-4"], "leader": 1, "moves": []},
     "better tiles would have been left undealt"),
    # R14 and R16: seat 0 led, so held 6-6 (seat 1 has 5-5), but drew at ends 1|0,
    # where 6-6 joins the 1 (R8): it held no 6-6.
    ({"hand": ["5-5", "0-4", "4-6", "0-6", "1-4"], "moves": ["1-3", "R4-0", "draw"]},
     "cannot have led by R14"),
])
def test_impossible_views_are_refused(changes: dict[str, object], why: str) -> None:
    with pytest.raises(ViewError, match=why):
        PlayerView.from_json(_view(**changes))


def test_a_later_hand_may_be_led_by_anyone() -> None:
    view = PlayerView.from_json(_view(hand=["6-6", "0-4", "4-6", "0-6", "1-4"], moves=["0-3"],
                                      leader_by_rule=False))
    assert view.to_move == 1


def test_every_seat_passing_is_a_block() -> None:
    """R19: with the boneyard empty, a pass by every seat holding tiles cannot happen."""
    view = {"rules": {"preset": "classic",  # no boneyard: 18 tiles set aside
                      "overrides": {"set_aside": 18, "first_leader": "lot"}},
            "players": 2, "seat": 0, "leader": 0,
            "hand": ["0-1", "0-2", "0-3", "1-1", "1-2"], "moves": ["1-2", "pass"]}
    assert PlayerView.from_json(view).to_move == 0  # seat 1 may hold a 5 or a 6
    view["moves"] = ["1-2", "pass", "pass"]  # seat 0 cannot play either: blocked at once
    with pytest.raises(ViewError, match=r"moves\[2\]: every seat holding tiles has now passed"):
        PlayerView.from_json(view)


def test_a_public_block_ends_the_view() -> None:
    """Both ends blank and every matador on the line: over for everyone to see (R19)."""
    view = PlayerView.from_json(
        '{"rules": {"preset": "six", "overrides": {"matador_optional": false}}, "players": 4, '
        '"seat": 2, "hand": ["3-3", "3-4", "4-6", "0-0", "2-4", "1-1", "2-2"], "leader": 1, '
        '"moves": ["2-6", "R3-3", "L1-5", "R3-0", "R0-6", "L2-4", "L2-0", "R0-5", "R1-0", '
        '"L0-0"]}')
    assert view.is_over and not view.legal_moves


HARD = ('{"rules": {"preset": "six", "overrides": {}}, "players": 4, "seat": 3, "hand": '
        '["0-2", "3-6", "1-1", "3-3", "4-5", "2-5", "0-0"], "leader": 1, "moves": ["2-4", '
        '"pass", "R2-0", "L5-1", "pass", "L5-3", "R3-3", "L3-1", "R3-0", "L5-6"]}')
"""A view that passes every check when read but that no deal gives: the exact sampler
counts the deals in which seat 1 led by its best tile (R14) and finds none."""

SLOW = ('{"rules": {"preset": "six", "overrides": {}}, "players": 4, "seat": 3, "hand": '
        '["0-2", "0-6", "1-3", "1-2", "4-4", "2-4", "3-5"], "leader": 1, "moves": ["6-6", '
        '"L1-5", "L1-3", "R0-5", "L3-2", "L4-6", "R1-2", "R4-5", "R1-1", "pass", "R5-3", '
        '"L0-4", "R3-0", "L2-6"]}')
"""A possible view whose first 168 plain rejection candidates (seed 1) all fail."""


def test_the_sampler_finds_a_view_impossible_by_counting() -> None:
    with pytest.raises(ViewError, match=r"no deal lets seat 1 lead by the best tile \(R14\)"):
        WorldSampler(PlayerView.from_json(HARD))


def test_the_sampler_gives_up_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain rejection sampling (what the sampler falls back to when counting would take
    too long) asks ``give_up`` before each candidate after the first ``GIVE_UP_AFTER``."""
    monkeypatch.setattr(sampling, "GIVE_UP_AFTER", 1)
    sampler = WorldSampler(PlayerView.from_json(SLOW))
    sampler.variants = None  # plain rejection sampling
    calls = []

    def give_up() -> bool:
        calls.append(1)
        return len(calls) > 50

    with pytest.raises(ViewError, match="within the time budget"):
        sampler.sample(random.Random(1), give_up)
    assert sampler.attempts == 51


def test_a_clock_that_ran_out_early_does_not_make_a_view_impossible() -> None:
    """``give_up`` true from the start (a stalled process): the sampler still draws
    ``GIVE_UP_AFTER`` candidates and finds SLOW's world after 169 (a search once forfeited a
    possible view after one candidate)."""
    sampler = WorldSampler(PlayerView.from_json(SLOW))
    sampler.variants = None
    sampler.sample(random.Random(1), lambda: True)
    assert 1 < sampler.attempts <= sampling.GIVE_UP_AFTER
