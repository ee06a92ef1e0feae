"""The variant lab: measured answers about presets, player counts and house rules.

A study runs, for every rule set (a preset, or a preset with house rules) and
player count asked for:

* **self-play hands** (``hands`` per cell): fresh deals played by the greedy
  playout policy of the search bots (:func:`~matador.players.rollout.policy_move`,
  epsilon 0.1) at every seat, in the compiled kernel when it is installed
  (the pure-Python path plays exactly the same hands otherwise). From them:
  how often the leader wins and the win rate by turn order (leader, next...),
  hand length, how often hands block and end without a winner, how often a
  matador decides a hand (the play that ended it, going out or blocking the
  line, laid a matador), and the distribution of the winner's points;
* **skill** (``deals`` per cell and opponent): the arena's duplicate deals
  between a strong bot (default ``pimc:40it``) and each weaker one (default
  ``greedy`` and ``random``), the strong one at one seat and the weaker at
  the others, in every rotation. The skill index is
  ``(score - 1/N) / (1 - 1/N)``: 0 when the strong bot does no better than its
  share, 1 when it wins every game. Which variant rewards skill most, which is
  closest to luck;
* **house rules** (``compare``): each preset against itself with one override
  (e.g. ``draw=one``), every self-play statistic with the difference and its
  95% interval.

Every interval is a 95% interval: Wilson's for proportions, the normal one
(mean +- 1.96 standard errors) for means and differences. Everything is a
function of ``seed``: cell ``c``'s hand ``i`` is dealt and played from the
stream ``stream_key(cell seed, i)``, the arena runs get seeds derived from the
study's, and cells run as shards on any backend (:mod:`matador.arena.backend`)
with the same results. :func:`write_report` writes the Markdown report, its PNG
plots (matplotlib) and the JSON of every figure.

>>> result = run_study(StudySpec(presets=("classic",), players=(2,), hands=200, deals=2,
...                              strong="greedy", weak=("random",), seed=1))
>>> cell = result.cells[0]
>>> cell.hands, 0.0 <= cell.blocked.rate <= 1.0, round(sum(cell.by_position), 6)
(200, True, 1.0)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from matador.arena.backend import Backend, Local
from matador.arena.experiment import run_arena
from matador.arena.game import derive_seed
from matador.arena.stats import Z95, wilson
from matador.core.errors import MatadorError
from matador.core.moves import DRAW, MOVE_TILE
from matador.core.playout import deal_from_stream
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.streams import MASK64, Stream, stream_key
from matador.players.rollout import EPSILON, greedy_rollout

MAX_RECORD = 600
"""Moves kept per self-play hand (more than any hand needs)."""


class StudyError(MatadorError):
    """A study that cannot run: an unknown preset, no player count the rules allow..."""


@dataclass(frozen=True)
class Proportion:
    """A proportion with its 95% Wilson interval."""

    successes: float
    n: int
    rate: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, successes: float, n: int) -> Proportion:
        """The proportion ``successes / n`` and its interval."""
        return cls(successes, n, successes / n if n else 0.0, wilson(successes, n))


@dataclass(frozen=True)
class Mean:
    """A mean with its 95% normal interval (and the sample's standard deviation)."""

    mean: float
    sd: float
    n: int
    ci95: tuple[float, float]

    @classmethod
    def of(cls, values: Sequence[float]) -> Mean:
        """The mean of ``values`` and its interval (a single value: a zero-width interval).

        >>> Mean.of([1.0, 2.0, 3.0]).ci95 == (2 - Z95 / 3 ** 0.5, 2 + Z95 / 3 ** 0.5)
        True
        """
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0, (0.0, 0.0))
        mean = math.fsum(values) / n
        sd = statistics.stdev(values) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        return cls(mean, sd, n, (mean - half, mean + half))


def difference(a: Proportion | Mean, b: Proportion | Mean) -> tuple[float, tuple[float, float]]:
    """``b - a`` with a 95% normal interval (independent samples).

    >>> difference(Proportion.of(50, 100), Proportion.of(60, 100))[0]
    0.09999999999999998
    """
    if isinstance(a, Proportion) and isinstance(b, Proportion):
        va = a.rate * (1 - a.rate) / a.n if a.n else 0.0
        vb = b.rate * (1 - b.rate) / b.n if b.n else 0.0
        d = b.rate - a.rate
    elif isinstance(a, Mean) and isinstance(b, Mean):
        va = a.sd ** 2 / a.n if a.n else 0.0
        vb = b.sd ** 2 / b.n if b.n else 0.0
        d = b.mean - a.mean
    else:
        raise TypeError("compare a proportion with a proportion, a mean with a mean")
    half = Z95 * math.sqrt(va + vb)
    return d, (d - half, d + half)


@dataclass(frozen=True)
class Variant:
    """A rule set of the study: a preset and its house rules."""

    preset: str
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def rules(self) -> Rules:
        """The rules (validated)."""
        return Rules.from_preset(self.preset, dict(self.overrides))

    @property
    def label(self) -> str:
        """``classic`` or ``classic draw=one``."""
        return " ".join([self.preset, *(f"{k}={_text(v)}" for k, v in self.overrides)])


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class CellSpec:
    """One shard of self-play: a variant at a player count. Picklable."""

    variant: Variant
    players: int
    hands: int
    seed: int
    kernel: bool | None = None


@dataclass(frozen=True)
class Cell:
    """The self-play statistics of one variant at one player count."""

    variant: Variant
    players: int
    hands: int
    leader_wins: Proportion
    """How often the seat that led wins (baseline 1/N)."""
    by_position: tuple[float, ...]
    """Share of the hands won by each turn position (0 the leader), no-winner hands shared."""
    position_wins: tuple[Proportion, ...]
    """Outright wins by turn position."""
    blocked: Proportion
    """Hands that ended blocked (R19)."""
    no_winner: Proportion
    """Hands without a winner (R20)."""
    matador_decides: Proportion
    """Hands whose ending play (out, or the play that blocked the line) laid a matador."""
    length: Mean
    """Moves per hand (plays, draws, passes)."""
    winner_points: Mean
    """Points of the winner of a hand with a winner (R21 + R22)."""
    length_histogram: tuple[tuple[int, int], ...]
    """(moves, hands) pairs."""
    points_histogram: tuple[tuple[int, int], ...]
    """(winner's points, hands) pairs."""


def _histogram(values: Sequence[int]) -> tuple[tuple[int, int], ...]:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return tuple(sorted(counts.items()))


def _play_python(spec: CellSpec) -> list[tuple[int, int, int, list[int], list[int]]]:
    """(leader, winner, reason, points, moves) per hand, by the pure-Python path."""
    rules = spec.variant.rules
    out = []
    for i in range(spec.hands):
        stream = Stream(stream_key(spec.seed, i))
        state = HandState(rules, deal_from_stream(rules, spec.players, stream))
        greedy_rollout(state, stream, EPSILON)
        o = state.outcome
        assert o is not None
        out.append((state.deal.leader, -1 if o.winner is None else o.winner,
                    0 if o.reason.value == "out" else 1, list(o.points),
                    [int(m) for m in state.moves]))
    return out


def _play_kernel(spec: CellSpec) -> list[tuple[int, int, int, list[int], list[int]]]:
    from matador import fast
    from matador.players.rollout import kernel_policy

    rules = spec.variant.rules
    got = fast.play_hands(rules, spec.players, spec.seed, spec.hands,
                          policy=kernel_policy(EPSILON), record=MAX_RECORD)
    assert got.moves is not None
    moves = got.moves.tolist()
    return [(int(got.leader[i]), int(got.winner[i]), int(got.reason[i]),
             [int(x) for x in got.points[i]], [m for m in moves[i] if m >= 0])
            for i in range(spec.hands)]


def play_cell(spec: CellSpec) -> Cell:
    """Play a cell's hands (kernel if installed, unless ``spec.kernel`` says) and sum them up."""
    from matador.players.pimc import kernel_enabled

    rules = spec.variant.rules
    hands = _play_kernel(spec) if kernel_enabled(spec.kernel) else _play_python(spec)
    n = spec.players
    share = [0.0] * n
    outright = [0] * n
    leader = blocked = none = decided = 0
    lengths: list[int] = []
    points: list[int] = []
    for lead, winner, reason, pts, moves in hands:
        lengths.append(len(moves))
        blocked += reason == 1
        last_play = next((m for m in reversed(moves) if m < DRAW), -1)
        decided += last_play >= 0 and rules.is_matador(MOVE_TILE[last_play])
        if winner < 0:
            none += 1
            for p in range(n):
                share[p] += 1 / n
            continue
        position = (winner - lead) % n
        share[position] += 1
        outright[position] += 1
        leader += winner == lead
        points.append(pts[winner])
    total = len(hands)
    return Cell(spec.variant, n, total, Proportion.of(leader, total),
                tuple(s / total for s in share),
                tuple(Proportion.of(w, total) for w in outright),
                Proportion.of(blocked, total), Proportion.of(none, total),
                Proportion.of(decided, total), Mean.of([float(x) for x in lengths]),
                Mean.of([float(x) for x in points]), _histogram(lengths), _histogram(points))


@dataclass(frozen=True)
class Skill:
    """The strong bot against one weaker bot in one variant and player count."""

    variant: Variant
    players: int
    strong: str
    weak: str
    deals: int
    games: int
    score: Proportion
    """The strong bot's mean score (its share of wins; baseline 1/N)."""
    index: float
    """``(score - 1/N) / (1 - 1/N)``: 0 no edge, 1 every game won."""
    index_ci95: tuple[float, float]


def skill_index(score: float, players: int) -> float:
    """How far ``score`` is from the luck baseline 1/N towards winning every game.

    >>> skill_index(0.5, 2), skill_index(1.0, 3), skill_index(1 / 4, 4)
    (0.0, 1.0, 0.0)
    """
    base = 1 / players
    return (score - base) / (1 - base)


def play_skill(variant: Variant, players: int, strong: str, weak: str, deals: int, seed: int,
               backend: Backend | None = None) -> Skill:
    """``strong`` at one seat against ``weak`` at the others, on duplicate deals."""
    jobs = backend.jobs if isinstance(backend, Local) else 1
    result = run_arena([strong, weak], preset=variant.rules, players=players, deals=deals,
                       seed=seed, bootstrap=0, jobs=jobs,
                       backend=None if isinstance(backend, Local) else backend)
    name = result.names[0]
    games = [g for g in result.games]
    total = 0.0
    for g in games:
        held = [s for s in range(players) if g.seats[s] == 0]
        total += math.fsum(g.scores[s] for s in held) / len(held)
    score = Proportion.of(total, len(games))
    lo, hi = score.ci95
    return Skill(variant, players, name, result.names[1], deals, len(games), score,
                 skill_index(score.rate, players),
                 (skill_index(lo, players), skill_index(hi, players)))


@dataclass(frozen=True)
class StudySpec:
    """What a study measures (see the module docstring)."""

    presets: tuple[str, ...] = PRESETS
    players: tuple[int, ...] = (2, 3, 4)
    """Player counts; each preset gets those its rules allow."""
    hands: int = 20_000
    """Self-play hands per variant and player count."""
    deals: int = 100
    """Duplicate deals per skill comparison."""
    strong: str = "pimc:40it"
    weak: tuple[str, ...] = ("greedy", "random")
    compare: tuple[tuple[str, Any], ...] = ()
    """House rules, each compared with every preset that allows it (``("draw", "one")``)."""
    seed: int = 1
    house_rules: tuple[tuple[str, Any], ...] = ()
    """Overrides applied to every preset of the study (the study of a house rule set)."""

    def variants(self) -> list[tuple[Variant, Variant | None]]:
        """(variant, the variant it is compared with or None) for every rule set."""
        out: list[tuple[Variant, Variant | None]] = []
        for preset in self.presets:
            base = Variant(preset, self.house_rules)
            base.rules  # noqa: B018 (validate early, naming the bad preset or rule)
            out.append((base, None))
            for key, value in self.compare:
                changed = dict(self.house_rules)
                if changed.get(key) == value or base.rules.parameters().get(key) == value:
                    continue  # the preset plays that rule already
                changed[key] = value
                out.append((Variant(preset, tuple(changed.items())), base))
        return out


@dataclass
class StudyResult:
    """Everything a study measured."""

    spec: StudySpec
    cells: list[Cell] = field(default_factory=list)
    skills: list[Skill] = field(default_factory=list)
    comparisons: list[tuple[Variant, Variant]] = field(default_factory=list)
    """(with the house rule, the preset) pairs."""

    def cell(self, variant: Variant, players: int) -> Cell:
        """The cell of ``variant`` at ``players``."""
        for c in self.cells:
            if c.variant == variant and c.players == players:
                return c
        raise KeyError((variant.label, players))

    def to_json(self) -> dict[str, Any]:
        """Every figure, as plain JSON."""
        def plain(obj: Any) -> Any:
            if isinstance(obj, Variant):
                return obj.label
            return obj
        return {
            "spec": asdict(self.spec),
            "cells": [{**{k: plain(v) for k, v in asdict(c).items()},
                       "variant": c.variant.label} for c in self.cells],
            "skills": [{**asdict(s), "variant": s.variant.label} for s in self.skills],
            "comparisons": [[a.label, b.label] for a, b in self.comparisons],
        }


def run_study(spec: StudySpec, backend: Backend | None = None,
              progress: Callable[[int, int], None] | None = None,
              kernel: bool | None = None) -> StudyResult:
    """Run every cell (as shards on ``backend``) and every skill comparison."""
    backend = backend or Local(1)
    if spec.hands < 1 or spec.deals < 0:
        raise StudyError(f"hands {spec.hands}, deals {spec.deals}: play at least one hand")
    try:
        variants = [(v, b, v.rules) for v, b in spec.variants()]
    except MatadorError as e:
        raise StudyError(str(e)) from None
    cells: list[CellSpec] = []
    result = StudyResult(spec)
    for variant, base, rules in variants:
        for n in spec.players:
            if rules.allows_players(n):
                seed = derive_seed(spec.seed, "study", variant.label, n) & MASK64
                cells.append(CellSpec(variant, n, spec.hands, seed, kernel))
        if base is not None:
            result.comparisons.append((variant, base))
    if not cells:
        raise StudyError(f"no preset of {', '.join(spec.presets)} allows "
                         f"{', '.join(map(str, spec.players))} players")
    skill_jobs = [(c.variant, c.players, weak) for c in cells if not any(
        c.variant == v for v, _ in result.comparisons) for weak in spec.weak] \
        if spec.deals else []
    total = len(cells) + len(skill_jobs)
    done = 0
    if progress is not None:
        progress(0, total)
    found: dict[int, Cell] = {}
    for i, cell in backend.map(play_cell, cells):
        found[i] = cell
        done += 1
        if progress is not None:
            progress(done, total)
    result.cells = [found[i] for i in range(len(cells))]
    for variant, n, weak in skill_jobs:
        seed = derive_seed(spec.seed, "skill", variant.label, n, weak) % (1 << 63)
        result.skills.append(play_skill(variant, n, spec.strong, weak, spec.deals, seed,
                                        backend))
        done += 1
        if progress is not None:
            progress(done, total)
    return result


# -- the report ---------------------------------------------------------------------


def _pct(p: Proportion) -> str:
    return f"{100 * p.rate:.1f}% [{100 * p.ci95[0]:.1f}, {100 * p.ci95[1]:.1f}]"


def _mean(m: Mean, digits: int = 1) -> str:
    return f"{m.mean:.{digits}f} [{m.ci95[0]:.{digits}f}, {m.ci95[1]:.{digits}f}]"


def report_markdown(result: StudyResult, command: str | None = None,
                    plots: Sequence[str] = ()) -> str:
    """The study as Markdown: tables of every figure with its interval, then the plots."""
    spec = result.spec
    lines: list[str] = []
    out = lines.append
    out("# Matador variant study")
    out("")
    out(f"Seed {spec.seed}; {spec.hands:,} self-play hands per rule set and player count "
        f"(every seat plays the search bots' greedy playout policy, epsilon {EPSILON}); "
        f"skill: `{spec.strong}` against {', '.join(f'`{w}`' for w in spec.weak)} on "
        f"{spec.deals} duplicate deals each, every seat rotation. Intervals are 95% "
        "(Wilson for proportions, normal for means and differences).")
    if command:
        out("")
        out("Reproduce with:")
        out("")
        out("```")
        out(command)
        out("```")
    base_cells = [c for c in result.cells
                  if not any(c.variant == v for v, _ in result.comparisons)]
    out("")
    out("## Leader and seat advantage")
    out("")
    out("How often the seat that leads (opens the hand) wins, against the share 1/N it would "
        "get if leading did not matter, and each turn position's share of the hands (the "
        "leader first; hands without a winner shared).")
    out("")
    out("| rules | players | leader wins | baseline | share by turn order |")
    out("|---|---:|---:|---:|---|")
    for c in base_cells:
        out(f"| {c.variant.label} | {c.players} | {_pct(c.leader_wins)} | "
            f"{100 / c.players:.1f}% | {' / '.join(f'{100 * x:.1f}' for x in c.by_position)} |")
    out("")
    out("## Hand length, blocking, matadors, points")
    out("")
    out("| rules | players | moves per hand | blocked | no winner | a matador decides | "
        "winner's points |")
    out("|---|---:|---:|---:|---:|---:|---:|")
    for c in base_cells:
        out(f"| {c.variant.label} | {c.players} | {_mean(c.length)} | {_pct(c.blocked)} | "
            f"{_pct(c.no_winner)} | {_pct(c.matador_decides)} | {_mean(c.winner_points)} |")
    out("")
    out("A matador *decides* a hand when the play that ended it (going out, or the play "
        "after which no one could play) laid a matador.")
    if result.skills:
        out("")
        out("## How much skill matters")
        out("")
        out(f"The score of `{spec.strong}` (one seat) against weaker bots (the other seats): "
            "1 a win, 0 a loss, 1/N a hand without winner; the skill index "
            "(score - 1/N) / (1 - 1/N) is 0 when the strong bot does no better than luck "
            "and 1 when it wins every hand.")
        out("")
        out("| rules | players | against | games | score | skill index |")
        out("|---|---:|---|---:|---:|---:|")
        for s in sorted(result.skills, key=lambda s: (s.weak, -s.index)):
            out(f"| {s.variant.label} | {s.players} | {s.weak} | {s.games} | "
                f"{s.score.rate:.3f} [{s.score.ci95[0]:.3f}, {s.score.ci95[1]:.3f}] | "
                f"{s.index:.3f} [{s.index_ci95[0]:.3f}, {s.index_ci95[1]:.3f}] |")
        for weak in spec.weak:
            ranked = sorted((s for s in result.skills if s.weak == weak),
                            key=lambda s: -s.index)
            if ranked:
                top, low = ranked[0], ranked[-1]
                out("")
                out(f"Against `{weak}`, skill pays most in **{top.variant.label}, "
                    f"{top.players} players** (index {top.index:.3f}) and least in "
                    f"**{low.variant.label}, {low.players} players** (index {low.index:.3f}).")
    if result.comparisons:
        out("")
        out("## House rules against the preset")
        out("")
        out("Each figure with the house rule minus the same figure under the preset, with "
            "the 95% interval of the difference.")
        out("")
        out("| house rule | players | leader wins | moves per hand | blocked | "
            "a matador decides | winner's points |")
        out("|---|---:|---:|---:|---:|---:|---:|")
        for variant, base in result.comparisons:
            for c in result.cells:
                if c.variant != variant:
                    continue
                b = result.cell(base, c.players)
                parts = []
                for fa, fb, scale in ((b.leader_wins, c.leader_wins, 100),
                                      (b.length, c.length, 1), (b.blocked, c.blocked, 100),
                                      (b.matador_decides, c.matador_decides, 100),
                                      (b.winner_points, c.winner_points, 1)):
                    d, (lo, hi) = difference(fa, fb)
                    unit = " pts" if scale == 100 else ""
                    parts.append(f"{scale * d:+.1f}{unit} [{scale * lo:+.1f}, {scale * hi:+.1f}]")
                out(f"| {variant.label} | {c.players} | {' | '.join(parts)} |")
        out("")
        out("Proportions are in percentage points.")
    if plots:
        out("")
        out("## Plots")
        for p in plots:
            out("")
            out(f"![{Path(p).stem}]({p})")
    out("")
    return "\n".join(lines)


def write_plots(result: StudyResult, folder: Path) -> list[str]:
    """The PNG plots of a study in ``folder``; their file names (needs matplotlib)."""
    try:
        import matplotlib
    except ImportError:
        raise StudyError("plots need matplotlib: pip install 'matador[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base = [c for c in result.cells if not any(c.variant == v for v, _ in result.comparisons)]
    names: list[str] = []
    labels = [f"{c.variant.label}\n{c.players}p" for c in base]
    x = list(range(len(base)))

    def bars(name: str, title: str, values: list[Proportion], baseline: list[float] | None
             ) -> None:
        fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(base) + 2), 4))
        rates = [100 * v.rate for v in values]
        err = [[100 * (v.rate - v.ci95[0]) for v in values],
               [100 * (v.ci95[1] - v.rate) for v in values]]
        ax.bar(x, rates, yerr=err, capsize=3, color="#4c72b0")
        if baseline is not None:
            ax.scatter(x, [100 * b for b in baseline], marker="_", s=400, color="#c44e52",
                       label="1/N (no advantage)", zorder=3)
            ax.legend(loc="upper right")
        ax.set_xticks(x, labels, fontsize=8)
        ax.set_ylabel("%")
        ax.set_title(title)
        fig.tight_layout()
        fig.savefig(folder / name, dpi=110)
        plt.close(fig)
        names.append(name)

    bars("leader.png", "How often the leader wins (95% intervals)",
         [c.leader_wins for c in base], [1 / c.players for c in base])
    bars("blocked.png", "Hands that end blocked", [c.blocked for c in base], None)
    bars("matador.png", "Hands a matador decides", [c.matador_decides for c in base], None)

    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(base) + 2), 4))
    data = [[v for v, k in c.length_histogram for _ in range(k)] for c in base]
    ax.boxplot(data, showfliers=False)
    ax.set_xticks([i + 1 for i in x], labels, fontsize=8)
    ax.set_ylabel("moves per hand")
    ax.set_title("Hand length (box: quartiles, whiskers: 1.5 IQR)")
    fig.tight_layout()
    fig.savefig(folder / "length.png", dpi=110)
    plt.close(fig)
    names.append("length.png")

    presets = sorted({c.variant.label for c in base}, key=lambda s: (s not in PRESETS, s))
    fig, axes = plt.subplots(1, len(presets), figsize=(4 * len(presets), 3.5), squeeze=False)
    for ax, label in zip(axes[0], presets, strict=True):
        for c in base:
            if c.variant.label == label and c.points_histogram:
                total = sum(k for _, k in c.points_histogram)
                ax.plot([v for v, _ in c.points_histogram],
                        [k / total for _, k in c.points_histogram], label=f"{c.players}p")
        ax.set_title(f"{label}: winner's points")
        ax.set_xlabel("points")
        ax.legend()
    fig.tight_layout()
    fig.savefig(folder / "points.png", dpi=110)
    plt.close(fig)
    names.append("points.png")

    if result.skills:
        fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(base) + 2), 4))
        weaks = list(dict.fromkeys(s.weak for s in result.skills))
        width = 0.8 / len(weaks)
        for k, weak in enumerate(weaks):
            ss = [next((s for s in result.skills if s.weak == weak and s.variant == c.variant
                        and s.players == c.players), None) for c in base]
            xs = [i + k * width for i, s in enumerate(ss) if s is not None]
            vals = [s.index for s in ss if s is not None]
            err = [[s.index - s.index_ci95[0] for s in ss if s is not None],
                   [s.index_ci95[1] - s.index for s in ss if s is not None]]
            ax.bar(xs, vals, width, yerr=err, capsize=3, label=f"against {weak}")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks([i + 0.4 - width / 2 for i in x], labels, fontsize=8)
        ax.set_ylabel("skill index")
        ax.set_title(f"How much skill matters: {result.spec.strong} against weaker bots")
        ax.legend()
        fig.tight_layout()
        fig.savefig(folder / "skill.png", dpi=110)
        plt.close(fig)
        names.append("skill.png")
    return names


def write_report(result: StudyResult, folder: str | Path, command: str | None = None,
                 plots: bool = True) -> Path:
    """Write ``report.md``, ``study.json`` and (with ``plots``) the PNGs into ``folder``."""
    import json

    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    names = write_plots(result, path) if plots else []
    (path / "study.json").write_text(json.dumps(result.to_json(), indent=1) + "\n",
                                     encoding="utf-8")
    report = path / "report.md"
    report.write_text(report_markdown(result, command, names), encoding="utf-8")
    return report


__all__ = ["Cell", "CellSpec", "Mean", "Proportion", "Skill", "StudyError", "StudyResult",
           "StudySpec", "Variant", "difference", "play_cell", "play_skill", "report_markdown",
           "run_study", "skill_index", "write_plots", "write_report"]
