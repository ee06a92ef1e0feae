"""The client's words in the person's language, from the terminal's gettext catalogues.

The browser scripts mark their strings with calls of ``_`` exactly as the
Python interface does; ``tools/i18n.py extract`` collects them into the same
``matador.pot`` (so the same ``.po`` files translate them) and lists their ids
in ``static/messages.json``. A page carries :func:`catalogue` of its language
inline, so the scripts look words up with no request of their own.

>>> catalogue("es")["Your turn."]
'Tu turno.'
>>> pick_language("ru", None, "es-ES,es;q=0.9"), pick_language(None, None, "cs,en;q=0.5")
('ru', 'cs')
>>> pick_language("xx", "es", ""), pick_language(None, None, None)
('es', 'en')
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from matador.ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator

MESSAGES = Path(__file__).resolve().parent / "static" / "messages.json"
"""The ids of every string the scripts translate (written by ``tools/i18n.py extract``)."""


@cache
def message_ids() -> tuple[str, ...]:
    """The ids of :data:`MESSAGES`."""
    return tuple(json.loads(MESSAGES.read_text(encoding="utf-8")))


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every string of the scripts in ``lang`` (English: the ids themselves)."""
    gettext = translator(lang).gettext
    return {m: gettext(m) for m in message_ids()}


@cache
def catalogue_json(lang: str) -> str:
    """:func:`catalogue` as JSON safe inside a ``<script>`` element."""
    return json.dumps(catalogue(lang), ensure_ascii=False).replace("</", "<\\/")


def pick_language(asked: str | None, cookie: str | None, accept: str | None) -> str:
    """The page's language: ``?lang=``, else the ``lang`` cookie, else the browser's
    ``Accept-Language`` (by quality), else English."""
    for value in (asked, cookie):
        if value in LANGUAGES:
            return value
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.split("-")[0].strip().lower()
        if code in LANGUAGES and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


__all__ = ["MESSAGES", "catalogue", "catalogue_json", "message_ids", "pick_language"]
