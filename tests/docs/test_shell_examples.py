"""Every shell example of README.md, docs/ and ``--help`` runs, and prints what it shows.

See :mod:`shellexamples` for how examples are found and run (issue 9, item 13).
The pages whose examples play matches or run arenas and benchmarks take a
minute or more: they are in the slow lane (``-m slow``, which CI runs); after
editing one, run ``python -m pytest tests/docs -m slow -k NAME``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shellexamples import (
    NOT_RUN,
    Example,
    checkout,
    created_files,
    epilog_examples,
    failure,
    groups,
    markdown_examples,
    matches,
    not_ignored,
    not_run,
    run,
    stripped,
)

GROUPS = groups()
LONG = ("matador arena", "matador play", "matador study", "matador simulate", "matador analyse",
        "matador serve", "benchmarks/")
"""Commands that run for seconds to minutes (a server runs its 4 s): a page holding one is in
the slow lane."""
HEAVY = ("docs/records.md", "matador deal --help", "matador replay --help")
"""Pages of short commands that still take a second or more each: the whole run only."""
LANES = [pytest.param(name, marks=pytest.mark.slow)
         if name in HEAVY or any(long in e.command for e in examples for long in LONG)
         else name
         for name, examples in sorted(GROUPS.items())]


@pytest.mark.parametrize("group", LANES)
def test_examples_run_as_shown(group: str, tmp_path: Path) -> None:
    """The examples of one page, in order, in a checkout-like directory."""
    cwd = checkout(tmp_path / "checkout")
    problems = []
    for example in GROUPS[group]:
        if not_run(example.command):
            continue
        problem = failure(example, run(example, cwd))
        if problem:
            problems.append(problem)
    stray = not_ignored(created_files(cwd))
    if stray:
        problems.append(f"files the examples create that .gitignore does not ignore: {stray}")
    assert not problems, "\n\n".join(problems)


def test_every_page_and_help_has_examples() -> None:
    for name in ("README.md", "docs/cli.md", "docs/records.md", "docs/protocol.md",
                 "matador --help", "matador replay --help", "matador arena --help",
                 "matador analyse --help", "matador engine --help", "matador play --help",
                 "matador show --help", "matador deal --help", "matador simulate --help",
                 "examples/README.md", "examples/random_engine.py"):
        assert GROUPS.get(name), name


def test_commands_not_run_still_exist_and_say_why() -> None:
    every = {stripped(e.command) for examples in GROUPS.values() for e in examples}
    for command, why in NOT_RUN.items():
        assert command in every, f"not run, but no page shows it any more: {command}"
        assert why


def test_discovery(tmp_path: Path) -> None:
    """The parser of pages and help: sessions, plain blocks, continuations, descriptions."""
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\nmatador a  # one\nmatador b \\\n  --c\n\nmatador 'd\ne'\n```\n"
        "```sh\n$ matador x; echo \"exit $?\"\nout 1\nexit 2\n$ matador y\n```\n"
        "```text\n$ matador engine greedy\n> isready\n< readyok\n```\n"
        "```python\nmatador not a shell example\n```\n")
    import shellexamples

    saved = shellexamples.ROOT
    shellexamples.ROOT = tmp_path
    try:
        found = markdown_examples(page)
    finally:
        shellexamples.ROOT = saved
    assert [e.command for e in found] == [
        "matador a  # one", "matador b \\\n  --c", "matador 'd\ne'",
        'matador x; echo "exit $?"', "matador y", "matador engine greedy"]
    assert found[3].shown == ["out 1", "exit 2"] and found[4].shown == []
    assert found[0].shown is None and found[5].typed == [("isready", ["readyok"])]
    epilog = ("examples:\n  matador a --b 1                 a description\n"
              "  matador c 'x  y' \\\n      --d    tail\n  cat f | matador e -\n\nmore")
    assert [e.command for e in epilog_examples("h", epilog)] == [
        "matador a --b 1", "matador c 'x  y' --d", "cat f | matador e -"]


def test_matching() -> None:
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert matches(["a ... s", "..."], ["a 0.12 s"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "extra"])


def test_a_failing_example_is_reported(tmp_path: Path) -> None:
    cwd = checkout(tmp_path / "c")
    bad = Example("x", "matador replay nowhere.json")
    assert "exit 2" in (failure(bad, run(bad, cwd)) or "")
    wrong = Example("x", "matador replay examples/hand.json", shown=["{}"])
    assert "but the page shows" in (failure(wrong, run(wrong, cwd)) or "")


def test_pages_say_how_matador_is_found() -> None:
    """A page whose examples run ``matador`` says where it comes from: the quick-start
    environment is not activated by the README's commands (issue 9, item 13)."""
    from shellexamples import ROOT, pages

    silent = []
    for page in pages():
        name = str(page.relative_to(ROOT))
        runs = any("matador " in e.command for e in GROUPS.get(name, []))
        text = page.read_text(encoding="utf-8")
        if runs and ".venv/bin/" not in text and "activate" not in text:
            silent.append(name)
    assert not silent, f"say how `matador` is found (.venv/bin/matador, or activate): {silent}"
