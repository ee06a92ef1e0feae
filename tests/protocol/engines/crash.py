"""Plays N good moves (argument, default 0), then crashes on ``go`` with a traceback."""

import sys

from _mini import after, legal, out, serve

GOOD = 0
"""Good moves before misbehaving (the first argument, read when run)."""


def go(view: dict, k: int) -> None:
    if k >= GOOD:
        raise RuntimeError("boom: the engine fell over")
    out(f"bestmove {legal(view)[0]}")


if __name__ == "__main__":
    GOOD = after(sys.argv)
    serve(go, "crash")
