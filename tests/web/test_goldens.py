"""Screenshots of the table at a fixed deal, phone and desktop, against goldens in the
repository (a small tolerance for font rendering). The page talks to a stand-in for the
server's WebSocket that sends the welcome and the snapshot of a fixed position, so the
picture does not depend on a fair deal's randomness.

    MATADOR_UPDATE_GOLDENS=1 python -m pytest tests/web/test_goldens.py   # regenerate
"""

from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from matador.core.rules import Rules
from matador.table.referee import Table
from matador.table.snapshot import snapshot

from .conftest import DESKTOP, PHONE, Server

pytestmark = pytest.mark.slow
GOLDENS = Path(__file__).with_name("goldens")
UPDATE = os.environ.get("MATADOR_UPDATE_GOLDENS") == "1"
TOLERANCE = 0.006
"""The share of pixels allowed to differ visibly (a channel by more than 48)."""


def fixed_position() -> tuple[dict[str, Any], dict[str, Any]]:
    """A classic two-player hand, eight moves in or more, seat 0 to move with a choice: its
    snapshot and room."""
    t = Table(Rules.from_preset("classic"), 2)
    t.deal(random.Random(20))
    pick = random.Random(4)
    while t.ply < 8 or t.to_move != 0 or len(t.legal_moves(0)) < 2:
        seat = t.to_move
        assert seat is not None
        legal = t.legal_moves(seat)
        plays = [m for m in legal if str(m) not in ("draw", "pass")]
        t.submit(seat, pick.choice(plays or legal))
    room = {"table": "golden", "marked": False, "next_table": None, "rematch": [],
            "fair": None, "clock": None, "muted": [],
            "seats": [{"seat": 0, "kind": "human", "name": "Ana", "online": True,
                       "claimed": True, "bot": None, "replaced": False},
                      {"seat": 1, "kind": "bot", "name": None, "online": True,
                       "claimed": True, "bot": "normal", "replaced": False}]}
    return snapshot(t, 0), room


def stand_in(snap: dict[str, Any], room: dict[str, Any]) -> Any:
    def handler(ws: Any) -> None:
        def on_message(message: Any) -> None:
            if json.loads(message).get("type") == "hello":
                ws.send(json.dumps({"type": "welcome", "protocol": 1, "table": "golden",
                                    "you": 0, "role": "seat", "version": snap["version"]}))
                ws.send(json.dumps({"type": "snapshot", "version": snap["version"],
                                    "snapshot": snap, "room": room}))
        ws.on_message(on_message)
    return handler


def differs(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ visibly (1.0 when the sizes differ)."""
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    pixels = getattr(diff, "get_flattened_data", diff.getdata)()  # getdata: Pillow < 12
    bad = sum(1 for px in pixels if max(px) > 48)
    return bad / (a.size[0] * a.size[1])


@pytest.mark.parametrize("name,viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_table_looks_as_it_did(server: Server, people: Any, name: str,
                                   viewport: dict[str, int]) -> None:
    snap, room = fixed_position()
    p = people(viewport=viewport)
    made = p.page.request.post(f"{server.url}/api/tables",
                               data={"preset": "classic", "seats": ["human", "bot:easy"]})
    table_id = made.json()["id"]
    p.page.route_web_socket(re.compile(r".*/ws/tables/.*"), stand_in(snap, room))
    p.page.goto(f"{server.url}/t/{table_id}?lang=en#seat=golden-token-000000")
    p.page.wait_for_selector("#conn.ok")
    p.page.wait_for_selector("#hand button")
    # the title names the table's random id, whose width would move what follows it
    p.page.evaluate("document.querySelector('.title').textContent = 'Table golden'")
    # everything the page fetches by itself (the score sheet) is in, fonts are loaded and
    # the layout has not moved for two frames: a loaded machine takes the same picture
    p.page.wait_for_load_state("networkidle")
    p.page.wait_for_selector("#sheet > *")
    p.page.evaluate("document.fonts.ready")
    p.page.evaluate("""() => new Promise((done) => {
        let last = -1;
        const look = () => {
            const now = document.documentElement.scrollHeight;
            if (now === last) { done(now); } else { last = now; requestAnimationFrame(look); }
        };
        requestAnimationFrame(look);
    })""")
    shot = p.page.screenshot(full_page=True, animations="disabled")
    golden = GOLDENS / f"table-{name}.png"
    if UPDATE:
        GOLDENS.mkdir(exist_ok=True)
        golden.write_bytes(shot)
        return
    assert golden.exists(), f"{golden} is missing: MATADOR_UPDATE_GOLDENS=1 makes it"
    got, want = Image.open(io.BytesIO(shot)), Image.open(golden)
    share = differs(got, want)
    if share > TOLERANCE:
        (GOLDENS / f"table-{name}.actual.png").write_bytes(shot)
    assert got.size == want.size, (
        f"the page is {got.size[0]}x{got.size[1]} px, the golden {want.size[0]}x{want.size[1]}"
        f" (see table-{name}.actual.png)")
    assert share <= TOLERANCE, f"{share:.2%} of the pixels differ (see table-{name}.actual.png)"
    # the phone layout has no horizontal scroll and tap targets of 44 px at least
    width = p.page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    small = p.page.evaluate("""() => [...document.querySelectorAll(
        'button, a.button, #hand button, select, input:not([type=checkbox])')]
        .filter(e => e.offsetParent !== null)
        .map(e => e.getBoundingClientRect())
        .filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0
