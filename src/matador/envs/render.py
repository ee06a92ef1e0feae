"""Text rendering of an environment's table: public facts and the mover's own hand only.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.envs.episode import Episode
>>> episode = Episode(Rules.from_preset("classic"), 2)
>>> episode.reset(random.Random(3))
>>> print(render_text(episode).splitlines()[0])
classic, 2 players, ply 0: seat 0 to move
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matador.core.moves import line_of
from matador.core.tiles import NAMES, tiles_of

if TYPE_CHECKING:
    from matador.envs.episode import Episode


def render_text(episode: Episode) -> str:
    """Several lines: the line of tiles, the ends, hand sizes, the boneyard, points, the result.

    Only the seat to move has its tiles shown (as in its own view); once the
    hand is over, its outcome is.
    """
    state = episode.state
    rules = episode.rules
    head = f"{rules.preset}, {episode.players} players, ply {state.ply}: "
    out = state.outcome
    if out is not None:
        winner = "no winner" if out.winner is None else f"seat {out.winner} wins"
        head += f"over ({out.reason.value}, {winner})"
    else:
        head += f"seat {state.to_move} to move"
    line = " ".join(f"[{a}|{b}]" for a, b in line_of(state.moves)) or "(empty)"
    ends = "none" if state.left < 0 else f"{state.left} | {state.right}"
    lines = [
        head,
        f"line: {line}",
        f"ends: {ends}   boneyard: {state.boneyard_size}",
        "tiles held: " + " ".join(f"seat {s}: {n}" for s, n in enumerate(state.hand_sizes())),
        "points: " + " ".join(str(p) for p in state.points),
    ]
    if episode.scores is not None:
        lines.append("match scores before this hand: " + " ".join(map(str, episode.scores)))
    if out is not None:
        lines.append("pips left: " + " ".join(map(str, out.pips)))
    else:
        hand = " ".join(NAMES[t] for t in tiles_of(state.hands[state.to_move]))
        lines.append(f"seat {state.to_move} holds: {hand}")
    return "\n".join(lines)


def render(episode: Episode, mode: str | None) -> str | None:
    """``render()`` of the environments: the text (:func:`render_text`) for ``"ansi"``,
    printed for ``"human"``; with no render mode, Gymnasium's warning and nothing."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode")
        return None
    text = render_text(episode)
    if mode == "ansi":
        return text
    print(text)
    return None
