"""A minimal MEP engine loop shared by the deliberately broken test engines.

Each broken engine is a script that calls :func:`serve` with what it does on
``go``; everything else (handshake, isready, position, quit) is done
properly, so each script breaks exactly one thing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


def out(*lines: str) -> None:
    """Answer the host: one line each, flushed."""
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def legal(view: dict[str, Any]) -> list[str]:
    """The legal moves of the view's seat (via matador: these test engines are in Python)."""
    from matador.core.view import PlayerView

    return [str(m) for m in PlayerView.from_json(view).legal_moves]


def serve(go: Callable[[dict[str, Any], int], None], name: str) -> None:
    """Serve MEP on stdin/stdout; ``go(view, k)`` answers the k-th ``go`` (0-based)."""
    view: dict[str, Any] = {}
    count = 0
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "mep":
            out(f"id name {name}", "id author the matador tests", "mepok")
        elif command == "isready":
            out("readyok")
        elif command == "position":
            view = json.loads(rest)
        elif command == "go":
            go(view, count)
            count += 1
        elif command == "quit":
            return


def after(argv: list[str]) -> int:
    """How many good moves to play before misbehaving (the first argument, default 0)."""
    return int(argv[1]) if len(argv) > 1 else 0
