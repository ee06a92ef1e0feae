"""The ladder as a picture (needs matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from matador.arena.game import ArenaError

if TYPE_CHECKING:
    from matador.arena.experiment import ArenaResult


def plot_ladder(result: ArenaResult, path: str | Path) -> None:
    """Draw the ladder as horizontal error bars and save it to ``path`` (PNG, SVG...).

    Two bots: their scores with 95% Wilson intervals and the 1/N baseline.
    More: Elo ratings with their bootstrap intervals. Needs matplotlib;
    raises :class:`ArenaError` if it is missing.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ArenaError("--plot needs matplotlib: pip install 'matador[plot]'") from None
    bots = list(result.bots)
    use_elo = len(bots) > 2
    if use_elo:
        bots.sort(key=lambda b: b.elo)
        values = [b.elo for b in bots]
        lows = [b.elo - (b.elo_ci95 or (b.elo, b.elo))[0] for b in bots]
        highs = [(b.elo_ci95 or (b.elo, b.elo))[1] - b.elo for b in bots]
        label = f"Elo (Bradley-Terry, {result.bots[0].name} = 1000; 95% bootstrap interval)"
    else:
        bots.sort(key=lambda b: b.score)
        values = [b.score for b in bots]
        lows = [b.score - b.ci95[0] for b in bots]
        highs = [b.ci95[1] - b.score for b in bots]
        label = "mean score per game and seat (95% Wilson interval)"
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(bots)))
    ys = list(range(len(bots)))
    ax.errorbar(values, ys, xerr=[lows, highs], fmt="o", capsize=4)
    ax.set_yticks(ys, [b.name for b in bots])
    if not use_elo:
        ax.axvline(1 / result.players, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel(label)
    mode = "matches" if result.match else "hands"
    ax.set_title(f"{result.preset}, {result.players} players, {result.deals} deals "
                 f"({len(result.games)} {mode})")
    fig.tight_layout()
    try:
        fig.savefig(path)
    finally:
        plt.close(fig)


__all__ = ["plot_ladder"]
