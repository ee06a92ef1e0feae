"""The shared encoding: action ids, masks, observations; hidden information never leaks."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from lanes import classic_fast
from matador.core.moves import MOVE_NAMES, Move
from matador.core.rules import PRESETS, Rules
from matador.core.sampling import sample_world
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.envs.encoding import (
    NUM_ACTIONS,
    PIECES,
    Encoder,
    PublicTrack,
    encode_view,
    observation_size,
    pieces,
)
from matador.envs.episode import Episode

CONFIGS = [(p, n) for p in PRESETS for n in range(2, 5) if Rules.from_preset(p).allows_players(n)]


def random_hands(preset: str, players: int, hands: int, seed: int,
                 overrides: dict[str, object] | None = None) -> Iterator[Episode]:
    """Episodes at every position of ``hands`` random hands (moves uniformly at random)."""
    rng = random.Random(seed)
    episode = Episode(Rules.from_preset(preset, overrides or {}), players)
    for _ in range(hands):
        episode.reset(rng)
        while True:
            yield episode
            if episode.is_over:
                break
            episode.push(rng.choice(episode.state.legal_move_ids()))


def test_sizes_and_pieces() -> None:
    assert [observation_size(n) for n in (2, 3, 4)] == [196, 229, 262]
    assert [name for name, _ in pieces(3)] == [name for name, _, _ in PIECES]
    enc = Encoder(Rules.from_preset("six"), 4)
    assert enc.offsets["hand"] == (0, 28) and enc.offsets["scores"][1] == 262
    with pytest.raises(ValueError, match="players: 5"):
        observation_size(5)


def test_action_ids_are_the_move_notation() -> None:
    assert NUM_ACTIONS == 128 == len(set(MOVE_NAMES))
    for m in range(NUM_ACTIONS):
        assert Move.parse(MOVE_NAMES[m]) == m == Move(m)
    assert list(MOVE_NAMES) == sorted(MOVE_NAMES)  # sorting ids sorts the notation


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_masks_round_trip_every_preset(preset: str, players: int) -> None:
    """Every legal move's id reads back from its notation, and the mask is the core's."""
    for episode in random_hands(preset, players, 20, seed=players):
        state = episode.state
        for seat in range(players):
            mask = episode.action_mask(seat)
            assert mask.dtype == np.int8 and mask.shape == (128,)
            ids = [int(i) for i in np.flatnonzero(mask)]
            if seat == state.to_move:
                assert ids == [int(m) for m in state.legal_moves]
                assert [Move.parse(str(Move(i))) for i in ids] == ids
            else:
                assert ids == []


def check_lockstep(preset: str, players: int, hands: int, seed: int,
                   overrides: dict[str, object] | None = None) -> int:
    """Environment observations equal the reference encoding of each seat's view."""
    checked = 0
    for episode in random_hands(preset, players, hands, seed, overrides):
        for seat in range(players):
            got = episode.observe(seat)
            want = encode_view(PlayerView.of(episode.state, seat))
            assert np.array_equal(got, want), (preset, players, seat, episode.state.moves,
                                               np.flatnonzero(got != want))
            assert got.dtype == np.float32 and got.min() >= -1 and got.max() <= 1
        checked += 1
    return checked


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_track_in_lockstep_with_views(preset: str, players: int) -> None:
    assert check_lockstep(preset, players, 15, seed=1) > 100


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_track_in_lockstep_with_views_many(preset: str, players: int) -> None:
    assert check_lockstep(preset, players, 300, seed=2) > 3000
    # house rules that change what a move proves (R10, R15, R16)
    house: dict[str, object] = ({"draw": "one"} if preset == "paluba" else
                                {"matador_anytime": False, "matador_optional": False,
                                 "draw": "one"})
    check_lockstep(preset, players, 100, 3, house)


def check_hidden(preset: str, players: int, hands: int, seed: int) -> int:
    """Redeal what a seat cannot see: its observation must not change.

    Finished hands are left out: their result (the pips left) is public.
    """
    rng = random.Random(seed)
    checked = 0
    for episode in random_hands(preset, players, hands, seed):
        state = episode.state
        if state.is_over:
            continue
        seat = rng.randrange(players)
        view = PlayerView.of(state, seat)
        world: HandState = sample_world(view, rng)
        assert world.hands[seat] == state.hands[seat]
        encoder = episode.encoder
        a, b = encoder.empty(), encoder.empty()
        encoder.encode_state(a, state, episode.track, seat)
        encoder.encode_state(b, world, PublicTrack.of(world), seat)
        assert np.array_equal(a, b), (preset, players, seat, state.moves)
        if world.hands != state.hands:
            checked += 1
    return checked


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("paluba", 2), ("six", 4)])
def test_hidden_information_never_observed(preset: str, players: int) -> None:
    assert check_hidden(preset, players, 8, seed=4) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_hidden_information_never_observed_many(preset: str, players: int) -> None:
    assert check_hidden(preset, players, 150, seed=5) > 1000


def test_observation_shows_own_tiles_and_public_facts() -> None:
    rules = Rules.from_preset("classic")
    state = HandState.new(rules, 2, random.Random(3))
    enc = Encoder(rules, 2)
    lo, hi = enc.offsets["hand"]
    for seat in (0, 1):
        obs = encode_view(PlayerView.of(state, seat))
        assert [int(i) for i in np.flatnonzero(obs[lo:hi])] == \
            [int(t) for t in state.hand(seat)]
        assert obs[enc.offsets["line_empty"][0]] == 1.0
        assert obs[enc.offsets["bias"][0]] == 1.0
        assert obs[enc.offsets["boneyard"][0]] == pytest.approx(18 / 28)
    state.push(state.legal_move_ids()[0])
    obs = encode_view(PlayerView.of(state, 0))
    left = enc.offsets["left_end"][0]
    assert obs[left + state.left] == 1.0 and obs[enc.offsets["line_empty"][0]] == 0.0
