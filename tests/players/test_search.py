"""Unit tests of the search machinery: exact endgames, playouts, PIMC and ISMCTS.

Fully known positions are built with the trusting :class:`Deal` constructor
(every tile not named is set aside); positions that a bot sees through a view
also get rules whose ``players``, ``hand_size`` and ``set_aside`` fit the deal.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from matador.core.moves import DRAW, MOVES, Move
from matador.core.rules import PRESETS, Rules
from matador.core.state import Deal, HandState, Reason
from matador.core.tiles import NAMES, Tile
from matador.core.view import PlayerView
from matador.players.base import Budget
from matador.players.ismcts import EXPAND_AFTER, ISMCTSBot, choice_log_likelihood
from matador.players.pimc import PIMCBot, SearchResult, evaluate_worlds
from matador.players.rollout import EndgameSolver, greedy_rollout, policy_move, win_values


def deal(hands: list[str], boneyard: str = "", leader: int = 0) -> Deal:
    """A deal with these hands and boneyard; every other tile is set aside."""
    named = [h.split() for h in hands]
    bone = boneyard.split()
    used = {t for h in named for t in h} | set(bone)
    aside = [t for t in NAMES if t not in used]
    return Deal(tuple(tuple(Tile.parse(t) for t in h) for h in named),
                tuple(Tile.parse(t) for t in bone), tuple(Tile.parse(t) for t in aside), leader)


def known(hands: list[str], boneyard: str = "", moves: tuple[str, ...] = (),
          leader: int = 0, preset: str = "classic") -> HandState:
    """A fully known hand (hands may differ in size) after ``moves``, each validated."""
    state = HandState(Rules.from_preset(preset), deal(hands, boneyard, leader))
    for m in moves:
        state.play(m)
    return state


def dealt(hands: list[str], boneyard: str = "", moves: tuple[str, ...] = (),
          leader: int = 0, preset: str = "classic", **overrides: Any) -> HandState:
    """Like :func:`known`, with rules that fit the deal exactly, so that views are valid."""
    d = deal(hands, boneyard, leader)
    n = len(hands)
    rules = Rules.from_preset(preset, {"players": [n, n], "hand_size": len(d.hands[0]),
                                       "set_aside": len(d.set_aside), **overrides})
    state = HandState(rules, d)
    for m in moves:
        state.play(m)
    return state


def midhand(preset: str, players: int, seed: int) -> PlayerView:
    """The view of the seat to move in a random hand, a few plies in, with >= 3 moves."""
    rng = random.Random(seed)
    for _ in range(50):
        state = HandState.new(Rules.from_preset(preset), players, rng)
        while state.outcome is None:
            if state.ply >= 4 and len(state.legal_move_ids()) >= 3:
                return PlayerView.of(state, state.to_move)
            state.push(policy_move(state, rng, 0.0))
    raise AssertionError("no suitable position")


def stats_of(result: SearchResult) -> dict[str, tuple[int, float, float]]:
    """What a search found, move by move, as plain data."""
    return {str(MOVES[m]): (s.n, s.win, s.points) for m, s in result.stats.items()}


# Seat 1 opened 1-1; seat 0 holds 6-6 4-6, seat 1 holds 3-3; nothing to draw.
# 6-6 first leaves 6|1 (seat 1 cannot join, passes), then 4-6 goes out (R18): a win.
# 4-6 first leaves 4|1, and seat 1 goes out with 3-3 (4 + 3 = 7, R8): a loss.
WIN_OR_LOSE = (["6-6 4-6", "1-1 3-3"], "", ("1-1",), 1)


def win_or_lose() -> HandState:
    """The position above, seat 0 to move."""
    hands, bone, moves, leader = WIN_OR_LOSE
    return known(hands, bone, moves, leader)


# --------------------------------------------------------------------------- EndgameSolver


def test_R18_solver_values_a_forced_win_1_for_the_winner() -> None:
    """Seat 0 wins by playing 6-6 first: the position is worth 1.0 to it, 0.0 to seat 1."""
    state = win_or_lose()
    assert state.to_move == 0
    assert EndgameSolver().solve(state) == (1.0, 0.0)
    for move, value in [("L6-6", (1.0, 0.0)), ("R6-6", (1.0, 0.0)),
                        ("L6-4", (0.0, 1.0)), ("R6-4", (0.0, 1.0))]:
        child = state.copy()
        child.play(move)
        assert EndgameSolver().solve(child) == value, move


def test_R10_R18_solver_values_a_forced_loss_0_for_the_mover() -> None:
    """Seat 1 keeps the matador 2-5, which fits any end (R10): whatever seat 0 plays,
    seat 1 goes out next (R18), so seat 0 to move is worth 0.0."""
    state = known(["6-6 5-6", "1-1 2-5"], "", ("1-1",), 1)
    assert state.to_move == 0 and len(state.legal_move_ids()) == 4
    assert EndgameSolver().solve(state) == (0.0, 1.0)


def test_solver_memo_hit_returns_the_same_value_without_search() -> None:
    """A solved position (and every position below it) is answered from the memo."""
    state = win_or_lose()
    solver = EndgameSolver()
    first = solver.solve(state)
    assert solver.nodes > 0 and solver.memo
    assert solver.solve(state) == first
    assert solver.nodes == 0  # a memo hit at the root expands nothing
    for m in state.legal_move_ids():
        child = state.copy()
        child.push(m)
        assert solver.solve(child) == EndgameSolver().solve(child)
        assert solver.nodes == 0


def test_R13_solver_memo_tells_the_seat_to_move_apart() -> None:
    """Same hands, ends and boneyard, different mover: whoever moves lays a matador and
    goes out (R10, R18), so one shared memo must not answer one position with the other."""
    seat0_moves = known(["2-5", "1-1 3-4"], "", ("1-1",), 1)
    seat1_moves = known(["1-1 2-5", "3-4"], "", ("1-1",), 0)
    assert seat0_moves.hands == seat1_moves.hands and seat0_moves.to_move == 0
    assert (seat0_moves.left, seat0_moves.right) == (seat1_moves.left, seat1_moves.right)
    solver = EndgameSolver()
    assert solver.solve(seat0_moves) == (1.0, 0.0)
    assert solver.solve(seat1_moves) == (0.0, 1.0)


def test_solver_returns_none_past_its_node_limit() -> None:
    """``solve`` gives up (``None``) once it would expand more than ``node_limit`` nodes."""
    state = win_or_lose()
    solver = EndgameSolver()
    value = solver.solve(state)
    needed = solver.nodes
    assert needed > 1
    assert EndgameSolver(node_limit=needed).solve(state) == value
    assert EndgameSolver(node_limit=needed - 1).solve(state) is None
    assert EndgameSolver(node_limit=1).solve(state) is None
    over = state.copy()
    over.play("L6-6")
    over.play("pass")
    over.play("R6-4")
    assert over.outcome is not None
    assert EndgameSolver(node_limit=0).solve(over) == (1.0, 0.0)  # a finished hand needs none


# --------------------------------------------------------------------------- win_values


@pytest.mark.parametrize("hands", [
    ["1-1 2-2", "0-4"],
    ["1-1 2-2", "0-4", "1-3"],
    ["1-1 2-2", "0-4", "1-3", "0-1 0-3"],
])
def test_R19_R20_blocked_hand_without_winner_is_worth_1_over_n_each(hands: list[str]) -> None:
    """Opening 1-1 blocks every seat (R19: no 6, no matador, empty boneyard); all hold
    4 pips, so there is no winner (R20) and every seat is worth 1/N."""
    state = known(hands, "", ("1-1",))
    assert state.outcome is not None
    assert state.outcome.reason is Reason.BLOCKED and state.outcome.winner is None
    n = len(hands)
    assert win_values(state) == [pytest.approx(1.0 / n)] * n


def test_R20_blocked_hand_with_a_winner_is_worth_1_to_it() -> None:
    """Blocked with one seat on fewest pips: that seat is worth 1, the others 0."""
    state = known(["1-1 0-2", "0-4", "1-3"], "", ("1-1",))
    assert state.outcome is not None and state.outcome.winner == 0
    assert win_values(state) == [1.0, 0.0, 0.0]


# --------------------------------------------------------------------------- greedy_rollout


@pytest.mark.parametrize("preset", PRESETS)
def test_R18_R19_greedy_rollout_always_finishes_a_hand(preset: str) -> None:
    """From the deal or a few plies in, any epsilon: the hand ends, every move legal."""
    rules = Rules.from_preset(preset)
    lo, hi = rules.players
    rng = random.Random(17)
    for i in range(24):
        state = HandState.new(rules, lo + i % (hi - lo + 1), rng)
        for _ in range(i % 5):
            if state.outcome is None:
                state.push(state.legal_move_ids()[0])
        greedy_rollout(state, rng, (0.0, 0.1, 1.0)[i % 3])
        assert state.outcome is not None and state.to_move == -1
        assert state.legal_move_ids() == ()
        replayed = HandState(rules, state.deal)
        for move in state.moves:
            replayed.play(move)  # validated: an illegal move raises
        assert replayed.outcome == state.outcome


# --------------------------------------------------------------------------- PIMC


def test_pimc_search_values_every_legal_move_in_every_world() -> None:
    """With an iteration budget, each legal move gets exactly one sample per world."""
    view = midhand("classic", 2, 3)
    legal = view.legal_move_ids()
    result = PIMCBot().search(view, random.Random(5), Budget(iterations=6))
    assert set(result.stats) == set(legal)
    assert result.worlds == 6
    for s in result.stats.values():
        assert s.n == 6 and len(s.wins) == 6
        assert 0.0 <= s.win_mean <= 1.0


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("russian", 3)])
def test_pimc_search_is_reproducible_for_a_seed(preset: str, players: int) -> None:
    """Same view, seed and iteration budget: identical statistics, move by move."""
    view = midhand(preset, players, 7)
    runs = [PIMCBot().search(view, random.Random(9), Budget(iterations=5)) for _ in range(2)]
    assert stats_of(runs[0]) == stats_of(runs[1])
    assert [s.wins for s in runs[0].stats.values()] == [s.wins for s in runs[1].stats.values()]
    assert runs[0].best() == runs[1].best()


def test_R18_evaluate_worlds_solves_a_small_known_position_exactly() -> None:
    """Few tiles left: each world is solved exactly, so 6-6 is worth 1 and 4-6 worth 0."""
    state = win_or_lose()
    legal = state.legal_move_ids()
    solver = EndgameSolver()
    result = evaluate_worlds(lambda r: state.copy(), 0, legal, random.Random(1),
                             Budget(iterations=3), solver)
    assert result.worlds == 3
    assert solver.memo  # solved, not played out
    wins = {str(MOVES[m]): s.win_mean for m, s in result.stats.items()}
    assert wins == {"L6-4": 0.0, "L6-6": 1.0, "R6-4": 0.0, "R6-6": 1.0}
    assert all(s.n == 3 for s in result.stats.values())
    assert str(MOVES[result.best()]) == "L6-6"  # ties: most points, then the lowest id


# --------------------------------------------------------------------------- ISMCTS


# Seat 0 opened 3-3; seat 1 answered R4-1. Two worlds for seat 1's hand: in the first
# 1-4 was its greedy choice (the rest are a matador and a blank), in the second it
# held 4-6 and 4-5, heavier tiles that join 3 as well, so 1-4 was a poor choice.
MINE, BONE = "3-3 5-5 6-6", "0-2 0-3 1-2"
LIKELY, UNLIKELY = "1-4 2-5 0-1", "1-4 4-6 4-5"


def test_choice_log_likelihood_favours_worlds_where_the_play_was_greedy() -> None:
    """The observed play's log-probability is <= 0: above a uniform choice's where it was the
    playout policy's pick, below it where it was a poor one."""
    likely = dealt([MINE, LIKELY], BONE, ("3-3", "R4-1"))
    unlikely = dealt([MINE, UNLIKELY], BONE, ("3-3", "R4-1"))
    view = PlayerView.of(likely, 0)
    # the premise: what the playout policy plays for seat 1 at 3|3 in each world
    for theirs, tile in [(LIKELY, "1-4"), (UNLIKELY, "4-6")]:
        before = dealt([MINE, theirs], BONE, ("3-3",))
        legal = before.legal_move_ids()
        assert legal[-1] < DRAW and len(legal) == 6
        assert NAMES[MOVES[policy_move(before, random.Random(0), 0.0)].tile] == tile
    high = choice_log_likelihood(view, likely)
    low = choice_log_likelihood(view, unlikely)
    assert low < math.log(1 / 6) < high <= 0.0


def test_choice_log_likelihood_ignores_the_observers_own_choices() -> None:
    """Before seat 1 has chosen anything, every world is equally likely (log 1 = 0)."""
    likely = dealt([MINE, LIKELY], BONE, ("3-3",))
    unlikely = dealt([MINE, UNLIKELY], BONE, ("3-3",))
    view = PlayerView.of(likely, 0)
    assert choice_log_likelihood(view, likely) == 0.0
    assert choice_log_likelihood(view, unlikely) == 0.0


def test_ismcts_search_visits_every_legal_root_move() -> None:
    """Paired root (the default): every root move is tried once per iteration."""
    view = midhand("classic", 2, 3)
    result = ISMCTSBot().search(view, random.Random(4), Budget(iterations=7))
    assert set(result.stats) == set(view.legal_move_ids())
    assert result.worlds == 7
    assert all(s.n == 7 and 0.0 <= s.win <= s.n for s in result.stats.values())


def test_ismcts_statistics_are_as_complete_as_pimcs() -> None:
    """Win values per world (paired) and points too, so ``best`` and reviews can use them."""
    view = midhand("six", 2, 3)  # six-matador scores plays (R22): points vary between moves
    result = ISMCTSBot().search(view, random.Random(4), Budget(iterations=20))
    for s in result.stats.values():
        assert len(s.wins) == s.n == 20 and sum(s.wins) == pytest.approx(s.win)
        assert s.win_sq == pytest.approx(sum(w * w for w in s.wins))
    assert len({s.points_mean for s in result.stats.values()}) > 1


def test_ismcts_unpaired_search_visits_every_root_move_once_the_root_has_grown() -> None:
    """Unpaired root: ``EXPAND_AFTER`` playouts from the root, then one new move per
    iteration until all are tried, then one root move per iteration (UCB)."""
    view = midhand("classic", 2, 3)
    k = len(view.legal_move_ids())
    iterations = EXPAND_AFTER + k + 3
    result = ISMCTSBot(paired_root=False).search(view, random.Random(4),
                                                 Budget(iterations=iterations))
    assert all(s.n >= 1 for s in result.stats.values())
    assert sum(s.n for s in result.stats.values()) == iterations - EXPAND_AFTER


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("six", 4)])
def test_ismcts_search_is_reproducible_for_a_seed(preset: str, players: int) -> None:
    """Same view, seed and iteration budget: the same tree statistics and the same move."""
    view = midhand(preset, players, 5)
    runs = [ISMCTSBot().search(view, random.Random(6), Budget(iterations=12))
            for _ in range(2)]
    assert stats_of(runs[0]) == stats_of(runs[1])
    assert runs[0].extra == runs[1].extra
    bots = [ISMCTSBot(Budget(iterations=12)) for _ in range(2)]
    moves = {bot.choose(view, random.Random(6)) for bot in bots}
    assert len(moves) == 1 and isinstance(moves.pop(), Move)
