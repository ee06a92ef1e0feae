"""docs/protocol.md's worked session is what ``matador engine greedy`` really answers."""

from __future__ import annotations

import re

from mep_pipe import ROOT, Pipe


def session() -> list[tuple[str, list[str]]]:
    """The worked session: each command with the answer lines the docs show for it."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = text.split("## A worked session", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("> "):
            steps.append((line[2:], []))
        else:
            assert line.startswith("< "), line
            steps[-1][1].append(line[2:])
    return steps


def same(shown: str, answered: str) -> bool:
    """Equal, except for figures that change with the bots' playouts and the clock."""
    if shown.startswith("info time ") or shown.startswith("id author "):
        return answered.split()[:2] == shown.split()[:2]
    if shown.startswith("info move "):
        pattern = r"info move \S+ win [01]\.\d{4} points -?\d+\.\d\d samples \d+"
        return re.fullmatch(pattern, answered) is not None
    return shown == answered


def test_the_worked_session_replays() -> None:
    steps = session()
    assert len(steps) > 10
    pipe = Pipe.engine("greedy")
    try:
        for command, shown in steps:
            if command == "quit":
                pipe.send(command)
                continue
            answered = pipe.ask(command, shown[-1].split()[0]) if shown else pipe.quiet(command)
            assert len(answered) == len(shown), (command, answered)
            assert all(same(s, a) for s, a in zip(shown, answered, strict=True)), \
                (command, answered)
            if command.startswith("analyse"):  # the moves, if not their figures
                assert sorted(a.split()[2] for a in answered[:-1]) == \
                    sorted(s.split()[2] for s in shown[:-1])
        assert pipe.proc.wait(timeout=10) == 0
    finally:
        if pipe.proc.poll() is None:
            pipe.proc.kill()
