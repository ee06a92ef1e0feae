"""The class of issue 9's items 2, 4 and 5, checked in the source: how input is quoted and read.

Where the package reads input (the core, the command line, the engine, bot
specs), an error message quotes input only through
:func:`matador.core.errors.quote` (a short, escaped excerpt) and names a key
only through :func:`~matador.core.errors.field_path`: never ``{value!r}``,
which echoes ten megabytes in full. And no parser there uses ``str.isdigit``
or ``\\d`` without ``re.ASCII``, which take ``'²'`` for a digit.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "matador"
READERS = [*sorted((SRC / "core").glob("*.py")), *sorted((SRC / "cli").glob("*.py")),
           SRC / "protocol" / "engine.py", SRC / "players" / "base.py"]


def _raises_with_repr(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and node.exc is not None:
            for inner in ast.walk(node.exc):
                if isinstance(inner, ast.FormattedValue) and inner.conversion == ord("r"):
                    found.append(f"{path.name}:{inner.lineno}")
    return found


def test_errors_quote_input_through_the_helper() -> None:
    found = [hit for path in READERS for hit in _raises_with_repr(path)]
    assert not found, f"use quote(value) instead of {{value!r}} in: {', '.join(found)}"


def test_the_guard_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('def f(x):\n    raise ValueError(f"{x!r} is bad")\n')
    assert len(_raises_with_repr(sample)) == 1


def test_parsers_read_ascii_digits_only() -> None:
    found = []
    for path in [*READERS, *sorted((SRC / "ui").glob("*.py"))]:  # the keyboard too
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            ascii_checked = "isascii()" in code
            if (".isdigit()" in code or ".isdecimal()" in code or ".isnumeric()" in code) \
                    and not ascii_checked:
                found.append(f"{path.relative_to(SRC)}:{k}")
            if re.search(r"\\d", code) and "re.ASCII" not in code and "[0-9]" not in code:
                found.append(f"{path.relative_to(SRC)}:{k}")
    assert not found, f"ASCII digits only: {', '.join(found)}"


def test_typed_numbers_that_are_not_ascii_are_not_moves() -> None:
    """What a player types is read in ASCII digits: ``'²'`` is not move 2, nor a crash."""
    from matador.core.state import HandState
    from matador.core.view import PlayerView
    from matador.ui.describe import menu_entries, parse_input

    state = HandState.new("classic", 2, 3)
    view = PlayerView.of(state, state.to_move)
    entries = menu_entries(view)
    assert parse_input(view, "1", entries) == entries[0].move
    for text in ("²", "٣", "1-³", "9" * 5000, "²-²"):
        assert isinstance(parse_input(view, text, entries), str), text
