"""The arena: bots and engines play duplicate deals against each other, and are scored.

Every game is refereed by a :class:`~matador.table.referee.Table` driven by
:func:`~matador.table.drive.play_game`: the table deals, keeps the true
state, gives each seat's :class:`~matador.table.players.Player` only that
seat's view, and checks every move. A player that raises, returns something
that is not a :class:`~matador.core.moves.Move`, plays an illegal move or
overruns the move time limit forfeits the game (see :class:`ArenaForfeit`);
the arena itself never crashes on a player's fault.

Design of an experiment (:func:`run_arena`):

* **Entries.** Each bot spec given is one entry, named as given; a spec given
  twice gives two entries, ``greedy#1`` and ``greedy#2``.
* **Tables.** With no more entries than seats the entries fill the seats in
  order, the last one repeated (``pimc greedy`` at four seats is pimc against
  three greedy bots). With more entries than seats every combination of
  ``players`` distinct entries gets a table (round robin).
* **Duplicate deals.** Deal ``d`` is the same shuffle (boneyard order included)
  for every table, and each table plays it in every cyclic seat rotation, so
  each entry sits once in each seat, the leader's included.
* **Common random numbers.** The generator handed to seat ``s`` on deal ``d``
  depends on ``(seed, d, s)`` only, not on who sits there. Two copies of the
  same bot therefore replay the same game in each rotation, and their mean
  scores are exactly equal.
* **Scores.** A game is one hand, or with ``match=True`` one whole match
  (R23). The winner of a game scores 1, the losers 0; a game without a
  winner gives each of the N seats 1/N; a forfeit gives the forfeiting seat
  0 and every other seat 1/(N-1). An entry's score in a game is the mean
  over the seats it holds, so every entry's baseline is 1/N.

Everything is reproducible from ``seed``: deal ``d`` of hand ``h`` is
shuffled by a generator seeded from ``(seed, d, h)``, results are gathered
in a fixed order, so ``jobs`` and scheduling change nothing but timings
(with iteration budgets; time budgets are not deterministic).

>>> result = run_arena(["heuristic", "random"], preset="classic", players=2, deals=20, seed=1)
>>> len(result.games), result.names
(40, ['heuristic', 'random'])
>>> result.bot("heuristic").score + result.bot("random").score   # each game gives out 1
1.0
"""

from __future__ import annotations

import itertools
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from matador.arena.backend import Backend
from matador.arena.game import (
    MAX_MATCH_HANDS,
    ArenaError,
    ArenaForfeit,
    GameResult,
    PlayerFactory,
    Task,
    derive_seed,
)
from matador.arena.runner import chunks, run_tasks
from matador.arena.stats import bootstrap_elo, bradley_terry, elo, wilson
from matador.core.errors import MatadorError
from matador.core.rules import Rules
from matador.table.players import make_player


@dataclass(frozen=True)
class Entry:
    """One bot (or engine) of the experiment."""

    name: str
    """Its name in the results: the spec as given, ``#k`` added when a spec repeats."""
    spec: str
    """What the factory builds it from."""


# -- the experiment ----------------------------------------------------------------


@dataclass(frozen=True)
class BotStats:
    """How one entry did."""

    name: str
    spec: str
    games: int
    """Games it played (each counted once however many seats it held)."""
    score: float
    """Mean score per game and seat: 1 a win, 0 a loss, 1/N a game without winner."""
    ci95: tuple[float, float]
    """The 95% Wilson interval of ``score`` with n = ``games``. The duplicate games of
    a deal are correlated, so the interval is approximate (usually conservative)."""
    elo: float
    """The Bradley-Terry rating on the Elo scale, the first entry at 1000."""
    elo_ci95: tuple[float, float] | None
    """A 95% bootstrap interval of ``elo``, resampling deals (``None`` without a bootstrap)."""
    points_per_hand: float
    """Mean points (R21 + R22) per completed hand and seat."""
    ms_per_move: float
    """Mean wall time per move inside the contestant, in milliseconds."""
    moves: int
    forfeits: int


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of :func:`run_arena`: per-bot statistics and every game."""

    rules: Rules
    players: int
    deals: int
    seed: int
    match: bool
    bots: tuple[BotStats, ...]
    """One per entry, in the order given."""
    tables: tuple[tuple[int, ...], ...]
    """The entries at each table, in seat order of rotation 0."""
    games: tuple[GameResult, ...] = field(repr=False)
    """Every game, sorted by table, deal and rotation."""
    first_seat_score: float
    """Mean score of the seat that led the (first) hand."""
    first_seat_ci95: tuple[float, float]
    seat_score: tuple[float, ...]
    """Mean score by seat number."""
    position_score: tuple[float, ...]
    """Mean score by turn order: 0 is the leader, 1 the seat after it..."""
    forfeits: tuple[ArenaForfeit, ...]
    seconds: float
    """Wall time of the whole run."""

    @property
    def preset(self) -> str:
        """The preset the rules start from."""
        return self.rules.preset

    @property
    def names(self) -> list[str]:
        """The entries' names, in order."""
        return [b.name for b in self.bots]

    def bot(self, name: str) -> BotStats:
        """The statistics of the entry called ``name``."""
        for b in self.bots:
            if b.name == name:
                return b
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` report; ``ms_per_move`` and ``seconds`` are the only timing fields."""
        return {
            "preset": self.preset,
            "players": self.players,
            "deals": self.deals,
            "games": len(self.games),
            "bots": self.names,
            "score": {b.name: b.score for b in self.bots},
            "ci95": {b.name: list(b.ci95) for b in self.bots},
            "first_seat_score": self.first_seat_score,
            "ms_per_move": {b.name: b.ms_per_move for b in self.bots},
            "rules": {"preset": self.preset, "overrides": self.rules.overrides()},
            "seed": self.seed,
            "mode": "match" if self.match else "hand",
            "specs": {b.name: b.spec for b in self.bots},
            "tables": [[self.bots[i].name for i in t] for t in self.tables],
            "games_per_bot": {b.name: b.games for b in self.bots},
            "elo": {b.name: b.elo for b in self.bots},
            "elo_ci95": {b.name: list(b.elo_ci95) if b.elo_ci95 else None for b in self.bots},
            "points_per_hand": {b.name: b.points_per_hand for b in self.bots},
            "moves": {b.name: b.moves for b in self.bots},
            "first_seat_ci95": list(self.first_seat_ci95),
            "seat_score": list(self.seat_score),
            "position_score": list(self.position_score),
            "forfeits": {b.name: b.forfeits for b in self.bots},
            "forfeit_log": [f.to_json() for f in self.forfeits],
            "seconds": self.seconds,
        }

    def plot(self, path: str | Path) -> None:
        """Draw the ladder to an image file (needs matplotlib): see
        :func:`~matador.arena.plot.plot_ladder`."""
        from matador.arena.plot import plot_ladder

        plot_ladder(self, path)


def entries_of(specs: Sequence[str]) -> list[Entry]:
    """Name the entries: the spec as given, ``spec#k`` for the k-th copy of a repeated spec.

    >>> [e.name for e in entries_of(["greedy", "random", "greedy"])]
    ['greedy#1', 'random', 'greedy#2']
    """
    specs = [s.strip() for s in specs]
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        if specs.count(s) > 1:
            seen[s] = seen.get(s, 0) + 1
            out.append(Entry(f"{s}#{seen[s]}", s))
        else:
            out.append(Entry(s, s))
    return out


def tables_of(entries: int, players: int) -> list[tuple[int, ...]]:
    """Which entries sit at each table (entry indices, in seat order).

    >>> tables_of(2, 4), tables_of(3, 2)
    ([(0, 1, 1, 1)], [(0, 1), (0, 2), (1, 2)])
    """
    if entries <= players:
        return [tuple(min(i, entries - 1) for i in range(players))]
    return list(itertools.combinations(range(entries), players))


def run_arena(bots: Sequence[str], *, preset: str | Rules = "classic",
              overrides: dict[str, Any] | None = None, players: int = 2, deals: int = 100,
              seed: int | None = None, jobs: int = 1, match: bool = False,
              factory: PlayerFactory = make_player, move_timeout: float | None = None,
              bootstrap: int = 200, max_hands: int = MAX_MATCH_HANDS,
              progress: Callable[[int, int], None] | None = None,
              backend: Backend | None = None) -> ArenaResult:
    """Play ``deals`` duplicate deals between ``bots`` and score them (see the module doc).

    ``seed`` makes the run reproducible (default: a fresh secret seed, reported
    in the result). ``bots`` are specs for ``factory`` (by default bot specs such as
    ``pimc:500ms`` and ``engine:COMMAND``); ``preset`` a preset name, with
    ``overrides``, or a :class:`Rules`. ``jobs > 1`` plays in that many worker
    processes. ``move_timeout`` (seconds) forfeits a slower move. ``bootstrap``
    is the number of bootstrap replicates behind the Elo intervals (0: none).
    With ``match``, a match still undecided after ``max_hands`` hands ends
    without a winner. ``progress(done, total)`` is called as games finish. ``backend``
    (:mod:`matador.arena.backend`, e.g. Ray) runs the chunks of deals instead of
    ``jobs``; the results are the same.

    Raises :class:`ArenaError` for a bad setup and the factory's
    :class:`MatadorError` (a :class:`~matador.players.base.BotError` for an
    unknown bot) naming the spec it refuses.
    """
    start = time.perf_counter()
    if seed is None:  # a fresh secret seed: an engine cannot guess the deals
        seed = secrets.randbits(32)
    rules = preset if isinstance(preset, Rules) else Rules.from_preset(preset, overrides)
    if isinstance(preset, Rules) and overrides:
        rules = Rules.from_preset(preset.preset, {**preset.overrides(), **overrides})
    if len(bots) < 2:
        raise ArenaError("the arena needs at least two bots")
    try:
        rules.check_players(players)
    except MatadorError as error:
        raise ArenaError(str(error)) from None
    if deals < 1:
        raise ArenaError(f"{deals} deals: play at least one")
    if jobs < 1:
        raise ArenaError(f"{jobs} jobs: use at least one")
    entries = entries_of(bots)
    for e in entries:  # fail early, naming the spec, on anything the factory refuses
        factory(e.spec).close()
    tables = tables_of(len(entries), players)
    names = tuple(e.name for e in entries)
    tasks = [
        Task(rules, players, t, seats, names, tuple(entries[i].spec for i in seats), chunk,
             seed, match, move_timeout, factory, max_hands)
        for t, seats in enumerate(tables)
        for chunk in chunks(deals, jobs if backend is None else max(jobs, backend.workers))
    ]
    total = len(tables) * deals * players
    games = sorted(run_tasks(tasks, jobs, total, progress, backend),
                   key=lambda g: (g.table, g.deal, g.rotation))
    return _summarize(rules, players, deals, seed, match, entries, tables, games, bootstrap,
                      time.perf_counter() - start)


def _mean(total: float, n: int) -> float:
    return total / n if n else 0.0


def _summarize(rules: Rules, players: int, deals: int, seed: int, match: bool,
               entries: list[Entry], tables: list[tuple[int, ...]], games: list[GameResult],
               bootstrap: int, seconds: float) -> ArenaResult:
    k, n = len(entries), players
    score_parts: list[list[float]] = [[] for _ in range(k)]
    points: list[list[float]] = [[] for _ in range(k)]
    seat_hands = [0] * k
    moves = [0] * k
    think = [0.0] * k
    forfeits = [0] * k
    by_seat: list[list[float]] = [[] for _ in range(n)]
    by_position: list[list[float]] = [[] for _ in range(n)]
    units = [[[0.0] * k for _ in range(k)] for _ in range(deals)]
    for g in games:
        for e in set(g.seats):
            held = [s for s in range(n) if g.seats[s] == e]
            score_parts[e].append(math.fsum(g.scores[s] for s in held) / len(held))
        for s, e in enumerate(g.seats):
            points[e].append(g.points[s])
            seat_hands[e] += g.hands
            moves[e] += g.moves[s]
            think[e] += g.seconds[s]
            by_seat[s].append(g.scores[s])
            by_position[(s - g.leader) % n].append(g.scores[s])
        if g.forfeit is not None:
            forfeits[g.seats[g.forfeit.seat]] += 1
        _add_pairs(units[g.deal], g)
    wins = [[math.fsum(u[i][j] for u in units) for j in range(k)] for i in range(k)]
    ratings = elo(bradley_terry(wins))
    intervals: list[tuple[float, float]] | None = None
    if bootstrap > 0:
        intervals = bootstrap_elo(units, k, Random(derive_seed(seed, "bootstrap")),
                                  reps=bootstrap)
    stats = []
    for e, entry in enumerate(entries):
        played = len(score_parts[e])
        total = math.fsum(score_parts[e])
        stats.append(BotStats(
            entry.name, entry.spec, played, _mean(total, played), wilson(total, played),
            ratings[e], intervals[e] if intervals else None,
            _mean(math.fsum(points[e]), seat_hands[e]),
            _mean(think[e] * 1000, moves[e]), moves[e], forfeits[e]))
    first = by_position[0]
    return ArenaResult(
        rules, players, deals, seed, match, tuple(stats), tuple(tables), tuple(games),
        _mean(math.fsum(first), len(first)), wilson(math.fsum(first), len(first)),
        tuple(_mean(math.fsum(x), len(x)) for x in by_seat),
        tuple(_mean(math.fsum(x), len(x)) for x in by_position),
        tuple(g.forfeit for g in games if g.forfeit is not None), seconds)


def _add_pairs(wins: list[list[float]], g: GameResult) -> None:
    """Pairwise results of one game: the winner beats each loser; a game without a
    winner is half a win each way between every pair; after a forfeit every other seat
    beats the forfeiter and the rest share. Seats of the same entry are not compared."""
    n = len(g.seats)
    loser = g.forfeit.seat if g.forfeit is not None else None
    for s in range(n):
        for t in range(s + 1, n):
            a, b = g.seats[s], g.seats[t]
            if a == b:
                continue
            if g.winner is not None:
                if g.winner == s:
                    wins[a][b] += 1
                elif g.winner == t:
                    wins[b][a] += 1
            elif loser == s:
                wins[b][a] += 1
            elif loser == t:
                wins[a][b] += 1
            else:
                wins[a][b] += 0.5
                wins[b][a] += 0.5


__all__ = ["ArenaResult", "BotStats", "Entry", "entries_of", "run_arena", "tables_of"]
