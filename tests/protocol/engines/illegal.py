"""Plays N good moves (argument, default 0), then a tile it does not hold: always illegal."""

import sys

from _mini import after, legal, out, serve

GOOD = 0
"""Good moves before misbehaving (the first argument, read when run)."""
TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]


def go(view: dict, k: int) -> None:
    if k >= GOOD:
        # Not in its hand: illegal as an opening (not held) and after it (R6).
        out(f"bestmove {next(t for t in TILES if t not in view['hand'])}")
    else:
        out(f"bestmove {legal(view)[0]}")


if __name__ == "__main__":
    GOOD = after(sys.argv)
    serve(go, "illegal")
