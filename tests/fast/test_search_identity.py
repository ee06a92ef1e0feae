"""PIMC, ISMCTS and sage find exactly the same statistics with and without the kernel
(iteration budgets).

Positions come from greedy games of every preset and player count; a search
with the kernel batches its rollouts (and, for ISMCTS, one world's leaves), the
pure-Python search plays them one by one on the same streams.
"""

from __future__ import annotations

import random

import pytest

from lanes import classic_fast
from matador.core.rules import PRESETS, Rules
from matador.core.sampling import sampler_for
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players.base import Budget
from matador.players.ismcts import ISMCTSBot
from matador.players.pimc import PIMCBot, SearchResult, evaluate_worlds, kernel_enabled
from matador.players.rollout import policy_move
from matador.players.sage import SageBot

CONFIGS = [(p, n) for p in PRESETS
           for n in range(Rules.from_preset(p).players[0], Rules.from_preset(p).players[1] + 1)]


def views(preset: str, players: int, seed: int, count: int) -> list[PlayerView]:
    """Views of the seat to move with a real choice, early, middle and late in greedy games."""
    rng = random.Random(seed)
    out: list[PlayerView] = []
    while len(out) < count:
        state = HandState.new(Rules.from_preset(preset), players, rng)
        while not state.is_over and len(out) < count:
            if len(state.legal_move_ids()) > 1 and rng.random() < 0.3:
                out.append(PlayerView.of(state, state.to_move))
            state.push(policy_move(state, rng, 0.1))
    return out


def plain(result: SearchResult) -> dict[int, tuple[int, float, float, tuple[float, ...]]]:
    return {m: (s.n, s.win, s.points, tuple(s.wins)) for m, s in result.stats.items()}


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_pimc_is_the_same_with_and_without_the_kernel(preset: str, players: int) -> None:
    for view in views(preset, players, players, 4):
        a = PIMCBot(Budget(iterations=30), kernel=True).search(view, random.Random(5))
        b = PIMCBot(Budget(iterations=30), kernel=False).search(view, random.Random(5))
        assert a.worlds == b.worlds == 30
        assert plain(a) == plain(b)
        assert a.best() == b.best()


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
@pytest.mark.parametrize("early_stop", [True, False])
def test_sage_is_the_same_with_and_without_the_kernel(preset: str, players: int,
                                                      early_stop: bool) -> None:
    """Table playouts in batches (kernel) or one by one (pure Python), exact endgames for
    two players, early stops at the same batch ends: the same numbers (the value network,
    which the kernel alone mixes in, off)."""
    for view in views(preset, players, 20 + players, 4):
        a = SageBot(Budget(iterations=40), kernel=True, early_stop=early_stop, evaluation="off")
        b = SageBot(Budget(iterations=40), kernel=False, early_stop=early_stop)
        ra, rb = a.search(view, random.Random(6)), b.search(view, random.Random(6))
        assert ra.worlds == rb.worlds <= 40
        assert plain(ra) == plain(rb)
        assert ra.best() == rb.best()


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
@pytest.mark.parametrize("paired_root", [True, False])
def test_ismcts_is_the_same_with_and_without_the_kernel(preset: str, players: int,
                                                        paired_root: bool) -> None:
    for view in views(preset, players, 10 + players, 3):
        a = ISMCTSBot(Budget(iterations=25), paired_root=paired_root, kernel=True)
        b = ISMCTSBot(Budget(iterations=25), paired_root=paired_root, kernel=False)
        ra, rb = a.search(view, random.Random(2)), b.search(view, random.Random(2))
        assert plain(ra) == plain(rb)
        assert ra.extra == rb.extra


def test_a_search_leaves_the_callers_generator_in_the_same_state() -> None:
    """Later moves of a game stay identical: both paths consume the same draws."""
    view = views("classic", 2, 3, 1)[0]
    for bot in (PIMCBot, ISMCTSBot):
        ra, rb = random.Random(9), random.Random(9)
        bot(Budget(iterations=20), kernel=True).search(view, ra)
        bot(Budget(iterations=20), kernel=False).search(view, rb)
        assert ra.random() == rb.random()


@pytest.mark.slow
def test_pimc_is_the_same_over_many_positions() -> None:
    for preset, players in CONFIGS:
        for view in views(preset, players, 100 + players, 15):
            a = evaluate_worlds(sampler_for(view).sample, view.seat, view.legal_move_ids(),
                                random.Random(1), Budget(iterations=100), kernel=True)
            b = evaluate_worlds(sampler_for(view).sample, view.seat, view.legal_move_ids(),
                                random.Random(1), Budget(iterations=100), kernel=False)
            assert plain(a) == plain(b)


def test_time_budgets_batch_worlds_and_stop() -> None:
    view = views("classic", 2, 4, 1)[0]
    result = PIMCBot(Budget(millis=60), kernel=True).search(view, random.Random(1))
    assert result.worlds > 0
    assert sum(s.n for s in result.stats.values()) == result.worlds * len(result.stats)


def test_the_automatic_choice_follows_installation_and_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert kernel_enabled(True) and not kernel_enabled(False)
    assert kernel_enabled(None)  # CI installs matador[fast]
    monkeypatch.setenv("MATADOR_KERNEL", "0")
    assert not kernel_enabled(None)


@pytest.mark.parametrize(("preset", "players"), classic_fast(CONFIGS))
def test_the_kernel_draws_the_same_worlds_as_the_flat_tables(preset: str, players: int) -> None:
    """World ``b`` from the stream ``keys[b]``: the kernel's row is the state the pure flat
    sampler's world reaches (``state_rows``), for every preset and player count."""
    import numpy as np

    from matador import fast
    from matador.core.sampling import flat_worlds
    from matador.core.streams import Stream, stream_key
    from matador.fast.encode import state_rows

    checked = 0
    for view in views(preset, players, players + 10, 6):
        flat = flat_worlds(view)
        assert flat is not None
        keys = [stream_key(11, b) for b in range(30)]
        rows, ok = fast.sample_worlds(flat, keys)
        for b, key in enumerate(keys):
            world = flat.world(Stream(key))
            assert world is not None and ok[b]
            assert np.array_equal(rows[b], state_rows([world])[0])
            checked += 1
    assert checked == 180


def test_a_search_draws_its_worlds_from_the_flat_tables() -> None:
    """PIMC's worlds come from the streams ``stream_key(seed, b, WORLD_STREAM)`` on the
    flat tables, in both paths: the caller's generator gives the search its seed and
    nothing else (the exact sampler would draw from it for every world)."""
    from matador.players.pimc import ViewWorlds, view_worlds

    view = views("classic", 3, 1, 1)[0]
    make_world = view_worlds(view, Budget(iterations=5))
    assert isinstance(make_world, ViewWorlds) and make_world.flat is not None
    for kernel in (True, False):
        rng, ref = random.Random(2), random.Random(2)
        result = PIMCBot(Budget(iterations=5), kernel=kernel).search(view, rng)
        ref.getrandbits(64)
        assert result.worlds == 5 and rng.getstate() == ref.getstate()
