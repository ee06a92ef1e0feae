"""Every shell example of the README, of docs/ and of ``--help``, found and run (issue 9).

Examples are discovered, not listed, so new and rewritten pages are covered:

* in Markdown (README.md, every page under docs/, examples/README.md), every
  fenced ``sh`` block, and every ``text`` block whose first line starts with
  ``$ ``. In a block whose lines start with ``$ `` (a *session*), each
  ``$ COMMAND`` is followed by its output as shown, which is compared
  (standard output and error together, as a terminal shows them); ``...``
  alone on a line matches any lines, within a line any text. In a session,
  lines starting with ``> `` are typed to the command and lines starting with
  ``< `` are its answers (an MEP engine's dialogue). In a block without
  ``$`` every line is a command (a trailing ``\\`` or an open quote continues
  it; ``# ...`` is a comment), which must succeed; so are the lines of a
  ``sh`` block before its first ``$`` line;
* in ``--help``, the ``examples:`` section of ``matador`` and of every
  command: one command per line, up to two spaces before its description;
* in the docstrings of the scripts in examples/, indented lines starting
  with ``matador ``.

The examples of one page (or one ``--help``) run in order in one directory
laid out like a checkout (the repository's files linked, ``examples/``
copied, ``.venv`` the running environment), as a reader following the page
would run them: a file one example writes, the next reads. ``matador``,
``python3`` and ``.venv/bin/...`` are this environment's. A command that has
not finished after :data:`ALIVE` seconds (an arena of a thousand deals, a
benchmark) passes if it wrote no error by then; one whose output is shown
must finish. ``matador play`` runs in a terminal (a pty), where its reader
presses Enter, plays the first move listed (or hands over) three times, then
leaves the match (``q``, ``y``: the unfinished hand is saved). Every file the
examples create must be ignored by git (.gitignore). The few commands not run
are listed in :data:`NOT_RUN`,
each with the reason, and must still exist.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository."""
BIN = Path(sys.executable).parent
"""The running environment's scripts: ``matador``, ``python``."""
DEADLINE = 60.0
"""Seconds a command whose output is shown, or a dialogue, may take to finish."""
ALIVE = 4.0
"""Seconds a command whose output is not shown runs at most: if it has not finished by then
(an arena of a thousand deals, a benchmark), it passes if it wrote no error, and is stopped.
Mistakes in arguments, files or engines show within a second."""
KEYBOARD = 30.0
"""Seconds ``matador play`` may take in its terminal, where it ends by itself."""

NOT_RUN: dict[str, str] = {
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/matador serve":
        "installs the package into a new environment and serves until stopped: the server's"
        " tests start it",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && "
    ".venv/bin/python -m pytest -n auto":
        "installs and runs this very test suite: .ci/run does exactly this",
    ".venv/bin/python -m pytest -n auto": "this very test suite",
    ".venv/bin/ruff check src tests benchmarks examples": "a step of .ci/run",
    ".venv/bin/mypy": "a step of .ci/run",
    ".ci/run": "the CI itself, which runs this test",
}
"""Commands (comments stripped) that the examples test does not run, and why."""

NOT_RUN_WHEN: dict[str, str] = {
    "--backend ray": "runs on a Ray cluster: tests/arena runs the backend on one on loopback",
    "--address": "joins a Ray cluster: tests/arena runs the backend on one on loopback",
    "ray start": "starts a node of a Ray cluster",
    "HEAD_IP": "names the head node of your Ray cluster",
    "pip install": "installs packages: .ci/run installs the extras the tests need",
    "policy:policy.npz": "plays the policy examples/train_policy.py trains in minutes; "
                         "tests/envs/test_policy.py trains and plays one",
    "matador verify": "checks the fair-deal proofs of records a running `matador serve` "
                      "wrote; tests/server verifies them",
    "postgresql://": "needs a PostgreSQL server; tests/server runs the server on SQLite",
    "curl ": "asks a running `matador serve`; tests/server runs one",
    "python -m pytest -m": "a lane of this very test suite",
}
"""Commands holding one of these are not run either, for the reason given."""


def not_run(command: str) -> str | None:
    """Why ``command`` is not run, or ``None`` if it is."""
    key = stripped(command)
    if key in NOT_RUN:
        return NOT_RUN[key]
    return next((why for part, why in NOT_RUN_WHEN.items() if part in key), None)


@dataclass
class Example:
    """One command of a page, with what the page shows it print, if anything."""

    where: str
    """``README.md:123`` or ``matador arena --help``."""
    command: str
    shown: list[str] | None = None
    """The output the page shows (``None``: not shown, the command must succeed)."""
    typed: list[tuple[str, list[str]]] = field(default_factory=list)
    """For a dialogue: each line typed, with the answers shown for it."""


def _complete(command: str) -> bool:
    if command.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(command, comments=True)
    except ValueError:  # an open quote: the command goes on on the next line
        return False
    return True


def _commands(lines: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Commands of a plain block, joined across continuation lines, without blank lines."""
    pending: list[str] = []
    start = 0
    for number, line in lines:
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = number
        pending.append(line)
        if _complete("\n".join(pending)):
            yield start, "\n".join(pending)
            pending = []
    if pending:
        yield start, "\n".join(pending)


def _session(name: str, lines: list[tuple[int, str]]) -> list[Example]:
    """A ``$`` block: commands, each with the output (or the dialogue) shown after it."""
    out: list[Example] = []
    i = 0
    while i < len(lines):
        number, line = lines[i]
        if not line.startswith("$ "):
            raise ValueError(f"{name}:{number}: a session line before its first '$ '")
        command = line[2:]
        i += 1
        while not _complete(command) and i < len(lines):
            command += "\n" + lines[i][1]
            i += 1
        example = Example(f"{name}:{number}", command, [])
        while i < len(lines) and not lines[i][1].startswith("$ "):
            text = lines[i][1]
            if text.startswith("> "):
                example.typed.append((text[2:], []))
            elif text.startswith("< ") and example.typed:
                example.typed[-1][1].append(text[2:])
            else:
                assert example.shown is not None
                example.shown.append(text)
            i += 1
        out.append(example)
    return out


def markdown_examples(path: Path) -> list[Example]:
    """The examples of one Markdown page, in order."""
    name = str(path.relative_to(ROOT))
    examples: list[Example] = []
    block: list[tuple[int, str]] | None = None
    kind = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if block is None:
            if line.startswith("```"):
                kind, block = line[3:].strip(), []
            continue
        if not line.startswith("```"):
            block.append((number, line))
            continue
        session = any(text.startswith("$ ") for _, text in block[:1]) or (
            kind == "sh" and any(text.startswith("$ ") for _, text in block))
        if session and kind in ("sh", "text", "console"):
            first = next(i for i, (_, text) in enumerate(block) if text.startswith("$ "))
            examples += [Example(f"{name}:{n}", c) for n, c in _commands(block[:first])]
            examples += _session(name, block[first:])
        elif kind == "sh":
            examples += [Example(f"{name}:{n}", c) for n, c in _commands(block)]
        block = None
    return examples


def pages() -> list[Path]:
    """The Markdown pages searched: the README, docs/ (all of it), examples/README.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
            ROOT / "examples" / "README.md"]


def help_examples() -> dict[str, list[Example]]:
    """The ``examples:`` of ``matador --help`` and of every ``matador COMMAND --help``."""
    import argparse

    from matador.cli.main import build_parser

    parser = build_parser()
    helps = {"matador --help": parser}
    for action in parser._actions:  # argparse keeps its subparsers in a private field
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if name in [n for n in helps]:
                    continue
                if sub.prog.split()[-1] == name:  # not an alias (analyze)
                    helps[f"matador {name} --help"] = sub
    return {where: epilog_examples(where, p.epilog or "") for where, p in helps.items()}


def epilog_examples(where: str, epilog: str) -> list[Example]:
    """The commands of an epilog's ``examples:`` section (a description may follow after
    two spaces or more; a trailing ``\\`` continues a command)."""
    lines = epilog.splitlines()
    if "examples:" not in lines:
        return []
    out: list[Example] = []
    pending = ""
    for line in lines[lines.index("examples:") + 1:]:
        if not line.strip():
            break
        if not pending and line.startswith("   "):
            continue  # the description of the command above, continued
        text = line.strip() if pending else line[2:]
        if pending:
            pending += " " + text
        else:
            pending = text
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        out.append(Example(where, _without_description(pending)))
        pending = ""
    return out


def _without_description(line: str) -> str:
    """The command of ``COMMAND   description``: up to the first two spaces outside quotes."""
    quote = ""
    for i, c in enumerate(line):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif line.startswith("  ", i):
            return line[:i]
    return line


def docstring_examples(path: Path) -> list[Example]:
    """Indented ``matador ...`` lines of a script's docstring."""
    import ast

    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    name = str(path.relative_to(ROOT))
    return [Example(name, line.strip()) for line in doc.splitlines()
            if line.startswith("    matador ")]


def groups() -> dict[str, list[Example]]:
    """Every example, by the page (or help, or script) it comes from, in order."""
    out = {str(p.relative_to(ROOT)): markdown_examples(p) for p in pages()}
    out.update(help_examples())
    for script in sorted((ROOT / "examples").glob("*.py")):
        out[str(script.relative_to(ROOT))] = docstring_examples(script)
    return {k: v for k, v in out.items() if v}


# -- running ---------------------------------------------------------------------------------


def checkout(where: Path) -> Path:
    """A directory laid out like the repository root, to run examples in."""
    where.mkdir(parents=True, exist_ok=True)
    for entry in ROOT.iterdir():
        if entry.name in (".git", ".venv", "examples"):
            continue
        (where / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "examples", where / "examples")
    (where / ".venv").symlink_to(Path(sys.prefix))
    return where


HOME_DIRS = Path(tempfile.mkdtemp(prefix="matador-examples-"))
"""The data and configuration directories the examples see: what ``matador play`` saves
and the database ``matador serve`` makes stay out of the user's own."""


def environment() -> dict[str, str]:
    """This environment's ``matador`` and ``python3`` first on the PATH; English, UTF-8;
    data and configuration under :data:`HOME_DIRS`."""
    env = dict(os.environ)
    env["XDG_DATA_HOME"] = str(HOME_DIRS / "data")
    env["XDG_CONFIG_HOME"] = str(HOME_DIRS / "config")
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["LC_ALL"] = "C.UTF-8"
    env.pop("LANGUAGE", None)
    env.pop("LANG", None)
    env["COLUMNS"] = "120"
    return env


def stripped(command: str) -> str:
    """The command without comments, on one line (the key of :data:`NOT_RUN`)."""
    return " ".join(line.split("  #")[0].strip() for line in command.splitlines()).strip()


@dataclass
class Outcome:
    """How an example went."""

    status: int | None
    """The exit status, ``None`` if it was still running at the deadline."""
    output: str
    errors: str


def run(example: Example, cwd: Path) -> Outcome:
    """Run ``example`` in ``cwd`` (see the module docstring)."""
    if "matador play" in example.command:
        return _run_in_terminal(example.command, cwd, KEYBOARD)
    if example.typed:
        return _dialogue(example, cwd, DEADLINE)
    shown = example.shown is not None
    deadline = DEADLINE if shown else ALIVE
    proc = subprocess.Popen(["bash", "-c", example.command], cwd=cwd, env=environment(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if shown else subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=deadline)
        status: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        status = None
        for _ in range(100):  # the whole group gone (a server's port free) before what follows
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
    return Outcome(status, out.decode("utf-8", "replace"), (err or b"").decode("utf-8", "replace"))


def _run_in_terminal(command: str, cwd: Path, deadline: float) -> Outcome:
    """A command that reads the keyboard, in a pty whose input ends once it waits for it."""
    import pexpect

    child = pexpect.spawn("bash", ["-c", command], cwd=str(cwd), env=environment(),
                          encoding="utf-8", codec_errors="replace", dimensions=(50, 120),
                          timeout=deadline)
    seen: list[str] = []
    keys = ["\r", "1\r", "1\r", "1\r", "q\r", "y\r"]  # start, move (or hand over), leave
    end = time.monotonic() + deadline
    while child.isalive() and time.monotonic() < end:
        try:
            seen.append(child.read_nonblocking(100_000, timeout=0.7))
        except pexpect.TIMEOUT:  # quiet for a while: it waits for the keyboard
            if keys:
                child.send(keys.pop(0))
            else:
                child.sendeof()
        except pexpect.EOF:
            break
    running = child.isalive()
    if running:
        child.terminate(force=True)
    child.close()
    text = "".join(seen)
    return Outcome(None if running else child.exitstatus, text, text)


def _dialogue(example: Example, cwd: Path, deadline: float) -> Outcome:
    """A command fed the typed lines one by one, its answers collected after each."""
    import queue
    import threading

    proc = subprocess.Popen(["bash", "-c", example.command], cwd=cwd, env=environment(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1,
                            start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    transcript: list[str] = []
    try:
        for typed, answers in example.typed:
            transcript.append(f"> {typed}")
            proc.stdin.write(typed + "\n")
            proc.stdin.flush()
            for _ in answers:
                try:
                    line = lines.get(timeout=deadline)
                except queue.Empty:
                    line = None
                if line is None:
                    break
                transcript.append(f"< {line}")
        proc.stdin.close()
        status: int | None = proc.wait(timeout=deadline)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        status = None
    errors = proc.stderr.read() if proc.stderr and status is not None else ""
    return Outcome(status, "\n".join(transcript), errors)


def expected_transcript(example: Example) -> list[str]:
    """The dialogue as shown: ``> typed`` then ``< answer`` lines."""
    out: list[str] = []
    for typed, answers in example.typed:
        out.append(f"> {typed}")
        out += [f"< {a}" for a in answers]
    return out


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is what ``shown`` shows: ``...`` alone matches any lines, within a
    line any text; trailing spaces are ignored."""
    shown = [s.rstrip() for s in shown]
    printed = [p.rstrip() for p in printed]
    while shown and not shown[-1]:
        shown.pop()
    while printed and not printed[-1]:
        printed.pop()

    def line_matches(s: str, p: str) -> bool:
        if "..." not in s:
            return s == p
        pattern = ".*".join(re.escape(part) for part in s.split("..."))
        return re.fullmatch(pattern, p, re.S) is not None

    def at(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(printed)
        if shown[i] == "...":
            return any(at(i + 1, k) for k in range(j, len(printed) + 1))
        return j < len(printed) and line_matches(shown[i], printed[j]) and at(i + 1, j + 1)

    return at(0, 0)


def failure(example: Example, outcome: Outcome) -> str | None:
    """What went wrong with an example, or ``None``."""
    head = f"{example.where}: {example.command!r}"
    if example.typed:
        want = expected_transcript(example)
        got = outcome.output.splitlines()
        if not matches(want, got):
            return f"{head}: the dialogue differs:\n" + "\n".join(
                f"  shown {w!r}\n  got   {g!r}" for w, g in zip(want, got + [""] * len(want),
                                                               strict=False) if w != g)[:3000]
        if outcome.status not in (0, None) or "Traceback" in outcome.errors:
            return f"{head}: exit {outcome.status}: {outcome.errors[-1000:]}"
        return None
    if example.shown is not None:
        if outcome.status is None:
            return f"{head}: still running after {DEADLINE} s, but its output is shown"
        if not matches(example.shown, outcome.output.splitlines()):
            return (f"{head}: prints\n{outcome.output[-3000:]}\nbut the page shows\n"
                    + "\n".join(example.shown))
        return None
    bad = "Traceback" in outcome.errors or "error:" in outcome.errors
    if outcome.status is None:
        return f"{head}: still running, with errors: {outcome.errors[-1000:]}" if bad else None
    if outcome.status != 0 or bad:
        return f"{head}: exit {outcome.status}: {(outcome.errors or outcome.output)[-1500:]}"
    return None


def created_files(cwd: Path) -> list[str]:
    """Files the examples created in ``cwd`` (not the links and copies of the checkout)."""
    out = []
    for top, dirs, files in os.walk(cwd):  # does not follow the links
        here = Path(top).relative_to(cwd)
        dirs[:] = [d for d in dirs if not (Path(top) / d).is_symlink()]
        for name in files:
            path = here / name
            if (cwd / path).is_symlink() or (path.parts[0] == "examples"
                                              and (ROOT / path).exists()):
                continue
            out.append(str(path))
    return sorted(out)


def not_ignored(names: list[str]) -> list[str]:
    """The names (relative to the repository root) that git would not ignore."""
    if not names:
        return []
    done = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"],
                          input="\n".join(names) + "\n", capture_output=True, text=True,
                          check=False)
    if done.returncode not in (0, 1):  # not a git checkout: read .gitignore's plain patterns
        import fnmatch

        patterns = [p.strip() for p in (ROOT / ".gitignore").read_text().splitlines()
                    if p.strip() and not p.startswith("#")]
        return [n for n in names if not any(
            fnmatch.fnmatch(n, p.lstrip("/")) or fnmatch.fnmatch(Path(n).name, p)
            or n.startswith(p.rstrip("/") + "/") for p in patterns)]
    ignored = set(done.stdout.splitlines())
    return [n for n in names if n not in ignored]
