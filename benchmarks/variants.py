"""``matador arena`` with variants of ``sage`` registered as bot kinds, to screen one piece.

Each variant is ``sage`` with one piece changed, so that a duplicate-deal
match against plain ``sage`` at the same iteration budget says what that
piece is worth (``docs/bots.md``, "Inference, the ceiling, and the other seats")::

    python benchmarks/variants.py sage-e12:300it sage:300it --preset classic \\
        --players 2 --deals 500 --seed 1804 --bootstrap 0

Every argument goes to ``matador arena``; the variants are:

* ``sage-e0``: no exact endgames (playouts to the end of every world);
* ``sage-e12``: exact endgames from 12 tiles in play (``sage``: 9);
* ``sage-full``: no early stop on settled decisions (the whole budget on
  every decision with a choice).
"""

from __future__ import annotations

import sys
from functools import partial

from matador.cli.main import main
from matador.players import SageBot, register

VARIANTS = {
    "sage-e0": partial(SageBot, endgame=0),
    "sage-e12": partial(SageBot, endgame=12),
    "sage-full": partial(SageBot, early_stop=False),
}


if __name__ == "__main__":
    for kind, factory in VARIANTS.items():
        register(kind, factory)
    sys.exit(main(["arena", *sys.argv[1:]]))
