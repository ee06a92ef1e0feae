"""Rendering: tiles as faces, both ends highlighted, and nothing hidden on a seat's screen."""

from __future__ import annotations

import random
import re

import pytest

from matador.core.moves import Move
from matador.core.record import Record
from matador.core.rules import Rules
from matador.core.score import breakdown
from matador.core.state import HandState
from matador.core.tiles import HALVES, NUM_TILES
from matador.core.view import PlayerView
from matador.players import make_bot
from matador.ui.describe import (
    announce,
    forced_text,
    menu_entries,
    parse_input,
)
from matador.ui.i18n import set_language
from matador.ui.render import (
    END_STYLE,
    board_from_state,
    board_from_view,
    line_text,
    plain,
    render_board,
)
from matador.ui.rules_text import render_rules, rule_lines

CASES = [("classic", 2), pytest.param("classic", 4, marks=pytest.mark.slow),
         pytest.param("paluba", 2, marks=pytest.mark.slow),
         pytest.param("russian", 3, marks=pytest.mark.slow),
         pytest.param("six", 4, marks=pytest.mark.slow)]


@pytest.fixture(autouse=True)
def _english() -> None:
    set_language("en")


def tile_forms(tile: int) -> list[re.Pattern[str]]:
    """Every way the screen could show ``tile``: both faces and its name."""
    a, b = HALVES[tile]
    return [re.compile(re.escape(f"[{a}|{b}]")), re.compile(re.escape(f"[{b}|{a}]")),
            re.compile(rf"(?<![\dLR]){a}-{b}(?!\d)")]


def shown(text: str, tiles: int) -> list[str]:
    """The tiles of mask ``tiles`` that appear in ``text``."""
    out = []
    for t in range(NUM_TILES):
        if tiles >> t & 1 and any(p.search(text) for p in tile_forms(t)):
            out.append(f"{HALVES[t][0]}-{HALVES[t][1]}")
    return out


def names(n: int) -> list[str]:
    return [f"Seat{i}" for i in range(n)]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_no_hidden_tile_on_a_seat_screen(preset: str, players: int) -> None:
    """At every position of random hands, a seat's table, menu and the announcements it
    hears show no tile of another hand or of the boneyard."""
    rules = Rules.from_preset(preset)
    rng = random.Random(f"{preset}{players}")
    bot = make_bot("greedy")
    for _hand in range(4):
        state = HandState.new(rules, players, rng)
        while not state.is_over:
            for seat in range(players):
                view = PlayerView.of(state, seat)
                hidden = ((1 << NUM_TILES) - 1) & ~view.hand_mask & ~view.played
                text = plain(render_board(board_from_view(view, names(players))))
                if seat == state.to_move:
                    text += "\n".join(f"{e.notation} {e.text}" for e in menu_entries(view))
                assert shown(text, hidden) == [], (seat, state.moves, text)
            mover = state.to_move
            move = bot.choose(PlayerView.of(state, mover), rng)
            heard = announce(rules, state.left, state.right, move, "X")
            state.push(move)
            after = PlayerView.of(state, (mover + 1) % players)
            assert shown(heard, ((1 << NUM_TILES) - 1) & ~after.hand_mask & ~after.played) == []


def test_own_hand_and_line_are_drawn_as_faces() -> None:
    """The viewer's tiles and the line appear as domino faces; the ends are highlighted."""
    rules = Rules.from_preset("classic")
    state = HandState.new(rules, 2, random.Random(4))
    seat = state.to_move
    view = PlayerView.of(state, seat)
    text = plain(render_board(board_from_view(view, names(2))))
    for t in view.hand:
        a, b = HALVES[t]
        assert f"[{a}|{b}]" in text
    state.push(state.legal_move_ids()[0])
    view = PlayerView.of(state, seat)
    line = line_text(board_from_view(view, names(2)))
    a, b = view.line[0]
    assert line.plain == f" {a}  [{a}|{b}]  {b} "
    styled = {line.plain[span.start:span.end] for span in line.spans if span.style == END_STYLE}
    assert styled == {f" {a} ", str(a), str(b), f" {b} "}


def test_full_state_table_reveals_every_hand() -> None:
    """A finished hand (or a record shown in full) shows every hand."""
    rules = Rules.from_preset("classic")
    state = HandState.new(rules, 3, random.Random(8))
    text = plain(render_board(board_from_state(state, names(3), scores=[0, 0, 0])))
    for seat in range(3):
        for t in state.hand(seat):
            assert "[{}|{}]".format(*HALVES[t]) in text


def test_breakdown_adds_up() -> None:
    """Points by kind add up to the result's points, under every preset."""
    bot = make_bot("greedy")
    for preset in ("classic", "russian", "six"):
        rules = Rules.from_preset(preset)
        rng = random.Random(preset)
        for _ in range(10):
            state = HandState.new(rules, 3, rng)
            while not state.is_over:
                state.push(bot.choose(PlayerView.of(state, state.to_move), rng))
            parts = breakdown(Record.of(state))
            assert state.outcome is not None
            assert [b.total for b in parts] == list(state.outcome.points)


def test_rules_screen_in_every_language() -> None:
    """The rules screen lists the parameters of the preset, translated."""
    for lang, word in (("en", "Matadors"), ("es", "Matadores"), ("cs", "Matadoři"),
                       ("ru", "Матадоры")):
        set_language(lang)
        text = plain(render_rules(Rules.from_preset("six"), 4))
        assert word in text
        assert "0-6" in text and "(R22)" in text
    set_language("en")
    lines = rule_lines(Rules.from_preset("paluba"), 2)
    assert any("3 tiles are set aside" in line for line in lines)


def test_forced_draw_reason() -> None:
    """A forced draw says why: no tile joins the ends."""
    rules = Rules.from_preset("classic")
    state = HandState.new(rules, 2, random.Random(1))
    bot = make_bot("greedy")
    while not state.is_over:
        view = PlayerView.of(state, state.to_move)
        if list(view.legal_moves) == [Move.DRAW]:
            text = forced_text(view, Move.DRAW)
            assert "you draw (R16)" in text
            assert str(view.left) in text and str(view.right) in text
            return
        state.push(bot.choose(view, random.Random(0)))
    pytest.fail("no forced draw in this hand")


def test_parse_input_explains() -> None:
    """Illegal input gets an explanation naming the rule, never an exception."""
    from matador.core.state import Deal

    rules = Rules.from_preset("classic")
    deal = Deal.parse({"hands": [["0-3", "2-4", "1-1", "6-6", "3-3"],
                                 ["2-2", "0-4", "4-6", "0-6", "1-4"]],
                       "boneyard": ["0-0", "2-5", "1-6", "5-6", "4-4", "3-5", "0-2", "2-6",
                                    "4-5", "1-2", "0-5", "2-3", "3-4", "1-3", "5-5", "0-1",
                                    "1-5", "3-6"],
                       "set_aside": [], "leader": 0}, rules, 2)
    state = HandState(rules, deal)
    state.play("0-3")
    view = PlayerView.of(state, 1)
    entries = menu_entries(view)
    assert [e.notation for e in entries] == ["R4-0", "R4-1", "R4-6"]
    assert entries[0].text == "[4|0] on the right end: 4 joins 3, new end 0"
    assert parse_input(view, "2", entries) == Move.parse("R4-1")
    assert parse_input(view, "r4-6", entries) == Move.parse("R4-6")
    assert parse_input(view, "0-4", entries) == Move.parse("R4-0")
    assert parse_input(view, "1-4", entries) == Move.parse("R4-1")
    assert "(R9)" in str(parse_input(view, "L4-0", entries))
    assert "You do not hold 5-5" in str(parse_input(view, "5-5", entries))
    assert "no move 9" in str(parse_input(view, "9", entries))
    assert "must play (R15)" in str(parse_input(view, "draw", entries))
    assert "not a move" in str(parse_input(view, "hello", entries))
    assert "(R9)" in str(parse_input(view, "2-2", entries))
    state.play("R4-0")
    state.play("draw")  # seat 0 draws 0-0: a matador it may lay on either end, or draw past
    view = PlayerView.of(state, 0)
    entries = menu_entries(view)
    assert [e.notation for e in entries] == ["L0-0", "R0-0", "draw"]
    assert "every play you have lays a matador (R15)" in entries[2].text
    assert "several ways: choose 1 (L0-0), 2 (R0-0)" in str(parse_input(view, "0-0", entries))
    assert parse_input(view, "DRAW", entries) == Move.DRAW
    assert "must play (R15)" in str(parse_input(view, "pass", entries))
