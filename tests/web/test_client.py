"""The browser client without a browser: what is served is what the package holds, the
table's script stays small, every string is in the catalogues and translated, the pages
and the client's JSON routes answer as documented (an in-process server)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from matador.core.rules import Rules
from matador.core.tiles import Tile
from matador.server.config import Settings
from matador.server.hub import Hub
from matador.table.referee import Table
from matador.web import STATIC_DIR, create_app
from matador.web.api import parse_tile, replay_hand, tile_reason
from matador.web.app import table_request
from matador.web.i18n import catalogue, message_ids
from server.botpool import shared_bot_pool

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "matador" / "locale"
IMPORT = re.compile(r'^import .* from "\./([a-z]+\.js)";', re.M)


def tools_i18n() -> Any:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), http_capacity=10_000.0,
                        http_per_second=10_000.0, create_capacity=10_000.0,
                        create_per_second=10_000.0)
    with TestClient(create_app(settings, Hub(settings, pool=shared_bot_pool()))) as c:
        yield c


def test_what_is_served_is_what_the_package_holds(client: TestClient) -> None:
    for path in STATIC_DIR.iterdir():
        got = client.get(f"/static/{path.name}")
        assert got.status_code == 200, path.name
        assert got.content == path.read_bytes(), path.name
        again = client.get(f"/static/{path.name}", headers={"if-none-match": got.headers["etag"]})
        assert again.status_code == 304
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_the_table_script_with_its_imports_is_at_most_50_kb_gzipped() -> None:
    seen: set[str] = set()
    todo = ["table.js"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(IMPORT.findall((STATIC_DIR / name).read_text(encoding="utf-8")))
    assert seen == {"table.js", "dom.js", "domino.js"}
    size = sum(len(gzip.compress((STATIC_DIR / n).read_bytes(), 9)) for n in seen)
    assert size <= 50_000, size


def test_the_catalogues_hold_every_string_of_the_client_translated() -> None:
    tool = tools_i18n()
    assert list(message_ids()) == tool.script_ids(), "run python tools/i18n.py all"
    with (LOCALE / "matador.pot").open("rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    extracted = {m.id for m in tool.extract() if m.id}
    assert extracted == template, "run python tools/i18n.py all"
    for lang in ("es", "cs", "ru"):
        with (LOCALE / lang / "LC_MESSAGES" / "matador.po").open("rb") as f:
            po = read_po(f, locale=lang)
        missing = [m.id for m in po if m.id and (not m.string or m.fuzzy)]
        assert missing == [], (lang, missing[:5])
        strings = {m.id: m.string for m in po if m.id}
        served = catalogue(lang)  # from the compiled .mo the server reads
        assert served == {k: strings[k] for k in served}, "run python tools/i18n.py compile"


def test_pages_in_each_language(client: TestClient) -> None:
    words = {"en": "Play against the computer", "es": "Jugar contra el ordenador",
             "cs": "Hrát proti počítači", "ru": "Играть с компьютером"}  # noqa: RUF001
    for lang, text in words.items():
        page = client.get(f"/?lang={lang}")
        assert page.status_code == 200 and text in page.text
        assert f'<html lang="{lang}">' in page.text
        assert page.cookies.get("lang") == lang
    client.cookies.clear()
    assert "Jugar contra" in client.get("/", headers={"accept-language": "es-ES,es;q=0.8"}).text
    assert "Replays" in client.get("/replay").text


def test_one_click_against_the_computer(client: TestClient) -> None:
    got = client.post("/play", data={"level": "easy", "lang": "cs"}, follow_redirects=False)
    assert got.status_code == 303
    location = got.headers["location"]
    assert re.fullmatch(r"/t/[0-9a-f]+\?lang=cs#seat=[\w-]{16,}", location), location
    table_id = location.split("/t/")[1].split("?")[0]
    page = client.get(f"/t/{table_id}?lang=cs")
    assert page.status_code == 200 and "Stůl" in page.text and "table.js" in page.text


def test_the_lobby_form_makes_invite_links_and_refuses_bad_rules(client: TestClient) -> None:
    made = client.post("/new", data={"preset": "classic", "seat0": "human", "seat1": "human",
                                     "seat2": "bot:easy", "seat3": "none",
                                     "match_target": "50"})
    assert made.status_code == 200
    links = re.findall(r'value="(http://[^"]+#(?:seat|watch)=[^"]+)"', made.text)
    assert len(links) == 3 and sum("#watch=" in x for x in links) == 1
    bad = client.post("/new", data={"preset": "classic", "seat0": "human",
                                     "rules": "no_such_rule=3"})
    assert bad.status_code == 400 and "no_such_rule" in bad.text
    with pytest.raises(ValueError, match="match_target"):
        table_request({"match_target": "ten"})
    assert client.get("/t/nosuchtable").status_code == 404


def test_seat_routes_need_the_seat_token(client: TestClient) -> None:
    got = client.post("/api/tables", json={"preset": "classic", "seats": ["human", "bot:easy"]})
    made = got.json()
    tid, token = made["id"], made["tokens"]["seats"]["0"]
    assert client.post(f"/api/tables/{tid}/explain", json={"token": "x" * 22,
                                                         "tile": "3-4"}).status_code == 403
    watch = made["tokens"]["spectator"]
    assert client.post(f"/api/tables/{tid}/hint", json={"token": watch}).json()["error"][
        "code"] == "spectator"
    assert client.post(f"/api/tables/{tid}/explain", json={"token": token,
                                                         "tile": "9-9"}).status_code in (400, 409)
    assert client.post(f"/api/tables/{tid}/review", json={"token": token}).json()["error"][
        "code"] == "not_over"
    assert client.post(f"/api/tables/{tid}/explain", content=b"{").status_code == 400
    assert client.get(f"/api/tables/{tid}/sheet").json() == {"hands": [], "scores": [0, 0]}


def test_replay_and_verify_of_an_uploaded_record(client: TestClient) -> None:
    record = (ROOT / "examples" / "hand.json").read_text(encoding="utf-8")
    got = client.post("/api/replay", content=record.encode())
    assert got.status_code == 200
    hand = got.json()["hands"][0]
    moves = json.loads(record)["moves"]
    assert len(hand["frames"]) == len(moves) + 1
    assert hand["frames"][1]["move"]["move"] == moves[0]
    assert client.post("/api/replay", content=b"{}").json()["error"]["code"] == "bad_record"
    verdict = client.post("/api/verify", content=record.encode()).json()["hands"][0]
    assert verdict["verified"] is False  # no fair-deal proof in a hand played offline


def test_why_a_tile_cannot_be_laid_names_the_rule() -> None:
    """R9: a tile joins an end when its touching half and the end add up to the target."""
    t = Table(Rules.from_preset("classic"), 2, single_hand=True)
    t.deal(random.Random(3))
    seat = t.to_move
    assert seat is not None
    view = t.view(seat)
    held = [x for x in range(28) if view.hand_mask >> x & 1]
    legal_tiles = {m.tile for m in t.legal_moves(seat) if m < 28 * 4}
    some = next(x for x in held if x in legal_tiles)
    assert tile_reason(view, Tile(some), "en")["legal"] is True
    other = t.view(1 - seat)
    mine = next(x for x in range(28) if other.hand_mask >> x & 1)
    assert tile_reason(other, Tile(mine), "es")["text"] == "No es tu turno."
    while t.view(t.to_move).left < 0 or not t.view(t.to_move).legal_move_ids():
        t.submit(t.to_move, t.legal_moves(t.to_move)[0])
    view = t.view(t.to_move)  # type: ignore[arg-type]
    for x in range(28):
        if view.hand_mask >> x & 1 and not any(m.tile == x for m in t.legal_moves(view.seat)
                                               if m < 28 * 4):
            reason = tile_reason(view, Tile(x), "en")
            assert reason["legal"] is False and reason["rule"] in ("R9", "R10"), reason
            assert "(R" in reason["text"]
    assert parse_tile("4-3") == Tile.of(3, 4)
    with pytest.raises(ValueError, match="not a tile"):
        parse_tile("7-1")


def test_a_replayed_hand_opens_every_hand_and_ends_with_the_result() -> None:
    t = Table(Rules.from_preset("classic"), 3, single_hand=True)
    t.deal(random.Random(11))
    while not t.is_over:
        t.submit(t.to_move, t.legal_moves(t.to_move)[-1])  # type: ignore[arg-type]
    hand = replay_hand(t.records[0])
    first, last = hand["frames"][0], hand["frames"][-1]
    assert [len(h) for h in first["hands"]] == first["hand_sizes"]
    assert last["points"] == hand["result"]["points"]
    assert sum(b["total"] for b in hand["breakdown"]) == sum(hand["result"]["points"])
