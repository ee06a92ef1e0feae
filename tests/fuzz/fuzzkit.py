"""Hostile input for the fuzz tests, and the contract every boundary keeps (issue 9).

Everything here is driven by one seeded ``random.Random``, so a failure names
its seed and replays exactly. Three kinds of material:

* valid material: records of hands played with random legal moves under random
  presets and overrides (finished or not, with or without ``result`` and
  ``meta``), and MEP views of their positions;
* mutations of it: a value anywhere in the JSON replaced by something nasty
  (non-ASCII digits, lone surrogates, control characters, empty and huge keys,
  numbers of thousands of digits, wrong types, deep nesting), keys added or
  removed, then byte-level damage (invalid UTF-8, truncation, NUL, CR, BOM);
* engine lines: every MEP command with good and bad arguments, positions
  from the mutated and from impossible views, binary garbage.

The contract checks: a refusal is exactly one line ``error: WHERE: WHY`` (WHERE
never empty, printable UTF-8, short), exit status 2, nothing on standard
output; no input gives a traceback or an internal error; the engine answers
``readyok`` after every line, its every line printable UTF-8, and ``go`` or
``analyse`` within ``movetime`` plus the host's grace.
"""

from __future__ import annotations

import io
import json
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matador.cli.main import main
from matador.core.moves import PASS
from matador.core.record import Record
from matador.core.rules import PRESETS, Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.protocol.host import DEFAULT_THINK, GRACE

MATADOR = Path(sys.executable).parent / "matador"
"""The installed ``matador`` executable."""

MAX_LINE = 2300
"""The longest error line accepted, in characters (WHERE and WHY are cut at 200 and 2000)."""

BIG = "__BIG_NUMBER__"
"""A placeholder value that :func:`encode` writes as a number of thousands of digits."""
DEEP = "__DEEP_NESTING__"
"""A placeholder value that :func:`encode` writes as arrays nested thousands deep."""

OVERRIDES: tuple[dict[str, Any], ...] = (
    {}, {"draw": "one"}, {"matador_optional": False}, {"matador_anytime": False},
    {"going_out": "never"}, {"going_out": "after_boneyard"}, {"first_leader": "lot"},
    {"draw": "one", "matador_optional": False}, {"per_join": 3, "pass_penalty": 2},
)

NASTY_STRINGS: tuple[str, ...] = (
    "", " ", "²-1", "1-³", "٣-٤", "L٣-٤", "R²-1", "\uff10-\uff13", "0\u20133", "L5-4\x85", "R1-1\n",
    "\ud800", "\udfff", "a\rb", "\x1b[31m", "\u2028", "\u2029", "\x00", "\x7f", "é", "Ω",
    "🀱", "draw ", "draw\t2-5", "draw ²-5", "draw 2-5 ", "pass\r", "0-3 ", " 0-3", "[/bold]",
    "[red]x", "%s", "{}", "NaN", "Infinity", "-0", "1e5", "classic ", "CLASSIC", "six\x00",
    "L", "R", "-", "0-", "-0-", "L0-0-", "draw draw", "drawn", "passs",
)


def nasty_string(rng: random.Random) -> str:
    """A short string meant to trip a parser: odd digits, controls, surrogates, markup..."""
    roll = rng.random()
    if roll < 0.6:
        return rng.choice(NASTY_STRINGS)
    if roll < 0.8:
        return "".join(chr(rng.choice((rng.randrange(0x20), rng.randrange(0x80, 0x100),
                                       rng.randrange(0xD800, 0xE000),
                                       rng.randrange(0x100, 0x30000), ord("-"), ord("L"),
                                       rng.randrange(0x30, 0x3A))))
                       for _ in range(rng.randrange(1, 8)))
    if roll < 0.98:
        return rng.choice("xL7é\ud800\n") * rng.choice((100, 1000))
    if roll < 0.998:
        return rng.choice("xL7é\ud800\n") * 50_000
    return "y" * 2_000_000


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value of any kind, nasty more often than not."""
    roll = rng.random()
    if roll < 0.35:
        return nasty_string(rng)
    if roll < 0.5:
        return rng.choice((0, 1, -1, 2, 7, 28, 128, 2**31, 2**64, -(2**63), 10**40, BIG))
    if roll < 0.58:
        return rng.choice((0.5, -0.0, 1e308, 3.0, 2.5e-300))
    if roll < 0.66:
        return rng.choice((True, False, None))
    if roll < 0.8 or depth > 3:
        return [junk(rng, depth + 1) for _ in range(rng.choice((0, 1, 2, 5)))]
    if roll < 0.95:
        return {odd_key(rng): junk(rng, depth + 1) for _ in range(rng.choice((0, 1, 3)))}
    return DEEP


def odd_key(rng: random.Random) -> str:
    """A key no record or view has: empty, huge, with controls or surrogates..."""
    if rng.random() < 0.002:
        return "x" * 10_000_000
    return rng.choice(("", " ", "\ud800", "a\nb", "x" * 10_000, "meta ", "rules.preset", "0",
                       "é", "\x1b", "hands", "result", "seat", "[/]"))


def random_rules(rng: random.Random) -> Rules:
    """A preset with a random set of overrides (every one valid)."""
    return Rules.from_preset(rng.choice(PRESETS), rng.choice(OVERRIDES))


def random_hand(rng: random.Random, finish: bool | None = None) -> HandState:
    """A hand under random rules and player count, played with random legal moves.

    Finished, or stopped at a random ply (``finish`` decides; ``None``: either).
    Passes are preferred when legal, to reach empty boneyards and blocked ends.
    """
    rules = random_rules(rng)
    lo, hi = rules.players
    state = HandState.new(rules, rng.randint(lo, hi), rng)
    finish = rng.random() < 0.6 if finish is None else finish
    stop = None if finish else rng.randrange(40)
    while not state.is_over and (stop is None or state.ply < stop):
        ids = state.legal_move_ids()
        state.push(PASS if PASS in ids and rng.random() < 0.5 else rng.choice(ids))
    return state


def record_object(rng: random.Random) -> dict[str, Any]:
    """A valid record as a JSON object, sometimes with its result and a ``meta``."""
    state = random_hand(rng)
    out = Record.of(state).to_json(with_result=rng.random() < 0.5)
    if rng.random() < 0.4:
        out["meta"] = rng.choice((
            {"hand": rng.randint(1, 5), "seats": ["human", "easy"], "scores_before": [0, 0]},
            {"seats": [nasty_string(rng) for _ in range(state.players)]},
            junk(rng), {"hand": rng.choice((BIG, 10**40, -3, True))},
            {"scores_before": [rng.choice((BIG, 10**40, 0))] * state.players},
        ))
    return out


def view_object(rng: random.Random) -> dict[str, Any]:
    """A valid MEP view (usually of the seat to move) as a JSON object."""
    state = random_hand(rng, finish=rng.random() < 0.1)
    seat = state.to_move if state.to_move >= 0 and rng.random() < 0.85 \
        else rng.randrange(state.players)
    return PlayerView.of(state, seat).to_json()


# -- mutation ---------------------------------------------------------------------------


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _at(value: Any, path: Sequence[Any]) -> Any:
    for step in path:
        value = value[step]
    return value


def mutate(rng: random.Random, obj: Any, rounds: int | None = None) -> Any:
    """``obj`` (a JSON value, changed in place) with 1 to 3 random edits anywhere in it."""
    for _ in range(rounds if rounds is not None else rng.randint(1, 3)):
        paths = list(_paths(obj))
        path = rng.choice(paths)
        if not path:
            if rng.random() < 0.3:
                return junk(rng)
            continue
        parent = _at(obj, path[:-1])
        key = path[-1]
        roll = rng.random()
        if roll < 0.55:
            parent[key] = junk(rng)
        elif roll < 0.7:
            del parent[key]
        elif roll < 0.85 and isinstance(parent, dict):
            parent[odd_key(rng)] = junk(rng)
        elif isinstance(parent, list):
            parent.insert(rng.randrange(len(parent) + 1), junk(rng))
        elif isinstance(parent[key], str):
            parent[key] = _digit_swap(rng, parent[key])
    return obj


def _digit_swap(rng: random.Random, text: str) -> str:
    """``text`` with an ASCII digit replaced by a look-alike (superscript, Arabic, fullwidth)."""
    digits = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
    if not digits:
        return text + rng.choice("²٣３")
    i = rng.choice(digits)
    d = int(text[i])
    twin = rng.choice(("⁰¹²³⁴⁵⁶⁷⁸⁹"[d], "٠١٢٣٤٥٦٧٨٩"[d], chr(0xFF10 + d)))  # fullwidth
    return text[:i] + twin + text[i + 1:]


def encode(rng: random.Random, obj: Any) -> bytes:
    """``obj`` as JSON bytes: ASCII-escaped or raw UTF-8 (lone surrogates then invalid UTF-8),
    sometimes pretty-printed; :data:`BIG` becomes a number of thousands of digits."""
    try:
        text = json.dumps(obj, ensure_ascii=rng.random() < 0.8,
                          indent=2 if rng.random() < 0.1 else None)
    except (RecursionError, ValueError):
        text = json.dumps(str(obj)[:1000])
    text = text.replace(f'"{BIG}"', rng.choice(("9" * 5000, "-" + "1" * 4400, "1" + "0" * 300)))
    depth = rng.choice((50, 900, 5000))
    text = text.replace(f'"{DEEP}"', "[" * depth + "]" * depth)
    return text.encode("utf-8", "surrogatepass")


def damage(rng: random.Random, data: bytes) -> bytes:
    """``data`` with byte-level damage, or unchanged (two times in three)."""
    roll = rng.random()
    if roll < 0.65 or not data:
        return data
    i = rng.randrange(len(data) + 1)
    if roll < 0.73:
        return data[:i]
    if roll < 0.83:
        return data[:i] + rng.choice((b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\x00", b"\r",
                                      b"\xef\xbb\xbf", b"\x85", b"\\ud800", b"NaN", b",")) \
            + data[i:]
    if roll < 0.88:
        return b"\xef\xbb\xbf" + data
    if roll < 0.95:
        return data.replace(b'"players": ', b'"players": 2, "players": ', 1)
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))


def hostile_record(rng: random.Random) -> bytes:
    """One record as bytes: valid (a tenth of the time), or mutated and maybe damaged."""
    obj = record_object(rng)
    if rng.random() < 0.1:
        return encode(rng, obj)
    return damage(rng, encode(rng, mutate(rng, obj)))


def hostile_view(rng: random.Random) -> bytes:
    """A view as bytes: valid, impossible (a tile, the leader or a move changed), mutated..."""
    obj = view_object(rng)
    roll = rng.random()
    if roll < 0.25:
        return encode(rng, obj)
    if roll < 0.55:
        return encode(rng, _impossible(rng, obj))
    return damage(rng, encode(rng, mutate(rng, obj)))


def _impossible(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    """A view changed in one plausible way, which often no deal can produce."""
    names = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    kind = rng.randrange(4)
    if kind == 0:
        i = rng.randrange(len(view["hand"]))
        view["hand"][i] = rng.choice([t for t in names if t not in view["hand"]])
    elif kind == 1:
        view["leader"] = rng.randrange(view["players"])
    elif kind == 2 and view["moves"]:
        i = rng.randrange(len(view["moves"]))
        view["moves"][i] = rng.choice(["draw", "pass", *view["moves"]])
    else:
        view["moves"] = view["moves"][:rng.randrange(len(view["moves"]) + 1)]
    return view


def engine_line(rng: random.Random) -> bytes:
    """One line a host (or an attacker) might send an engine."""
    roll = rng.random()
    if roll < 0.35:
        return b"position " + hostile_view(rng).replace(b"\n", b" ")
    if roll < 0.55:
        word = rng.choice(("go", "analyse", "analyze"))
        args = rng.choice((
            "", f"movetime {rng.randint(1, 40)}", f"iterations {rng.randint(1, 30)}",
            f"movetime {rng.randint(1, 30)} iterations {rng.randint(1, 20)}",
            "movetime " + "9" * 5000, "iterations " + "9" * 5000, "movetime 0",
            "movetime -5", "movetime ²", "movetime", "depth 3", "movetime 10 movetime 10",
            "movetime ٣", "iterations 1e3", "movetime\r10",
        ))
        return f"{word} {args}".encode()
    if roll < 0.75:
        name = rng.choice(("Budget", "Iterations", "Level", "Seed", "budget", "Colour", "",
                           "\ud800", "Seed\r", "x" * 5000))
        value = rng.choice(("0", "5", "20", "-1", "9" * 5000, "²", "٣", "easy", "custom",
                            "normal", "max", "", "\x1b[2J", "\ud800", "1_000", " 7 "))
        text = rng.choice((f"setoption name {name} value {value}", f"setoption name {name}",
                           f"setoption {value}", "setoption", f"setoption name value {value}"))
        return text.encode("utf-8", "surrogatepass")
    if roll < 0.85:
        return rng.choice((b"mep", b"isready", b"newhand", b"", b"   ", b"\r", b"mep\r",
                           b"isready extra", b"newhand now"))
    return damage(rng, nasty_string(rng).replace("\n", " ").encode("utf-8", "surrogatepass"))


def engine_lines(rng: random.Random, n: int) -> list[bytes]:
    """``n`` lines for an engine: :func:`engine_line`, with a third of them a valid position
    of the seat to move followed at once by a search, so searches really run."""
    out: list[bytes] = []
    while len(out) < n:
        if rng.random() < 0.3:
            view = view_object(rng)
            out.append(b"position " + json.dumps(view).encode())
            out.append(rng.choice((b"go", b"go movetime 15", b"analyse iterations 3",
                                   b"analyse movetime 10", b"go iterations 5")))
        else:
            out.append(engine_line(rng))
    return out[:n]


# -- running the command line ------------------------------------------------------------


@dataclass(frozen=True)
class Ran:
    """What a command did: its exit status and its two outputs, as bytes."""

    status: int
    stdout: bytes
    stderr: bytes


def run_in_process(argv: Sequence[str], stdin: bytes = b"") -> Ran:
    """``matador ARGV`` in this process, standard streams replaced (the way a process has them).

    Anything but an exit status escaping ``main`` fails the test: that is a traceback.
    """
    out, err = io.BytesIO(), io.BytesIO()
    streams = (io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
               io.TextIOWrapper(out, encoding="utf-8", write_through=True),
               io.TextIOWrapper(err, encoding="utf-8", write_through=True))
    saved = sys.stdin
    sys.stdin = streams[0]
    try:
        with redirect_stdout(streams[1]), redirect_stderr(streams[2]):
            try:
                status = main(list(argv))
            except SystemExit as e:  # argparse
                status = e.code if isinstance(e.code, int) else 2
            sys.stdout.flush()
            sys.stderr.flush()
    finally:
        sys.stdin = saved
    return Ran(status, out.getvalue(), err.getvalue())


def check_error_line(line: bytes, context: str = "") -> str:
    """One refusal line: ``error: WHERE: WHY``, printable UTF-8, WHERE not empty, short."""
    text = line.decode("utf-8")  # raises on invalid UTF-8
    assert text.isprintable(), (context, text[:300])
    assert len(text) <= MAX_LINE, (context, len(text), text[:300])
    assert text.startswith("error: "), (context, text[:300])
    where, sep, why = text[len("error: "):].partition(": ")
    assert sep and where.strip() and why.strip(), (context, text[:300])
    assert "internal error" not in text and "Traceback" not in text, (context, text[:300])
    return text


def check_refusal(ran: Ran, context: str = "") -> str:
    """A refused input: status 2, nothing on standard output, one error line."""
    assert ran.status == 2, (context, ran)
    assert ran.stdout == b"", (context, ran.stdout[:300])
    lines = ran.stderr.split(b"\n")
    assert len(lines) == 2 and lines[1] == b"", (context, ran.stderr[:500])
    return check_error_line(lines[0], context)


def check_outcome(ran: Ran, context: str = "") -> bool:
    """Success (status 0, no error output) or a refusal as :func:`check_refusal`; True if 0."""
    if ran.status == 0:
        assert ran.stderr == b"", (context, ran.stderr[:500])
        ran.stdout.decode("utf-8")
        return True
    check_refusal(ran, context)
    return False


def run_jsonl(lines: Sequence[bytes], timeout: float = 1200) -> list[dict[str, Any]]:
    """``matador replay --jsonl -`` as a process over ``lines``: one JSON object per line."""
    data = b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)
    done = subprocess.run([str(MATADOR), "replay", "--jsonl", "-"], input=data,
                          capture_output=True, timeout=timeout, check=False)
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-2000:]
    out = done.stdout.split(b"\n")
    assert out[-1] == b"" and len(out) == len(lines) + 1, (len(out), len(lines))
    return [json.loads(line) for line in out[:-1]]


# -- an engine process -----------------------------------------------------------------------


class EnginePipe:
    """``matador engine BOT`` as a process, driven line by line in bytes, as a host would."""

    def __init__(self, bot: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([str(MATADOR), "engine", bot], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line: bytes) -> None:
        """Send one line (``line`` holds no newline)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def until(self, last: Callable[[str], bool], timeout: float) -> list[str]:
        """The answer lines up to the one ``last`` accepts, each checked printable UTF-8."""
        out: list[str] = []
        deadline = time.perf_counter() + timeout
        while True:
            try:
                raw = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                raise AssertionError(f"no answer within {timeout} s after {out}") from None
            assert raw is not None, f"the engine died: {self._stderr()}"
            assert raw.endswith(b"\n"), raw[:200]
            line = raw[:-1].decode("utf-8")
            assert line.isprintable() and len(line) <= MAX_LINE, line[:300]
            assert "internal error" not in line, line[:500]
            out.append(line)
            if last(line):
                return out

    def _stderr(self) -> str:
        self.proc.kill()
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode("utf-8", "replace")[-3000:]

    def close(self) -> int:
        """``quit``, and the exit status."""
        if self.proc.poll() is None:
            self.send(b"quit")
        return self.proc.wait(timeout=10)


def command_of(line: bytes) -> tuple[str, list[str]]:
    """The command and arguments the engine reads in ``line`` (as it splits it)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return "", []
    command, _, rest = text.strip().partition(" ")
    return command, rest.split()


def movetime_of(line: bytes) -> float | None:
    """The ``movetime`` of a ``go`` or ``analyse`` line in seconds, if it has a valid one."""
    command, words = command_of(line)
    if command in ("go", "analyse", "analyze") and "movetime" in words:
        i = words.index("movetime") + 1
        if i < len(words) and words[i].isascii() and words[i].isdigit() and len(words[i]) < 7:
            return int(words[i]) / 1000
    return None


@contextmanager
def engine(bot: str, env: dict[str, str] | None = None) -> Iterator[EnginePipe]:
    """An :class:`EnginePipe` that is quit (or killed) afterwards."""
    pipe = EnginePipe(bot, env)
    try:
        yield pipe
        assert pipe.close() == 0
    finally:
        if pipe.proc.poll() is None:
            pipe.proc.kill()


def announced_think(pipe: EnginePipe) -> float:
    """What a host allows a ``go`` without ``movetime``, from the engine's ``Budget`` option.

    As :class:`~matador.protocol.host.EngineProcess` does: the announced
    ``Budget``, or :data:`~matador.protocol.host.DEFAULT_THINK` without one.
    """
    pipe.send(b"mep")
    for line in pipe.until(lambda a: a == "mepok", timeout=10):
        words = line.split()
        if words[:3] == ["option", "name", "Budget"] and words[5:6] == ["default"]:
            return int(words[6]) / 1000 or DEFAULT_THINK
    return DEFAULT_THINK


def drive_engine(pipe: EnginePipe, lines: Sequence[bytes]) -> dict[str, float]:
    """Send each line then ``isready``; check the answers and the budgets; return figures.

    Every line must be followed by ``readyok``; a ``go`` or ``analyse`` must end
    (``bestmove``, ``analysisok`` or an ``error``) within its ``movetime``
    plus :data:`GRACE` (without ``movetime``: the announced ``Budget``, read
    again after every ``setoption``, see :func:`announced_think`), any other
    line within :data:`GRACE`.
    """
    figures = {"lines": 0, "errors": 0, "moves": 0, "slowest_search": 0.0, "slowest_other": 0.0}
    think = announced_think(pipe)
    for line in lines:
        command, _ = command_of(line)
        if command == "quit":
            continue
        start = time.perf_counter()
        pipe.send(line)
        pipe.send(b"isready")
        readies = 2 if command == "isready" else 1
        answers: list[str] = []
        for _ in range(readies):
            answers += pipe.until(lambda a: a == "readyok", timeout=60)
        spent = time.perf_counter() - start
        searching = command in ("go", "analyse", "analyze")
        limit = (movetime_of(line) or think) + GRACE if searching else GRACE
        assert spent <= limit, (line[:300], spent, answers)
        key = "slowest_search" if searching else "slowest_other"
        figures[key] = max(figures[key], spent)
        figures["lines"] += 1
        figures["errors"] += sum(a.startswith("error") for a in answers)
        figures["moves"] += sum(a.startswith("bestmove") for a in answers)
        for a in answers:
            assert a.split(" ", 1)[0] in ("id", "option", "mepok", "info", "bestmove",
                                          "analysisok", "error", "readyok"), a[:300]
        if command == "setoption":
            think = announced_think(pipe)
    return figures
