"""Table-wise playouts (matador.players.playouts): the heuristic's choice in every seat."""

from __future__ import annotations

import random

import pytest

from lanes import classic_preset_fast
from matador.core.moves import DRAW, PASS
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.streams import Stream
from matador.core.view import PlayerView
from matador.players import make_bot
from matador.players.heuristic import block_value
from matador.players.playouts import (
    block_counts,
    table_move,
    table_playout,
    table_rollout,
)
from matador.players.rollout import policy_move


class _Never:
    """A random source whose draws never make a playout move at random."""

    def random(self) -> float:
        return 0.999

    def randrange(self, n: int, /) -> int:  # pragma: no cover - never asked
        raise AssertionError("no random move expected")


def _no_voids(view: PlayerView) -> bool:
    """Nothing proves a hole in another seat's hand: the heuristic counts only unseen tiles."""
    return view.lead_excluded() == 0 and all(
        e.kind != "void" for s in range(view.players) if s != view.seat for e in view.events[s])


@pytest.mark.parametrize("preset", classic_preset_fast(PRESETS))
def test_table_move_is_the_heuristics_choice(preset: str) -> None:
    """Known answer: where the view proves no holes, a playout seat plays exactly as the
    ``heuristic`` bot in its seat would (same evaluation, all seats blocked, R15, R17)."""
    rules = Rules.from_preset(preset)
    heuristic = make_bot("heuristic")
    rng = random.Random(7)
    checked = 0
    lo, hi = rules.players
    for players in range(lo, hi + 1):
        for _ in range(30):
            state = HandState.new(rules, players, rng)
            while not state.is_over:
                view = PlayerView.of(state, state.to_move)
                ids = state.legal_move_ids()
                if len(ids) > 1 and _no_voids(view):
                    assert table_move(state, _Never()) == heuristic.choose(view, rng)
                    checked += 1
                state.push(ids[rng.randrange(len(ids))])
    assert checked > 50


def test_block_counts_is_block_value() -> None:
    for total in range(0, 24):
        for fitting in range(0, total + 1):
            for size in (0, 1, 3, 7):
                for bone in (0, 5, 14):
                    might = (1 << total) - 1
                    fits = (1 << fitting) - 1
                    assert block_counts(total, fitting, size, bone) == \
                        block_value(might, size, fits, bone)


def test_table_move_blocks_the_seats_after_the_next() -> None:
    """With four players the playouts value blocking every seat, pimc's only the next one:
    somewhere they choose differently."""
    rules = Rules.from_preset("classic")
    rng = random.Random(3)
    differ = 0
    for _ in range(40):
        state = HandState.new(rules, 4, rng)
        while not state.is_over:
            if len(state.legal_move_ids()) > 1:
                differ += table_move(state, _Never()) != policy_move(state, _Never(), 0.0)
            state.push(table_move(state, rng))
    assert differ > 0


def test_forced_moves_take_no_draw_and_random_moves_are_legal() -> None:
    rules = Rules.from_preset("russian")
    rng = random.Random(5)
    state = HandState.new(rules, 3, rng)
    while not state.is_over:
        ids = state.legal_move_ids()
        if len(ids) == 1:
            assert table_move(state, _Never()) == ids[0]  # _Never would fail on randrange
        m = table_move(state, rng, epsilon=1.0)  # always at random
        assert m in ids
        state.push(m)


@pytest.mark.parametrize("preset", PRESETS)
def test_table_playouts_finish_every_preset(preset: str) -> None:
    rules = Rules.from_preset(preset)
    rng = random.Random(11)
    lo, hi = rules.players
    for players in range(lo, hi + 1):
        for _ in range(20):
            state = HandState.new(rules, players, rng)
            table_playout(state, rng)
            assert state.is_over


def test_last_matador_is_kept_by_drawing_unless_it_pays() -> None:
    """R15: the table policy draws rather than spend its last matador while the next seat is
    far from going out and the boneyard is large; the pimc policy always keeps it."""
    rules = Rules.from_preset("classic")
    rng = random.Random(2)
    found = False
    for _ in range(400):
        state = HandState.new(rules, 2, rng)
        while not state.is_over:
            ids = state.legal_move_ids()
            if DRAW in ids and len(ids) > 1 and PASS not in ids:
                m = table_move(state, _Never())
                nxt = state.hands[(state.to_move + 1) % 2].bit_count()
                hand = state.hands[state.to_move]
                if nxt > 3 and state.boneyard_size > 8 and hand.bit_count() > 1 and \
                        (hand & rules.matadors).bit_count() == 1:
                    assert m == DRAW
                    found = True
            state.push(table_move(state, rng))
        if found:
            break
    assert found


@pytest.mark.parametrize("preset", PRESETS)
def test_table_rollout_without_random_moves_is_the_table_policy(preset: str) -> None:
    """With epsilon 0 the rollout (geometric gaps, fewer draws) makes table_move's choices."""
    rules = Rules.from_preset(preset)
    rng = random.Random(4)
    lo, hi = rules.players
    for players in range(lo, hi + 1):
        for i in range(15):
            state = HandState.new(rules, players, rng)
            fast = state.copy()
            table_rollout(fast, Stream(i), 0.0)
            table_playout(state, _Never(), 0.0)
            assert fast.moves == state.moves


def test_table_rollout_goes_random_at_the_rate_asked() -> None:
    """A share epsilon of the choices are random: with epsilon 1 every choice is, and the
    hands differ from the policy's."""
    rules = Rules.from_preset("classic")
    differ = 0
    for i in range(20):
        state = HandState.new(rules, 3, random.Random(i))
        greedy = state.copy()
        table_rollout(state, Stream(i), 1.0)
        table_rollout(greedy, Stream(i), 0.0)
        assert state.is_over and greedy.is_over
        differ += state.moves != greedy.moves
    assert differ > 10
