"""Playing through pages as people do: the lobby's form, invite links, clicks and keys."""

from __future__ import annotations

import json
import time
from typing import Any

from matador.table.referee import Table

from .conftest import Person


def create_table(page: Any, base: str, seats: list[str], *, lang: str = "en",
                 target: int | None = None, preset: str = "classic") -> dict[str, Any]:
    """Fill the lobby's form; the table id, each human seat's invite link, the spectators'."""
    page.goto(f"{base}/?lang={lang}")
    page.select_option("select[name=preset]", preset)
    for i in range(4):
        page.select_option(f"select[name=seat{i}]", seats[i] if i < len(seats) else "none")
    if target is not None:
        page.fill("input[name=match_target]", str(target))
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#watch")
    links = {i: page.input_value(f"#link{i}") for i, s in enumerate(seats) if s == "human"}
    watch = page.input_value("#watch")
    table_id = watch.split("/t/")[1].split("?")[0].split("#")[0]
    return {"id": table_id, "links": links, "watch": watch}


def step(p: Person) -> bool:
    """Do one thing a player would do now (next hand, a way, a legal tile, draw, pass);
    whether anything was done."""
    page = p.page
    for selector in ("#next-hand:not([disabled])", "#choice:not([hidden]) button.way",
                     "#hand button.tile.legal", "#actions button.draw", "#actions button.pass"):
        loc = page.locator(selector)
        if loc.count():
            try:
                loc.first.click(timeout=2000)
            except Exception:  # the page re-rendered under the click: look again
                return False
            return True
    return False


def finished(p: Person) -> bool:
    return p.page.locator("#final").count() > 0


def play_out(persons: list[Person], timeout: float = 240.0,
             act: Any = step) -> None:
    """Act for every person until each page shows the final scores."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(finished(p) for p in persons):
            return
        acted = False
        for p in persons:
            if not finished(p):
                acted = act(p) or acted
        if not acted:
            time.sleep(0.1)
    raise AssertionError("the match did not finish in time: " + "; ".join(
        p.page.inner_text("#turn") for p in persons))


def final_scores(p: Person) -> list[int]:
    return [int(x) for x in p.page.get_attribute("#final", "data-scores").split(",")]


def check_no_leak(table: Table, persons: list[Person]) -> int:
    """Every frame each page received names only tiles its recipient may know."""
    from server.leaks import Truth, check_frames

    truth = Truth(table)
    checked = 0
    for p in persons:
        assert p.frames, "no frame received"
        checked += check_frames(truth, p.seat, p.frames)
    return checked


def versions(p: Person) -> int:
    return max((json.loads(t).get("version") or 0) for t in p.frames)
