"""Translations of the terminal interface: gettext catalogs in en, es, cs and ru.

The catalogs live in ``matador/locale/LANG/LC_MESSAGES/matador.po`` and are
compiled (with Babel, ``tools/i18n.py compile``) to the ``.mo`` files that
:mod:`gettext` reads at run time. Every user-facing string of the interface
goes through :func:`_` (or :func:`ngettext` for counts); :func:`N_` marks a
string for extraction whose translation is looked up later.

>>> set_language("es")
'es'
>>> _("Your hand:")
'Tu mano:'
>>> ngettext("Boneyard: {n} tile", "Boneyard: {n} tiles", 3).format(n=3)
'Cementerio: 3 fichas'
>>> set_language("en")
'en'
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "matador"
"""The gettext domain of the catalogs."""
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR/LANG/LC_MESSAGES/matador.mo``."""
LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "cs": "Čeština",
    "ru": "Русский",
}
"""The languages of the interface, each by its own name."""
DEFAULT_LANGUAGE = "en"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def translator(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (English, the source language, falls back to the msgids)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (one of {', '.join(LANGUAGES)})")
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def set_language(lang: str) -> str:
    """Make ``lang`` the language of :func:`_` and :func:`ngettext`; return it."""
    global _current, _language
    _current = translator(lang)
    _language = lang
    return lang


def language() -> str:
    """The language in use."""
    return _language


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The interface language from the locale variables (``LANGUAGE``, ``LC_ALL``, ...).

    The first supported language named there wins; English otherwise.

    >>> detect_language({"LANG": "cs_CZ.UTF-8"}), detect_language({"LANG": "C"})
    ('cs', 'en')
    >>> detect_language({"LANGUAGE": "de:ru", "LANG": "es_ES.UTF-8"})
    'ru'
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
        if name != "LANGUAGE":  # the first set LC_* / LANG decides, as in gettext
            break
    return DEFAULT_LANGUAGE


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now."""
    return message


__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LOCALE_DIR", "N_", "_", "detect_language",
           "language", "ngettext", "set_language", "translator"]
