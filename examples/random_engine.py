"""A complete MEP engine that plays a uniformly random legal move: copy it to write your own.

Try it against our bots, from the root of the repository:

    matador arena greedy "engine:python3 examples/random_engine.py" \
        --preset classic --players 2 --deals 100

MEP (docs/protocol.md) is plain text: read one command per line on standard
input, answer on standard output, flush after every answer, and answer
``error WHY`` to whatever you cannot accept. Your bot goes in ``choose``.

The only use of matador is ``legal_moves``, which reads the view. An engine
in another language does the same by hand: parse the view's JSON, replay its
``moves`` from the opening to learn the line's two ends, your current hand
(your dealt ``hand``, plus your ``draw TILE`` draws, minus your plays) and
whose turn it is, then list your legal moves by RULES.md R6-R17.
"""

import random
import sys

from matador.core.view import PlayerView


def legal_moves(view_json: str) -> list[str]:
    """The legal moves of the view's seat in record notation (ValueError for a bad view)."""
    return [str(move) for move in PlayerView.from_json(view_json).legal_moves]


def choose(moves: list[str], rng: random.Random) -> str:
    """Your bot: pick one of the legal moves."""
    return rng.choice(moves)


def answer(*lines: str) -> None:
    for line in lines:
        print(line, flush=True)


def main() -> None:
    rng = random.Random(0)
    moves: list[str] = []
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "mep":
            answer("id name random example", "id author you",
                   "option name Seed type spin default 0 min 0 max 18446744073709551615",
                   "mepok")
        elif command == "isready":
            answer("readyok")
        elif command == "setoption":
            words = rest.split()  # name NAME value VALUE
            if len(words) == 4 and words[1] == "Seed" and words[3].isdigit():
                rng = random.Random(int(words[3]))
            else:
                answer(f"error setoption: cannot set {rest!r} (the one option is Seed)")
        elif command == "newhand":
            moves = []
        elif command == "position":
            try:
                moves = legal_moves(rest)
            except ValueError as e:
                moves = []
                answer(f"error position: {e}")
        elif command == "go":
            if moves:
                answer(f"bestmove {choose(moves, rng)}")
            else:
                answer("error go: no position where it is my turn")
        elif command == "quit":
            return
        elif command:
            answer(f"error unknown command {command!r}")


if __name__ == "__main__":
    main()
