"""Server-rendered pages: the home page (create a table) and a table's page.

The browser table itself is a separate client; these pages need no
JavaScript: a form creates a table and shows its invite links, and a
table's page shows its state and how a client connects.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from matador import __version__
from matador.core.rules import PRESETS
from matador.players import LEVELS

STYLE = """
body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;
color:#1d2428;background:#f7f5ef}
h1{font-size:1.8rem;margin-bottom:.2rem}h1 small{font-size:.9rem;color:#667}
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:1rem 0;padding:.6rem 1rem}
label{display:inline-block;margin:.25rem .8rem .25rem 0}
input[type=text]{width:100%;box-sizing:border-box}
button{font-size:1rem;padding:.4rem 1.2rem}
code,.link{font-family:ui-monospace,monospace;font-size:.9rem;word-break:break-all}
.link{background:#fff;border:1px solid #ddd;padding:.3rem .5rem;display:block;margin:.2rem 0}
.error{color:#a01010}
"""


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}<hr><p><small>matador {__version__} · the table protocol: "
            f"<a href=\"/api/health\">/api</a>, docs/server.md</small></p></body></html>")


def home(error: str = "") -> str:
    """The home page: what this is, and a form that creates a table."""
    presets = "".join(f"<option value=\"{p}\">{p}</option>" for p in PRESETS)
    kinds = [("human", "a person (invite link)"), ("none", "nobody")] + [
        (f"bot:{lv}", f"bot, {lv}") for lv in LEVELS]

    def seat(i: int) -> str:
        default = "human" if i == 0 else ("bot:normal" if i == 1 else "none")
        options = "".join(
            f"<option value=\"{v}\"{' selected' if v == default else ''}>{html.escape(t)}"
            f"</option>" for v, t in kinds if not (i < 2 and v == "none"))
        return f"<label>Seat {i + 1} <select name=\"seat{i}\">{options}</select></label>"

    err = f"<p class=\"error\">{html.escape(error)}</p>" if error else ""
    body = f"""
<h1>Matador <small>dominoes where touching halves add up to seven</small></h1>
<p>Play with friends online: create a table, send each friend their seat's link, and
bots fill the empty seats. Deals are provably fair: the server commits to a secret
before each hand, every player adds randomness, and the secret is revealed at the end
(<code>matador verify</code> checks any downloaded record).</p>
{err}
<form method="post" action="/new">
<fieldset><legend>Rules</legend>
<label>Preset <select name="preset">{presets}</select></label>
<label><input type="checkbox" name="single_hand" value="1"> one hand only</label>
<label>House rules, one <code>NAME=VALUE</code> a line (e.g. <code>match_target=50</code>)
<textarea name="rules" rows="2" cols="40"></textarea></label>
</fieldset>
<fieldset><legend>Seats</legend>{"".join(seat(i) for i in range(4))}</fieldset>
<fieldset><legend>Clock (optional)</legend>
<label>seconds per move <input name="per_move" size="4"></label>
<label>time bank, seconds <input name="bank" size="5"></label>
</fieldset>
<button type="submit">Create the table</button>
</form>"""
    return _page("Matador", body)


def created(table_id: str, links: Mapping[str, Any]) -> str:
    """The page after a table is created: one link per human seat, and the spectators'."""
    seats = "".join(
        f"<p>Seat {int(s) + 1}:<span class=\"link\">{html.escape(url)}</span></p>"
        for s, url in sorted(links["seats"].items(), key=lambda kv: int(kv[0])))
    body = f"""
<h1>Table {html.escape(table_id)}</h1>
<p>Each link <em>is</em> its seat: the first person to open it sits there, and the same
link reopens the seat on another device. Keep them: they are shown only once.</p>
{seats}
<p>Spectators:<span class="link">{html.escape(links["spectator"])}</span></p>
<p><a href="/t/{html.escape(table_id)}">The table's page</a> ·
<a href="/">another table</a></p>"""
    return _page(f"Matador table {table_id}", body)


def table_page(summary: Mapping[str, Any]) -> str:
    """A table's page: its state, and how a client joins it."""
    seats = "".join(
        f"<li>Seat {s['seat'] + 1}: {html.escape(str(s['name'] or s['kind']))}"
        f"{' (' + html.escape(str(s['bot'])) + ')' if s['bot'] else ''}"
        f"{' · online' if s['online'] else ''}{' · played by a bot' if s['replaced'] else ''}"
        f"</li>" for s in summary["seats"])
    body = f"""
<h1>Table {html.escape(summary["id"])}</h1>
<p>{html.escape(summary["config"]["preset"])}, {summary["players"]} players ·
{html.escape(summary["phase"])} · hand {summary["hand"]} · scores
{html.escape(", ".join(map(str, summary["scores"])))}
{" · a bot stood in for a person in this game" if summary["marked"] else ""}</p>
<ul>{seats}</ul>
<p>A client joins over the WebSocket <code>/ws/tables/{html.escape(summary["id"])}</code>
with <code>{{"type": "hello", "token": TOKEN}}</code>, the token after <code>#seat=</code> or
<code>#watch=</code> in its link. Finished hands:
<a href="/api/tables/{html.escape(summary["id"])}/records.jsonl">records.jsonl</a>
({summary["records"]}).</p>"""
    return _page(f"Matador table {summary['id']}", body)


__all__ = ["created", "home", "table_page"]
