"""sage solves exactly the two-player positions whose view determines the world (R12: an
empty boneyard, nothing set aside), within a node limit, and plays a best move there."""

from __future__ import annotations

import random

import pytest

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import SageBot, sage
from matador.players.base import Budget
from matador.players.rollout import EndgameSolver, tiles_in_play
from matador.players.sage import KNOWN_NODES, known_nodes, known_world, solve_known
from matador.players.timing import distinct_moves


def _positions(preset: str, players: int, count: int, min_tiles: int = 10) -> list[HandState]:
    """Decisions with a choice, after the boneyard ran empty, of random hands."""
    out: list[HandState] = []
    for seed in range(400):
        rng = random.Random(seed)
        state = HandState.new(Rules.from_preset(preset), players, rng)
        while not state.is_over and len(out) < count:
            ids = state.legal_move_ids()
            if not state.boneyard_size and len(ids) > 1 and tiles_in_play(state) >= min_tiles:
                out.append(state.copy())
                break
            state.push(ids[rng.randrange(len(ids))])
        if len(out) == count:
            break
    assert len(out) == count
    return out


def _exact(state: HandState) -> dict[int, float]:
    solver = EndgameSolver(node_limit=10**7)
    values = {}
    for m in state.legal_move_ids():
        child = state.copy()
        child.push(m)
        value = solver.solve(child)
        assert value is not None
        values[m] = value[state.to_move]
    return values


def test_only_two_players_with_nothing_hidden_is_a_known_world() -> None:
    for preset, players, known in (("classic", 2, True), ("russian", 2, True),
                                   ("classic", 3, False), ("russian", 4, False)):
        for state in _positions(preset, players, 2, min_tiles=0):
            assert known_world(PlayerView.of(state, state.to_move)) is known
    fresh = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
    assert not known_world(PlayerView.of(fresh, fresh.to_move))  # the boneyard's order
    paluba = HandState.new(Rules.from_preset("paluba"), 2, random.Random(1))
    assert paluba.deal.set_aside and not known_world(PlayerView.of(paluba, paluba.to_move))


def test_the_node_limit_follows_the_budget() -> None:
    assert known_nodes(Budget(iterations=10)) == KNOWN_NODES
    assert known_nodes(Budget(millis=50)) == 5_000
    assert known_nodes(Budget(millis=3_000)) == KNOWN_NODES


def test_known_positions_are_solved_as_the_full_search_solves_them() -> None:
    """The values (win 1, loss 0, no winner 1/2) are those of an unpruned search of the true
    state, and sage plays a move of the best value."""
    for preset in ("classic", "russian", "six"):
        for state in _positions(preset, 2, 4):
            view = PlayerView.of(state, state.to_move)
            exact = _exact(state)
            moves = view.legal_move_ids()
            solved = solve_known(view, moves, 10**6)
            assert solved is not None
            assert {m: s.win_mean for m, s in solved.items()} == exact
            bot = SageBot(Budget(iterations=50))
            move = int(bot.choose(view, random.Random(2)))
            assert exact[move] == max(exact.values())
            if len(distinct_moves(moves, view.left, view.right)) > 1:
                assert bot.last_search is not None
                assert bot.last_search.extra == {"exact": 1.0}


def test_too_big_for_the_limit_falls_back_to_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _positions("russian", 2, 1)[0]
    view = PlayerView.of(state, state.to_move)
    assert solve_known(view, view.legal_move_ids(), 0) is None
    monkeypatch.setattr(sage, "KNOWN_NODES", 0)
    result = SageBot(Budget(iterations=40), early_stop=False).search(view, random.Random(3))
    assert result.worlds == 40 and "exact" not in result.extra
