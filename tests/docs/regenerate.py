"""Rewrite the outputs a Markdown page shows with what its examples print now.

After a change that moves the numbers of the searches (a new playout policy, a new
stream), the pages' sessions no longer match. This runs a page's examples in order,
as the test does, and rewrites the output of each session example that no longer
matches, unless what the page shows holds ``...`` (what varies: edit that by hand).
Dialogues (``>`` and ``<`` lines) get their answers rewritten, but those holding
``...``, when the dialogue has as many lines as before. Read the
diff before committing it::

    python tests/docs/regenerate.py docs/cli.md docs/records.md
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from shellexamples import (
    ROOT,
    Example,
    checkout,
    expected_transcript,
    failure,
    markdown_examples,
    not_run,
    run,
)


def _output_lines(example: Example, lines: list[str]) -> tuple[int, int]:
    """The 0-based range of the lines after the command (its output and dialogue)."""
    i = int(example.where.rsplit(":", 1)[1]) - 1 + len(example.command.splitlines())
    end = i
    while end < len(lines) and not lines[end].startswith(("$ ", "```")):
        end += 1
    while end > i and not lines[end - 1].strip():
        end -= 1  # the blank lines before the next command stay
    return i, end


def regenerate(page: Path) -> list[str]:
    """Rewrite ``page`` in place; return what could not be rewritten."""
    examples = markdown_examples(page)
    lines = page.read_text(encoding="utf-8").splitlines()
    edits: list[tuple[int, int, list[str]]] = []
    left: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = checkout(Path(tmp) / "checkout")
        for example in examples:
            if not_run(example.command):
                continue
            outcome = run(example, cwd)
            problem = failure(example, outcome)
            if problem is None:
                continue
            printed = outcome.output.splitlines()
            while printed and not printed[-1].strip():
                printed.pop()
            if example.typed:  # a dialogue: each answer line, but those that show "..."
                shown = expected_transcript(example)
                if len(shown) == len(printed):
                    printed = [s if "..." in s else p for s, p in zip(shown, printed,
                                                                      strict=True)]
                    shown = []
            else:
                shown = example.shown or []
            if any("..." in s for s in shown) or outcome.status is None or (
                    example.typed and shown):
                left.append(problem)
                continue
            start, end = _output_lines(example, lines)
            edits.append((start, end, [p.rstrip() for p in printed]))
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = new
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return left


def main(argv: list[str] | None = None) -> int:
    """Rewrite the pages named on the command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("pages", nargs="+", type=Path)
    args = parser.parse_args(argv)
    status = 0
    for page in args.pages:
        left = regenerate((ROOT / page) if not page.is_absolute() else page)
        for problem in left:
            print(f"edit by hand: {problem}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
