"""Refuses every ``go`` with an ``error`` line, and stays in step."""

from _mini import out, serve


def go(view: dict, k: int) -> None:
    out("error go: I would rather not")


if __name__ == "__main__":
    serve(go, "refuse")
