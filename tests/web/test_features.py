"""The table's smaller features in a real browser: hints and the review against bots, muting
a person's chat, the move clock, the "your turn" sound and its toggle, reduced motion."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import Server
from .play import create_table, finished, step

pytestmark = pytest.mark.slow


def join(people: Any, link: str, **kwargs: Any) -> Any:
    p = people(**kwargs)
    p.page.goto(link)
    p.page.wait_for_selector("#conn.ok")
    return p


def my_turn(p: Any, timeout: float = 30.0) -> None:
    p.page.wait_for_selector(".seat.to-move.you", timeout=timeout * 1000)


def test_hints_during_a_game_against_a_bot_and_the_review_after_it(server: Server,
                                                                  people: Any) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "bot:easy"], target=15)
    p = join(people, made["links"][0])
    page = p.page
    hinted = False
    end = time.monotonic() + 240
    while not finished(p) and time.monotonic() < end:
        if not hinted and page.locator("#actions button.hint").count():
            page.click("#actions button.hint")
            page.wait_for_selector("#hintbox table tbody tr")
            rows = page.locator("#hintbox table tbody tr")
            assert rows.count() >= 1
            for i in range(rows.count()):  # move, win chance, expected points
                cells = rows.nth(i).locator("td")
                assert re.fullmatch(r"\d{1,3}%", cells.nth(1).inner_text()), cells.nth(1)
                float(cells.nth(2).inner_text())
            assert "Best:" in page.inner_text("#live")
            hinted = True
        if not step(p):
            time.sleep(0.1)
    assert hinted, "no hint was offered on any turn"
    assert finished(p)
    page.click("#review")
    page.wait_for_selector("#review-out", timeout=120_000)
    out = page.locator("#review-out")
    if out.evaluate("e => e.tagName") == "TABLE":
        verdicts = {"best", "good", "inaccuracy", "mistake", "blunder"}
        rows = out.locator("tbody tr")
        assert rows.count() >= 1
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td")
            assert re.fullmatch(r"\d{1,3}%", cells.nth(4).inner_text())
            assert cells.nth(5).inner_text() in verdicts
    else:
        assert "No costly moves" in out.inner_text()


def test_no_hint_at_a_table_with_another_person(server: Server, people: Any) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "human"], target=15)
    a = join(people, made["links"][0])
    b = join(people, made["links"][1])
    mover = None
    end = time.monotonic() + 60  # the hand starts once both pages gave their share of the deal
    while mover is None and time.monotonic() < end:
        mover = next((p for p in (a, b) if p.page.locator(".seat.to-move.you").count()), None)
        time.sleep(0.1)
    assert mover is not None, "nobody's turn within 60 s"
    assert mover.page.locator("#hand button.tile.legal, #actions button").count() > 0
    assert mover.page.locator("#actions button.hint").count() == 0


def chat_lines(p: Any) -> list[str]:
    return [str(t) for t in p.page.locator("#chat li").all_inner_texts()]


def test_a_muted_person_s_chat_is_not_shown_until_unmuted(server: Server, people: Any) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "human"], target=15)
    a = join(people, made["links"][0])
    b = join(people, made["links"][1])
    mute = a.page.locator("#phrases button.mute")
    assert mute.count() == 1 and mute.get_attribute("aria-pressed") == "false"
    mute.click()
    a.page.wait_for_selector("#phrases button.mute[aria-pressed=true]")
    phrases = b.page.locator("#phrases button.phrase")
    first, second = phrases.nth(0).inner_text(), phrases.nth(1).inner_text()
    phrases.nth(0).click()
    b.page.wait_for_function("document.querySelectorAll('#chat li').length === 1")
    a.page.locator("#phrases button.mute").click()
    a.page.wait_for_selector("#phrases button.mute[aria-pressed=false]")
    b.page.locator("#phrases button.phrase").nth(1).click()
    b.page.wait_for_function("document.querySelectorAll('#chat li').length === 2")
    a.page.wait_for_function("document.querySelectorAll('#chat li').length >= 1")
    seen = chat_lines(a)
    assert any(second in line for line in seen), seen
    assert not any(first in line for line in seen), seen  # sent while muted: never shown
    assert [line for line in chat_lines(b) if first in line]


def test_the_move_clock_counts_down_for_the_seat_to_move(server: Server, people: Any) -> None:
    host = people()
    page = host.page
    page.goto(f"{server.url}/?lang=en")
    page.select_option("select[name=seat0]", "human")
    page.select_option("select[name=seat1]", "bot:easy")
    for i in (2, 3):
        page.select_option(f"select[name=seat{i}]", "none")
    page.fill("input[name=per_move]", "60")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#watch")
    p = join(people, page.input_value("#link0"))
    my_turn(p)
    clock = p.page.locator(".seat.to-move .clock")
    p.page.wait_for_selector(".seat.to-move .clock")

    def left() -> int:
        match = re.search(r"(\d+) s left", clock.inner_text())
        assert match, clock.inner_text()
        return int(match.group(1))

    first = left()
    assert 0 < first <= 60
    time.sleep(2.5)
    assert left() < first
    assert p.page.locator(".clock").count() == 1  # only the seat to move runs


BEEPS = """
window.__beeps = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { window.__beeps += 1; return {frequency: {}, connect: (g) => g,
    start() {}, stop() {}}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
    connect: (d) => d}; }
};
"""


def beeps(p: Any) -> int:
    return int(p.page.evaluate("window.__beeps"))


def test_your_turn_beeps_only_with_the_sound_on_and_the_toggle_is_kept(server: Server,
                                                                       people: Any) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "bot:easy"], target=15)
    p = people()
    p.context.add_init_script(BEEPS)
    p.page.goto(made["links"][0])
    p.page.wait_for_selector("#conn.ok")
    assert p.page.get_attribute("#sound", "aria-pressed") == "false"
    my_turn(p)
    assert beeps(p) == 0  # the turn is announced in words, silently
    p.page.click("#sound")
    assert p.page.get_attribute("#sound", "aria-pressed") == "true"
    assert beeps(p) == 1  # turning it on plays the sound once
    p.page.reload()
    p.page.wait_for_selector("#conn.ok")
    assert p.page.get_attribute("#sound", "aria-pressed") == "true"
    my_turn(p)
    assert beeps(p) >= 1  # the turn that was waiting, announced with the sound now


ANIMATION = """() => {
  const cell = document.querySelector('.cell.last');
  return cell ? getComputedStyle(cell).animationName : null;
}"""


def test_reduced_motion_turns_the_last_tile_s_animation_off(server: Server,
                                                            people: Any) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "bot:easy"], target=15)
    moving = join(people, made["links"][0], reduced_motion=False)
    still = join(people, made["watch"], reduced_motion=True)
    end = time.monotonic() + 60
    # Play on until both pages saw a tile laid (a page that joins after a move shows no
    # last tile until the next one).
    while time.monotonic() < end and None in (moving.page.evaluate(ANIMATION),
                                              still.page.evaluate(ANIMATION)):
        if not step(moving):
            time.sleep(0.1)
    assert moving.page.evaluate(ANIMATION) == "laid"
    assert still.page.evaluate(ANIMATION) == "none"
