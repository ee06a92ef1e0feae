"""benchmarks/variants.py: each variant is sage with exactly its one piece changed, and the
script runs the real arena with them."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from benchscripts import BENCHMARKS, load_benchmark
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.players import SageBot, heuristic
from matador.players.base import BotError, Budget
from matador.players.rollout import EPSILON as ROLLOUT_EPSILON

SCRIPT = BENCHMARKS / "variants.py"


def pieces(bot: SageBot) -> dict[str, object]:
    return {"endgame": bot.endgame, "early_stop": bot.early_stop, "epsilon": bot.epsilon,
            "kernel": bot.kernel, "budget": bot.budget, "playout": bot.playout,
            "endgame_all": bot.endgame_all}


def test_each_variant_changes_one_piece_of_sage() -> None:
    plain = pieces(SageBot(Budget(iterations=50)))
    changed: dict[str, dict[str, object]] = {
        "sage-e0": {"endgame": 0}, "sage-e12": {"endgame": 12},
        "sage-full": {"early_stop": False}, "sage-eps0": {"epsilon": 0.0},
        "sage-eps20": {"epsilon": 0.2}, "sage-tw": {}, "sage-g": {"playout": "greedy"},
        "sage-x": {"endgame_all": True},
        "sage-gx": {"playout": "greedy", "endgame_all": True, "epsilon": ROLLOUT_EPSILON}}
    variants = load_benchmark("variants").VARIANTS
    assert set(variants) == {*changed, "sage-cheater"}
    for kind, factory in variants.items():
        if kind == "sage-cheater":
            continue
        assert pieces(factory(Budget(iterations=50))) == {**plain, **changed[kind]}, kind


@pytest.mark.slow  # a subprocess with an arena: the whole run only
def test_the_script_runs_the_arena_with_its_variants() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "sage-e0:20it", "sage-full:20it", "--preset", "classic",
         "--players", "2", "--deals", "2", "--seed", "3", "--bootstrap", "0", "--jobs", "2"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "sage-e0:20it" in done.stdout and "sage-full:20it" in done.stdout
    # spawned workers know the variants too: before, every hand was forfeited ("unknown bot")
    assert "forfeited" not in done.stdout + done.stderr
    assert "played 4 hands (2 deals x 2 rotations x 1 table)" in done.stdout + done.stderr


def test_the_tuned_variant_swaps_the_weights_for_its_own_searches_only() -> None:
    module = load_benchmark("variants")
    before = {name: getattr(heuristic, name) for name in module.TUNED_4P}
    state = HandState.new(Rules.from_preset("classic"), 4, random.Random(7))
    while len(state.legal_move_ids()) == 1:
        state.push(state.legal_move_ids()[0])
    view = PlayerView.of(state, state.to_move)
    tuned = module.TunedSage(Budget(iterations=40))
    seen: list[dict[str, float]] = []

    def spy(*args: object, **kwargs: object) -> object:
        seen.append({name: getattr(heuristic, name) for name in module.TUNED_4P})
        return search(*args, **kwargs)

    search = tuned.search
    tuned.search = spy  # type: ignore[method-assign]
    first = tuned.choose(view, random.Random(1))
    assert seen == [module.TUNED_4P]  # the search ran with the tuned weights
    assert {name: getattr(heuristic, name) for name in module.TUNED_4P} == before  # restored
    assert module.TunedSage(Budget(iterations=40)).choose(view, random.Random(1)) == first


def test_the_sage_cheater_searches_the_true_hands_only() -> None:
    module = load_benchmark("variants")
    state = HandState.new(Rules.from_preset("classic"), 3, random.Random(11))
    while len(state.legal_move_ids()) == 1:
        state.push(state.legal_move_ids()[0])
    view = PlayerView.of(state, state.to_move)
    cheater = module.SageCheater(Budget(iterations=30))
    with pytest.raises(BotError, match="true state"):
        cheater.choose(view, random.Random(1))  # an honest caller cannot run it
    seen: list[HandState] = []
    worlds = cheater.inner.worlds

    def spy(*args: object) -> object:
        make = worlds(*args)

        def draw(rng: random.Random) -> HandState:
            world = make(rng)
            seen.append(world)
            return world
        return draw

    cheater.inner.worlds = spy  # type: ignore[method-assign]
    move = cheater.choose_with_truth(state, random.Random(1))
    assert move in state.legal_moves and len(seen) == 30
    assert all(w.hands == state.hands for w in seen)  # every hand known
    assert len({w._bone for w in seen}) > 1  # the boneyard order is not
    assert cheater.inner.truth is None  # the state is not kept after the move
