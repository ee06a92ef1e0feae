"""RULES.md section 7, clarified: "a deal may not need more than 28 tiles" is checked per deal.

Rules are valid when some player count of their range could not be dealt; only a
deal (a new hand or a record) for such a count is refused, naming ``hand_size``,
``set_aside`` and the player count.
"""

from __future__ import annotations

import json
import random

import pytest

from matador.core.errors import RecordError, RulesError
from matador.core.match import Match
from matador.core.record import Record, parse_record, replay
from matador.core.rules import Rules
from matador.core.state import Deal, HandState

TIGHT = {"hand_size": 2, "set_aside": 24}  # 2 x 2 + 24 = 28; 3 x 2 + 24 = 30


def _played_record(rules: Rules, players: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    state = HandState.new(rules, players, rng)
    while not state.is_over:
        state.push(rng.choice(state.legal_move_ids()))
    return Record.of(state).to_json()


def test_rules_that_fit_only_some_player_counts_are_valid() -> None:
    rules = Rules.from_preset("classic", TIGHT)
    assert rules.players == (2, 4)
    assert rules.allows_players(2) and not rules.allows_players(3)
    assert Rules.from_preset("classic", {"hand_size": {"2": 2, "3": 8}}).hand_size == (
        (2, 2), (3, 8))


@pytest.mark.parametrize("seed", range(5))
def test_a_two_player_record_under_tight_rules_is_accepted_and_replayed(seed: int) -> None:
    rules = Rules.from_preset("classic", TIGHT)
    data = _played_record(rules, 2, seed)
    deal = data["deal"]
    assert isinstance(deal, dict)
    assert [len(h) for h in deal["hands"]] == [2, 2] and len(deal["set_aside"]) == 24
    assert deal["boneyard"] == []
    record = parse_record(json.dumps(data))
    assert replay(record).result == data["result"]


def test_a_three_player_deal_under_tight_rules_is_refused_naming_the_parameters() -> None:
    rules = Rules.from_preset("classic", TIGHT)
    with pytest.raises(RulesError) as err:
        Deal.random(rules, 3, random.Random(1))
    e = err.value
    assert e.where == "players"
    for word in ("hand_size", "set_aside", "3 players", "30 tiles", "28"):
        assert word in e.why
    with pytest.raises(RulesError):
        Match(rules, 3, random.Random(1))


def test_a_three_player_record_under_tight_rules_is_refused_naming_the_parameters() -> None:
    data = _played_record(Rules.from_preset("classic"), 3, 7)
    data["rules"] = {"preset": "classic", "overrides": TIGHT}
    del data["result"]
    with pytest.raises(RecordError) as err:
        parse_record(json.dumps(data))
    assert err.value.where == "players"
    assert "hand_size" in err.value.why and "set_aside" in err.value.why
    assert "3 players" in err.value.why


def test_a_hand_size_object_need_not_name_every_count_of_the_range() -> None:
    rules = Rules.from_preset("classic", {"hand_size": {"2": 2, "3": 8}, "players": [2, 4]})
    state = HandState.new(rules, 2, random.Random(3))
    assert state.hand_sizes() == (2, 2) and state.boneyard_size == 24
    state3 = HandState.new(rules, 3, random.Random(3))
    assert state3.hand_sizes() == (8, 8, 8) and state3.boneyard_size == 4
    with pytest.raises(RulesError) as err:
        HandState.new(rules, 4, random.Random(3))
    assert err.value.where == "players"
    assert "hand_size" in err.value.why and "4 players" in err.value.why


def test_a_four_player_record_for_a_count_hand_size_does_not_name_is_refused() -> None:
    data = _played_record(Rules.from_preset("classic"), 4, 2)
    data["rules"] = {"preset": "classic", "overrides": {"hand_size": {"2": 2, "3": 8}}}
    del data["result"]
    with pytest.raises(RecordError) as err:
        parse_record(json.dumps(data))
    assert err.value.where == "players"
    assert "hand_size" in err.value.why and "4 players" in err.value.why


def test_keys_outside_two_to_four_are_still_refused() -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_preset("classic", {"hand_size": {"2": 2, "5": 3}})
    assert err.value.where == "rules.overrides.hand_size.5"
