"""The pages the server renders: the lobby, a new table's links, the table, the replays.

Each page is complete HTML in the person's language (the terminal's gettext
catalogues); the table and the replay viewer then come alive with their
script (``static/table.js``, ``static/replay.js``), which reads the page's
catalogue and configuration from two inline JSON elements.

>>> "Play against the computer" in lobby("en", ["classic"], ["easy", "normal"])
True
>>> "Jugar contra el ordenador" in lobby("es", ["classic"], ["easy"])
True
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from matador import __version__
from matador.ui.i18n import LANGUAGES, translator
from matador.web.i18n import catalogue_json

ASSET_VERSION = __version__
"""Appended to static URLs so a new release is not served from an old cache."""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _json_script(element_id: str, data: object) -> str:
    text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def page(lang: str, title: str, body: str, *, script: str = "", config: object = None,
         path: str = "/", wide: bool = False) -> str:
    """A whole page: header (home, replays, language), ``body``, and the page's script."""
    _ = translator(lang).gettext
    current = ' aria-current="true"'
    langs = "".join(
        f'<a href="{_esc(path)}?lang={code}" lang="{code}" hreflang="{code}"'
        f'{current if code == lang else ""}>{_esc(name)}</a>'
        for code, name in LANGUAGES.items())
    scripts = ""
    if script:
        scripts = (f'<script type="application/json" id="i18n">{catalogue_json(lang)}</script>'
                   + _json_script("config", config if config is not None else {})
                   + f'<script type="module" src="/static/{script}?v={ASSET_VERSION}">'
                     "</script>")
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_esc(title)}</title>"
        f'<link rel="stylesheet" href="/static/style.css?v={ASSET_VERSION}">'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">'
        "</head><body>"
        f'<a class="skip" href="#main">{_esc(_("Skip to the content"))}</a>'
        '<header class="top"><a class="brand" href="/">Matador</a>'
        f'<nav aria-label="{_esc(_("Site"))}"><a href="/">{_esc(_("Lobby"))}</a>'
        f'<a href="/replay">{_esc(_("Replays"))}</a></nav>'
        f'<nav class="langs" aria-label="{_esc(_("Language"))}">{langs}</nav></header>'
        f'<main id="main" class="{"wide" if wide else "narrow"}" tabindex="-1">{body}</main>'
        f'<footer><small>matador {_esc(__version__)}</small></footer>'
        f"{scripts}</body></html>")


def _options(pairs: Sequence[tuple[str, str]], selected: str) -> str:
    return "".join(f'<option value="{_esc(v)}"{" selected" if v == selected else ""}>'
                   f"{_esc(t)}</option>" for v, t in pairs)


def lobby(lang: str, presets: Sequence[str], levels: Sequence[str], error: str = "",
          engines: Sequence[str] = ()) -> str:
    """The home page: play the computer in one click, set up a table, recent tables."""
    _ = translator(lang).gettext
    level_names = {"easy": _("easy"), "normal": _("normal"), "strong": _("strong"),
                   "max": _("max")}
    preset_opts = _options([(p, p) for p in presets], "classic")
    bot_opts = [(f"bot:{lv}", _("computer, {level}").format(level=level_names.get(lv, lv)))
                for lv in levels] + [(f"engine:{e}", _("engine {name}").format(name=e))
                                     for e in engines]
    level_opts = _options([(lv, level_names.get(lv, lv)) for lv in levels], "normal")

    def seat(i: int) -> str:
        default = "human" if i == 0 else ("bot:normal" if i == 1 else "none")
        pairs = [("human", _("a person (invite link)")), *bot_opts]
        if i >= 2:
            pairs.append(("none", _("nobody")))
        return (f'<label class="field">{_esc(_("Seat {n}").format(n=i + 1))} '
                f'<select name="seat{i}">{_options(pairs, default)}</select></label>')

    err = f'<p class="error" role="alert">{_esc(error)}</p>' if error else ""
    body = f"""
<h1>{_esc(_("Matador"))}</h1>
<p class="lead">{_esc(_("Dominoes where touching halves add up to seven. Play the computer, or "
                        "invite friends with a link: no account needed."))}</p>
{err}
<section aria-labelledby="quick"><h2 id="quick">{_esc(_("Play now"))}</h2>
<form method="post" action="/play" class="row">
<input type="hidden" name="lang" value="{lang}">
<label class="field">{_esc(_("Computer level"))} <select name="level">{level_opts}</select>
</label>
<button type="submit" class="primary" id="play-computer">{_esc(_("Play against the computer"))}
</button></form></section>
<section aria-labelledby="recent-h" id="recent-box" hidden>
<h2 id="recent-h">{_esc(_("Your recent tables"))}</h2><ul id="recent"></ul></section>
<section aria-labelledby="new-h"><h2 id="new-h">{_esc(_("A new table"))}</h2>
<form method="post" action="/new" id="new-table">
<input type="hidden" name="lang" value="{lang}">
<fieldset><legend>{_esc(_("Rules"))}</legend>
<label class="field">{_esc(_("Preset"))} <select name="preset">{preset_opts}</select></label>
<label class="field">{_esc(_("Match to (points, empty: the preset's)"))}
<input name="match_target" inputmode="numeric" pattern="[0-9]*" size="5"></label>
<label class="check"><input type="checkbox" name="single_hand" value="1">
{_esc(_("One hand only"))}</label>
<label class="field wide">{_esc(_("House rules, one NAME=VALUE a line"))}
<textarea name="rules" rows="2"></textarea></label></fieldset>
<fieldset><legend>{_esc(_("Seats"))}</legend>{"".join(seat(i) for i in range(4))}</fieldset>
<fieldset><legend>{_esc(_("Clock (optional)"))}</legend>
<label class="field">{_esc(_("Seconds per move"))}
<input name="per_move" inputmode="decimal" size="5"></label>
<label class="field">{_esc(_("Time bank, seconds"))}
<input name="bank" inputmode="decimal" size="5"></label></fieldset>
<fieldset><legend>{_esc(_("You"))}</legend>
<label class="field">{_esc(_("Your name (optional)"))}
<input name="name" id="your-name" maxlength="40" autocomplete="nickname"></label></fieldset>
<button type="submit" class="primary">{_esc(_("Create the table"))}</button>
</form></section>
<section aria-labelledby="replay-h"><h2 id="replay-h">{_esc(_("Replays"))}</h2>
<p><a href="/replay">{_esc(_("Open a record file or a finished table"))}</a></p></section>"""
    return page(lang, _("Matador"), body, script="lobby.js", config={"page": "lobby"})


def created(lang: str, table_id: str, links: Mapping[str, Any], seats: Sequence[str]) -> str:
    """A new table: each person's invite link (copyable), the spectators' link."""
    _ = translator(lang).gettext
    items = []
    for s, url in sorted(links["seats"].items(), key=lambda kv: int(kv[0])):
        n = int(s) + 1
        items.append(
            f'<li><span class="label">{_esc(_("Seat {n}").format(n=n))}</span> '
            f'<input class="link" readonly value="{_esc(url)}" id="link{s}" '
            f'aria-label="{_esc(_("Invite link of seat {n}").format(n=n))}">'
            f'<button type="button" class="copy" data-copy="link{s}">{_esc(_("Copy"))}</button>'
            f' <a class="button" href="{_esc(url)}" data-seat-link="{_esc(s)}">'
            f'{_esc(_("Sit here"))}</a></li>')
    bots = "".join(f"<li>{_esc(_('Seat {n}').format(n=i + 1))}: {_esc(label)}</li>"
                   for i, label in enumerate(seats) if label != "human")
    body = f"""
<h1>{_esc(_("Table {id} is ready").format(id=table_id))}</h1>
<p>{_esc(_("Each link is its seat: the first person to open it sits there, and the same link "
           "reopens the seat on another device. Send each friend their own link. The links "
           "are shown only once: keep them."))}</p>
<ul class="links">{"".join(items)}</ul>
<h2>{_esc(_("Spectators"))}</h2>
<p><input class="link" readonly value="{_esc(links["spectator"])}" id="watch"
aria-label="{_esc(_("Spectator link"))}"><button type="button" class="copy" data-copy="watch">
{_esc(_("Copy"))}</button></p>
{f'<h2>{_esc(_("Computer players"))}</h2><ul>{bots}</ul>' if bots else ""}
<p><a href="/">{_esc(_("Back to the lobby"))}</a></p>"""
    return page(lang, _("Table {id} is ready").format(id=table_id), body, script="lobby.js",
                config={"page": "created", "table": table_id})


def table(lang: str, summary: Mapping[str, Any], phrases: Mapping[str, Mapping[str, str]]
          ) -> str:
    """The table: a shell of landmarks that ``table.js`` fills from the protocol."""
    _ = translator(lang).gettext
    tid = summary["id"]
    config = {"page": "table", "table": tid, "players": summary["players"],
              "phrases": {k: v.get(lang, v["en"]) for k, v in phrases.items()},
              "lang": lang}
    body = f"""
<div class="bar" role="region" aria-label="{_esc(_("Table status"))}">
<h1 class="title">{_esc(_("Table {id}").format(id=tid))}</h1>
<span id="conn" class="badge" role="status">{_esc(_("Connecting…"))}</span>
<span class="tools">
<button type="button" id="sound" aria-pressed="false">{_esc(_("Sound"))}</button>
<button type="button" id="sr" aria-pressed="false">{_esc(_("Screen reader mode"))}</button>
</span></div>
<noscript><p class="error">{_esc(_("The table needs JavaScript."))}</p></noscript>
<p id="nolink" class="notice" hidden>{_esc(_("Open your invite link to take your seat, or the "
                                              "spectator link to watch."))}</p>
<div class="layout">
<section id="seats" class="seats" aria-label="{_esc(_("Players"))}"></section>
<section id="board" class="board" aria-label="{_esc(_("The line of play"))}">
<div id="ends" class="ends"></div><div id="line" class="line"></div>
<p id="boneyard" class="boneyard"></p></section>
<section id="me" class="me" aria-label="{_esc(_("Your hand"))}">
<p id="turn" class="turn" role="status"></p>
<div id="hand" class="hand"></div>
<div id="actions" class="actions"></div>
<p id="explain" class="explain" role="alert"></p>
<div id="choice" class="choice" hidden></div>
<div id="hintbox" class="hintbox" hidden></div>
<form id="cmd" class="cmd" hidden autocomplete="off">
<label for="cmd-input">{_esc(_("Command"))}</label>
<input id="cmd-input" name="cmd" aria-describedby="cmd-help" spellcheck="false">
<button type="submit">{_esc(_("Send"))}</button>
<p id="cmd-help" class="help">{_esc(_("Commands: p 3-4 left (play), d (draw), s (pass), "
                                      "h (your hand), t (the table), w (whose turn)."))}</p>
</form></section>
<aside class="side">
<section aria-labelledby="moves-h"><h2 id="moves-h">{_esc(_("Moves"))}</h2>
<ol id="moves" class="moves" tabindex="0"></ol></section>
<section aria-labelledby="sheet-h"><h2 id="sheet-h">{_esc(_("Score sheet"))}</h2>
<div id="sheet" tabindex="0"></div></section>
<section aria-labelledby="chat-h"><h2 id="chat-h">{_esc(_("Chat"))}</h2>
<ol id="chat" class="chat" aria-live="polite" tabindex="0"></ol>
<div id="phrases" class="phrases"></div>
<form id="chat-form" class="row" autocomplete="off">
<label for="chat-input" class="sr-only">{_esc(_("Message"))}</label>
<input id="chat-input" maxlength="200" placeholder="{_esc(_("Message"))}">
<button type="submit">{_esc(_("Send"))}</button></form></section>
</aside></div>
<div id="reveal" class="reveal" role="dialog" aria-modal="false" aria-labelledby="reveal-h"
hidden></div>
<div id="live" class="sr-only" aria-live="polite" aria-atomic="false"></div>"""
    return page(lang, _("Table {id}").format(id=tid), body, script="table.js", config=config,
                path=f"/t/{tid}", wide=True)


def replay(lang: str, table_id: str | None = None) -> str:
    """The replay viewer: a record file from the person's disk, or a table's finished hands."""
    _ = translator(lang).gettext
    body = f"""
<h1>{_esc(_("Replays"))}</h1>
<form id="load" class="row" autocomplete="off">
<label class="field">{_esc(_("A record file (JSON or JSONL)"))}
<input type="file" id="file" accept=".json,.jsonl,application/json"></label>
<label class="field">{_esc(_("or a table"))}
<input id="table-id" value="{_esc(table_id or "")}" size="14"></label>
<button type="submit">{_esc(_("Open"))}</button></form>
<p id="status" role="status"></p>
<div id="viewer" hidden>
<div class="row">
<label class="field">{_esc(_("Hand"))} <select id="hand-pick"></select></label>
<label class="field">{_esc(_("View"))} <select id="seat-pick"></select></label>
<button type="button" id="verify">{_esc(_("Verify the fair deal"))}</button></div>
<p id="verdict" role="status"></p>
<div class="row steps">
<button type="button" id="first" aria-label="{_esc(_("First position"))}">⏮</button>
<button type="button" id="back" aria-label="{_esc(_("Back"))}">◀</button>
<span id="where" aria-live="polite"></span>
<button type="button" id="fwd" aria-label="{_esc(_("Forward"))}">▶</button>
<button type="button" id="last" aria-label="{_esc(_("Last position"))}">⏭</button></div>
<section class="board" aria-label="{_esc(_("The line of play"))}">
<div id="ends" class="ends"></div><div id="line" class="line"></div></section>
<section id="hands" class="hands" aria-label="{_esc(_("Hands"))}"></section>
<div id="result"></div></div>"""
    return page(lang, _("Replays"), body, script="replay.js",
                config={"page": "replay", "table": table_id}, path="/replay", wide=True)


__all__ = ["ASSET_VERSION", "created", "lobby", "page", "replay", "table"]
