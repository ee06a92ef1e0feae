"""What the protocol path loses and leaks: nothing.

* A deterministic bot served by ``matador engine`` plays exactly the games the
  same bot plays in-process, for the same seed (the arena sends the seat's
  seed as ``Seed``; the engine's generator then draws what the seat's would).
* Every line the arena sends an engine names only tiles its seat may know,
  and every view sent is exactly the true view of that seat.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from mep_pipe import engine_command

from matador.arena import ArenaResult, deal_rng, run_arena
from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import Deal, HandState
from matador.core.tiles import Tile
from matador.core.view import PlayerView
from matador.protocol.host import Transcript
from matador.table.players import EnginePlayer, Player, make_player

TILE = re.compile(r"\b\d-\d\b")


def outcomes(result: ArenaResult) -> list[tuple[Any, ...]]:
    """Every game's result, timings left out."""
    return [(g.table, g.deal, g.rotation, g.seats, g.leader, g.winner, g.scores, g.hands,
             g.points, g.moves, g.forfeit) for g in result.games]


def summary(result: ArenaResult) -> list[Any]:
    """The per-bot statistics in order, names and timings left out."""
    return [(b.games, b.score, b.ci95, b.elo, b.points_per_hand, b.moves, b.forfeits)
            for b in result.bots]


@pytest.mark.parametrize(("bot", "players", "deals", "match"), [
    pytest.param("pimc:12it", 2, 3, False, marks=pytest.mark.slow),  # searches: seconds
    pytest.param("random", 3, 4, False, marks=pytest.mark.slow),  # the 2-seat cases suffice
    pytest.param("ismcts:40it", 2, 2, False, marks=pytest.mark.slow),
    ("random", 2, 1, True),  # a whole match: the generator runs on across hands
])
def test_engine_and_in_process_bot_play_the_same_games(bot: str, players: int, deals: int,
                                                       match: bool) -> None:
    engine = f"engine:{engine_command(bot)}"
    args: dict[str, Any] = {"players": players, "deals": deals, "seed": 1, "match": match,
                            "factory": make_player, "bootstrap": 10}
    in_process = run_arena([bot, "greedy"], **args)
    served = run_arena([engine, "greedy"], **args)
    assert not served.forfeits
    assert outcomes(served) == outcomes(in_process)
    assert summary(served) == summary(in_process)
    assert served.first_seat_score == in_process.first_seat_score


@pytest.mark.slow  # engine subprocesses: the whole run only
def test_the_seed_matters_so_the_comparison_means_something() -> None:
    """An engine that ignores the arena's seed plays other games: equality is no accident."""
    class Unseeded(EnginePlayer):
        def start_game(self, seat: int, rules: Rules, players: int, seed: int) -> None:
            super().start_game(seat, rules, players, 12345)

    def factory(spec: str) -> Player:
        return Unseeded(engine_command("random")) if spec == "unseeded" else \
            make_player(spec)

    args: dict[str, Any] = {"players": 2, "deals": 4, "seed": 17, "bootstrap": 0}
    in_process = run_arena(["random", "greedy"], **args)
    unseeded = run_arena(["unseeded", "greedy"], factory=factory, **args)
    assert outcomes(unseeded) != outcomes(in_process)


# -- information safety ------------------------------------------------------------------------


def record_everything(transcripts: list[tuple[str, Transcript]]) -> Any:
    """A factory that puts every engine under a transcript."""
    def factory(spec: str) -> Player:
        command = spec.removeprefix("engine:")
        transcript = Transcript()
        transcripts.append((spec, transcript))
        return EnginePlayer(command, name=spec, transcript=transcript)
    return factory


def true_views(rules: Rules, players: int, seed: int, deals: int,
               view: dict[str, Any]) -> list[dict[str, Any]]:
    """The true views of ``view``'s seat in the arena's deals where it holds that hand."""
    seat = view["seat"]
    hand = sorted(Tile.parse(t) for t in view["hand"])
    truths = []
    for d in range(deals):
        deal = Deal.random(rules, players, deal_rng(seed, d))
        if sorted(deal.hands[seat]) != hand or deal.leader != view["leader"]:
            continue
        state = HandState(rules, deal)
        for text in view["moves"]:
            state.play(Move.DRAW if text.startswith("draw ") else Move.parse(text))
        truths.append(PlayerView.of(state, seat).to_json())
    assert truths, "every view's hand is that of one of the arena's deals"
    return truths


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "bots"), [
    ("classic", 3, ["greedy", "random", "pimc:5it"]),
    ("paluba", 2, ["greedy", "random"]),   # three tiles set aside, never seen by anyone
    ("russian", 4, ["heuristic", "random"]),  # draw one, passes
])
def test_no_line_sent_to_an_engine_names_a_tile_its_seat_cannot_know(
        preset: str, players: int, bots: list[str]) -> None:
    rules = Rules.from_preset(preset)
    seed, deals = 5, 3
    transcripts: list[tuple[str, Transcript]] = []
    specs = [f"engine:{engine_command(b)}" for b in bots]
    result = run_arena(specs, preset=preset, players=players, deals=deals, seed=seed,
                       factory=record_everything(transcripts), bootstrap=0)
    assert not result.forfeits
    positions = 0
    draws_named = 0
    for _spec, transcript in transcripts:
        seats_this_hand: set[int] = set()
        for line in transcript.sent():
            command, _, rest = line.partition(" ")
            if command == "newhand":
                seats_this_hand = set()
            if command != "position":
                assert not TILE.search(line), line  # only a view ever names a tile
                continue
            positions += 1
            view = json.loads(rest)
            seats_this_hand.add(view["seat"])
            assert len(seats_this_hand) == 1  # one process, one seat of a hand
            # exactly the seat's true view, no more, no less
            assert view in true_views(rules, players, seed, deals, view)
            # Tile by tile: the dealt hand, the seat's own draws, and tiles on the line.
            state_known = set(view["hand"])
            for text in view["moves"]:
                if text.startswith("draw "):
                    draws_named += 1
                    state_known.add(text.removeprefix("draw "))
                elif text not in ("draw", "pass"):
                    tile = Move.parse(text).tile
                    assert tile is not None
                    state_known.add(str(tile))
            named = {str(Tile.parse(t)) for t in TILE.findall(rest)}
            assert named <= state_known, named - state_known
    assert positions >= sum(b.moves for b in result.bots)
    assert draws_named > 0 or preset == "paluba"
