"""``matador engine`` driven through a pipe, exactly as PROTOCOL.md describes a session."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest
from mep_pipe import MATADOR, Pipe

from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import LEVELS, make_bot

CLASSIC = Rules.from_preset("classic")


@pytest.fixture
def greedy() -> Iterator[Pipe]:
    pipe = Pipe.engine("greedy")
    yield pipe
    pipe.close()


@pytest.fixture(scope="module")
def refusing() -> Iterator[Pipe]:
    """One engine for every case of a refusal sweep: each case starts where the last one left
    the engine, so each also checks that the engine went on after the refusal before it."""
    pipe = Pipe.engine("greedy")
    yield pipe
    pipe.close()


def opening(seed: int = 3, players: int = 2) -> HandState:
    return HandState.new(CLASSIC, players, random.Random(seed))


def position(state: HandState, seat: int) -> str:
    return "position " + PlayerView.of(state, seat).dumps()


# -- handshake and options -----------------------------------------------------------------


def test_handshake_names_the_engine_its_options_then_mepok(greedy: Pipe) -> None:
    lines = greedy.ask("mep", "mepok")
    assert lines[0] == "id name matador greedy"
    assert lines[1].startswith("id author ")
    assert lines[-1] == "mepok"
    options = {line.split()[2]: line for line in lines if line.startswith("option ")}
    assert set(options) == {"Budget", "Iterations", "Level", "Seed"}
    assert re.fullmatch(r"option name Budget type spin default 0 min 0 max \d+",
                        options["Budget"])
    assert options["Level"] == ("option name Level type combo default custom var custom "
                                + " ".join(f"var {level}" for level in LEVELS))
    assert "type spin" in options["Seed"] and "type spin" in options["Iterations"]
    assert greedy.ask("isready", "readyok") == ["readyok"]


def test_handshake_announces_the_bots_budget_and_level() -> None:
    pipe = Pipe.engine("strong")
    try:
        lines = pipe.ask("mep", "mepok")
    finally:
        pipe.close()
    millis = LEVELS["strong"].split(":")[1]
    assert lines[0] == f"id name matador {make_bot(LEVELS['strong']).name}"
    assert f"option name Budget type spin default {int(millis.removesuffix('ms'))} " \
        "min 0 max 600000" in lines
    assert any(line.startswith("option name Level type combo default strong ") for line in lines)


def test_setoption_accepts_each_option_silently_and_level_changes_the_bot(greedy: Pipe) -> None:
    greedy.ask("mep", "mepok")
    for line in ("setoption name Budget value 50", "setoption name Iterations value 12",
                 "setoption name Seed value 18446744073709551615", "setoption name seed value 7",
                 "setoption name Level value normal"):
        assert greedy.quiet(line) == [], line
    lines = greedy.ask("mep", "mepok")
    assert lines[0] == f"id name matador {make_bot(LEVELS['normal']).name}"
    assert any(line.startswith("option name Level type combo default normal") for line in lines)
    assert greedy.quiet("setoption name Level value custom") == []
    assert greedy.ask("mep", "mepok")[0] == "id name matador greedy"


@pytest.mark.parametrize(("line", "error"), [
    ("setoption name Colour value red",
     "error setoption: unknown option 'Colour' (the options are Budget, Iterations, Level, "
     "Seed)"),
    ("setoption name Budget value -5", "error setoption: Budget: '-5' is not a whole number "
                                       "in 0..600000"),
    ("setoption name Budget value fast", "error setoption: Budget: 'fast' is not a whole "
                                         "number in 0..600000"),
    ("setoption name Level value expert", "error setoption: Level: 'expert' is not one of "
                                          "custom, easy, normal, strong, max"),
    ("setoption Budget 5", "error setoption: expected 'setoption name NAME value VALUE'"),
])
def test_bad_setoption_gets_one_error_line_and_the_engine_goes_on(refusing: Pipe, line: str,
                                                                  error: str) -> None:
    assert refusing.quiet(line) == [error]


# -- playing -----------------------------------------------------------------------------------


def test_a_full_hand_move_by_move_one_engine_per_seat() -> None:
    """Two engine processes, one per seat, play a whole hand refereed by the test."""
    state = opening(seed=11)
    pipes = [Pipe.engine("greedy"), Pipe.engine("pimc:10it")]
    own_draws = 0
    try:
        for pipe in pipes:
            assert pipe.ask("mep", "mepok")[-1] == "mepok"
            assert pipe.quiet("newhand") == []
        while not state.is_over:
            s = state.to_move
            view = PlayerView.of(state, s)
            own_draws += sum(m.startswith("draw ") for m in view.to_json()["moves"])
            assert pipes[s].quiet(position(state, s)) == []
            answer = pipes[s].ask("go", "bestmove")
            assert all(line.startswith("info ") for line in answer[:-1])
            move = Move.parse(answer[-1].removeprefix("bestmove "))
            assert move in view.legal_moves
            state.play(move)
        assert state.outcome is not None
        # the hand is over: no seat is to move
        assert pipes[0].quiet(position(state, 0)) == []
        assert pipes[0].ask("go", "error") == ["error go: the hand is over"]
    finally:
        codes = [pipe.close() for pipe in pipes]
    assert codes == [0, 0]
    assert own_draws > 0  # views named the seat's own drawn tiles ("draw 2-5")


def test_go_reports_samples_and_time_then_bestmove() -> None:
    pipe = Pipe.engine("pimc:15it")
    try:
        state = opening()
        pipe.quiet(position(state, state.to_move))
        lines = pipe.ask("go", "bestmove")
        assert lines[0] == "info samples 15"
        assert re.fullmatch(r"info time \d+", lines[1])
        assert len(lines) == 3
        lines = pipe.ask("go iterations 4", "bestmove")  # go's own budget wins
        assert lines[0] == "info samples 4"
    finally:
        pipe.close()


@pytest.mark.slow
def test_go_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    state = opening(seed=8)
    answers = []
    for _ in range(2):
        pipe = Pipe.engine("pimc")
        try:
            pipe.quiet("setoption name Seed value 42")
            pipe.quiet(position(state, state.to_move))
            answers.append([pipe.ask("go iterations 20", "bestmove")[-1],
                            pipe.ask("analyse iterations 10", "analysisok")])
        finally:
            pipe.close()
    assert answers[0] == answers[1]


def test_analyse_values_every_legal_move() -> None:
    pipe = Pipe.engine("greedy")
    try:
        state = opening(seed=5)
        view = PlayerView.of(state, state.to_move)
        pipe.quiet(position(state, state.to_move))
        lines = pipe.ask("analyse iterations 12", "analysisok")
    finally:
        pipe.close()
    assert lines[-1] == "analysisok"
    moves = []
    for line in lines[:-1]:
        m = re.fullmatch(r"info move (\S+) win ([\d.]+) points (-?[\d.]+) samples (\d+)", line)
        assert m, line
        moves.append(Move.parse(m.group(1)))
        assert 0 <= float(m.group(2)) <= 1 and int(m.group(4)) == 12
    assert sorted(moves) == sorted(view.legal_moves)
    wins = [float(line.split()[4]) for line in lines[:-1]]
    assert wins == sorted(wins, reverse=True)  # best first


# -- what the engine refuses, and survives --------------------------------------------------


def test_malformed_json_is_refused_and_the_position_forgotten(greedy: Pipe) -> None:
    state = opening()
    assert greedy.quiet(position(state, state.to_move)) == []
    errors = greedy.quiet('position {"rules": {"preset": "classic"}, "players": 2,')
    assert len(errors) == 1 and errors[0].startswith("error position: not valid JSON (")
    assert greedy.ask("go", "error") == ["error go: no position (send 'position VIEW' first)"]
    assert greedy.quiet("position [1, 2") == [
        "error position: not valid JSON (Expecting ',' delimiter: line 1 column 6 (char 5))"]
    assert greedy.quiet("position") == [
        "error position: expected 'position VIEW', the view as one line of JSON"]
    assert greedy.quiet('position {"a": NaN}')[0].startswith("error position: not valid JSON")
    assert greedy.ask("isready", "readyok") == ["readyok"]


@pytest.mark.parametrize(("change", "error"), [
    (lambda v: v.update(hand=["0-3", "0-3", "1-1", "6-6", "3-3"]), "hand: a tile is repeated"),
    (lambda v: v.update(hand=["0-3", "2-4", "1-1", "6-6"]),
     "hand: 4 tiles, but hand_size is 5 (R12)"),
    (lambda v: v.update(hand=["0-3", "2-4", "1-1", "6-6", "3-7"]), "hand: "),
    (lambda v: v.update(moves=["2-2"]), "moves[0]: 2-2 is illegal"),
    (lambda v: v.update(moves=["0-3", "pass"]), "moves[1]: seat 1 may draw, so may not pass"),
    (lambda v: v.update(moves=["0-3", "R3-3"]), "moves[1]: seat 1 cannot hold 3-3, already seen"),
    (lambda v: v.update(cards=[]), "cards: unknown key"),
    (lambda v: v.update(seat=2), "seat: 2 is not a seat (0..1)"),
    (lambda v: v.pop("leader"), "leader: missing"),
])
def test_an_impossible_view_is_refused(refusing: Pipe, change: object, error: str) -> None:
    view = {"rules": {"preset": "classic", "overrides": {}}, "players": 2, "seat": 0,
            "hand": ["0-3", "2-4", "1-1", "6-6", "3-3"], "leader": 0, "moves": []}
    assert refusing.quiet("position " + json.dumps(view)) == []  # a good one, then the bad one
    assert callable(change)
    change(view)
    errors = refusing.quiet("position " + json.dumps(view))
    assert len(errors) == 1 and errors[0].startswith("error position: ")
    assert error in errors[0]
    assert refusing.ask("go", "error")[0].startswith("error go: no position")


def test_an_own_draw_must_name_its_tile(greedy: Pipe) -> None:
    view = {"rules": {"preset": "classic"}, "players": 2, "seat": 1,
            "hand": ["2-2", "0-4", "4-6", "0-6", "1-4"], "leader": 0,
            "moves": ["0-3", "R4-0", "draw", "L0-0", "draw"]}
    errors = greedy.quiet("position " + json.dumps(view))
    assert errors == ["error position: moves[4]: this seat's draw must name its tile "
                      "('draw 2-5')"]
    view["moves"][4] = "draw 2-5"  # PROTOCOL.md's example view: seat 1 to move
    assert greedy.quiet("position " + json.dumps(view)) == []
    move = Move.parse(greedy.ask("go", "bestmove")[-1].removeprefix("bestmove "))
    assert move in PlayerView.from_json(view).legal_moves
    view["moves"][2] = "draw 1-1"  # seat 0's draw is not this seat's to name
    assert "only this seat's own draws name a tile" in greedy.quiet(
        "position " + json.dumps(view))[0]


def test_unknown_command_gets_an_error_and_the_engine_goes_on(greedy: Pipe) -> None:
    assert greedy.quiet("xyz") == ["error unknown command 'xyz'"]
    assert greedy.quiet("ucinewgame now") == ["error unknown command 'ucinewgame'"]
    assert greedy.quiet("") == []  # a blank line is not a command
    assert greedy.ask("mep", "mepok")[-1] == "mepok"


def test_go_when_not_the_engines_turn(greedy: Pipe) -> None:
    state = opening()
    other = 1 - state.to_move
    assert greedy.quiet(position(state, other)) == []
    assert greedy.ask("go", "error") == [f"error go: seat {other} is not to move"]
    assert greedy.ask("analyse", "error") == [f"error analyse: seat {other} is not to move"]
    assert greedy.ask("go movetime", "error") == [
        "error go: expected 'go [movetime MS] [iterations N]'"]
    assert greedy.ask("go depth 3", "error") == [
        "error go: unknown argument 'depth' (movetime MS, iterations N)"]
    assert greedy.ask("go movetime 0", "error") == [
        "error go: movetime: '0' is not a whole number in 1..600000"]


def test_go_without_a_position_and_newhand_forgets_it(greedy: Pipe) -> None:
    assert greedy.ask("go", "error") == ["error go: no position (send 'position VIEW' first)"]
    state = opening()
    greedy.quiet(position(state, state.to_move))
    assert greedy.quiet("newhand") == []
    assert greedy.ask("go", "error") == ["error go: no position (send 'position VIEW' first)"]


def test_quit_and_end_of_input_end_the_engine_cleanly() -> None:
    pipe = Pipe.engine("greedy")
    assert pipe.close() == 0
    pipe = Pipe.engine("greedy")
    assert pipe.proc.stdin is not None
    pipe.proc.stdin.close()
    assert pipe.proc.wait(timeout=10) == 0


@pytest.mark.parametrize(("bot", "why"), [
    ("cheater", "'cheater' needs the true state, which an engine never sees"),
    ("deep-blue", "unknown bot 'deep-blue'"),
    ("pimc:fast", "'fast' is not a budget"),
])
def test_a_bot_that_cannot_be_an_engine_is_refused_at_start(bot: str, why: str) -> None:
    import subprocess

    done = subprocess.run([str(MATADOR), "engine", bot], input="", capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: bot: ") and why in done.stderr
