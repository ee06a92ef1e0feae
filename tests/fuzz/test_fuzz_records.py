"""Records through every command that reads them, fuzzed (issue 9; RULES.md section 8).

Each lane is seeded; a failure names the seed and the input number. Both run
in the whole suite only (``-m slow``, run by CI): the quick lane takes seconds,
the long lane sends
more than 100,000 records through ``replay --jsonl`` and thousands through
``replay``, ``show`` and ``analyse``.

The contract: a record is replayed (status 0) or refused with exactly one
line ``error: WHERE: WHY`` on standard error, status 2 and nothing on standard
output; ``--jsonl`` never stops and reports each line on one line of its own;
every command tells the same story about the same bytes; nothing ever ends in
a traceback or an internal error.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import pytest
from fuzzkit import (
    check_error_line,
    check_outcome,
    check_refusal,
    hostile_record,
    record_object,
    run_in_process,
    run_jsonl,
)


@dataclass
class Tally:
    """What a lane ran, for the report printed at its end."""

    inputs: int = 0
    accepted: int = 0
    refused: int = 0
    by_command: dict[str, int] = field(default_factory=dict)

    def add(self, command: str, ok: bool) -> None:
        self.inputs += 1
        self.accepted += ok
        self.refused += not ok
        self.by_command[command] = self.by_command.get(command, 0) + 1


def batch(seed: int, n: int, tally: Tally, compare: int) -> None:
    """``n`` hostile records through one ``replay --jsonl`` process; the first ``compare``
    of them also through ``replay --trace -`` in this process, which must agree."""
    rng = random.Random(seed)
    lines = [hostile_record(rng).replace(b"\n", b" ") for _ in range(n)]
    results = run_jsonl(lines)
    for k, (line, out) in enumerate(zip(lines, results, strict=True)):
        context = f"seed {seed}, line {k + 1}"
        if "error" in out:
            assert set(out) == {"error"}, context
            check_error_line(b"error: " + out["error"].encode(), context)
        else:
            assert set(out) == {"trace", "result"}, context
        tally.add("replay --jsonl", "error" not in out)
        if k < compare:
            single = run_in_process(["replay", "--trace", "-"], line)
            if check_outcome(single, context):
                shown = [json.loads(x) for x in single.stdout.decode().splitlines()]
                assert {"trace": shown[:-1], "result": shown[-1]} == out, context
            else:
                assert single.stderr.decode() == f"error: {out['error']}\n", context
            tally.add("replay", "error" not in out)


def commands(seed: int, n: int, tally: Tally) -> None:
    """``n`` hostile records through ``show --all`` and ``analyse`` in this process."""
    rng = random.Random(seed)
    for k in range(n):
        data = hostile_record(rng)
        context = f"seed {seed}, record {k + 1}"
        if rng.random() < 0.5:
            ran = run_in_process(["show", "-", "--all", *rng.choice(([], ["--seat", "0"]))],
                                 data)
            tally.add("show", check_outcome(ran, context))
            continue
        ply = rng.choice((["--ply", str(rng.randrange(30))], []))
        ran = run_in_process(["analyse", "-", *ply, "--budget", "2it", "--seed", "1",
                              "--json"], data)
        ok = check_outcome(ran, context)
        tally.add("analyse", ok)
        if ok:
            for line in ran.stdout.decode().splitlines():
                json.loads(line)


def files(seed: int, n: int, tally: Tally) -> None:
    """``n`` files of 2 to 5 records, one per line, some refused: every command reads them.

    ``replay`` prints one result per record or refuses the file naming the
    first bad line; ``show`` shows the good records and names each bad line.
    """
    rng = random.Random(seed)
    for k in range(n):
        good = [rng.random() < 0.7 for _ in range(rng.randint(2, 5))]
        records = [json.dumps(record_object(rng)).encode() if ok
                   else hostile_record(rng).replace(b"\n", b" ") for ok in good]
        data = b"\n".join(records) + b"\n"
        context = f"seed {seed}, file {k + 1}"
        single = [run_in_process(["replay", "-"], r) for r in records]
        fine = [s.status == 0 for s in single]
        ran = run_in_process(["replay", "-"], data)
        if all(fine):
            assert ran.status == 0, (context, ran)
            assert ran.stdout.splitlines() == [s.stdout.strip() for s in single], context
        elif any(r.strip().startswith(b"{") for r in records) or sum(fine) > 0:
            text = check_refusal(ran, context)
            first = fine.index(False) + 1
            # The file is read as one record per line, unless no line is a JSON object.
            assert text.startswith(f"error: line {first}: ") or text.startswith(
                "error: record"), (context, text)
        shown = run_in_process(["show", "-", "--all"], data)
        errors = shown.stderr.decode().splitlines()
        if all(fine):
            assert (shown.status, errors) == (0, []), context
        else:
            assert shown.status == 2, context
            for line in errors:
                check_error_line(line.encode(), context)
            if len(errors) > 1 or sum(fine):
                assert len(errors) == fine.count(False), (context, errors)
        tally.add("files", all(fine))


def report(name: str, tally: Tally) -> None:
    print(f"\n{name}: {tally.inputs} inputs ({tally.accepted} accepted, {tally.refused} "
          f"refused): {tally.by_command}")


@pytest.mark.slow  # 650 records, 2 s: the whole run only
def test_records_quick() -> None:
    """The quick lane: about 650 records, every reading command, seconds."""
    tally = Tally()
    batch(seed=91, n=600, tally=tally, compare=100)
    commands(seed=92, n=20, tally=tally)
    files(seed=93, n=4, tally=tally)
    report("records, quick lane", tally)
    assert tally.accepted > 25 and tally.refused > 250


@pytest.mark.slow
@pytest.mark.long(250)
def test_records_long() -> None:
    """The long lane: more than 100,000 records through ``replay --jsonl``, and thousands
    through ``replay``, ``show``, ``analyse`` and multi-record files."""
    tally = Tally()
    for seed in range(1001, 1006):
        batch(seed=seed, n=20_000, tally=tally, compare=600)
    commands(seed=1100, n=600, tally=tally)
    files(seed=1200, n=300, tally=tally)
    report("records, long lane", tally)
    assert tally.by_command["replay --jsonl"] >= 100_000
    assert tally.accepted > 1_000 and tally.refused > 50_000
