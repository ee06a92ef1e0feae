"""Table talk: plain text made safe to show, and canned phrases in each language.

A chat line is plain text: control characters are dropped, runs of white
space become one space, it is cut to :data:`MAX_CHARS` characters and
HTML-escaped, so a client may show it as it comes. A canned phrase is sent
by id and shown in each reader's language (:data:`PHRASES`; the languages
of the terminal game's catalogues).

>>> clean_text("  <b>gg</b>\\n  well\\tplayed ")
'&lt;b&gt;gg&lt;/b&gt; well played'
>>> phrase_text("gg", "cs")
'Dobrá hra'
"""

from __future__ import annotations

import html
import unicodedata
from typing import Final

from matador.core.errors import MatadorError

MAX_CHARS: Final = 200
"""The longest chat line, in characters, before escaping."""

PHRASES: Final[dict[str, dict[str, str]]] = {
    "hello": {"en": "Hello!", "cs": "Ahoj!", "es": "¡Hola!", "ru": "Привет!"},
    "gg": {"en": "Good game", "cs": "Dobrá hra", "es": "Buena partida", "ru": "Хорошая игра"},
    "nice": {"en": "Nice move!", "cs": "Pěkný tah!", "es": "¡Buena jugada!",
             "ru": "Отличный ход!"},
    "thanks": {"en": "Thanks!", "cs": "Díky!", "es": "¡Gracias!", "ru": "Спасибо!"},
    "oops": {"en": "Oops", "cs": "Jejda", "es": "Ups", "ru": "Упс"},
    "think": {"en": "Let me think…", "cs": "Nech mě přemýšlet…", "es": "Déjame pensar…",
              "ru": "Дай подумать…"},
    "hurry": {"en": "Your turn!", "cs": "Jsi na tahu!", "es": "¡Te toca!", "ru": "Твой ход!"},
    "again": {"en": "Another match?", "cs": "Ještě jednu?", "es": "¿Otra partida?",
              "ru": "Ещё партию?"},
    "bye": {"en": "Bye!", "cs": "Ahoj, měj se!", "es": "¡Adiós!", "ru": "Пока!"},
}
"""Canned phrases: id to text per language (``en``, ``cs``, ``es``, ``ru``)."""

LANGUAGES: Final = ("en", "cs", "es", "ru")
"""The languages of :data:`PHRASES` (English is the fallback)."""


class ChatError(MatadorError):
    """A chat line that cannot be sent; ``code`` is ``chat_empty``, ``chat_too_long`` or
    ``unknown_phrase``."""

    def __init__(self, code: str, why: str) -> None:
        super().__init__(why)
        self.code = code


def clean_text(value: str) -> str:
    """``value`` as a safe chat line (see the module docstring); :class:`ChatError` if empty
    or longer than :data:`MAX_CHARS`."""
    kept = []
    for c in value:
        cat = unicodedata.category(c)
        if c.isspace():
            kept.append(" ")
        elif not cat.startswith("C"):
            kept.append(c)
    line = " ".join("".join(kept).split())
    if not line:
        raise ChatError("chat_empty", "the chat line is empty")
    if len(line) > MAX_CHARS:
        raise ChatError("chat_too_long", f"a chat line has at most {MAX_CHARS} characters, "
                                         f"not {len(line)}")
    return html.escape(line, quote=True)


def phrase_text(phrase: str, language: str) -> str:
    """A canned phrase in ``language`` (English if that language lacks it)."""
    texts = PHRASES.get(phrase)
    if texts is None:
        raise ChatError("unknown_phrase", f"unknown phrase {phrase!r:.40} (one of "
                                          f"{', '.join(PHRASES)})")
    return texts.get(language, texts["en"])


def language_of(value: object) -> str:
    """A supported language code from a client's ``lang`` (``cs-CZ`` is ``cs``), else ``en``."""
    if isinstance(value, str):
        code = value.split("-")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


__all__ = ["LANGUAGES", "MAX_CHARS", "PHRASES", "ChatError", "clean_text", "language_of",
           "phrase_text"]
