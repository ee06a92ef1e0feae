"""The compiled kernel plays exactly the pure-Python hands, move for move (R6-R22).

Every hand is dealt from ``stream_key(seed, i)`` and played with the same
stream on both paths: :func:`deal_from_stream` + :func:`random_playout`
(random) or :func:`greedy_rollout` (greedy) against :func:`fast.play_hands`.
The fast lane plays 150 hands per preset and player count and policy (3,000
hands); the slow lane 2,000 per configuration, house rules included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from lanes import classic_fast
from matador import fast
from matador.core.errors import MatadorError
from matador.core.playout import deal_from_stream, random_playout
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.streams import Stream, stream_key
from matador.fast import kernel
from matador.players.playouts import seat_rollout, table_policy, table_rollout
from matador.players.rollout import greedy_rollout, kernel_policy

CONFIGS = [(p, n) for p in PRESETS
           for n in range(Rules.from_preset(p).players[0], Rules.from_preset(p).players[1] + 1)]
HOUSE_RULES = [{"matador_anytime": False, "matador_optional": True},
               {"draw": "one", "matador_optional": True, "pass_penalty": 3},
               {"going_out": "after_boneyard"}, {"going_out": "never", "per_join": 2},
               {"target": 6, "exposed_target_bonus": 5}, {"first_leader": "lot"},
               {"hand_points": "none", "per_matador": 10}]


def python_hand(rules: Rules, players: int, seed: int, i: int, policy: str,
                epsilon: float) -> HandState:
    """Hand ``i`` of a batch, dealt and played by the pure-Python path."""
    stream = Stream(stream_key(seed, i))
    state = HandState(rules, deal_from_stream(rules, players, stream))
    if policy == "random":
        random_playout(state, stream)
    else:
        greedy_rollout(state, stream, epsilon)
    return state


def check_batch(rules: Rules, players: int, seed: int, count: int, policy: str,
                epsilon: float = 0.0) -> None:
    kp = fast.RANDOM if policy == "random" else kernel_policy(epsilon)
    out = fast.play_hands(rules, players, seed, count, policy=kp, record=600)
    assert out.moves is not None
    for i in range(count):
        state = python_hand(rules, players, seed, i, policy, epsilon)
        outcome = state.outcome
        assert outcome is not None
        moves = [int(m) for m in out.moves[i] if m >= 0]
        assert moves == [int(m) for m in state.moves], f"hand {i}"
        assert int(out.decisions[i]) == state.ply
        assert int(out.leader[i]) == state.deal.leader
        assert int(out.winner[i]) == (-1 if outcome.winner is None else outcome.winner)
        assert int(out.reason[i]) == (0 if outcome.reason.value == "out" else 1)
        assert tuple(int(x) for x in out.points[i]) == outcome.points
        assert tuple(int(x) for x in out.pips[i]) == outcome.pips


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
@pytest.mark.parametrize(("policy", "epsilon"), [("random", 0.0), ("greedy", 0.1)])
def test_kernel_plays_the_python_hands(preset: str, players: int, policy: str,
                                       epsilon: float) -> None:
    """R6-R22: deal, legal moves, choices, ends and scores agree for every preset and count."""
    check_batch(Rules.from_preset(preset), players, 7, 150, policy, epsilon)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CONFIGS)
@pytest.mark.parametrize(("policy", "epsilon"), [("random", 0.0), ("greedy", 0.0),
                                                 ("greedy", 0.1), ("greedy", 1.0)])
def test_kernel_plays_the_python_hands_thousands(preset: str, players: int, policy: str,
                                                 epsilon: float) -> None:
    check_batch(Rules.from_preset(preset), players, 11, 2000, policy, epsilon)


@pytest.mark.parametrize("overrides", HOUSE_RULES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_kernel_plays_the_python_hands_under_house_rules(overrides: dict[str, object],
                                                         policy: str) -> None:
    """R10, R15-R22 parameters one at a time, at every player count the preset allows."""
    rules = Rules.from_preset("classic", overrides)
    for players in (2, 3, 4):
        check_batch(rules, players, 3, 60, policy, 0.1)


def mid_hand_states(rules: Rules, players: int, count: int, seed: int) -> list[HandState]:
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = HandState(rules, deal_from_stream(rules, players, Stream(rng.getrandbits(64))))
        for _ in range(rng.randrange(0, 25)):
            if state.is_over:
                break
            ids = state.legal_move_ids()
            state.push(ids[rng.randrange(len(ids))])
        if not state.is_over:
            states.append(state)
    return states


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_play_out_finishes_given_states_as_greedy_rollout_does(preset: str,
                                                               players: int) -> None:
    """A search's worlds: a first move, then the greedy playout, on the world's own stream."""
    rules = Rules.from_preset(preset)
    states = mid_hand_states(rules, players, 40, 5)
    firsts = [random.Random(i).choice(s.legal_move_ids()) for i, s in enumerate(states)]
    keys = [stream_key(3, i, 1) for i in range(len(states))]
    before = [s.copy() for s in states]
    out = fast.play_out(states, keys, kernel_policy(0.1), first_moves=firsts, record=400)
    assert out.moves is not None
    for i, state in enumerate(states):
        assert state.moves == before[i].moves  # the given states are not modified
        child = state.copy()
        child.push(firsts[i])
        greedy_rollout(child, Stream(keys[i]), 0.1)
        assert child.outcome is not None
        moves = [int(m) for m in out.moves[i] if m >= 0]
        assert moves == [int(m) for m in child.moves[state.ply:]]
        assert int(out.decisions[i]) == child.ply - state.ply
        assert tuple(int(x) for x in out.points[i]) == child.outcome.points


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
@pytest.mark.parametrize("epsilon", [0.0, 0.05, 0.3])
def test_the_table_policy_plays_as_table_rollout(preset: str, players: int,
                                                 epsilon: float) -> None:
    """sage's worlds: a first move, then the table playout (every seat's blocking, the
    last matador spent as the heuristic spends it, R15, R17), move for move."""
    rules = Rules.from_preset(preset)
    states = mid_hand_states(rules, players, 40, 7 + players)
    firsts = [random.Random(i).choice(s.legal_move_ids()) for i, s in enumerate(states)]
    keys = [stream_key(4, i, 2) for i in range(len(states))]
    out = fast.play_out(states, keys, table_policy(epsilon), first_moves=firsts, record=400)
    assert out.moves is not None
    for i, state in enumerate(states):
        child = state.copy()
        child.push(firsts[i])
        table_rollout(child, Stream(keys[i]), epsilon)
        assert child.outcome is not None
        moves = [int(m) for m in out.moves[i] if m >= 0]
        assert moves == [int(m) for m in child.moves[state.ply:]], f"state {i}"
        assert tuple(int(x) for x in out.points[i]) == child.outcome.points


def test_play_out_of_finished_states_reports_their_outcome() -> None:
    rules = Rules.from_preset("classic")
    state = python_hand(rules, 2, 1, 0, "random", 0.0)
    out = fast.play_out([state], [5])
    assert state.outcome is not None
    assert int(out.decisions[0]) == 0
    assert tuple(int(x) for x in out.points[0]) == state.outcome.points


@pytest.mark.slow
def test_threads_do_not_change_results() -> None:
    rules = Rules.from_preset("russian")
    one = fast.play_hands(rules, 3, 4, 3 * fast.CHUNK + 17)
    two = fast.play_hands(rules, 3, 4, 3 * fast.CHUNK + 17, threads=2)
    for name in ("winner", "reason", "points", "pips", "decisions", "leader"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_first_shifts_the_batch() -> None:
    """Hand ``first + i`` is the same hand whichever batch it falls in (shards of a run)."""
    rules = Rules.from_preset("six")
    whole = fast.play_hands(rules, 2, 9, 100)
    tail = fast.play_hands(rules, 2, 9, 40, first=60)
    assert np.array_equal(whole.points[60:], tail.points)


def test_counter_stream_is_the_same_in_both_paths() -> None:
    """The kernel's draw, below() and random() equal matador.core.streams bit for bit."""
    rng = random.Random(1)
    for _ in range(500):
        key = rng.getrandbits(64)
        counter = rng.randrange(1, 1 << 40)
        n = rng.randrange(1, 1 << 31)
        assert int(kernel.draw64(np.uint64(key), counter)) == Stream(key, counter - 1).draw()
        assert kernel.below(np.uint64(key), counter, n) == Stream(key, counter - 1).below(n)
        assert kernel.unit(np.uint64(key), counter) == Stream(key, counter - 1).random()
    keys = np.empty(10, dtype=np.uint64)
    kernel.stream_keys(np.uint64(Stream(0).key), 0, keys)  # base for seed 0 is mix64(0) = 0
    assert [int(k) for k in keys] == [stream_key(0, i) for i in range(10)]


def test_policies_and_batches_are_checked() -> None:
    with pytest.raises(ValueError, match="policy 'best'"):
        fast.Policy("best")
    with pytest.raises(ValueError, match="weights"):
        fast.Policy("greedy", 0.1)
    with pytest.raises(ValueError, match="probability"):
        fast.Policy("random", 1.5)
    rules = Rules.from_preset("classic")
    with pytest.raises(ValueError, match="keys"):
        fast.play_out(mid_hand_states(rules, 2, 2, 1), [1])
    with pytest.raises(MatadorError, match="cannot deal"):
        fast.play_hands(Rules.from_preset("paluba"), 3, 1, 10)
    with pytest.raises(ValueError, match="same rules"):
        fast.play_out(mid_hand_states(rules, 2, 1, 1) + mid_hand_states(rules, 3, 1, 1), [1, 2])


def test_without_numba_the_kernel_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "available", lambda: False)
    with pytest.raises(fast.FastUnavailableError, match=r"matador\[fast\]"):
        fast.play_hands(Rules.from_preset("classic"), 2, 1, 1)


def test_compile_kernels_reports_seconds() -> None:
    assert fast.compile_kernels() >= 0.0


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
@pytest.mark.parametrize("epsilon", [0.0, pytest.param(0.05, marks=pytest.mark.slow)])
def test_per_seat_policies_play_as_seat_rollout(preset: str, players: int,
                                                epsilon: float) -> None:
    """sage-om's worlds: a first move, then each seat plays its own policy (the table policy
    or the greedy bot's choice), move for move as ``seat_rollout``; every mix of the two."""
    rules = Rules.from_preset(preset)
    states = mid_hand_states(rules, players, 40, 11 + players)
    firsts = [random.Random(i).choice(s.legal_move_ids()) for i, s in enumerate(states)]
    keys = [stream_key(5, i, 3) for i in range(len(states))]
    mixes = [tuple("greedy" if (mix >> s) & 1 else "table" for s in range(players))
             for mix in range(1 << players)]
    for seats in mixes:
        policy = kernel_policy(epsilon, "table", seats)
        out = fast.play_out(states, keys, policy, first_moves=firsts, record=400)
        assert out.moves is not None
        for i, state in enumerate(states):
            child = state.copy()
            child.push(firsts[i])
            seat_rollout(seats)(child, Stream(keys[i]), epsilon)
            assert child.outcome is not None
            moves = [int(m) for m in out.moves[i] if m >= 0]
            assert moves == [int(m) for m in child.moves[state.ply:]], f"{seats} state {i}"
            assert tuple(int(x) for x in out.points[i]) == child.outcome.points


def test_per_seat_policies_change_the_moves() -> None:
    """A seat played as greedy makes other moves than the table policy somewhere (the
    identity test above is not comparing one policy with itself)."""
    rules = Rules.from_preset("classic")
    states = mid_hand_states(rules, 3, 60, 31)
    firsts = [s.legal_move_ids()[0] for s in states]
    keys = [stream_key(6, i) for i in range(len(states))]
    table = fast.play_out(states, keys, kernel_policy(0.0, "table"), first_moves=firsts,
                          record=400)
    mixed = fast.play_out(states, keys, kernel_policy(0.0, "table", ("table", "greedy",
                                                                     "greedy")),
                          first_moves=firsts, record=400)
    same = kernel_policy(0.0, "table", ("table", "table", "table"))
    assert table.moves is not None and mixed.moves is not None
    assert (table.moves != mixed.moves).any(axis=1).sum() >= 10
    again = fast.play_out(states, keys, same, first_moves=firsts, record=400)
    assert again.moves is not None and (again.moves == table.moves).all()


def test_per_seat_policies_are_checked() -> None:
    with pytest.raises(ValueError, match="per-seat policies need kind 'table'"):
        kernel_policy(0.0, "greedy", ("table", "greedy"))
    with pytest.raises(ValueError, match="'heuristic'"):
        kernel_policy(0.0, "table", ("table", "heuristic"))
    with pytest.raises(ValueError, match="at most 4"):
        kernel_policy(0.0, "table", ("table",) * 5)
