"""Small things a newcomer stumbles on in the command line's wording (issue 9, item 15)."""

from __future__ import annotations

from typing import Any


def test_arena_help_writes_percent_once(matador: Any) -> None:
    done = matador("arena", "--help")
    assert "95% interval" in done.stdout and "%%" not in done.stdout


def test_one_deal_one_hand_one_table(matador: Any) -> None:
    arena = matador("arena", "greedy", "random", "--preset", "classic", "--players", "2",
                    "--deals", "1", "--seed", "1", "--bootstrap", "0")
    assert arena.returncode == 0, arena.stderr
    assert "classic, 2 players, 1 deal, 2 hands, seed 1" in arena.stdout
    assert "(1 deal x 2 rotations x 1 table) in " in arena.stderr
    assert " with 1 job, seed 1" in arena.stderr
    simulate = matador("simulate", "--preset", "classic", "--players", "2", "--hands", "1",
                       "--seed", "1")
    assert simulate.stderr.startswith("simulated 1 hand, ")


def test_a_seat_that_is_no_player_lists_those_that_may_sit(matador: Any) -> None:
    done = matador("play", "--seat", "robot", "--no-menu")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: --seat: 'robot' is not a player: human, ")
    assert "cheater" not in done.stderr and "pimc" in done.stderr
    refused = matador("play", "--seat", "cheater", "--no-menu")
    assert "never an opponent" in refused.stderr
