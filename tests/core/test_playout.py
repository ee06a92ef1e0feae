"""The fast playout makes exactly the plain loop's choices (it only inlines legality)."""

from __future__ import annotations

import random

import pytest

from matador.core.playout import deal_from_stream, random_playout, shuffled_tiles
from matador.core.rules import PRESETS, Rules
from matador.core.state import Deal, HandState, highest_double_leader
from matador.core.streams import Stream, stream_key
from matador.core.tiles import NUM_TILES


def _plain(state: HandState, stream: Stream) -> int:
    n = 0
    while not state.is_over:
        ids = state.legal_move_ids()
        state.push(ids[stream.below(len(ids))] if len(ids) > 1 else ids[0])
        n += 1
    return n


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("overrides", [{}, {"matador_anytime": False, "matador_optional": True},
                                       {"draw": "one", "matador_optional": True},
                                       {"going_out": "after_boneyard"}])
def test_random_playout_equals_plain_loop(preset: str, overrides: dict[str, object]) -> None:
    """R9-R19: every legal-move set computed inline equals HandState.legal_move_ids."""
    rules = Rules.from_preset(preset, overrides)
    deal_rng = random.Random(7)
    lo, hi = rules.players
    for i in range(150):
        state = HandState.new(rules, lo + i % (hi - lo + 1), deal_rng)
        a, b = state.copy(), state.copy()
        na = random_playout(a, Stream(stream_key(3, i)))
        nb = _plain(b, Stream(stream_key(3, i)))
        assert na == nb == a.ply
        assert a.moves == b.moves
        assert a.outcome == b.outcome


def test_R12_shuffled_tiles_is_a_permutation_and_spreads_every_tile() -> None:
    """R12: each shuffle uses every tile once; each tile lands in each position about equally."""
    counts = [[0] * NUM_TILES for _ in range(NUM_TILES)]
    for i in range(2800):
        tiles = shuffled_tiles(Stream(stream_key(11, i)))
        assert sorted(tiles) == list(range(NUM_TILES))
        for pos, t in enumerate(tiles):
            counts[t][pos] += 1
    # 100 expected per cell; a broken swap (e.g. never moving a tile) leaves 0 or 2800.
    assert all(40 < c < 180 for row in counts for c in row)


@pytest.mark.parametrize("preset", PRESETS)
def test_R12_R14_deal_from_stream_deals_like_deal_random(preset: str) -> None:
    """R12, R14: the seeded deal has the sizes and leader rule of Deal.random, and validates."""
    rules = Rules.from_preset(preset)
    lo, hi = rules.players
    for n in range(lo, hi + 1):
        for i in range(50):
            deal = deal_from_stream(rules, n, Stream(stream_key(5, n, i)))
            again = Deal.parse(deal.to_json(), rules, n)  # every tile once, right sizes
            assert again == deal
            if preset != "paluba":  # highest_double: the holder of the best tile leads
                assert deal.leader == highest_double_leader(deal.hands)


def test_deal_from_stream_refuses_a_player_count_the_rules_forbid() -> None:
    from matador.core.errors import RulesError

    with pytest.raises(RulesError, match="players"):
        deal_from_stream(Rules.from_preset("paluba"), 3, Stream(1))


def test_random_playout_takes_no_draw_for_a_forced_move() -> None:
    """A hand of forced moves only would leave the stream untouched: draws == real choices."""
    rules = Rules.from_preset("classic")
    stream = Stream(stream_key(9, 0))
    state = HandState(rules, deal_from_stream(rules, 2, stream))
    start = stream.counter
    probe = state.copy()
    choices = 0
    replay = Stream(stream.key, stream.counter)
    while not probe.is_over:
        ids = probe.legal_move_ids()
        choices += len(ids) > 1
        probe.push(ids[replay.below(len(ids))] if len(ids) > 1 else ids[0])
    random_playout(state, stream)
    assert stream.counter - start == choices
