"""Whole matches in a real browser (Debian's Chromium through Playwright): people at
their own browser contexts join through invite links, play to the end of a match in
their language, and every WebSocket frame each page received is checked for tiles its
seat may not know."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .play import check_no_leak, create_table, final_scores, play_out

pytestmark = pytest.mark.slow
MATADOR = Path(sys.executable).parent / "matador"


def join(people: Any, link: str, lang: str) -> Any:
    p = people(lang=lang)
    p.page.goto(link)
    p.page.wait_for_selector("#conn.ok")
    return p


def test_two_people_and_a_bot_play_a_match_in_english(
        server: Server, people: Any, tmp_path: Path) -> None:
    host = people(lang="en")
    made = create_table(host.page, server.url, ["human", "human", "bot:easy"], target=15)
    a = join(people, made["links"][0], "en")
    b = join(people, made["links"][1], "en")
    watcher = join(people, made["watch"], "en")
    play_out([a, b])
    watcher.page.wait_for_selector("#final")
    scores = final_scores(a)
    assert scores == final_scores(b) == final_scores(watcher)
    assert max(scores) >= 15
    assert "wins the match" in a.page.inner_text("#turn") or "no winner" in a.page.inner_text(
        "#turn")
    table = server.truth(made["id"])
    assert list(table.scores) == scores and table.is_over
    assert check_no_leak(table, [a, b, watcher]) > 10
    # the record downloaded from the page replays to the score the page showed
    with a.page.expect_download() as got:
        a.page.click("#download")
    path = tmp_path / "match.jsonl"
    got.value.save_as(path)
    out = subprocess.run([str(MATADOR), "replay", "--jsonl", str(path)], capture_output=True,
                         text=True, check=True).stdout
    totals = [0] * 3
    for line in out.splitlines():
        for s, pts in enumerate(json.loads(line)["result"]["points"]):
            totals[s] += pts
    assert totals == scores


def test_three_people_play_a_match_in_spanish(server: Server, people: Any) -> None:
    host = people(lang="es")
    made = create_table(host.page, server.url, ["human", "human", "human"], lang="es",
                        target=15)
    persons = [join(people, made["links"][i], "es") for i in range(3)]
    assert persons[0].page.locator("html[lang=es]").count() == 1
    # once the three have contributed to the fair deal, one of them is told to play
    deadline = time.monotonic() + 20
    while True:
        turns = " ".join(p.page.inner_text("#turn") for p in persons)
        if "Tu turno" in turns or "mover" in turns or time.monotonic() > deadline:
            break
        persons[0].page.wait_for_timeout(100)
    assert "Tu turno" in turns or "mover" in turns, turns
    play_out(persons)
    scores = final_scores(persons[0])
    assert all(final_scores(p) == scores for p in persons)
    assert "Marcador final: Jugador 1" in persons[0].page.inner_text("#final")
    table = server.truth(made["id"])
    assert list(table.scores) == scores
    assert check_no_leak(table, persons) > 10
