"""The table in a real browser beyond whole matches: reconnecting (offline, and a server
killed with ``kill -9``), a game played with the keyboard alone, one played through the
screen-reader mode's command box, and the accessibility scan of every page."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import Server
from .play import check_no_leak, create_table, finished, play_out, step, versions

pytestmark = pytest.mark.slow


def join(people: Any, link: str, lang: str = "en", **kwargs: Any) -> Any:
    p = people(lang=lang, **kwargs)
    p.page.goto(link)
    p.page.wait_for_selector("#conn.ok")
    return p


def wait_for(check: Any, timeout: float, what: str) -> float:
    """Poll ``check`` until true; the seconds it took."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if check():
            return time.monotonic() - began
        time.sleep(0.02)
    raise AssertionError(f"{what}: not within {timeout} s")


def moves_shown(p: Any) -> int:
    return int(p.page.locator("#moves li").count())


def test_a_page_offline_mid_hand_is_back_in_sync_within_3_s(server: Server, people: Any
                                                             ) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "human"], target=200)
    a, b = (join(people, made["links"][i]) for i in range(2))
    for _ in range(4):  # a few moves into the hand
        wait_for(lambda: step(a) or step(b), 10, "a move")
        time.sleep(0.3)
    a.context.set_offline(True)
    a.page.wait_for_selector("#conn.wait")
    before = moves_shown(a)
    # the other person plays on while the first is away
    for _ in range(3):
        wait_for(lambda: step(b) or b.page.locator(".seat.to-move.you").count() == 0, 10,
                 "b's move")
        time.sleep(0.3)
    target = versions(b)
    a.context.set_offline(False)
    seen = []
    t0 = time.monotonic()

    def synced() -> bool:
        state = a.page.evaluate("[matadorTable.socket(), matadorTable.version()]")
        seen.append((round(time.monotonic() - t0, 2), state, a.page.inner_text("#conn")))
        return bool(state[1] >= target and state[0] == 1)

    try:
        took = wait_for(synced, 3.0, "back in sync after the network returned")
    except AssertionError:
        raise AssertionError(f"{target} {seen[::10]}") from None
    print(f"\nback in sync {took * 1000:.0f} ms after the network returned")
    assert moves_shown(a) >= before
    assert moves_shown(a) == moves_shown(b)
    assert a.page.inner_text("#line") == b.page.inner_text("#line")
    check_no_leak(server.truth(made["id"]), [a, b])


def test_pages_resume_within_5_s_after_the_server_is_killed(server: Server, people: Any
                                                           ) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "human", "bot:easy"], target=200)
    a, b = (join(people, made["links"][i]) for i in range(2))
    for _ in range(5):
        wait_for(lambda: step(a) or step(b), 15, "a move")
        time.sleep(0.3)
    shown = (moves_shown(a), moves_shown(b))
    server.kill()
    a.page.wait_for_selector("#conn.wait")
    b.page.wait_for_selector("#conn.wait")
    start = server.start()
    began = time.monotonic()
    took = wait_for(lambda: all(p.page.locator("#conn.ok").count() for p in (a, b)), 5.0,
                    "pages reconnected after the restart")
    print(f"\nserver restarted in {start:.2f} s; pages resumed {took * 1000:.0f} ms after "
          f"it answered")
    assert moves_shown(a) >= shown[0] and moves_shown(b) >= shown[1]  # nothing lost
    truth = server.truth(made["id"])
    assert sum(1 for e in truth.events if e.kind == "move") >= shown[0]
    play_out([a, b])  # the game goes on to its end
    assert time.monotonic() - began < 600
    check_no_leak(server.truth(made["id"]), [a, b])


def keyboard_step(p: Any) -> bool:
    """Tab to something worth doing (a legal tile, a way, draw, pass, next hand) and press
    Enter, with the keyboard alone."""
    page = p.page
    wanted = ("tile legal", "way", "primary draw", "primary pass", "next-hand")
    for _ in range(60):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement;
            return e ? [e.className || '', e.id || '', getComputedStyle(e).outlineStyle,
                        e.disabled === true] : null; }""")
        if info is None:
            continue
        cls, ident, outline, disabled = info
        if disabled:
            continue
        if any(w in f"{cls} {ident}" for w in wanted):
            assert outline != "none", f"no visible focus on {cls} {ident}"
            page.keyboard.press("Enter")
            return True
        if page.locator(".seat.to-move.you").count() == 0 and \
                page.locator("#next-hand:not([disabled])").count() == 0:
            return False
    return False


def test_a_whole_game_with_the_keyboard_alone(server: Server, people: Any) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "bot:easy"], target=15)
    p = join(people, made["links"][0])
    play_out([p], act=keyboard_step)
    assert finished(p)


def test_a_game_in_screen_reader_mode_through_the_command_box(server: Server, people: Any
                                                             ) -> None:
    host = people()
    made = create_table(host.page, server.url, ["human", "bot:easy"], target=15)
    p = join(people, made["links"][0])
    page = p.page
    page.click("#sr")
    assert page.get_attribute("#sr", "aria-pressed") == "true"
    box = page.locator("#cmd-input")
    assert box.is_visible()

    def say(text: str) -> str:
        count = int(page.get_attribute("#live", "data-answers") or 0)
        box.fill(text)
        box.press("Enter")
        page.wait_for_function(
            f"Number(document.getElementById('live').dataset.answers) > {count}")
        return str(page.locator("#live p.answer").last.inner_text())

    assert "You have" in say("h") or "Your tiles" in say("h")
    assert "Boneyard" in say("t")
    said: list[str] = []

    def act(_p: Any) -> bool:
        if page.locator("#next-hand:not([disabled])").count():
            page.click("#next-hand")
            return True
        if page.locator(".seat.to-move.you").count() == 0:
            return False
        legal = page.locator("#hand button.tile.legal")
        if legal.count():
            tile = legal.first.get_attribute("data-tile")
            answer = say(f"p {tile}")
            if answer.startswith("Which way"):
                way = re.search(r"on the (left|right) end \(leaves (\d) open\)", answer)
                assert way, answer
                answer = say(f"p {tile} {way.group(1)} {way.group(2)}")
            said.append(answer)
        elif page.locator("#actions button.draw").count():
            said.append(say("d"))
        elif page.locator("#actions button.pass").count():
            said.append(say("s"))
        else:
            return False
        page.wait_for_timeout(150)
        return True

    play_out([p], act=act)
    live = page.inner_text("#live")
    assert said and all(s for s in said)
    assert any("on the left end" in s or "on the right end" in s or s.startswith("Open with")
               for s in said), said
    assert "wins the match" in live or "no winner" in live
    assert say("p 9-9").startswith("Say a tile") or "not your turn" in say("p 9-9")


def violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']]}"
            for v in result.response["violations"] if v["impact"] in ("serious", "critical")]


def test_no_serious_accessibility_finding_on_lobby_table_and_replay(server: Server,
                                                                   people: Any) -> None:
    p = people()
    page = p.page
    page.goto(f"{server.url}/")
    assert violations(page) == []
    made = create_table(page, server.url, ["human", "bot:easy"], target=15)
    assert violations(page) == []  # the new table's links
    q = join(people, made["links"][0])
    q.page.wait_for_selector("#hand button")
    assert violations(q.page) == []
    q.page.click("#sr")
    assert violations(q.page) == []
    play_out([q])
    assert violations(q.page) == []  # the reveal and the final scores
    q.page.goto(f"{server.url}/replay?table={made['id']}")
    q.page.wait_for_selector("#viewer:not([hidden])")
    q.page.click("#fwd")
    assert violations(q.page) == []
