"""One arena game, and a task of games: seeding, seating, and the referee's report as a result.

A game is one table, one deal, one seat rotation; it is refereed by a
:class:`~matador.table.referee.Table` driven by
:func:`~matador.table.drive.play_game`. Everything about it is a function of
the experiment's seed (:func:`derive_seed`), so that where and in which order
games are played (one process, worker processes, a Ray cluster) changes
nothing but timings.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from matador.core.errors import MatadorError
from matador.core.moves import Move
from matador.core.rules import Rules
from matador.core.state import Deal, Seat
from matador.core.view import PlayerView
from matador.table.drive import play_game
from matador.table.players import Player, PlayerError, make_player
from matador.table.referee import Table

MAX_MATCH_HANDS = 500
"""A match still undecided after this many hands ends without a winner (1/N each)."""


class ArenaError(MatadorError):
    """A bad arena setup: too few bots, no deals, a bad job count."""


PlayerFactory = Callable[[str], Player]
"""Builds a player from a spec; picklable (a module-level function) when games run in
other processes."""


@dataclass(frozen=True)
class ArenaForfeit:
    """A game lost by a player's fault; the arena carried on."""

    bot: str
    """The entry that forfeited."""
    table: int
    deal: int
    rotation: int
    seat: Seat
    hand: int
    """The hand of the game (1 unless ``match``)."""
    ply: int
    """Moves played in that hand before the fault."""
    kind: str
    """``illegal`` (refused by the rules), ``invalid`` (not a Move), ``error`` (an
    exception), ``timeout``, ``start``, or a :class:`~matador.table.players.PlayerError`'s
    kind."""
    message: str

    def __str__(self) -> str:
        return (f"{self.bot} forfeited deal {self.deal} (table {self.table}, rotation "
                f"{self.rotation}, seat {self.seat}, hand {self.hand}, ply {self.ply}): "
                f"{self.kind}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        """A JSON object with every field."""
        return {"bot": self.bot, "table": self.table, "deal": self.deal,
                "rotation": self.rotation, "seat": self.seat, "hand": self.hand,
                "ply": self.ply, "kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class GameResult:
    """One game (a hand, or a match) of one table in one seat rotation."""

    table: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    """The entry (index into the entries) at each seat."""
    leader: Seat
    """The seat that led the (first) hand."""
    winner: Seat | None
    """The winning seat; ``None`` without a winner or after a forfeit."""
    scores: tuple[float, ...]
    """Each seat's score for the game (1, 0, 1/N or 1/(N-1) after a forfeit)."""
    hands: int
    """Hands completed (a forfeited hand is not)."""
    points: tuple[int, ...]
    """Points per seat over the completed hands (R21 + R22)."""
    moves: tuple[int, ...]
    """Moves each seat made, forced ones included (a bot answers those at once)."""
    seconds: tuple[float, ...]
    """Wall time each seat spent inside :meth:`~matador.table.players.Player.move`."""
    forfeit: ArenaForfeit | None = None


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed derived from ``seed`` and ``parts`` (stable across processes and runs).

    >>> derive_seed(1, "deal", 3, 0) == derive_seed(1, "deal", 3, 0) != derive_seed(1, "deal", 4, 0)
    True
    """
    text = repr((seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def deal_rng(seed: int, deal: int, hand: int = 1) -> Random:
    """The generator that shuffles hand ``hand`` of deal ``deal`` (the same at every table)."""
    return Random(derive_seed(seed, "deal", deal, hand))


def seat_rng(seed: int, deal: int, seat: Seat) -> Random:
    """The generator handed to whoever sits at ``seat`` on deal ``deal`` (common random numbers)."""
    return Random(derive_seed(seed, "seat", deal, seat))


@dataclass(frozen=True)
class Task:
    """A chunk of work: some deals of one table, every rotation of each. Picklable."""

    rules: Rules
    players: int
    table: int
    seats: tuple[int, ...]
    """The entry at each seat in rotation 0."""
    names: tuple[str, ...]
    """The names of all entries."""
    specs: tuple[str, ...]
    """The spec of the player at each seat in rotation 0."""
    deals: tuple[int, ...]
    seed: int
    match: bool
    move_timeout: float | None
    factory: PlayerFactory
    max_hands: int = MAX_MATCH_HANDS


class BrokenPlayer(Player):
    """Stands for a player whose factory failed in a worker: forfeits every game."""

    def __init__(self, spec: str, error: BaseException) -> None:
        self.name = spec
        self.error = f"could not start: {type(error).__name__}: {error}"

    def start_game(self, seat: Seat, rules: Rules, players: int, seed: int) -> None:
        """Fail: the player never started."""
        raise PlayerError(self.error, "start")

    def move(self, view: PlayerView, rng: Random) -> Move:
        """Fail: the player never started."""
        raise PlayerError(self.error, "start")


def play_one(task: Task, players: list[Player], deal: int, rotation: int) -> GameResult:
    """Play deal ``deal`` of ``task`` in seat rotation ``rotation``; never raises for a
    player's fault. ``players`` are the task's players in rotation-0 seat order."""
    n = task.players
    slots = [(s - rotation) % n for s in range(n)]
    seats = tuple(task.seats[i] for i in slots)
    table = Table(task.rules, n, single_hand=not task.match,
                  max_hands=task.max_hands if task.match else None)
    report = play_game(
        table, [players[i] for i in slots],
        deal_rng=lambda hand: deal_rng(task.seed, deal, hand),
        rngs=[seat_rng(task.seed, deal, s) for s in range(n)],
        seeds=[derive_seed(task.seed, "seat", deal, s) for s in range(n)],
        move_timeout=task.move_timeout)
    leader = report.leader
    if leader < 0:  # forfeited before the deal: the leader is the deal's
        leader = Deal.random(task.rules, n, deal_rng(task.seed, deal)).leader
    forfeit = None
    if report.fault is not None:
        f = report.fault
        forfeit = ArenaForfeit(task.names[seats[f.seat]], task.table, deal, rotation, f.seat,
                               f.hand, f.ply, f.kind, f.message)
        scores = tuple(0.0 if t == f.seat else 1 / (n - 1) for t in range(n))
    elif report.winner is not None:
        scores = tuple(1.0 if s == report.winner else 0.0 for s in range(n))
    else:
        scores = (1 / n,) * n
    return GameResult(task.table, deal, rotation, seats, leader, report.winner, scores,
                      report.hands, tuple(report.points), tuple(report.moves),
                      tuple(report.seconds), forfeit)


def play_task(task: Task, on_game: Callable[[], None] | None = None) -> list[GameResult]:
    """Play every rotation of every deal of ``task``: the unit of work sent to a worker."""
    players: list[Player] = []
    for spec in task.specs:
        try:
            players.append(task.factory(spec))
        except Exception as e:
            players.append(BrokenPlayer(spec, e))
    results = []
    try:
        for deal in task.deals:
            for rotation in range(task.players):
                results.append(play_one(task, players, deal, rotation))
                if on_game is not None:
                    on_game()
    finally:
        for p in players:
            with contextlib.suppress(Exception):  # failing to close is not a forfeit
                p.close()
    return results


__all__ = ["MAX_MATCH_HANDS", "ArenaError", "ArenaForfeit", "BrokenPlayer", "GameResult",
           "PlayerFactory", "Task", "deal_rng", "derive_seed", "make_player", "play_one",
           "play_task", "seat_rng"]
