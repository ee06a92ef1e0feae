"""Unit tests for matador.core.rules: parameters, the four presets (section 7), overrides."""

from __future__ import annotations

import dataclasses

import pytest

from matador.core.errors import MatadorError, RulesError
from matador.core.rules import (
    PARAMETERS,
    PRESET_ALIASES,
    PRESETS,
    Draw,
    FirstLeader,
    GoingOut,
    HandPoints,
    Rules,
    resolve_preset,
)
from matador.core.tables import tables_for

# RULES.md section 7, typed in from the table (JSON values).
SECTION_7 = {
    "classic": {
        "players": [2, 4], "target": 7, "set_aside": 0, "hand_size": 5,
        "first_leader": "highest_double", "matador_anytime": True, "matador_optional": True,
        "draw": "until_playable", "going_out": "ends_hand", "hand_points": "pips_to_winner",
        "per_join": 0, "per_matador": 0, "exposed_target_bonus": 0, "pass_penalty": 0,
        "match_target": 100,
    },
    "paluba": {
        "players": [2, 2], "target": 7, "set_aside": 3, "hand_size": 3,
        "first_leader": "lot", "matador_anytime": False, "matador_optional": False,
        "draw": "until_playable", "going_out": "after_boneyard", "hand_points": "pips_to_winner",
        "per_join": 0, "per_matador": 0, "exposed_target_bonus": 0, "pass_penalty": 0,
        "match_target": 100,
    },
    "russian": {
        "players": [2, 4], "target": 7, "set_aside": 0, "hand_size": {"2": 7, "3": 6, "4": 5},
        "first_leader": "highest_double", "matador_anytime": True, "matador_optional": True,
        "draw": "one", "going_out": "never", "hand_points": "pips_to_winner",
        "per_join": 10, "per_matador": 0, "exposed_target_bonus": 0, "pass_penalty": 0,
        "match_target": 100,
    },
    "six": {
        "players": [2, 4], "target": 6, "set_aside": 0, "hand_size": {"2": 6, "3": 6, "4": 7},
        "first_leader": "highest_double", "matador_anytime": True, "matador_optional": True,
        "draw": "one", "going_out": "never", "hand_points": "none",
        "per_join": 1, "per_matador": 10, "exposed_target_bonus": 5, "pass_penalty": 6,
        "match_target": 100,
    },
}


def test_preset_names_and_parameter_names_are_exact() -> None:
    assert PRESETS == ("classic", "paluba", "russian", "six")
    assert tuple(SECTION_7["classic"]) == PARAMETERS  # RULES.md order


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_is_the_section_7_table(name) -> None:
    r = Rules.from_preset(name)
    assert r.preset == name
    assert r.parameters() == SECTION_7[name]
    assert r.overrides() == {}
    assert r.to_json() == {"preset": name, "overrides": {}}
    assert Rules.from_preset(resolve_preset(name.upper())) == r


@pytest.mark.parametrize(("name", "sizes"), [
    ("classic", {2: 5, 3: 5, 4: 5}),
    ("paluba", {2: 3}),
    ("russian", {2: 7, 3: 6, 4: 5}),
    ("six", {2: 6, 3: 6, 4: 7}),
])
def test_hand_size_for_each_allowed_player_count(name, sizes) -> None:
    r = Rules.from_preset(name)
    assert {n: r.hand_size_for(n) for n in range(2, 5) if r.allows_players(n)} == sizes
    for n in sizes:
        assert n * sizes[n] + r.set_aside <= 28  # a deal never needs more than 28 tiles


def test_python_values_are_enums() -> None:
    r = Rules.from_preset("six")
    assert r.first_leader is FirstLeader.HIGHEST_DOUBLE and r.draw is Draw.ONE
    assert r.going_out is GoingOut.NEVER and r.hand_points is HandPoints.NONE
    assert Rules.from_preset("paluba").first_leader is FirstLeader.LOT
    assert r.players == (2, 4) and r.hand_size == ((2, 6), (3, 6), (4, 7))


@pytest.mark.parametrize(("alias", "name"), [
    ("classic", "classic"), ("spanish", "classic"), ("matador", "classic"),
    ("czech", "paluba"), ("paluba", "paluba"), ("russian", "russian"),
    ("six", "six"), ("six-matador", "six"), ("six_matador", "six"), ("sixes", "six"),
    (" Spanish ", "classic"), ("CZECH", "paluba"),
])
def test_resolve_preset_aliases(alias, name) -> None:
    assert resolve_preset(alias) == name
    assert Rules.from_preset(resolve_preset(alias)) == Rules.from_preset(name)


def test_every_alias_names_a_preset() -> None:
    assert set(PRESET_ALIASES.values()) <= set(PRESETS)


@pytest.mark.parametrize("bad", ["", "dominoes", "classic2", "six matador"])
def test_resolve_preset_refuses_unknown_names(bad) -> None:
    with pytest.raises(RulesError):
        resolve_preset(bad)


def test_from_preset_refuses_aliases_and_unknown_presets() -> None:
    # records name presets exactly; aliases are for user interfaces
    for bad in ("spanish", "Classic", "", 3, None):
        with pytest.raises(RulesError) as err:
            Rules.from_preset(bad)
        assert err.value.where == "rules.preset"


@pytest.mark.parametrize(("name", "overrides"), [
    ("classic", {"draw": "one"}),                          # the Spanish alternative
    ("classic", {"target": 5, "hand_size": 4}),
    ("classic", {"players": [3, 4], "hand_size": {"3": 6, "4": 7}}),
    ("paluba", {"matador_anytime": True, "matador_optional": True,
                "first_leader": "highest_double"}),
    ("paluba", {"players": [2, 3], "set_aside": 0}),
    ("russian", {"per_join": 0}),                          # "traditional" scoring
    ("russian", {"hand_size": 4, "going_out": "after_boneyard", "pass_penalty": -3}),
    ("six", {"per_join": 10, "per_matador": 0, "exposed_target_bonus": 0,
             "pass_penalty": 0}),                          # six for beginners
    ("six", {"hand_points": "pips_to_winner", "match_target": 0}),
    ("six", {"target": 12, "players": [2, 2], "hand_size": 14}),  # 2 x 14 = 28 tiles
])
def test_overrides_round_trip(name, overrides) -> None:
    r = Rules.from_preset(name, overrides)
    assert r.overrides() == overrides
    assert Rules.from_preset(name, r.overrides()) == r
    assert r.to_json() == {"preset": name, "overrides": overrides}
    params = dict(SECTION_7[name])
    params.update(overrides)
    assert r.parameters() == params


def test_an_override_equal_to_the_preset_value_is_not_an_override() -> None:
    r = Rules.from_preset("classic", {"draw": "until_playable", "target": 7})
    assert r.overrides() == {} and r == Rules.from_preset("classic")


def test_rules_are_frozen_and_hashable() -> None:
    r = Rules.from_preset("classic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 6  # type: ignore[misc]
    assert hash(r) == hash(Rules.from_preset("classic"))
    assert tables_for(r) is tables_for(Rules.from_preset("classic"))
    assert Rules.from_preset("classic") != Rules.from_preset("classic", {"per_join": 1})


def test_with_overrides_and_replace_build_on_the_existing_overrides() -> None:
    r = Rules.from_preset("classic", {"draw": "one"})
    r2 = r.with_overrides({"per_join": 5})
    assert r2.overrides() == {"draw": "one", "per_join": 5}
    r3 = r2.replace(going_out=GoingOut.NEVER, players=(2, 2))
    assert r3.overrides() == {"players": [2, 2], "draw": "one", "going_out": "never",
                              "per_join": 5}
    with pytest.raises(RulesError):
        r.replace(target=13)


def test_the_matadors_follow_the_target() -> None:
    r = Rules.from_preset("classic", {"target": 6})
    assert r.matadors == Rules.from_preset("six").matadors
    assert r.is_matador(0) and r.is_matador(6)  # 0-0 and 0-6


@pytest.mark.parametrize(("overrides", "where"), [
    ({"target": 13}, "rules.overrides.target"),
    ({"hand_size": 0}, "rules.overrides.hand_size"),
    ({"players": [1, 4]}, "rules.overrides.players"),
    ({"per_join": True}, "rules.overrides.per_join"),
    ({"unknown": 1}, "rules.overrides.unknown"),
    ({"hand_size": {"1": 5}}, "rules.overrides.hand_size.1"),
])
def test_bad_overrides_name_the_parameter(overrides, where) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_preset("classic", overrides)
    e = err.value
    assert e.where == where and str(e) == f"{where}: {e.why}"
    assert isinstance(e, MatadorError)
    # the name of the offending parameter is in the message too
    assert next(iter(overrides)) in str(e)


def test_rules_error_where_prefix() -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_preset("classic", {"draw": "x"}, where="options")
    assert err.value.where == "options.overrides.draw"


def test_overrides_must_be_a_mapping() -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_preset("classic", [("draw", "one")])  # type: ignore[arg-type]
    assert err.value.where == "rules.overrides"
