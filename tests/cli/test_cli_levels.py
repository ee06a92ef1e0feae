"""Strength levels take a budget like any bot spec (``strong:200ms``) in the arena, in
``matador engine`` and in ``matador play``; refusals offer only what the command accepts."""

from __future__ import annotations

from typing import Any

import pytest

from matador.players import LEVELS


def test_the_arena_plays_levels_with_budgets(matador: Any) -> None:
    done = matador("arena", "strong:8it", "normal:8it", "--preset", "classic", "--players",
                   "2", "--deals", "2", "--seed", "3", "--bootstrap", "0")
    assert done.returncode == 0, done.stderr
    assert "strong:8it" in done.stdout and "normal:8it" in done.stdout


def test_an_engine_serves_a_level_at_a_budget(matador: Any) -> None:
    done = matador("engine", "strong:200ms", stdin="mep\nquit\n")
    assert done.returncode == 0, done.stderr
    bot = LEVELS["strong"].partition(":")[0]
    assert f"id name matador {bot}:200ms" in done.stdout
    assert "option name Budget type spin default 200 " in done.stdout


def test_a_game_seats_a_level_at_a_budget(matador: Any) -> None:
    done = matador("play", "--no-save", "--no-menu", "--seat", "human", "--seat",
                   "strong:30it", "--seed", "1", "--lang", "en", stdin="")
    assert "Bot 1 (strong:30it)" in done.stdout
    assert "error" not in done.stderr


@pytest.mark.parametrize(("args", "stdin", "why"), [
    (["engine", "wizard:200ms"], "quit\n", "unknown bot 'wizard'"),
    (["play", "--no-save", "--no-menu", "--seat", "wizard"], "", "'wizard' is not a player"),
    (["play", "--no-save", "--no-menu", "--bots", "wizard"], "", "'wizard' is not a player"),
])
def test_refusals_offer_only_what_is_accepted(matador: Any, args: list[str], stdin: str,
                                              why: str) -> None:
    """An engine or a game never runs the cheater, so the list of bots leaves it out."""
    done = matador(*args, stdin=stdin)
    assert done.returncode == 2
    assert why in done.stderr
    assert "cheater" not in done.stderr
    for name in ("sage", "pimc", *LEVELS):
        assert name in done.stderr


def test_the_arena_offers_the_cheater(matador: Any) -> None:
    done = matador("arena", "wizard", "greedy", "--preset", "classic", "--players", "2")
    assert done.returncode == 2
    assert "unknown bot 'wizard'" in done.stderr and "cheater" in done.stderr
