"""Answers ``go`` with garbage: prose (``text``, the default) or a move that does not parse."""

import sys

from _mini import out, serve

MODE = "text"
"""What to answer (the first argument, read when run): ``text`` or ``move``."""


def go(view: dict, k: int) -> None:
    if MODE == "move":
        out("bestmove L9-9")
    else:
        out("The quick brown fox jumps over the lazy dog")


if __name__ == "__main__":
    MODE = sys.argv[1] if len(sys.argv) > 1 else "text"
    serve(go, "garbage")
