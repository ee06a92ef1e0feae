"""The learned evaluation (:mod:`matador.players.valuenet`) and ``sage``'s mixing of it.

Known answers: the features partition the 28 tiles and mirror the two seats (rotate with
the seat at three and four);
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
from matador.fast.layout import net_features
from matador.players import make_bot
from matador.players.base import Budget
from matador.players.heuristic import HeuristicBot
from matador.players.sage import MIX, SageBot, SagePlayoutsBot
from matador.players.valuenet import (
    FEATURES,
    SHIPPED,
    ValueNet,
    features,
    players_of,
    shipped_net,
)


def positions(preset: str, hands: int, seed: int = 0, players: int = 2) -> list[HandState]:
    """Every position of ``hands`` hands between ``heuristic`` bots at a table of ``players``."""
    bot = HeuristicBot()
    out = []
    for hand in range(hands):
        rng = random.Random(seed * 1000 + hand)
        state = HandState.new(Rules.from_preset(preset), players, rng)
        while not state.is_over:
            out.append(state.copy())
            state.play(bot.choose(PlayerView.of(state, state.to_move), rng))
    return out


TABLES = [(p, n) for p in sorted(PRESETS) for n in (2, 3, 4)
          if Rules.from_preset(p).allows_players(n)]
"""Every preset at every table size it allows."""


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


@pytest.mark.parametrize("players", [3, 4])
def test_features_of_more_players_rotate_with_the_seat(players: int) -> None:
    """Hands in playing order from the seat's side, the mover as a bit for all but the last
    seat before ours, sizes in the same order, pip differences to each other hand."""
    n = players
    assert players_of(net_features(n)) == n and net_features(n) == 28 * (n + 2) + 16 + 3 * n
    for state in positions("classic", 2, 1, players):
        rows = {seat: features(state, seat) for seat in range(n)}
        base = 28 * (n + 2) + 16
        for seat, x in rows.items():
            assert x.shape == (net_features(n),)
            tiles = x[:28 * (n + 2)].reshape(n + 2, 28)
            assert (tiles.sum(axis=0) == 1).all()  # every hand, the rest, the line
            for k in range(n):
                other = (seat + k) % n
                assert tiles[k].sum() == len(state.hand(other))
                assert (tiles[k] == rows[other][:28]).all()  # k seats on, it is their own
                assert x[base + n + k] == pytest.approx(len(state.hand(other)) / 7)
                if k:
                    pips = state.pips()
                    assert x[base + 2 * n + k] == pytest.approx((pips[seat] - pips[other]) / 40)
            assert tiles[n + 1].sum() == state.played.bit_count()
            ahead = (state.to_move - seat) % n
            movers = x[base:base + n - 1]
            assert movers.sum() == (ahead < n - 1) and (ahead == n - 1 or movers[ahead] == 1)
            assert x[base + 2 * n] == pytest.approx(state.boneyard_size / 14)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_the_kernel_evaluates_the_network_as_numpy_does(preset: str, players: int,
                                                         tmp_path: Path) -> None:
    net = ValueNet.fresh(16, np.random.default_rng(4), players)
    net.w["w3"] *= 20
    assert net.players == players
    states = [s for s in positions(preset, 4, 1, players)]
    rows = state_rows(states)
    spread = 0.0
    for seat in range(players):
        want = net(np.stack([features(s, seat) for s in states]))
        got = fast.net_values(rows, seat, net.w)
        assert np.abs(got - want).max() < 1e-5
        spread = max(spread, float(want.std()))
    assert spread > 0.02  # the check is not of a constant


def test_the_kernel_values_a_finished_hand_at_one_half_and_refuses_other_tables(
        random_net: Path) -> None:
    net = ValueNet.load(random_net)
    state = positions("classic", 1)[-1]
    state.play(HeuristicBot().choose(PlayerView.of(state, state.to_move), random.Random(1)))
    assert state.is_over
    assert fast.net_values(state_rows([state]), 0, net.w).tolist() == [0.5]
    three = HandState.new(Rules.from_preset("classic"), 3, random.Random(1))
    with pytest.raises(ValueError, match=f"take {FEATURES} features, the kernel computes "
                                         f"{net_features(3)} for 3 players"):
        fast.net_values(state_rows([three]), 0, net.w)
    with pytest.raises(ValueError, match="different numbers of players"):
        fast.net_values(state_rows([state, three]), 0, net.w)
    with pytest.raises(ValueError, match="seat 2 is not at a table of 2"):
        fast.net_values(state_rows([state]), 2, net.w)
    short = dict(net.w, w1=net.w["w1"][:-1])
    with pytest.raises(ValueError, match=f"take {FEATURES - 1} features"):
        fast.net_values(state_rows([state]), 0, short)
    with pytest.raises(ValueError, match=f"take {FEATURES - 1} features, expected {FEATURES} "
                                         r"\(2 players\)"):
        ValueNet(short)


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


@pytest.mark.parametrize("players", [3, 4])
def test_more_players_mix_a_network_of_their_table_only(players: int, tmp_path: Path) -> None:
    """At three and four players a world's value is the same mixture, with a network trained
    for that table; a network of another table size is not used (playouts alone)."""
    net = ValueNet.fresh(16, np.random.default_rng(5), players)
    net.w["w3"] *= 20
    path = tmp_path / f"net{players}.npz"
    net.save(str(path))
    views = [PlayerView.of(s, s.to_move) for s in positions("classic", 2, 3, players)
             if len(s.legal_move_ids()) > 1][:8]
    changed = 0
    def run(view: PlayerView, evaluation: str, mix: float) -> dict[int, list[float]]:
        bot = SageBot(Budget(iterations=30), early_stop=False, kernel=True,
                      evaluation=evaluation, mix=mix)
        return {m: s.wins for m, s in bot.search(view, random.Random(2)).stats.items()}

    for view in views:
        zero, one, half = (run(view, str(path), mix) for mix in (0.0, 1.0, 0.5))
        assert zero == run(view, "off", 0.5)
        for m, wins in half.items():
            mixed = [0.5 * a + 0.5 * b for a, b in zip(zero[m], one[m], strict=True)]
            assert wins == pytest.approx(mixed, abs=1e-12)
            changed += one[m] != pytest.approx(zero[m], abs=1e-9)
    assert changed
    two = tmp_path / "two.npz"
    ValueNet.fresh(4, np.random.default_rng(1)).save(str(two))
    assert SageBot(evaluation=str(two)).value_net(views[0]) is None
    assert SageBot(evaluation=str(path)).value_net(views[0]) is not None


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
    two = {p for p, n in SHIPPED if n == 2}
    assert two == set(PRESETS) - {"paluba"}  # paluba: no network that helped (docs)
    for preset, players in TABLES:
        net = shipped_net(Rules.from_preset(preset), players)
        if (preset, players) in SHIPPED:
            assert net is not None and net.players == players
            assert net.w["w1"].shape[0] == net_features(players)
        else:
            assert net is None
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
