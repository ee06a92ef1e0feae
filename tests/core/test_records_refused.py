"""Refused records (RULES.md section 8): each kind raises RecordError naming the field.

"bad JSON, unknown preset or parameter, a bad tile, a tile used twice or
missing, wrong hand sizes, a malformed move, an illegal move, a move after the
end of the hand, a result that does not match", unknown keys, and overrides of
the wrong type or range. WHERE names the field or move; for an illegal move
WHY names the rule that forbids it. Most cases mutate the section 8 example.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from rulekit import S8_RESULT, load_golden, make_record, s8_record

from matador.core.errors import MatadorError, RecordError
from matador.core.record import parse_record, replay


def refused(record: Any) -> RecordError:
    """Parse ``record`` (dict or text), expecting a refusal; check the error's shape."""
    source = record if isinstance(record, (str, bytes)) else json.dumps(record)
    with pytest.raises(RecordError) as err:
        parse_record(source)
    e = err.value
    assert isinstance(e, MatadorError) and isinstance(e, ValueError)
    assert str(e) == f"{e.where}: {e.why}"
    assert e.why
    return e


def rule_of(e: RecordError) -> str:
    """The rule id cited at the end of an illegal-move message, e.g. ``(R9)``."""
    m = re.search(r"\((R\d+)\)\s*$", e.why)
    assert m, e.why
    return m.group(1)


def test_the_section_8_example_is_accepted_with_and_without_result() -> None:
    rec = s8_record()
    assert replay(parse_record(rec)).result == S8_RESULT
    rec["result"] = S8_RESULT
    rec["meta"] = {"anything": [1, {"goes": None}]}
    assert replay(parse_record(json.dumps(rec))).result == S8_RESULT


# --------------------------------------------------------------------------- JSON and keys


@pytest.mark.parametrize("text", ['{"rules": ', "not json", "", b"\xff\xfe{"])
def test_bad_json_is_refused(text) -> None:
    e = refused(text)
    assert e.where == "record"


@pytest.mark.parametrize("value", [[1, 2], "record", 3, None])
def test_a_record_must_be_an_object(value) -> None:
    assert refused(value).where == "record"


def test_an_unknown_top_level_key_is_refused() -> None:
    rec = s8_record()
    rec["comment"] = "hi"
    assert refused(rec).where == "comment"


@pytest.mark.parametrize("key", ["rules", "players", "deal", "moves"])
def test_a_missing_key_is_refused(key) -> None:
    rec = s8_record()
    del rec[key]
    assert refused(rec).where == key


def test_unknown_keys_inside_rules_and_deal_are_refused() -> None:
    rec = s8_record()
    rec["rules"]["seed"] = 1
    assert refused(rec).where == "rules.seed"
    rec = s8_record()
    rec["deal"]["stock"] = []
    assert refused(rec).where == "deal.stock"


def test_rules_must_be_an_object_with_a_preset() -> None:
    rec = s8_record()
    rec["rules"] = "classic"
    assert refused(rec).where == "rules"
    rec = s8_record()
    del rec["rules"]["preset"]
    assert refused(rec).where == "rules.preset"


# --------------------------------------------------------------------------- preset and overrides


@pytest.mark.parametrize("preset", ["spanish", "Classic", "six-matador", "", 7, None])
def test_an_unknown_preset_is_refused(preset) -> None:
    # a record names one of the four presets exactly; aliases are for user interfaces
    rec = s8_record()
    rec["rules"]["preset"] = preset
    assert refused(rec).where == "rules.preset"


@pytest.mark.parametrize(("name", "value", "where"), [
    ("drawing", "one", "rules.overrides.drawing"),      # unknown parameter
    ("Draw", "one", "rules.overrides.Draw"),            # names are exact
    ("matadors", 5, "rules.overrides.matadors"),        # derived, not a parameter
    ("preset", "six", "rules.overrides.preset"),
    ("draw", "twice", "rules.overrides.draw"),
    ("draw", 1, "rules.overrides.draw"),
    ("going_out", "sometimes", "rules.overrides.going_out"),
    ("hand_points", "all", "rules.overrides.hand_points"),
    ("first_leader", "oldest", "rules.overrides.first_leader"),
    ("target", 13, "rules.overrides.target"),
    ("target", 0, "rules.overrides.target"),
    ("target", "7", "rules.overrides.target"),
    ("target", 7.0, "rules.overrides.target"),
    ("target", True, "rules.overrides.target"),         # a bool is not an int
    ("hand_size", 0, "rules.overrides.hand_size"),
    ("hand_size", -5, "rules.overrides.hand_size"),
    ("hand_size", True, "rules.overrides.hand_size"),
    ("hand_size", [5], "rules.overrides.hand_size"),
    ("hand_size", {}, "rules.overrides.hand_size"),
    ("hand_size", 15, "players"),                       # 2 players x 15 > 28 tiles
    ("hand_size", {"3": 5}, "players"),                 # no size for this record's 2 players
    ("players", [1, 4], "rules.overrides.players"),
    ("players", [2, 5], "rules.overrides.players"),
    ("players", [3, 2], "rules.overrides.players"),
    ("players", [2], "rules.overrides.players"),
    ("players", 2, "rules.overrides.players"),
    ("players", [True, 4], "rules.overrides.players"),
    ("set_aside", -1, "rules.overrides.set_aside"),
    ("set_aside", 29, "rules.overrides.set_aside"),
    ("set_aside", 19, "players"),                       # 2 x 5 + 19 > 28: the sizes clash
    ("matador_anytime", 1, "rules.overrides.matador_anytime"),
    ("matador_optional", "true", "rules.overrides.matador_optional"),
    ("per_join", True, "rules.overrides.per_join"),
    ("per_join", 1.5, "rules.overrides.per_join"),
    ("pass_penalty", "6", "rules.overrides.pass_penalty"),
    ("exposed_target_bonus", None, "rules.overrides.exposed_target_bonus"),
    ("per_matador", False, "rules.overrides.per_matador"),
    ("match_target", -1, "rules.overrides.match_target"),
    ("match_target", False, "rules.overrides.match_target"),
])
def test_a_bad_override_is_refused_naming_the_parameter(name, value, where) -> None:
    rec = s8_record()
    rec["rules"]["overrides"] = {name: value}
    e = refused(rec)
    assert e.where == where, e


@pytest.mark.parametrize("key", ["5", "1", "two", ""])
def test_a_hand_size_object_with_a_bad_player_count_is_refused(key) -> None:
    rec = s8_record()
    rec["rules"]["overrides"] = {"hand_size": {"2": 5, "3": 5, "4": 5, key: 3}}
    assert refused(rec).where.startswith("rules.overrides.hand_size")


def test_a_hand_size_object_with_a_bad_size_is_refused() -> None:
    rec = s8_record()
    rec["rules"]["overrides"] = {"hand_size": {"2": 0, "3": 5, "4": 5}}
    assert refused(rec).where == "rules.overrides.hand_size.2"


def test_overrides_must_be_an_object() -> None:
    rec = s8_record()
    rec["rules"]["overrides"] = [["draw", "one"]]
    assert refused(rec).where == "rules.overrides"


# --------------------------------------------------------------------------- players and deal


@pytest.mark.parametrize("players", [1, 5, 0, "2", True, 2.0, None])
def test_players_out_of_the_rules_range_or_not_an_int_is_refused(players) -> None:
    rec = s8_record()
    rec["players"] = players
    assert refused(rec).where == "players"


def test_players_must_be_in_the_presets_range() -> None:
    rec = load_golden("paluba_anytime_false_partial")
    rec["players"] = 3  # paluba: players [2, 2]
    assert refused(rec).where == "players"


def test_the_number_of_hands_must_match_players() -> None:
    rec = s8_record()
    rec["players"] = 3
    assert refused(rec).where == "deal.hands"


def test_deal_must_be_an_object_with_every_key() -> None:
    rec = s8_record()
    rec["deal"] = []
    assert refused(rec).where == "deal"
    for key in ("hands", "boneyard", "set_aside", "leader"):
        rec = s8_record()
        del rec["deal"][key]
        assert refused(rec).where == f"deal.{key}"


@pytest.mark.parametrize("tile", ["6-0", "7-0", "x", "0-7", "1-1 ", "11", "", 12, None, ["0", "6"]])
def test_a_bad_tile_is_refused_at_its_place(tile) -> None:
    rec = s8_record()
    rec["deal"]["hands"][1][2] = tile  # was 4-6
    assert refused(rec).where == "deal.hands[1][2]"


def test_a_bad_tile_in_the_boneyard_or_set_aside_is_refused_at_its_place() -> None:
    rec = s8_record()
    rec["deal"]["boneyard"][3] = "6-5"
    assert refused(rec).where == "deal.boneyard[3]"
    rec = load_golden("paluba_anytime_false_partial")
    rec["deal"]["set_aside"][1] = "2-"
    assert refused(rec).where == "deal.set_aside[1]"


def test_a_hand_or_boneyard_that_is_not_a_list_is_refused() -> None:
    rec = s8_record()
    rec["deal"]["hands"][0] = "0-3 2-4 1-1 6-6 3-3"
    assert refused(rec).where == "deal.hands[0]"
    rec = s8_record()
    rec["deal"]["hands"] = {"0": []}
    assert refused(rec).where == "deal.hands"
    rec = s8_record()
    rec["deal"]["boneyard"] = None
    assert refused(rec).where == "deal.boneyard"


def test_a_tile_used_twice_is_refused_at_its_second_place() -> None:
    rec = s8_record()
    rec["deal"]["hands"][1][2] = "0-3"  # also deal.hands[0][0]
    e = refused(rec)
    assert e.where == "deal.hands[1][2]"
    assert "0-3" in e.why
    rec = s8_record()
    rec["deal"]["hands"][0][0] = "0-6"  # also deal.hands[1][3]
    assert refused(rec).where == "deal.hands[1][3]"


def test_a_tile_used_twice_in_the_boneyard() -> None:
    rec = s8_record()
    rec["deal"]["boneyard"][17] = "0-0"  # also boneyard[0]
    assert refused(rec).where == "deal.boneyard[17]"


def test_a_missing_tile_is_refused() -> None:
    rec = s8_record()
    rec["deal"]["boneyard"].pop()  # 3-6
    e = refused(rec)
    assert e.where in ("deal", "deal.boneyard")
    assert "3-6" in e.why


def test_wrong_hand_sizes_are_refused() -> None:
    rec = s8_record()
    rec["deal"]["hands"][1].append(rec["deal"]["boneyard"].pop())
    assert refused(rec).where == "deal.hands[1]"
    rec = s8_record()
    rec["deal"]["boneyard"].append(rec["deal"]["hands"][0].pop())
    assert refused(rec).where == "deal.hands[0]"


def test_a_wrong_set_aside_size_is_refused() -> None:
    rec = s8_record()
    rec["deal"]["set_aside"].append(rec["deal"]["boneyard"].pop())
    assert refused(rec).where == "deal.set_aside"
    rec = load_golden("paluba_anytime_false_partial")  # paluba sets 3 aside
    rec["deal"]["boneyard"].append(rec["deal"]["set_aside"].pop())
    assert refused(rec).where == "deal.set_aside"


@pytest.mark.parametrize("leader", [2, -1, True, "0", 0.0, None])
def test_a_bad_leader_is_refused(leader) -> None:
    rec = s8_record()
    rec["deal"]["leader"] = leader
    assert refused(rec).where == "deal.leader"


# --------------------------------------------------------------------------- moves


def test_moves_must_be_a_list() -> None:
    rec = s8_record()
    rec["moves"] = "0-3 R4-0"
    assert refused(rec).where == "moves"


@pytest.mark.parametrize("move", ["X", "L7-0", "L0-7", "3-0", "M1-2", "l0-0", "Draw", "PASS",
                                  "L0-0 ", "R44", "", 7, None, ["draw"]])
def test_a_malformed_move_is_refused_at_its_index(move) -> None:
    rec = s8_record()
    rec["moves"][7] = move
    assert refused(rec).where == "moves[7]"


@pytest.mark.parametrize(("index", "move", "rules"), [
    (0, "5-5", {"R6"}),          # the leader does not hold 5-5
    (0, "R0-3", {"R6"}),         # the line is empty: the hand starts with an opening
    (0, "draw", {"R15"}),        # the opening is never optional
    (0, "pass", {"R15"}),
    (1, "L0-4", {"R9"}),         # blank end: only a matador
    (1, "L4-0", {"R9"}),
    (1, "R0-4", {"R9"}),         # 0 + 3 != 7
    (1, "R6-4", {"R9"}),         # 6 + 3 != 7
    (1, "R4-3", {"R7"}),         # seat 1 does not hold 3-4
    (1, "0-4", {"R7"}),          # an opening once the line is open
    (1, "draw", {"R15"}),        # seat 1 can lay 0-4, 1-4 or 4-6
    (1, "pass", {"R15", "R17"}),
    (2, "pass", {"R17"}),        # seat 0 has no play but may draw
    (6, "draw", {"R15"}),        # seat 0 can lay 2-4, not a matador
    (7, "L1-4", {"R9"}),         # 1-4 on the blank left end
    (7, "pass", {"R17"}),
])
def test_an_illegal_move_is_refused_naming_the_rule(index, move, rules) -> None:
    rec = s8_record()
    rec["moves"][index] = move
    e = refused(rec)
    assert e.where == f"moves[{index}]"
    assert rule_of(e) in rules, e.why
    assert move in e.why


def test_illegal_R10_matador_when_a_joining_play_exists() -> None:
    rec = load_golden("paluba_anytime_false_partial")
    del rec["result"]
    rec["moves"][1] = "L0-0"  # R4-3 and L6-6 join (matador_anytime false)
    e = refused(rec)
    assert e.where == "moves[1]" and rule_of(e) == "R10"


def test_illegal_R15_draw_when_matadors_are_compulsory() -> None:
    rec = load_golden("paluba_anytime_false_partial")
    del rec["result"]
    rec["moves"][4] = "draw"  # only 2-5 can be laid; matador_optional false
    e = refused(rec)
    assert e.where == "moves[4]" and rule_of(e) == "R15"


def test_illegal_R16_second_draw_under_draw_one() -> None:
    rec = load_golden("russian_preset_partial")
    del rec["result"]
    rec["moves"][2] = "draw"
    e = refused(rec)
    assert e.where == "moves[2]" and rule_of(e) == "R16"


def test_illegal_R16_draw_from_an_empty_boneyard() -> None:
    rec = load_golden("classic_blocked_winner")
    del rec["result"]
    rec["moves"][4] = "draw"
    e = refused(rec)
    assert e.where == "moves[4]" and rule_of(e) == "R16"


def test_illegal_R15_pass_when_the_boneyard_ran_empty_with_a_matador_in_hand() -> None:
    rec = load_golden("classic_optional_boneyard_ran_empty")
    del rec["result"]
    rec["moves"][2] = "pass"
    e = refused(rec)
    assert e.where == "moves[2]" and rule_of(e) in {"R15", "R17"}


def test_illegal_R9_non_matador_on_a_blank_end_with_target_6() -> None:
    rec = make_record("six", ["0-0 1-2", "2-6 0-6"], "", moves=["0-0", "L6-2"])
    e = refused(rec)
    assert e.where == "moves[1]" and rule_of(e) in {"R9", "R10"}


def test_the_first_illegal_move_is_the_one_named() -> None:
    rec = s8_record()
    rec["moves"][5] = "pass"
    rec["moves"][9] = "nonsense"
    assert refused(rec).where == "moves[5]"


@pytest.mark.parametrize("extra", ["pass", "draw", "L3-3", "R1-1", "0-3"])
def test_a_move_after_the_end_of_the_hand_is_refused(extra) -> None:
    rec = s8_record()
    rec["moves"].append(extra)
    e = refused(rec)
    assert e.where == "moves[14]"
    assert "end of the hand" in e.why


def test_a_move_after_a_blocked_end_is_refused() -> None:
    rec = load_golden("classic_blocked_tie_3p")
    del rec["result"]
    rec["moves"].append("pass")
    assert refused(rec).where == "moves[1]"


# --------------------------------------------------------------------------- result


@pytest.mark.parametrize("result", [
    {"winner": 1, "reason": "out", "pips": [0, 10], "points": [10, 0]},
    {"winner": 0, "reason": "blocked", "pips": [0, 10], "points": [10, 0]},
    {"winner": 0, "reason": "out", "pips": [0, 10], "points": [10, 1]},
    {"winner": 0, "reason": "out", "pips": [0, 10]},
    {"winner": 0, "reason": "out", "pips": [0, 10], "points": [10, 0], "extra": 1},
    {"winner": False, "reason": "out", "pips": [0, 10], "points": [10, 0]},
    {"winner": 0.0, "reason": "out", "pips": [0, 10], "points": [10, 0]},
    {"over": False, "to_move": 0},
    None,
    "out",
])
def test_a_result_that_does_not_match_is_refused(result) -> None:
    rec = s8_record()
    rec["result"] = result
    assert refused(rec).where == "result"


def test_a_result_of_an_unfinished_hand() -> None:
    rec = s8_record()
    rec["moves"] = rec["moves"][:3]  # ply 3: seat 0 to move (it drew 0-0)
    rec["result"] = {"over": False, "to_move": 0}
    assert replay(parse_record(rec)).result == {"over": False, "to_move": 0}
    rec["result"] = {"over": False, "to_move": 1}
    assert refused(rec).where == "result"
