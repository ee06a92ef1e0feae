"""Every parser of the core, on any input, raises only its own error, and quotes it short.

Hypothesis properties (issue 9): the move, tile, rules, record and view parsers
refuse what they cannot read with an error of the package's hierarchy whose
message is one printable line of bounded length, whatever the input held
(lone surrogates, control characters, non-ASCII digits, megabytes).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanes import examples
from matador.core.errors import (
    InvalidMoveError,
    InvalidTileError,
    MatadorError,
    RecordError,
    RulesError,
    ViewError,
    field_path,
    json_excerpt,
    printable,
    quote,
)
from matador.core.moves import MOVE_NAMES, Move
from matador.core.record import parse_record, parse_records
from matador.core.rules import PRESETS, Rules
from matador.core.tiles import NAMES, Tile
from matador.core.view import PlayerView

SETTINGS = settings(max_examples=examples(300), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
"""Every code point, lone surrogates and controls included."""
TEXT = st.one_of(
    st.text(ANY_CHAR, max_size=12),
    st.sampled_from(["²-1", "1-³", "٣-٤", "L٣-٤", "\uff10-\uff13", "R1-1\n", "\ud800", "draw ²-5"]),
    st.builds(lambda c, n: c * n, st.sampled_from("x\ud800\n"), st.integers(41, 100_000)),
)
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)

LIMIT = 600
"""No message of the core is longer than this, whatever it quotes."""


def short_and_printable(error: Exception) -> None:
    text = str(error)
    assert text.isprintable(), text[:200]
    assert len(text) <= LIMIT, (len(text), text[:200])
    text.encode("utf-8")  # no lone surrogate left


@SETTINGS
@given(JSON)
def test_quote_is_short_printable_and_one_line(value: Any) -> None:
    text = quote(value)
    assert text.isprintable() and len(text) <= 200, text
    text.encode("utf-8")
    assert json_excerpt(value).isprintable()


@SETTINGS
@given(st.text(ANY_CHAR, max_size=30), st.text(ANY_CHAR, max_size=30))
def test_field_path_is_never_empty_and_printable(parent: str, key: str) -> None:
    parent = printable(parent)
    where = field_path(parent, key)
    assert where and where.isprintable()
    assert where != parent


def test_quote_examples() -> None:
    assert quote("x" * 10_000_000).endswith("(10000000 characters)")
    assert len(quote("x" * 10_000_000)) < 80
    assert quote("a\rb") == "'a\\rb'" and quote("\ud800") == "'\\ud800'"
    assert quote(10**5000).startswith("an integer of about")
    assert field_path("", "") == "record['']"
    assert field_path("rules.overrides", "draw") == "rules.overrides.draw"
    assert field_path("rules.overrides.hand_size", "2") == "rules.overrides.hand_size.2"


@SETTINGS
@given(st.one_of(TEXT, JSON))
def test_move_parse_raises_only_invalid_move(text: Any) -> None:
    try:
        move = Move.parse(text)
    except InvalidMoveError as e:
        short_and_printable(e)
    else:  # only the record notation parses, in ASCII
        assert isinstance(text, str) and text in MOVE_NAMES and str(move) == text


@SETTINGS
@given(st.one_of(TEXT, JSON))
def test_tile_parse_raises_only_invalid_tile(text: Any) -> None:
    try:
        tile = Tile.parse(text)
    except InvalidTileError as e:
        short_and_printable(e)
    else:
        assert text in NAMES and str(tile) == text


def test_non_ascii_digits_are_not_digits() -> None:
    """Issue 9 item 2: ``'²-1'`` passed ``str.isdigit`` and crashed ``int()``."""
    for text in ("²-1", "1-³", "٣-٤", "\uff10-\uff13", "L٣-٤", "R²-1", "L1-¹"):
        try:
            Move.parse(text)
        except InvalidMoveError as e:
            assert "is not a move" in str(e)
        else:
            raise AssertionError(text)


@SETTINGS
@given(st.one_of(st.sampled_from(PRESETS), TEXT, JSON), st.dictionaries(TEXT, JSON, max_size=3))
def test_rules_raise_only_rules_errors(preset: Any, overrides: dict[str, Any]) -> None:
    try:
        Rules.from_preset(preset, overrides)
    except RulesError as e:
        short_and_printable(e)
        assert e.where and e.where.isprintable()


EXAMPLE: dict[str, Any] = {
    "rules": {"preset": "classic", "overrides": {}}, "players": 2,
    "deal": {"hands": [["0-3", "2-4", "1-1", "6-6", "3-3"], ["2-2", "0-4", "4-6", "0-6", "1-4"]],
             "boneyard": ["0-0", "2-5", "1-6", "5-6", "4-4", "3-5", "0-2", "2-6", "4-5", "1-2",
                          "0-5", "2-3", "3-4", "1-3", "5-5", "0-1", "1-5", "3-6"],
             "set_aside": [], "leader": 0},
    "moves": ["0-3", "R4-0", "draw", "L0-0", "draw", "R2-5", "R2-4", "draw"],
}


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


@st.composite
def changed(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """``base`` with one value anywhere replaced, or one key added."""
    obj = json.loads(json.dumps(base))
    path = draw(st.sampled_from(_paths(obj)[1:]))
    parent = obj
    for step in path[:-1]:
        parent = parent[step]
    if draw(st.booleans()) or not isinstance(parent, dict):
        parent[path[-1]] = draw(JSON)
    else:
        parent[draw(TEXT)] = draw(JSON)
    return obj


@SETTINGS
@given(changed(EXAMPLE))
def test_records_raise_only_record_errors(obj: Any) -> None:
    try:
        parse_record(obj)
    except RecordError as e:
        short_and_printable(e)
        assert e.where and e.where.isprintable()
    text = json.dumps(obj)
    for entry in parse_records(text.encode("utf-8", "surrogatepass")):
        if entry.error is not None:
            short_and_printable(entry.error)


VIEW: dict[str, Any] = {
    "rules": {"preset": "classic", "overrides": {}}, "players": 2, "seat": 1,
    "hand": ["2-2", "0-4", "4-6", "0-6", "1-4"], "leader": 0,
    "moves": ["0-3", "R4-0", "draw", "L0-0", "draw 2-5"], "scores": [0, 0],
}


@SETTINGS
@given(changed(VIEW))
def test_views_raise_only_view_errors(obj: Any) -> None:
    try:
        PlayerView.from_json(obj)
    except ViewError as e:
        short_and_printable(e)
    try:
        PlayerView.from_json(json.dumps(obj))
    except ViewError as e:
        short_and_printable(e)


def test_every_error_is_a_matador_error() -> None:
    for kind in (InvalidMoveError, InvalidTileError, RecordError, RulesError, ViewError):
        assert issubclass(kind, MatadorError) and issubclass(kind, ValueError)
