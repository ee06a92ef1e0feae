"""``matador play`` and ``matador show`` end to end: the real program in a pseudo-terminal.

Each test drives the installed executable with pexpect, always answering the
first menu entry, then checks the saved records: every line replays with
``matador replay`` to the result the screen printed.
"""

from __future__ import annotations

import itertools
import json
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from matador.core.moves import DRAW
from matador.core.record import parse_record
from matador.core.state import HandState
from matador.core.tiles import HALVES, NUM_TILES
from matador.ui.i18n import translator
from matador.ui.render import slash

MATADOR = Path(sys.executable).parent / "matador"

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
MOVE_PROMPT = r"\[1(?:\.\.\d+)?, h, r, s, q\]: "
ENTER_PROMPT = r"\[Enter\] "


def _as_in_a_terminal() -> None:
    """In the child, before ``matador`` starts: Ctrl-C interrupts, as in a terminal.

    A shell script that starts the test run in the background (``.ci/run &``)
    hands it SIGINT ignored, which every process it starts inherits; Python
    then installs no KeyboardInterrupt handler and Ctrl-C does nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> pexpect.spawn:
    child = pexpect.spawn(str(MATADOR), args, cwd=str(cwd), encoding="utf-8", timeout=30,
                          dimensions=(60, 120), env={"TERM": "xterm", "LANG": "C.UTF-8",
                                                     "PATH": "/usr/bin:/bin", **(env or {})},
                          preexec_fn=_as_in_a_terminal)
    child.logfile_read = _Log()
    return child


class _Log:
    """Collects everything the program writes."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(self.parts)


def transcript(child: pexpect.spawn) -> str:
    log = child.logfile_read
    assert isinstance(log, _Log)
    return log.text


def plain(text: str) -> str:
    return ANSI.sub("", text)


def play_through(child: pexpect.spawn, answer: str = "1", limit: float = 60) -> str:
    """Answer every move prompt with ``answer`` and every Enter prompt with Enter, to EOF."""
    start = time.monotonic()
    while True:
        i = child.expect([MOVE_PROMPT, ENTER_PROMPT, pexpect.EOF])
        if i == 2:
            break
        child.sendline(answer if i == 0 else "")
        assert time.monotonic() - start < limit, "the game takes too long"
    child.close()
    return plain(transcript(child))


def replayed(matador: Any, path: Path, tmp_path: Path) -> list[dict[str, Any]]:
    """``matador replay`` of each line of a records file."""
    out = []
    for i, line in enumerate(path.read_text().splitlines()):
        one = tmp_path / f"hand{i}.json"
        one.write_text(line)
        done = matador("replay", one)
        assert done.returncode == 0, done.stderr
        out.append(json.loads(done.stdout))
    return out


def summary(lang: str, n: int, result: dict[str, Any], scores: list[int]) -> str:
    """The end-of-hand line the screen prints for a result, in ``lang``."""
    return translator(lang).gettext(
        "Hand {n}: pips {pips} · points {points} · scores {scores}").format(
        n=n, pips=slash(result["pips"]), points=slash(result["points"], signed=True),
        scores=slash(scores))


def test_full_hand_against_an_easy_bot_in_english(tmp_path: Path, matador: Any) -> None:
    """One hand against the easy bot: the table, the moves, the end screen, the saved record."""
    save = tmp_path / "games.jsonl"
    child = spawn(["play", "--seat", "human", "--seat", "easy", "--match-target", "0",
                   "--seed", "11", "--save", str(save), "--lang", "en", "--no-review"], tmp_path)
    child.expect(ENTER_PROMPT)  # the rules and seats, then Enter to start
    child.sendline("")
    child.expect(MOVE_PROMPT)
    screen = plain(child.before)
    assert "Your hand:" in screen and "Boneyard:" in screen and "◀ to move" in screen
    assert re.search(r"\[\d\|\d\]", screen)
    child.sendline("h")  # the hint: the AI's estimate of each legal move
    child.expect(MOVE_PROMPT)
    assert "win chance" in plain(child.before)
    child.sendline("L9-9")
    child.expect(MOVE_PROMPT)
    assert "is not a move" in plain(child.before)
    child.sendline("s")  # the scores; play_through answers the prompt that follows
    text = play_through(child)
    assert child.exitstatus == 0
    assert "Traceback" not in text
    assert "wins the match!" in text or "no winner" in text
    assert "Points of the hand" in text
    lines = save.read_text().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["meta"]["seats"] == ["human", "easy"]
    (result,) = replayed(matador, save, tmp_path)
    assert result == record["result"]
    assert summary("en", 1, result, result["points"]) in text


@pytest.mark.slow
def test_short_match_in_spanish(tmp_path: Path, matador: Any) -> None:
    """A match to 30 points in Spanish: several hands, the review, records that replay."""
    save = tmp_path / "partida.jsonl"
    child = spawn(["play", "--preset", "classic", "--seat", "human", "--seat", "easy",
                   "--set", "match_target=30", "--seed", "6", "--save", str(save),
                   "--lang", "es", "--review-budget", "20it"], tmp_path)
    text = play_through(child)
    assert child.exitstatus == 0, text[-2000:]
    assert "Tu mano:" in text and "Cementerio:" in text
    assert "gana la partida" in text or "sin ganador" in text
    results = replayed(matador, save, tmp_path)
    scores = [0, 0]
    for n, result in enumerate(results, 1):
        scores = [a + b for a, b in zip(scores, result["points"], strict=True)]
        assert summary("es", n, result, scores) in text
    assert len(results) >= 2 and max(scores) >= 30
    assert "Semilla de esta partida: 6" in text
    assert "Revisión" in text or "Tus jugadas más costosas" in text


def hidden_from(record: dict[str, Any], seat: int) -> list[int]:
    """Tiles ``seat`` never held and that never reached the line in this hand."""
    rec = parse_record(json.dumps(record))
    state = HandState(rec.rules, rec.deal)
    held = set(rec.deal.hands[seat])
    played: set[int] = set()
    for m in rec.moves:
        if m == DRAW and state.to_move == seat:
            held.add(state.boneyard[0])
        if m.tile is not None:
            played.add(m.tile)
        state.push(m)
    return [t for t in range(NUM_TILES) if t not in held and t not in played]


def faces(tile: int) -> tuple[str, str]:
    a, b = HALVES[tile]
    return f"[{a}|{b}]", f"[{b}|{a}]"


@pytest.mark.slow
def test_hot_seat_hides_the_other_hand(tmp_path: Path, matador: Any) -> None:
    """Two people at one keyboard (in Czech): during a seat's turns no tile of the other hand
    that seat could not see is ever on the screen; the screen is cleared between them."""
    save = tmp_path / "hra.jsonl"
    child = spawn(["play", "--preset", "czech", "--seat", "human:Ana", "--seat", "human:Bob",
                   "--match-target", "0", "--seed", "9", "--save", str(save), "--lang", "cs",
                   "--no-review"], tmp_path)
    play_through(child)
    raw_text = transcript(child)
    assert child.exitstatus == 0
    record = json.loads(save.read_text().splitlines()[0])
    t = translator("cs")
    handoff = {seat: t.gettext("Pass the keyboard to {name} (seat {seat}).").format(
        name=name, seat=seat) for seat, name in enumerate(["Ana", "Bob"])}
    screens = raw_text.split(CLEAR)
    turns = {0: 0, 1: 0}
    for before, screen in itertools.pairwise(screens):
        for seat, marker in handoff.items():
            if marker in plain(before):
                turns[seat] += 1
                text = plain(screen)
                assert "Vaše kostky:" in text
                for tile in hidden_from(record, seat):
                    for face in faces(tile):
                        assert face not in text, (seat, face, text)
    assert turns[0] > 0 and turns[1] > 0
    (result,) = replayed(matador, save, tmp_path)
    assert result == record["result"]


@pytest.mark.slow  # a second terminal session: the whole run only
def test_show_replays_the_saved_hands(tmp_path: Path, matador: Any) -> None:
    """``matador show --all`` prints every position and the same result as ``replay``;
    with ``--seat`` the other hand stays hidden until the end."""
    save = tmp_path / "bots.jsonl"
    child = spawn(["play", "--seat", "easy", "--seat", "greedy", "--seat", "easy",
                   "--match-target", "30", "--seed", "3", "--save", str(save), "--lang", "en"],
                  tmp_path)
    play_through(child)
    assert child.exitstatus == 0
    results = replayed(matador, save, tmp_path)
    assert len(results) >= 2
    done = matador("show", "--all", save)
    assert done.returncode == 0, done.stderr
    scores = [0, 0, 0]
    for n, result in enumerate(results, 1):
        scores = [a + b for a, b in zip(scores, result["points"], strict=True)]
        assert summary("en", n, result, scores) in done.stdout
    first = json.loads(save.read_text().splitlines()[0])
    assert done.stdout.count("Move 1 of ") == len(results)
    one = matador("show", "--all", "--hand", "1", "--seat", "1", save)
    assert one.returncode == 0
    during = one.stdout.split("Points of the hand")[0].rsplit("Move ", 1)[0]
    for tile in hidden_from(first, 1):
        for face in faces(tile):
            assert face not in during
    bad = matador("show", "--hand", "99", save)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --hand")


def test_show_steps_with_keys(tmp_path: Path) -> None:
    """Interactive show: Enter steps on, b steps back, q quits."""
    example = Path(__file__).resolve().parents[2] / "examples" / "hand.json"
    child = spawn(["show", str(example), "--lang", "ru"], tmp_path)
    child.expect(r"\[1/16\]: ")
    assert "Кон 1, начало" in plain(child.before)  # a hand is «кон», the match «партия»
    child.sendline("")
    child.expect(r"\[2/16\]: ")
    child.sendline("b")
    child.expect(r"\[1/16\]: ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def quit_at_first_prompt(save: Path, seed: int, tmp_path: Path) -> str:
    """Start a match, answer q then n, q then y at the first move prompt; the transcript."""
    child = spawn(["play", "--seat", "human", "--seat", "easy", "--seed", str(seed), "--save",
                   str(save), "--lang", "en"], tmp_path)
    child.expect(ENTER_PROMPT)
    child.sendline("")
    child.expect(MOVE_PROMPT)
    child.sendline("q")
    child.expect(r"\[y/n\]: ")
    child.sendline("n")
    child.expect(MOVE_PROMPT)
    child.sendline("q")
    child.expect(r"\[y/n\]: ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = plain(transcript(child))
    assert "You left the match." in text
    return text


@pytest.mark.slow  # quitting mid-hand stays in the fast lane
def test_quit_before_any_move_leaves_no_file(tmp_path: Path) -> None:
    """Seed 3: you lead, and quitting before your first move leaves nothing behind."""
    save = tmp_path / "q.jsonl"
    text = quit_at_first_prompt(save, 3, tmp_path)
    assert "0 finished hands saved" in text
    assert "unfinished" not in text
    assert not save.exists()  # no empty file is left behind


def test_quit_mid_hand_saves_the_unfinished_hand(matador: Any, tmp_path: Path) -> None:
    """Seed 5: the bot leads; leaving keeps its move as a record without a result."""
    save = tmp_path / "q.jsonl"
    text = quit_at_first_prompt(save, 5, tmp_path)
    assert "The unfinished hand is saved too, up to its last move (1 move)." in text
    lines = save.read_text().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert "result" not in data
    assert data["meta"]["unfinished"] is True and data["meta"]["hand"] == 1
    assert len(data["moves"]) == 1
    assert replayed(matador, save, tmp_path) == [{"over": False, "to_move": 0}]


@pytest.mark.slow  # two more terminal sessions: the whole run only
def test_ctrl_c_and_eof_stop_quietly(tmp_path: Path) -> None:
    """Ctrl-C exits 130 and end of input exits 0, both without a traceback."""
    child = spawn(["play", "--seat", "human", "--seat", "easy", "--no-save"], tmp_path)
    child.expect(ENTER_PROMPT)
    child.sendline("")
    child.expect(MOVE_PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in transcript(child)
    child = spawn(["play", "--seat", "human", "--seat", "easy", "--no-save"], tmp_path)
    child.expect(ENTER_PROMPT)
    child.sendline("")
    child.expect(MOVE_PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in transcript(child)


def test_start_menu(tmp_path: Path) -> None:
    """Without game flags the start menu opens; a changed language applies at once."""
    child = spawn(["play", "--no-save"], tmp_path)
    child.expect(r"\[Enter, 1\.\.9, r, q\]: ")
    child.sendline("7")  # language
    child.expect(r"\[1\.\.4\]: ")
    child.sendline("2")  # Español
    child.expect(r"\[Enter, 1\.\.9, r, q\]: ")
    assert "Reglas de la casa" in plain(child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("args", [["--players", "5"], ["--seat", "wizard"],
                                  ["--set", "draw=two"], ["--preset", "czech", "--players", "3"],
                                  ["--seat", "cheater"], ["--bots", "cheater:5it"],
                                  ["--hint-budget", "0.5it"],
                                  ["--seat", "human", "--seat", "human"]])
def test_bad_flags(matador: Any, args: list[str]) -> None:
    """Bad flags are refused before the game starts: one error line, exit status 2."""
    done = matador("play", "--no-save", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(("error: ", "usage: "))


def test_an_existing_save_file_is_never_removed(tmp_path: Path, matador: Any) -> None:
    """Quitting before any hand ends leaves an existing (even empty) save file in place."""
    save = tmp_path / "mine.jsonl"
    save.write_text("")
    done = matador("play", "--seat", "human", "--seat", "easy", "--save", save, "--no-menu",
                   stdin="q\ny\n")
    assert done.returncode in (0, 2)
    assert save.exists()


@pytest.mark.parametrize("command", ["play", "show"])
def test_help(matador: Any, command: str) -> None:
    """--help shows examples."""
    done = matador(command, "--help")
    assert done.returncode == 0 and "examples:" in done.stdout
