"""Bots see views only, play legal moves in every preset, and are reproducible."""

from __future__ import annotations

import random

import pytest

from matador.core.record import Record
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import LEVELS, Bot, BotError, Budget, OracleBot, make_bot
from matador.players.analysis import analyse, label, review

HONEST = ["random", "greedy", "heuristic", "pimc:3it", "ismcts:20it"]


def _play(state: HandState, bots: list[Bot], rng: random.Random) -> None:
    while not state.is_over:
        bot = bots[state.to_move]
        if isinstance(bot, OracleBot):
            move = bot.choose_with_truth(state, rng)
        else:
            move = bot.choose(PlayerView.of(state, state.to_move), rng)
        state.play(move)  # validated: an illegal move raises


@pytest.mark.parametrize("spec", [*HONEST, "cheater:3it"])
def test_bots_refuse_the_full_state(spec: str) -> None:
    """Bots only ever see views: handing one the state raises TypeError."""
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
    with pytest.raises(TypeError, match="PlayerView"):
        make_bot(spec).choose(state, random.Random(1))  # type: ignore[arg-type]


def test_cheater_needs_the_oracle_path() -> None:
    """The cheater cannot play from a view: only the arena may hand it the truth."""
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(2))
    while len(state.legal_move_ids()) < 2:
        state.push(state.legal_move_ids()[0])
    with pytest.raises(BotError, match="true state"):
        make_bot("cheater:2it").choose(PlayerView.of(state, state.to_move), random.Random(1))


@pytest.mark.parametrize("spec", ["pimc:30it", "ismcts:200it", "heuristic", "random"])
def test_bots_are_deterministic_for_a_seed_and_iteration_budget(spec: str) -> None:
    """Same seed, same iteration budget: same move."""
    rng = random.Random(8)
    for _ in range(5):
        state = HandState.new(Rules.from_preset("russian"), 3, rng)
        for _ in range(rng.randrange(0, 8)):
            if state.is_over:
                break
            state.push(state.legal_move_ids()[0])
        if state.is_over:
            continue
        view = PlayerView.of(state, state.to_move)
        moves = {make_bot(spec).choose(view, random.Random(3)) for _ in range(2)}
        assert len(moves) == 1


def test_make_bot_specs_and_levels() -> None:
    """Specs ``kind[:budget]`` and strength levels build bots; bad ones name the problem."""
    assert make_bot("pimc:500ms").budget == Budget(millis=500)
    assert make_bot("ismcts:2000it").budget == Budget(iterations=2000)
    assert make_bot("pimc:500ms").name == "pimc:500ms"
    for level in LEVELS:
        make_bot(level)
    with pytest.raises(BotError, match="unknown bot"):
        make_bot("deep-blue")
    with pytest.raises(BotError, match="budget"):
        make_bot("pimc:fast")


def test_analysis_covers_every_legal_move() -> None:
    """Analysis gives every legal move a win chance in [0, 1] with its sample size."""
    from matador.core.state import Deal
    from matador.core.tiles import Tile

    rules = Rules.from_preset("classic", {"hand_size": 2, "players": [2, 2]})
    tiles = [Tile.parse(t) for t in ["0-3", "4-6", "1-1", "2-2"]]
    rest = [t for t in range(28) if t not in tiles]
    deal = Deal(((tiles[0], tiles[1]), (tiles[2], tiles[3])), tuple(Tile(t) for t in rest), (),
                0)
    state = HandState(rules, deal)
    state.play("0-3")
    view = PlayerView.of(state, 1)
    result = analyse(view, Budget(iterations=30), random.Random(1))
    assert {str(m.move) for m in result.moves} == {str(m) for m in view.legal_moves}
    assert all(0.0 <= m.win <= 1.0 and m.samples == 30 for m in result.moves)


def test_analysis_sees_a_forced_win() -> None:
    """Going out at once wins the hand (R18): that move's estimated win chance is 1."""
    from matador.core.state import Deal
    from matador.core.tiles import Tile

    rules = Rules.from_preset("classic", {"hand_size": 2, "players": [2, 2]})
    mine = (Tile.parse("3-3"), Tile.parse("4-4"))
    theirs = (Tile.parse("1-1"), Tile.parse("5-5"))
    rest = tuple(Tile(t) for t in range(28) if t not in (*mine, *theirs))
    state = HandState(rules, Deal((mine, theirs), rest, (), 0))
    state.play("3-3")
    state.play("draw")  # seat 1 cannot join 3 (R9): it draws until it can
    while state.to_move == 1:
        state.play(state.legal_move_ids()[0])
    view = PlayerView.of(state, 0)
    if "L4-4" in view.legal_moves or "R4-4" in view.legal_moves:
        result = analyse(view, Budget(iterations=10), random.Random(1))
        assert result.best.win == 1.0 and str(result.best.move) in ("L4-4", "R4-4")


def test_review_marks_costs() -> None:
    """A review analyses every decision with a choice and labels it by its cost."""
    rng = random.Random(4)
    state = HandState.new(Rules.from_preset("classic"), 2, rng)
    _play(state, [make_bot("random"), make_bot("greedy")], rng)
    reviewed = review(Record.of(state), Budget(iterations=10), random.Random(2))
    assert reviewed
    for r in reviewed:
        assert r.cost >= 0.0
        assert r.label in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert label(0.5) == "blunder" and label(0.0) == "good"


def test_review_labels_only_what_the_search_can_tell() -> None:
    """A cost within two standard errors of zero is "good"; a clear one gets its label."""
    from matador.core.moves import Move
    from matador.players.analysis import Analysis, MoveAnalysis, ReviewedMove

    best = MoveAnalysis(Move.parse("L1-6"), 0.6, 10.0, 4, 0.1, (1.0, 1.0, 0.0, 0.4))
    other = MoveAnalysis(Move.parse("R1-6"), 0.3, 5.0, 4, 0.1, (0.0, 1.0, 0.0, 0.2))
    analysis = Analysis(0, 3, (best, other))
    se = analysis.difference_stderr(best.move, other.move)
    assert se > 0
    noisy = ReviewedMove(3, 0, other.move, analysis, 0.3, 0.2, 5.0)
    clear = ReviewedMove(3, 0, other.move, analysis, 0.3, 0.01, 5.0)
    assert noisy.label == "good" and clear.label == "blunder"


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_every_bot_finishes_a_thousand_hands(preset: str) -> None:
    """R9-R19: 1,000 hands per preset, every bot seated (tiny budgets), every move validated."""
    rules = Rules.from_preset(preset)
    rng = random.Random(99)
    lo, hi = rules.players
    specs = ["random", "greedy", "heuristic", "pimc:1it", "ismcts:2it", "cheater:1it"]
    bots = [make_bot(s) for s in specs]
    for i in range(1000):
        players = lo + i % (hi - lo + 1)
        state = HandState.new(rules, players, rng)
        _play(state, [bots[(i + k) % len(bots)] for k in range(players)], rng)
        assert state.outcome is not None
