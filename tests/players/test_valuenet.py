"""The learned evaluation (:mod:`matador.players.valuenet`) and ``sage``'s mixing of it.

Known answers: the features partition the 28 tiles and mirror the two seats;
the kernel's network gives numpy's numbers; a world's value is exactly
``(1 - mix)`` playout plus ``mix`` network, so the statistics at any mix are
the interpolation of those at 0 and 1; the shipped weights load for the tables
they were trained on and for no other; a search with them still stops early once
settled, sees only a view, and is deterministic for a seed and an iteration
budget.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from matador import fast
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.fast.encode import state_rows
from matador.players import make_bot
from matador.players.base import Budget
from matador.players.heuristic import HeuristicBot
from matador.players.sage import MIX, SageBot, SagePlayoutsBot
from matador.players.valuenet import FEATURES, SHIPPED, ValueNet, features, shipped_net


def positions(preset: str, hands: int, seed: int = 0) -> list[HandState]:
    """Every position of ``hands`` two-player hands between ``heuristic`` bots."""
    bot = HeuristicBot()
    out = []
    for hand in range(hands):
        rng = random.Random(seed * 1000 + hand)
        state = HandState.new(Rules.from_preset(preset), 2, rng)
        while not state.is_over:
            out.append(state.copy())
            state.play(bot.choose(PlayerView.of(state, state.to_move), rng))
    return out


def choices(preset: str, hands: int, seed: int = 0) -> list[PlayerView]:
    """The views of those positions where the mover has two or more different moves."""
    return [PlayerView.of(s, s.to_move) for s in positions(preset, hands, seed)
            if len(s.legal_move_ids()) > 1]


@pytest.fixture(scope="module")
def random_net(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A network with random weights, saved (its values are far from the playouts')."""
    net = ValueNet.fresh(16, np.random.default_rng(4))
    net.w["w3"] *= 20  # values spread over (0, 1), not all near 0.5
    path = tmp_path_factory.mktemp("vn") / "random.npz"
    net.save(str(path))
    return path


def test_features_partition_the_tiles_and_mirror_the_seats() -> None:
    for state in positions("classic", 3):
        a, b = features(state, 0), features(state, 1)
        assert a.shape == (FEATURES,)
        tiles = a[:112].reshape(4, 28)
        assert (tiles.sum(axis=0) == 1).all()  # mine, theirs, the rest, the line: a partition
        assert (a[:28] == b[28:56]).all() and (a[28:56] == b[:28]).all()
        assert tiles[0].sum() == len(state.hand(0)) and tiles[3].sum() == state.played.bit_count()
        assert a[112:120].sum() == 1 and a[120:128].sum() == 1  # one number (or none) an end
        assert (a[128] == 1) == (state.to_move == 0) and a[128] + b[128] == 1
        assert a[133] == -b[133]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_kernel_evaluates_the_network_as_numpy_does(preset: str, random_net: Path) -> None:
    net = ValueNet.load(random_net)
    states = [s for s in positions(preset, 4, 1)]
    rows = state_rows(states)
    for seat in (0, 1):
        want = net(np.stack([features(s, seat) for s in states]))
        got = fast.net_values(rows, seat, net.w)
        assert np.abs(got - want).max() < 1e-5
        assert want.std() > 0.05  # the check is not of a constant


def test_the_kernel_values_a_finished_hand_at_one_half_and_refuses_other_tables(
        random_net: Path) -> None:
    net = ValueNet.load(random_net)
    state = positions("classic", 1)[-1]
    state.play(HeuristicBot().choose(PlayerView.of(state, state.to_move), random.Random(1)))
    assert state.is_over
    assert fast.net_values(state_rows([state]), 0, net.w).tolist() == [0.5]
    three = HandState.new(Rules.from_preset("classic"), 3, random.Random(1))
    with pytest.raises(ValueError, match="two-player positions only"):
        fast.net_values(state_rows([three]), 0, net.w)
    short = dict(net.w, w1=net.w["w1"][:-1])
    with pytest.raises(ValueError, match=f"take {FEATURES - 1} features"):
        fast.net_values(state_rows([state]), 0, short)


def test_a_worlds_value_is_the_mixture_of_playout_and_network(random_net: Path) -> None:
    """Statistics at a mix of 0.3 are 0.7 x those at 0 (plain playouts) + 0.3 x those at 1
    (the network wherever the move leaves the hand going), world by world."""
    views = choices("classic", 2)[:12]
    changed = 0
    for view in views:
        runs = {mix: SageBot(Budget(iterations=40), early_stop=False, kernel=True,
                             evaluation=str(random_net), mix=mix).search(view, random.Random(3))
                for mix in (0.0, 0.3, 1.0)}
        plain = SageBot(Budget(iterations=40), early_stop=False, kernel=True,
                        evaluation="off").search(view, random.Random(3))
        for m, stats in runs[0.3].stats.items():
            zero, one = runs[0.0].stats[m].wins, runs[1.0].stats[m].wins
            assert zero == plain.stats[m].wins
            mixed = [0.7 * a + 0.3 * b for a, b in zip(zero, one, strict=True)]
            assert stats.wins == pytest.approx(mixed, abs=1e-12)
            changed += one != pytest.approx(zero, abs=1e-9)
    assert changed


def test_with_the_network_a_settled_decision_still_stops_early() -> None:
    stopped = 0
    for view in choices("classic", 3, 2)[:10]:
        bot = SageBot(Budget(iterations=2000), kernel=True)
        assert bot.value_net(view) is not None
        result = bot.search(view, random.Random(8))
        if not result.extra.get("exact"):
            stopped += result.worlds < 2000
            full = SageBot(Budget(iterations=2000), kernel=True, early_stop=False).search(
                view, random.Random(8))
            assert full.worlds == 2000
    assert stopped


def test_the_shipped_weights_are_for_two_players_and_the_unchanged_presets() -> None:
    assert set(SHIPPED) == set(PRESETS) - {"paluba"}  # paluba: no network that helped (docs)
    for preset in SHIPPED:
        net = shipped_net(Rules.from_preset(preset), 2)
        assert net is not None and net.w["w1"].shape[0] == FEATURES
        assert shipped_net(Rules.from_preset(preset), 3) is None
    assert shipped_net(Rules.from_preset("classic").replace(pass_penalty=5), 2) is None
    assert shipped_net(Rules.from_preset("six").replace(target=7), 2) is None
    view = choices("classic", 1)[0]
    assert SageBot(evaluation="auto").value_net(view) is shipped_net(view.rules, 2)
    assert SageBot(evaluation="off").value_net(view) is None
    assert SagePlayoutsBot().value_net(view) is None
    assert MIX == SageBot().mix == 0.5


def test_sage_with_the_network_sees_a_view_only_and_is_deterministic() -> None:
    seen: list[object] = []

    class Recording(SageBot):
        def search(self, view: PlayerView, *args: object, **kw: object) -> object:  # type: ignore[override]
            seen.append(view)
            return super().search(view, *args, **kw)  # type: ignore[arg-type]

    for view in choices("russian", 1)[:8]:
        bot = Recording(Budget(iterations=30), kernel=True)
        first = bot.choose(view, random.Random(5))
        assert first == Recording(Budget(iterations=30), kernel=True).choose(
            view, random.Random(5))
        assert first in view.legal_move_ids()
    assert seen and all(isinstance(v, PlayerView) for v in seen)


def test_bad_evaluations_and_mixes_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown evaluation 'net'"):
        SageBot(evaluation="net")
    with pytest.raises(ValueError, match=r"mix 1\.5 is not a share"):
        SageBot(mix=1.5)
    with pytest.raises(ValueError, match="miss w2"):
        ValueNet({"w1": np.zeros((FEATURES, 2), np.float32), "b1": np.zeros(2, np.float32)})
    assert make_bot("sage-po:10it").name == "sage-po:10it"
