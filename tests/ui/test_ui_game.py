"""The terminal game on the referee, in process: second-person wording, the hot seat's recap
and hand-over, translated levels, Russian words for hand and match, the review's numbering."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from rich.console import Console

from matador.core.record import Record, parse_record
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.analysis import analyse, review
from matador.players.base import Budget
from matador.ui.game import Game, GameConfig, SeatSpec, Terminal, default_names
from matador.ui.i18n import LANGUAGES, set_language, translator

LOCALE = __import__("matador").__file__.rsplit("/", 1)[0] + "/locale"


def scripted(answers: Iterator[str]) -> Any:
    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    return read


def run_game(config: GameConfig, answers: Iterator[str], lang: str = "en") -> tuple[Game, str]:
    set_language(lang)
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    save = io.StringIO()
    game = Game(config, Terminal(console, read=scripted(answers)), save_to=save,
                save_name="games.jsonl")
    game.run()
    set_language("en")
    return game, out.getvalue()


def always(answer: str) -> Iterator[str]:
    while True:
        yield answer


THIRD_PERSON = ["Hand {n}: {name} leads.", "{name} wins the match!",
                "Hand {n}: {name} went out and wins the hand.",
                "Hand {n} is blocked: {name} has the fewest pips and wins the hand."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_person_at_the_keyboard_is_addressed_in_the_second_person(lang: str) -> None:
    tr = translator(lang)
    you = tr.gettext("You")
    wrong = [tr.gettext(t).format(n=1, name=you) for t in THIRD_PERSON]
    for seed in range(6):
        config = GameConfig(seats=[SeatSpec("human"), SeatSpec("easy")], seed=seed,
                            overrides={"match_target": 0}, review=False)
        _game, screen = run_game(config, always("1"), lang)
        for text in wrong:
            assert text not in screen, (lang, seed, text)


def test_you_lead_and_you_win_in_english() -> None:
    seen_lead = seen_win = False
    for seed in range(12):
        config = GameConfig(seats=[SeatSpec("human"), SeatSpec("easy")], seed=seed,
                            overrides={"match_target": 0}, review=False)
        game, screen = run_game(config, always("1"))
        seen_lead |= "you lead." in screen
        if game.table.winner == 0:
            seen_win = True
            assert "You win the match!" in screen
            assert "you went out and win the hand" in screen or "you have the fewest" in screen
    assert seen_lead and seen_win


@pytest.mark.parametrize(("lang", "word"), [("es", "fácil"), ("cs", "lehký"),
                                            ("ru", "лёгкий")])
def test_bot_levels_are_translated_in_the_game(lang: str, word: str) -> None:
    set_language(lang)
    try:
        assert word in default_names([SeatSpec("human"), SeatSpec("easy")])[1]
    finally:
        set_language("en")


def test_russian_says_kon_for_a_hand_and_partiya_for_the_match() -> None:
    with open(f"{LOCALE}/ru/LC_MESSAGES/matador.po", "rb") as f:
        catalog = read_po(f)
    for m in catalog:
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        text = " ".join([m.string] if isinstance(m.string, str) else list(m.string))
        words = " ".join(ids).lower()
        if "hand" in words and "match" not in words:
            assert "парти" not in text.lower(), (m.id, text)
        if "match" in words and "hand" not in words:
            assert "кон " not in text.lower() and "кона" not in text.lower(), (m.id, text)
    joins = catalog.get("Each joining play scores {n} (R22).")
    assert joins is not None and "очк" in joins.string


def test_hot_seat_recap_after_the_hand_over() -> None:
    config = GameConfig(seats=[SeatSpec("human"), SeatSpec("easy"), SeatSpec("human")],
                        seed=3, overrides={"match_target": 0}, review=False)
    _game, screen = run_game(config, always("1"))
    assert "Since your last turn:" in screen
    recap = screen.split("Since your last turn:")[1]
    assert "leads." in recap.split("Pass the keyboard")[0] or "·" in recap


def test_q_at_the_hand_over_prompt_leaves_the_match() -> None:
    config = GameConfig(seats=[SeatSpec("human"), SeatSpec("human")], seed=4,
                        overrides={"match_target": 0}, review=False)
    answers = iter(["", "q", "y"])  # Enter to start, then q at the first hand-over prompt
    game, screen = run_game(config, answers)
    assert "You left the match." in screen
    assert not game.table.is_over


def test_the_start_prompt_waits_in_hot_seat_too() -> None:
    config = GameConfig(seats=[SeatSpec("human"), SeatSpec("human")], seed=4,
                        overrides={"match_target": 0}, review=False)
    _game, screen = run_game(config, iter([]))  # end of input at the first prompt
    assert "Press Enter to start" in screen and "Seats:" in screen


def test_a_saved_game_replays_and_is_the_referees_record() -> None:
    config = GameConfig(seats=[SeatSpec("human"), SeatSpec("greedy")], seed=8,
                        overrides={"match_target": 30}, review=False)
    set_language("en")
    out, save = io.StringIO(), io.StringIO()
    game = Game(config, Terminal(Console(file=out, width=120), read=scripted(always("1"))),
                save_to=save, save_name="x.jsonl")
    assert game.run() == 0
    lines = save.getvalue().splitlines()
    assert len(lines) == len(game.table.records) >= 1
    for line, record in zip(lines, game.table.records, strict=True):
        assert parse_record(line).moves == record.moves
        assert record.meta is not None and record.meta["seats"] == ["human", "greedy"]


def test_the_review_reuses_the_hint_and_explains_its_numbers() -> None:
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(21))
    rng = random.Random(1)
    while len(state.legal_move_ids()) < 2:
        state.push(state.legal_move_ids()[0])
    ply = state.ply
    hint = analyse(PlayerView.of(state, state.to_move), Budget(iterations=12), rng)
    state.push(state.legal_move_ids()[0])
    while not state.is_over:
        state.push(rng.choice(state.legal_move_ids()))
    record = Record.of(state)
    reviewed = {r.ply: r for r in review(record, Budget(iterations=4), random.Random(2),
                                         known={ply: hint})}
    assert reviewed[ply].analysis is hint  # the review names the hint's best move
    shown = 0
    for seed in range(8):
        config = GameConfig(seats=[SeatSpec("human"), SeatSpec("easy")], seed=seed,
                            overrides={"match_target": 0}, review_budget="8it")
        _game, screen = run_game(config, always("1"))
        if "Your costliest moves" in screen:
            shown += 1
            words = " ".join(screen.split())
            assert "±" in words and "two standard errors" in words and "--ply" in words
    assert shown


def test_the_line_breaks_between_tiles_and_keeps_each_end_with_its_tile() -> None:
    from matador.ui.render import Board, line_text

    line = tuple((i % 7, (i + 3) % 7) for i in range(14))
    table = Board(Rules.from_preset("classic"), line, 0, 3, (), 5, 0, None)
    for width in range(14, 90, 3):
        rows = line_text(table, width).plain.split("\n")
        assert all(len(r) <= width for r in rows), (width, rows)
        assert rows[0].startswith(" 0  [0|3]") and rows[-1].endswith("[6|2]  3 ")
        assert " ".join(rows).split() == line_text(table).plain.split()
