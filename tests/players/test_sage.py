"""The ``sage`` bot: views only, reproducible, exact where it can be, thrifty with time."""

from __future__ import annotations

import random

import pytest
from test_search import WIN_OR_LOSE, dealt, midhand

import lanes
from matador.core.moves import MOVES, Move
from matador.core.rules import PRESETS, Rules
from matador.core.sampling import sample_world
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import LEVELS, BotError, make_bot
from matador.players.base import Budget
from matador.players.pimc import PIMCBot
from matador.players.rollout import EPSILON as ROLLOUT_EPSILON
from matador.players.rollout import policy_move, tiles_in_play
from matador.players.sage import ENDGAME_TILES, MAX_FACTOR, SageBot
from matador.players.timing import MIN_SAMPLES, distinct_moves


def _win_or_lose() -> PlayerView:
    """test_search's WIN_OR_LOSE position as seat 0's view (the leader drawn by lot)."""
    hands, bone, moves, leader = WIN_OR_LOSE
    return PlayerView.of(dealt(hands, bone, moves, leader, first_leader="lot"), 0)


def test_sage_refuses_the_full_state() -> None:
    state = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
    with pytest.raises(TypeError, match="PlayerView"):
        SageBot(Budget(iterations=5)).choose(state, random.Random(1))  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", PRESETS)
def test_sage_is_deterministic_for_a_seed_and_an_iteration_budget(preset: str) -> None:
    """Same view, seed and iteration budget: the same move and the same statistics."""
    lo, hi = Rules.from_preset(preset).players
    for players in range(lo, hi + 1):
        view = midhand(preset, players, seed=players)
        runs = []
        for _ in range(2):
            bot = SageBot(Budget(iterations=40))
            move = bot.choose(view, random.Random(5))
            result = bot.last_search
            assert result is not None
            runs.append((move, {m: (s.n, s.win, s.points) for m, s in result.stats.items()}))
        assert runs[0] == runs[1]


def test_sage_statistics_cover_every_legal_move() -> None:
    view = midhand("russian", 3, seed=2)
    bot = SageBot(Budget(iterations=30), early_stop=False)
    result = bot.search(view, random.Random(1))
    assert set(result.stats) == set(view.legal_move_ids())
    assert result.worlds == 30
    assert all(s.n == 30 and 0.0 <= s.win_mean <= 1.0 for s in result.stats.values())


def test_mirror_plays_share_one_search() -> None:
    """L and R of one tile on a line whose ends show the same number lead to the same
    position: searched once, both reported with the same numbers."""
    state = dealt(["3-4 5-6 1-1", "3-3 0-2 0-4"], "2-2 1-3 2-4 4-4 0-1 0-5 0-6 5-5",
                  ("3-3",), leader=1,
                   first_leader="lot")
    view = PlayerView.of(state, 0)
    legal = [str(MOVES[m]) for m in view.legal_move_ids()]
    assert {"L4-3", "R4-3"} <= set(legal)
    result = SageBot(Budget(iterations=30), early_stop=False).search(view, random.Random(2))
    left, right = result.stats[Move.parse("L4-3")], result.stats[Move.parse("R4-3")]
    assert (left.n, left.win, left.wins) == (right.n, right.win, right.wins)


def _going_out() -> PlayerView:
    """Seat 0's last tile is the matador 3-4, which fits either end either way round (R10;
    no draw instead, R15 with matador_optional off): four moves, each goes out (R18)."""
    state = dealt(["3-4 1-2", "1-1 0-5"], "2-2 6-6", ("1-2", "R5-0"), leader=0,
                  first_leader="lot", matador_optional=False)
    return PlayerView.of(state, 0)


def test_sage_takes_a_sure_win_and_stops_early() -> None:
    """Known answer: whatever seat 0 plays, it goes out. Every world says so, so the
    decision is settled at the first check, long before the budget."""
    view = _going_out()
    assert len(view.legal_move_ids()) == 4
    bot = SageBot(Budget(iterations=500))
    bot.choose(view, random.Random(3))
    result = bot.last_search
    assert result is not None and result.worlds == MIN_SAMPLES
    assert all(s.win_mean == 1.0 for s in result.stats.values())
    full = SageBot(Budget(iterations=500), early_stop=False)
    full.choose(view, random.Random(3))
    assert full.last_search is not None and full.last_search.worlds == 500


def test_sage_banks_the_time_a_settled_decision_saves() -> None:
    """A settled decision ends early; later, closer ones may use the saved time (at most
    MAX_FACTOR times the budget for one move)."""
    bot = SageBot(Budget(millis=400))
    assert bot.clock is not None and bot.clock.bank == 0.0
    bot.choose(_going_out(), random.Random(1))
    assert bot.clock.bank > 200.0
    assert bot.clock.allowance() <= MAX_FACTOR * 400


def test_sage_solves_small_two_player_endgames_exactly() -> None:
    """Few tiles left and two players: every world is solved, so the values are 0 or 1."""
    state = dealt(["6-6 4-6 2-2", "1-1 3-3 0-2"], "5-5 0-5", ("1-1",), leader=1,
                   first_leader="lot")
    view = PlayerView.of(state, 0)
    result = SageBot(Budget(iterations=20), early_stop=False).search(view, random.Random(4))
    for s in result.stats.values():
        assert set(s.wins) <= {0.0, 1.0}


def test_levels_use_sage_and_take_a_budget() -> None:
    """The levels above easy are the sage bot; ``level:BUDGET`` is that bot at the budget."""
    for level in ("normal", "strong", "max"):
        assert LEVELS[level].startswith("sage:")
        assert isinstance(make_bot(level), SageBot)
    bot = make_bot("strong:200ms")
    assert isinstance(bot, SageBot) and bot.budget == Budget(millis=200)
    assert bot.name == "sage:200ms"
    assert make_bot("normal:30it").budget == Budget(iterations=30)
    assert make_bot("easy:50ms").kind == "greedy"


def test_refusals_offer_only_what_is_accepted() -> None:
    """Where the cheater cannot play (an engine, a game), an unknown bot's error does not
    offer it; the arena's does."""
    with pytest.raises(BotError, match="unknown bot 'bogus'") as where_oracles_play:
        make_bot("bogus:200ms")
    assert "cheater" in str(where_oracles_play.value)
    with pytest.raises(BotError, match="unknown bot 'bogus'") as elsewhere:
        make_bot("bogus", oracles=False)
    message = str(elsewhere.value)
    assert "cheater" not in message
    assert all(name in message for name in ("sage", "pimc", "normal", "strong", "max"))


def test_the_time_bank_follows_the_budget() -> None:
    """An engine sets the budget before each move: the bank is for that budget."""
    bot = SageBot(Budget(millis=300))
    assert bot.clock is not None and bot.clock.millis == 300
    bot.budget = Budget(millis=50)
    bot.choose(_going_out(), random.Random(1))
    assert bot.clock is not None and bot.clock.millis == 50
    bot.budget = Budget(iterations=30)
    bot.choose(_going_out(), random.Random(1))
    assert bot.clock is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sage_plays_the_same_whatever_the_hidden_tiles(players: int) -> None:
    """Two true states that one seat cannot tell apart (the other hands and the boneyard
    redrawn consistently with its view): the same view, the same search, the same move."""
    rng = random.Random(players)
    checked = 0
    while checked < 4:
        state = HandState.new(Rules.from_preset("classic"), players, rng)
        while not state.is_over and checked < 4:
            seat = state.to_move
            if len(state.legal_move_ids()) > 1 and rng.random() < 0.4:
                view = PlayerView.of(state, seat)
                other = sample_world(view, rng)
                assert other.hands != state.hands or other.boneyard != state.boneyard \
                    or (players == 2 and state.boneyard_size == 0)
                twin = PlayerView.of(other, seat)
                assert twin.to_json() == view.to_json() and twin is not view
                runs = []
                for v in (view, twin):
                    bot = SageBot(Budget(iterations=24))
                    move = bot.choose(v, random.Random(8))
                    assert bot.last_search is not None
                    runs.append((move, {m: s.wins for m, s in bot.last_search.stats.items()}))
                assert runs[0] == runs[1]
                checked += 1
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])


@pytest.mark.parametrize("preset", lanes.classic_preset_fast(PRESETS))
def test_sage_with_pimc_finish_is_pimc(preset: str) -> None:
    """With ``pimc``'s greedy playouts (and their share of random moves), exact endgames at
    any number of players, no early stop, no exact search of larger determined
    positions and no value network, ``sage`` is ``pimc``: the same statistics for
    every move at every decision of whole hands, the endgames included."""
    lo, hi = Rules.from_preset(preset).players
    compared = endgames = 0
    for players in range(lo, hi + 1):
        rng = random.Random(players)
        found = endgames
        for _ in range(20):  # with 3-4 players, hands until one has an endgame decision
            state = HandState.new(Rules.from_preset(preset), players, rng)
            compared, endgames = _compare_with_pimc(state, rng, compared, endgames)
            if players == 2 or endgames > found:
                break
    assert compared >= 3 and (endgames >= 1 or hi == 2)


def _compare_with_pimc(state: HandState, rng: random.Random, compared: int, endgames: int
                       ) -> tuple[int, int]:
    """Play ``state`` out, comparing ``sage`` with ``pimc``'s finish to ``pimc`` at every
    decision between distinct moves; the counts of decisions and of endgame decisions
    (three or more players, few tiles) compared so far."""
    while state.outcome is None:
        view = PlayerView.of(state, state.to_move)
        legal = view.legal_move_ids()
        if len(distinct_moves(legal, view.left, view.right)) == len(legal) > 1:
            sage = SageBot(Budget(iterations=12), playout="greedy", endgame_all=True,
                           early_stop=False, epsilon=ROLLOUT_EPSILON, solve_known=False,
                           evaluation="off")
            ours = sage.search(view, random.Random(state.ply))
            theirs = PIMCBot(Budget(iterations=12)).search(view, random.Random(state.ply))
            assert {m: (s.n, s.win, s.points) for m, s in ours.stats.items()} == \
                {m: (s.n, s.win, s.points) for m, s in theirs.stats.items()}
            compared += 1
            endgames += view.players > 2 and tiles_in_play(state) <= ENDGAME_TILES
        state.push(policy_move(state, rng, 0.0))
    return compared, endgames


def test_sage_refuses_an_unknown_playout() -> None:
    with pytest.raises(ValueError, match="unknown playout 'heuristic': expected one of "
                                         "auto, greedy, table"):
        SageBot(playout="heuristic")


@pytest.mark.parametrize(("preset", "players", "expected"), [
    ("six", 4, "greedy"), ("six", 3, "table"), ("classic", 4, "table"), ("russian", 2, "table"),
])
def test_the_default_playouts_are_the_measured_better_ones_at_each_table(
        preset: str, players: int, expected: str) -> None:
    """``playout="auto"`` (the default) searches exactly as the named policy does at that
    table, and differently from the other one (greedy under six with four players)."""
    rules = Rules.from_preset(preset)
    other = "table" if expected == "greedy" else "greedy"
    rng = random.Random(players)
    differs = 0
    for _ in range(6):
        state = HandState.new(rules, players, rng)
        for _ in range(2 * players):
            if state.is_over:
                break
            view = PlayerView.of(state, state.to_move)
            if len(view.legal_move_ids()) > 1:
                stats = [SageBot(Budget(iterations=40), playout=p, early_stop=False)
                         .search(view, random.Random(3)).stats
                         for p in ("auto", expected, other)]
                assert [(s.n, s.win, s.points) for s in stats[0].values()] == \
                    [(s.n, s.win, s.points) for s in stats[1].values()]
                differs += stats[1] != stats[2]
            ids = view.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
    assert differs
