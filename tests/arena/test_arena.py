"""The arena: duplicate scoring, round robins, reproducibility, the referee and its forfeits."""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from random import Random
from typing import Any, ClassVar

import pytest

from matador.arena import (
    ArenaError,
    ArenaForfeit,
    ArenaResult,
    entries_of,
    plot_ladder,
    run_arena,
    tables_of,
)
from matador.core.moves import MOVES, Move
from matador.core.rules import Rules
from matador.core.state import HandState, Seat
from matador.core.view import PlayerView
from matador.players import bot_kinds
from matador.players.base import Bot, BotError, OracleBot
from matador.table.players import BotPlayer, Player, PlayerError, make_player

REQUIRED_KEYS = {"preset", "players", "deals", "games", "bots", "score", "ci95",
                 "first_seat_score", "ms_per_move"}
TIMING_KEYS = {"ms_per_move", "seconds"}


def without_timing(result: ArenaResult) -> dict[str, Any]:
    data = result.to_json()
    for key in TIMING_KEYS:
        del data[key]
    return data


# -- setup -----------------------------------------------------------------------------


def test_entries_are_named_as_given_and_repeats_numbered() -> None:
    assert [e.name for e in entries_of(["greedy", "greedy"])] == ["greedy#1", "greedy#2"]
    assert [(e.name, e.spec) for e in entries_of(["pimc:50it", " random "])] == [
        ("pimc:50it", "pimc:50it"), ("random", "random")]


def test_tables_fill_with_the_last_bot_or_go_round_robin() -> None:
    assert tables_of(2, 2) == [(0, 1)]
    assert tables_of(2, 4) == [(0, 1, 1, 1)]
    assert tables_of(3, 4) == [(0, 1, 2, 2)]
    assert tables_of(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert len(tables_of(5, 4)) == 5
    assert len(tables_of(4, 3)) == 4


def test_bad_setups_are_refused() -> None:
    with pytest.raises(ArenaError, match="two bots"):
        run_arena(["greedy"], deals=1)
    with pytest.raises(ArenaError, match="players"):
        run_arena(["greedy", "random"], players=5, deals=1)
    with pytest.raises(ArenaError, match="deals"):
        run_arena(["greedy", "random"], deals=0)
    with pytest.raises(ArenaError, match="jobs"):
        run_arena(["greedy", "random"], deals=1, jobs=0)
    with pytest.raises(BotError, match="'nosuchbot'"):
        run_arena(["greedy", "nosuchbot"], deals=1)


# -- scores ------------------------------------------------------------------------------


@pytest.mark.slow  # three copies scoring a third stay in the fast lane
def test_a_bot_against_itself_scores_exactly_half() -> None:
    # Common random numbers: each seat's generator depends on the deal and the seat only,
    # so the two rotations of a deal replay the same game with the bots swapped.
    result = run_arena(["random", "random"], players=2, deals=400, seed=3, bootstrap=0)
    assert result.names == ["random#1", "random#2"]
    for b in result.bots:
        assert b.games == 800
        assert b.score == 0.5
        assert b.ci95[0] < 0.5 < b.ci95[1]
        assert b.elo == pytest.approx(1000)


def test_three_copies_of_a_bot_score_a_third_each() -> None:
    result = run_arena(["greedy", "greedy", "greedy"], players=3, deals=40, seed=4,
                       bootstrap=0)
    assert result.tables == ((0, 1, 2),)
    for b in result.bots:
        assert b.score == pytest.approx(1 / 3, abs=1e-12)


@pytest.mark.slow  # statistical: seconds
def test_greedy_beats_random() -> None:
    result = run_arena(["greedy", "random"], players=2, deals=300, seed=1, bootstrap=0)
    greedy, rand = result.bot("greedy"), result.bot("random")
    assert greedy.ci95[0] > 0.5
    assert greedy.score + rand.score == 1.0  # two players, no forfeit: each game gives out 1
    assert greedy.elo == 1000 and rand.elo < 1000
    assert greedy.points_per_hand > rand.points_per_hand


def test_first_seat_and_positions() -> None:
    result = run_arena(["heuristic", "random"], players=2, deals=100, seed=2, bootstrap=0)
    assert result.first_seat_score == result.position_score[0]
    assert result.position_score[0] + result.position_score[1] == 1.0
    assert sum(result.seat_score) == pytest.approx(1.0)
    lo, hi = result.first_seat_ci95
    assert lo <= result.first_seat_score <= hi
    for g in result.games:
        assert g.scores[g.leader] == (1.0 if g.winner == g.leader else
                                      0.0 if g.winner is not None else 0.5)


def test_one_bot_against_three_copies() -> None:
    result = run_arena(["heuristic", "random"], players=4, preset="six", deals=30, seed=5,
                       bootstrap=50)
    assert result.tables == ((0, 1, 1, 1),)
    assert len(result.games) == 120
    h, r = result.bot("heuristic"), result.bot("random")
    assert h.games == r.games == 120
    # an entry's score is its mean per seat, so the baseline is 1/4 for both
    assert h.score + 3 * r.score == pytest.approx(1.0)
    for g in result.games:
        assert sorted(g.seats) == [0, 1, 1, 1]
    # the heuristic bot sits once in each seat of each deal
    seats = defaultdict(set)
    for g in result.games:
        seats[g.deal].add(g.seats.index(0))
    assert all(s == {0, 1, 2, 3} for s in seats.values())


def test_round_robin_counts() -> None:
    result = run_arena(["heuristic", "greedy", "random"], players=2, deals=15, seed=6,
                       bootstrap=20)
    assert result.tables == ((0, 1), (0, 2), (1, 2))
    assert len(result.games) == 3 * 15 * 2
    assert all(b.games == 2 * 15 * 2 for b in result.bots)
    data = result.to_json()
    assert data["games"] == 90 and data["deals"] == 15
    assert data["tables"] == [["heuristic", "greedy"], ["heuristic", "random"],
                              ["greedy", "random"]]
    assert sum(data["score"].values()) == pytest.approx(1.5)  # 3 tables, 1 per game, 2 each
    for b in result.bots:
        assert b.elo_ci95 is not None and b.elo_ci95[0] <= b.elo <= b.elo_ci95[1]


def test_json_report() -> None:
    result = run_arena(["greedy", "random"], players=2, deals=5, seed=7,
                       overrides={"draw": "one"})
    data = result.to_json()
    assert set(data) >= REQUIRED_KEYS
    assert data["preset"] == "classic" and data["players"] == 2 and data["games"] == 10
    assert data["bots"] == ["greedy", "random"]
    assert set(data["score"]) == set(data["ci95"]) == set(data["ms_per_move"]) == {
        "greedy", "random"}
    assert data["rules"] == {"preset": "classic", "overrides": {"draw": "one"}}
    assert data["seed"] == 7 and data["mode"] == "hand"
    assert len(data["seat_score"]) == 2 and data["forfeits"] == {"greedy": 0, "random": 0}
    assert all(v >= 0 for v in data["ms_per_move"].values())


# -- reproducibility ------------------------------------------------------------------------


@pytest.mark.slow  # worker processes: the whole run only
def test_same_seed_same_results_and_jobs_change_nothing() -> None:
    args: dict[str, Any] = {"players": 2, "deals": 24, "seed": 11, "bootstrap": 30}
    bots = ["heuristic", "greedy", "random"]
    one = run_arena(bots, **args)
    assert without_timing(one) == without_timing(run_arena(bots, **args))
    two = run_arena(bots, jobs=2, **args)
    assert without_timing(one) == without_timing(two)
    assert [(g.table, g.deal, g.rotation, g.scores, g.points) for g in one.games] == \
        [(g.table, g.deal, g.rotation, g.scores, g.points) for g in two.games]
    other = run_arena(bots, **{**args, "seed": 12})
    assert without_timing(other) != without_timing(one)


def test_progress_reaches_the_total() -> None:
    calls: list[tuple[int, int]] = []
    run_arena(["greedy", "random"], deals=3, seed=1, bootstrap=0,
              progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (6, 6)
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)


# -- the referee: duplicate deals and views ----------------------------------------------------


class Recorder(Player):
    """Plays the first legal move and records what it was shown."""

    log: list[tuple[Any, ...]]

    def __init__(self, spec: str, log: list[tuple[Any, ...]]) -> None:
        self.name = spec
        self.log = log
        self.game: tuple[Seat, int] = (-1, 0)

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        self.game = (seat, seed)

    def move(self, view: PlayerView, rng: Random) -> Move:
        assert isinstance(view, PlayerView)
        self.log.append((self.name, self.game[0], view.seat, view.dealt, view.leader,
                         view.leader_by_rule, view.scores, len(view.moves)))
        return MOVES[view.legal_move_ids()[0]]


def test_every_rotation_plays_the_same_deal_and_views_are_own_seat() -> None:
    log: list[tuple[Any, ...]] = []

    def factory(spec: str) -> Player:
        return Recorder(spec, log)

    result = run_arena(["a", "b", "c"], players=3, deals=4, seed=8, factory=factory,
                       bootstrap=0)
    assert not result.forfeits and len(result.games) == 12
    names: dict[tuple[Seat, Any], set[str]] = defaultdict(set)
    for name, seat, view_seat, hand, _leader, by_rule, scores, _ in log:
        assert seat == view_seat  # a contestant only ever sees its own seat's view
        assert by_rule is True and scores is None
        names[seat, hand].add(name)
    # 4 deals x 3 seats: each hand is dealt to its seat in all three rotations
    assert len(names) == 12
    assert all(n == {"a", "b", "c"} for n in names.values())


def test_match_mode_passes_scores_and_leader_to_later_hands() -> None:
    log: list[tuple[Any, ...]] = []

    def factory(spec: str) -> Player:
        return Recorder(spec, log)

    result = run_arena(["a", "b"], players=2, deals=3, seed=9, match=True, factory=factory,
                       bootstrap=0)
    assert result.match and result.to_json()["mode"] == "match"
    assert any(g.hands > 1 for g in result.games)
    first = [e for e in log if e[6] == (0, 0)]
    later = [e for e in log if e[6] != (0, 0)]
    assert first and later
    assert all(e[5] is True for e in first)
    assert all(e[5] is False for e in later)
    for g in result.games:
        assert g.winner is not None
        assert max(g.points) >= 100 and g.points[g.winner] == max(g.points)
        assert g.scores[g.winner] == 1.0


def test_match_hands_are_the_same_deals_in_every_rotation() -> None:
    log: list[tuple[Any, ...]] = []

    def factory(spec: str) -> Player:
        return Recorder(spec, log)

    result = run_arena(["a", "b"], players=2, deals=2, seed=10, match=True, factory=factory,
                       bootstrap=0)
    # Both bots play the same policy, so both rotations replay the same match: every hand
    # of it is dealt to the same seat in both rotations, once to each bot.
    seen: dict[Any, set[str]] = defaultdict(set)
    for name, seat, _, hand, _, _, _, _ in log:
        seen[seat, hand].add(name)
    assert len(seen) == sum(g.hands for g in result.games)  # 2 seats x hands / 2 rotations
    assert all(names == {"a", "b"} for names in seen.values())


def test_unfinished_match_has_no_winner() -> None:
    no_points = {"hand_points": "none", "per_join": 0, "per_matador": 0,
                 "exposed_target_bonus": 0, "pass_penalty": 0}
    result = run_arena(["greedy", "random"], overrides=no_points, deals=2, seed=1, match=True,
                       bootstrap=0, max_hands=3)
    assert all(g.hands == 3 and g.winner is None and g.scores == (0.5, 0.5)
               for g in result.games)


# -- forfeits ---------------------------------------------------------------------------------


class Faulty(Player):
    """Plays properly until its ``after``-th move, then does ``how``."""

    def __init__(self, how: str, after: int = 0) -> None:
        self.name = how
        self.how = how
        self.after = after
        self.count = 0

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        if self.how == "start":
            raise OSError("engine not found")
        self.count = 0

    def move(self, view: PlayerView, rng: Random) -> Move:
        self.count += 1
        legal = view.legal_move_ids()
        if self.count <= self.after:
            return MOVES[legal[0]]
        if self.how == "raise":
            raise RuntimeError("boom")
        if self.how == "illegal":
            return next(m for m in MOVES if m not in legal)
        if self.how == "garbage":
            return "L1-2"  # type: ignore[return-value]
        if self.how == "none":
            return None  # type: ignore[return-value]
        if self.how == "slow":
            time.sleep(0.03)
            return MOVES[legal[0]]
        if self.how == "hang":
            raise PlayerError("no answer within 10 s", "timeout")
        raise AssertionError(self.how)


def faulty_factory(spec: str) -> Player:
    if spec.startswith("faulty-"):
        how, _, after = spec[len("faulty-"):].partition("@")
        return Faulty(how, int(after or 0))
    if spec == "cannot-build":
        raise RuntimeError("no such engine")
    return make_player(spec)


@pytest.mark.parametrize(("how", "kind", "words"), [
    ("raise", "error", "RuntimeError: boom"),
    ("illegal", "illegal", "is illegal"),
    ("garbage", "invalid", "'L1-2', not a Move"),
    ("none", "invalid", "None, not a Move"),
    ("slow", "timeout", "over the limit"),
    ("hang", "timeout", "no answer"),
    ("start", "start", "OSError: engine not found"),
])
def test_a_faulty_contestant_forfeits_without_crashing(how: str, kind: str,
                                                       words: str) -> None:
    spec = f"faulty-{how}@1"
    result = run_arena([spec, "greedy"], players=2, deals=6, seed=3, factory=faulty_factory,
                       move_timeout=0.02, bootstrap=0)
    bad, good = result.bot(spec), result.bot("greedy")
    forfeits = result.forfeits
    assert forfeits and all(isinstance(f, ArenaForfeit) for f in forfeits)
    assert all(f.bot == spec and f.kind == kind and words in f.message for f in forfeits)
    assert bad.forfeits == len(forfeits) and good.forfeits == 0
    for g in result.games:
        if g.forfeit is not None:
            s = g.forfeit.seat
            assert g.seats[s] == 0 and g.scores[s] == 0.0 and g.scores[1 - s] == 1.0
            assert g.winner is None
    if how == "start":
        assert len(forfeits) == len(result.games) == 12 and bad.score == 0.0
        assert all(f.ply == 0 for f in forfeits)
    assert "forfeited deal" in str(forfeits[0])
    assert result.to_json()["forfeit_log"][0]["kind"] == kind


def test_forfeit_in_a_three_player_game_shares_the_point() -> None:
    result = run_arena(["faulty-raise", "greedy", "random"], players=3, deals=3, seed=2,
                       factory=faulty_factory, bootstrap=0)
    assert len(result.forfeits) == len(result.games) == 9
    for g in result.games:
        s = g.forfeit.seat if g.forfeit else -1
        assert g.scores == tuple(0.0 if t == s else 0.5 for t in range(3))
    assert result.bot("faulty-raise").score == 0.0
    assert result.bot("greedy").score == result.bot("random").score == 0.5


def test_a_factory_failing_in_the_worker_forfeits(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def factory(spec: str) -> Player:
        built.append(spec)
        if spec == "flaky" and built.count("flaky") > 1:  # fine when checked, broken later
            raise RuntimeError("no such engine")
        return Faulty("never") if spec == "flaky" else make_player(spec)

    result = run_arena(["flaky", "greedy"], deals=2, seed=1, factory=factory, bootstrap=0)
    assert len(result.forfeits) == 4
    assert all(f.kind == "start" and "no such engine" in f.message for f in result.forfeits)


# -- the oracle ---------------------------------------------------------------------------------


class SpyBot(Bot):
    kind = "spy"
    seen: ClassVar[list[type]] = []

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        SpyBot.seen.append(type(view))
        return legal[0]


class SpyOracle(OracleBot):
    kind = "spy-oracle"
    truths: ClassVar[list[tuple[bool, bool]]] = []

    def _choose_truth(self, state: HandState, view: PlayerView, legal: tuple[int, ...],
                      rng: Random) -> int:
        others = [state.hand(s) for s in range(state.players) if s != view.seat]
        SpyOracle.truths.append((sorted(state.hand(view.seat)) == sorted(view.hand),
                                 any(others)))
        choice = legal[-1]
        state.push(legal[0])  # tampering with what it was given must not touch the game
        return choice


def test_only_an_oracle_gets_the_true_state_and_only_a_copy() -> None:
    SpyBot.seen.clear()
    SpyOracle.truths.clear()
    bots = {"spy": SpyBot, "oracle": SpyOracle}

    def factory(spec: str) -> Player:
        return BotPlayer(spec, make=lambda s: bots[s]())

    result = run_arena(["oracle", "spy"], deals=10, seed=4, factory=factory, bootstrap=0)
    assert not result.forfeits
    assert SpyBot.seen and set(SpyBot.seen) == {PlayerView}
    assert SpyOracle.truths and all(own and others for own, others in SpyOracle.truths)
    assert factory("oracle").sees_truth and not factory("spy").sees_truth


@pytest.mark.slow  # searches on three deals: seconds
def test_the_registered_cheater_plays_through_the_oracle_path() -> None:
    assert "cheater" in bot_kinds()
    assert make_player("cheater:10it").sees_truth
    result = run_arena(["cheater:10it", "random"], deals=3, seed=1, bootstrap=0)
    assert not result.forfeits


# -- the plot --------------------------------------------------------------------------------------


@pytest.mark.parametrize("bots", [["greedy", "random"], ["heuristic", "greedy", "random"]])
def test_plot_writes_an_image(tmp_path: Path, bots: list[str]) -> None:
    pytest.importorskip("matplotlib")
    result = run_arena(bots, deals=4, seed=1, bootstrap=20)
    path = tmp_path / "ladder.png"
    plot_ladder(result, path)
    assert path.read_bytes().startswith(b"\x89PNG")
