"""``sage-om``: the policies it can model a seat with, the likelihood of observed choices, the
identification of each seat's policy, the playouts that play each seat as modelled."""

from __future__ import annotations

import math
import random
import time

import pytest

from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import GreedyBot, SageOMBot, make_bot
from matador.players.base import Budget
from matador.players.playouts import (
    CHOOSERS,
    choice_log_likelihoods,
    greedy_choice,
    seat_rollout,
    table_choice,
)
from matador.players.sage import opponent_policies


def random_hands(players: int, count: int, seed: int) -> list[HandState]:
    """Finished hands between random movers, for replays."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = HandState.new(Rules.from_preset("classic"), players, rng)
        while state.outcome is None:
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
        out.append(state)
    return out


def test_the_greedy_policy_is_the_greedy_bot() -> None:
    bot, checked = GreedyBot(), 0
    for finished in random_hands(3, 20, 1):
        state = HandState(finished.rules, finished.deal)
        for m in finished.moves:
            ids = state.legal_move_ids()
            if len(ids) > 1:
                view = PlayerView.of(state, state.to_move)
                assert greedy_choice(state, ids) == bot.choose(view, random.Random(0))
                checked += 1
            state.push(m)
    assert checked > 100


def test_a_seat_rollout_plays_each_seat_as_named() -> None:
    differ = 0
    for start in random_hands(2, 10, 2):
        state = HandState(start.rules, start.deal)
        played = state.copy()
        seat_rollout(("greedy", "table"))(played, random.Random(3), 0.0)  # no random moves
        assert played.outcome is not None
        for m in played.moves:
            ids = state.legal_move_ids()
            if len(ids) > 1:
                table, greedy = table_choice(state, ids), greedy_choice(state, ids)
                assert m == (table if state.to_move == 1 else greedy)
                differ += table != greedy
            state.push(m)
    assert differ > 0  # the policies do differ, so the check above means something


def test_each_seat_and_policy_counts_its_own_choices() -> None:
    """Seat 1 plays table's choice where it differs from greedy's: one term each."""
    rng = random.Random(4)
    for _ in range(200):
        state = HandState.new(Rules.from_preset("classic"), 3, rng)
        while state.outcome is None and (state.to_move != 1 or len(state.legal_move_ids()) < 2):
            state.push(state.legal_move_ids()[0])  # seats 0 and 2: first legal move
        if state.outcome is not None:
            continue
        ids = state.legal_move_ids()
        if table_choice(state, ids) != greedy_choice(state, ids):
            break
    else:
        pytest.fail("no position where the policies differ")
    before = choice_log_likelihoods(PlayerView.of(state, 0), state, 0.8)
    state.push(table_choice(state, ids))
    after = choice_log_likelihoods(PlayerView.of(state, 0), state, 0.8)
    k = len(ids)
    assert set(after) == {(s, name) for s in (1, 2) for name in CHOOSERS}
    assert after[1, "table"] - before[1, "table"] == pytest.approx(math.log(0.8 + 0.2 / k))
    assert after[1, "greedy"] - before[1, "greedy"] == pytest.approx(math.log(0.2 / k))
    assert after[2, "table"] == before[2, "table"]  # another seat's choice says nothing of 2
    # the viewing seat's own choices count for nothing
    assert all(s != 1 for s, _ in choice_log_likelihoods(PlayerView.of(state, 1), state, 0.8))


def views_against(opponent: str, hands: int, seed: int) -> list[PlayerView]:
    """Seat 0's views (a heuristic) at its last decision with a choice in hands against
    ``opponent`` at seat 1, once seat 1 has made at least five choices."""
    rng = random.Random(seed)
    me, other = make_bot("heuristic"), make_bot(opponent)
    out = []
    for _ in range(hands):
        state = HandState.new(Rules.from_preset("classic"), 2, rng)
        last, choices = None, 0
        while state.outcome is None:
            view = PlayerView.of(state, state.to_move)
            ids = view.legal_move_ids()
            if state.to_move == 0:
                if len(ids) > 1 and choices >= 5:
                    last = view
                state.push(int(me.choose(view, rng)))
            else:
                choices += len(ids) > 1
                state.push(int(other.choose(view, rng)))
        if last is not None:
            out.append(last)
    return out


@pytest.mark.slow
def test_a_greedy_seat_is_told_from_a_heuristic_one_by_its_choices() -> None:
    rng = random.Random(5)
    greedy = [opponent_policies(v, rng) for v in views_against("greedy", 40, 6)]
    heuristic = [opponent_policies(v, rng) for v in views_against("heuristic", 40, 7)]
    assert len(greedy) >= 15 and len(heuristic) >= 15
    assert all(p[0] == "table" for p in greedy + heuristic)  # the deciding seat itself
    assert sum(p[1] == "greedy" for p in greedy) >= 0.7 * len(greedy)
    assert sum(p[1] == "greedy" for p in heuristic) <= 0.2 * len(heuristic)


def test_no_choice_seen_no_model() -> None:
    state = HandState.new(Rules.from_preset("classic"), 4, random.Random(2))
    assert opponent_policies(PlayerView.of(state, state.to_move), random.Random(1)) == \
        ("table",) * 4


def test_sage_om_is_a_bot_kind_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    bot = make_bot("sage-om:40it")
    assert isinstance(bot, SageOMBot) and bot.model_opponents and bot.name == "sage-om:40it"
    views = views_against("greedy", 6, 8)
    assert views
    for view in views:
        runs = []
        for _ in range(2):
            b = SageOMBot(Budget(iterations=40))
            move = b.choose(view, random.Random(9))
            runs.append((move, b.last_search))
        assert runs[0] == runs[1]
        assert runs[0][0] in view.legal_move_ids()


def test_sage_om_is_the_same_with_and_without_the_kernel() -> None:
    """Seats modelled as greedy are played so in the kernel too (per-seat policies), with
    the same numbers as the pure-Python playouts, one by one on the same streams."""
    views = views_against("greedy", 8, 10)
    modelled = 0
    for view in views:
        modelled += any(p == "greedy" for p in opponent_policies(view, random.Random(11)))
        a = SageOMBot(Budget(iterations=30), kernel=True).search(view, random.Random(11))
        b = SageOMBot(Budget(iterations=30), kernel=False).search(view, random.Random(11))
        assert a.worlds == b.worlds
        assert {m: (s.n, s.win, s.points) for m, s in a.stats.items()} == \
            {m: (s.n, s.win, s.points) for m, s in b.stats.items()}
    assert modelled >= 3


def test_a_slow_model_leaves_the_search_its_wait_for_a_world(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The wait for a first world (the sampling grace) starts after the model of the other
    seats is made: a model slower than the grace once made views whose first candidate world
    is rejected (four players, mid-hand) forfeit with "no consistent world found"."""
    from matador.core.sampling import sampler_for
    from matador.players import sage
    from matador.players.base import SAMPLING_GRACE_MS

    rng = random.Random(3)
    me = make_bot("heuristic")
    view = None
    while view is None:
        state = HandState.new(Rules.from_preset("classic"), 4, rng)
        while state.outcome is None and view is None:
            v = PlayerView.of(state, state.to_move)
            if len(v.legal_move_ids()) > 1 and state.ply > 8:
                sampler = sampler_for(v)
                sampler.sample(random.Random(0))
                if sampler.attempts > 1:
                    view = v
            state.push(int(me.choose(v, rng)))

    def slow(view: PlayerView, rng: random.Random, worlds: int = 0,
             seats: object = None) -> dict[int, float]:
        time.sleep(SAMPLING_GRACE_MS / 1000 + 0.1)
        return {1: 2.0, 2: 2.0, 3: 2.0}

    monkeypatch.setattr(sage, "opponent_log_odds", slow)
    result = SageOMBot(Budget(iterations=20)).search(view, random.Random(1))
    assert result.worlds == 20


def endgames(players: int, count: int, tiles: int, seed: int) -> list[HandState]:
    """States of random hands once at most ``tiles`` tiles are held or in the boneyard."""
    from matador.players.rollout import tiles_in_play

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = HandState.new(Rules.from_preset("classic"), players, rng)
        while state.outcome is None and tiles_in_play(state) > tiles:
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
        if state.outcome is None:
            out.append(state)
    return out


def brute_force(state: HandState, me: int) -> float:
    """``me``'s win value when ``me`` maximises it and every other seat plays ``greedy``."""
    from matador.players.rollout import win_values

    if state.outcome is not None:
        return win_values(state)[me]
    ids = state.legal_move_ids()
    if state.to_move != me and len(ids) > 1:
        ids = (greedy_choice(state, ids),)
    values = []
    for m in ids:
        child = state.copy()
        child.push(m)
        values.append(brute_force(child, me))
    return max(values) if state.to_move == me else values[0]


@pytest.mark.parametrize("players", [2, 3])
def test_the_endgame_solver_plays_exactly_against_fixed_policies(players: int) -> None:
    """Every other seat fixed to greedy's choice: the solver's value for the seat to move is
    the brute-force maximum against those replies, and with two players never below its
    value against a perfect opponent (max^n), above it in some endgames."""
    from matador.players.rollout import EndgameSolver

    above = 0
    for state in endgames(players, 60, 10, players):
        me = state.to_move
        fixed = [None if s == me else greedy_choice for s in range(players)]
        value = EndgameSolver(fixed=fixed).solve(state)
        assert value is not None
        assert value[me] == brute_force(state, me)
        if players == 2:
            perfect = EndgameSolver().solve(state)
            assert perfect is not None and value[me] >= perfect[me]
            above += value[me] > perfect[me]
    assert players != 2 or above >= 3


def test_a_settled_seat_is_not_weighed_again_in_the_same_hand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a seat's odds pass MODEL_SETTLED its policy is kept for the rest of the hand
    (its choices are not replayed again); a view of another hand starts afresh."""
    from matador.players import sage

    asked: list[tuple[int, ...]] = []
    real = sage.opponent_log_odds

    def spy(view: PlayerView, rng: random.Random, worlds: int = sage.MODEL_WORLDS,
            seats: list[int] | None = None) -> dict[int, float]:
        asked.append(tuple(seats or ()))
        return real(view, rng, worlds, seats)

    monkeypatch.setattr(sage, "opponent_log_odds", spy)
    rng = random.Random(12)
    bot = SageOMBot(Budget(iterations=10))
    me, other = make_bot("heuristic"), make_bot("greedy")
    policies, asks = [], []
    state = HandState.new(Rules.from_preset("classic"), 2, rng)
    while state.outcome is None:
        view = PlayerView.of(state, state.to_move)
        if state.to_move == 0:
            asked.clear()
            if len(distinct(view)) > 1:
                move = bot.choose(view, rng)
                odds = bot._model[2].get(1) if bot._model else None
                policies.append(None if odds is None else "greedy" if odds > 0 else "table")
                asks.append(list(asked))
            else:
                move = me.choose(view, rng)
        else:
            move = other.choose(view, rng)
        state.push(int(move))
    settled_at = policies.index("greedy")
    assert all(p == "greedy" for p in policies[settled_at:])
    assert all(a == [] for a in asks[settled_at + 1:])  # never weighed again
    assert asks[settled_at] == [(1,)]
    assert len(asks) > settled_at + 1
    fresh = HandState.new(Rules.from_preset("classic"), 2, random.Random(99))
    while fresh.to_move != 0 or fresh.ply < 3 or len(distinct(
            PlayerView.of(fresh, 0))) < 2:
        fresh.push(fresh.legal_move_ids()[0])
    asked.clear()
    bot.choose(PlayerView.of(fresh, 0), rng)
    assert asked == [(1,)]  # another hand: the seat is weighed again


def distinct(view: PlayerView) -> list[int]:
    from matador.players.timing import distinct_moves

    return distinct_moves(view.legal_move_ids(), view.left, view.right)
