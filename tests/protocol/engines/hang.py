"""Plays N good moves (argument, default 0), then never answers ``go``."""

import sys
import time

from _mini import after, legal, out, serve

GOOD = 0
"""Good moves before misbehaving (the first argument, read when run)."""


def go(view: dict, k: int) -> None:
    if k >= GOOD:
        time.sleep(3600)
    out(f"bestmove {legal(view)[0]}")


if __name__ == "__main__":
    GOOD = after(sys.argv)
    serve(go, "hang")
