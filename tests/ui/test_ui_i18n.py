"""The catalogs: every string of the interface is in every catalog, translated in es, cs, ru,
with the same placeholders, and the committed .mo files say what the .po files say."""

from __future__ import annotations

import gettext
import importlib.util
import re
import string
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from matador.ui.i18n import LANGUAGES, LOCALE_DIR, detect_language, set_language, translator

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> object:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_tool"] = module
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "matador.po").open("rb") as f:
        return read_po(f, locale=lang)


def ids(cat: Catalog) -> set[object]:
    return {m.id for m in cat if m.id}


def fields(text: str) -> set[str]:
    """The placeholders of a str.format template (``{name}``, ``{points:+d}``, ``{text!r}``)."""
    return {f"{name}!{conv}:{spec}" for _lit, name, spec, conv in string.Formatter().parse(text)
            if name is not None}


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def test_every_source_string_is_in_every_catalog() -> None:
    """The strings marked in the sources (extracted with Babel) are exactly the catalogs'."""
    wanted = ids(TOOL.extract())  # type: ignore[attr-defined]
    assert len(wanted) > 150
    for lang in LANGUAGES:
        assert ids(catalog(lang)) == wanted, lang


@pytest.mark.parametrize("lang", ["es", "cs", "ru"])
def test_every_string_translated(lang: str) -> None:
    """Every message of es, cs and ru has every plural form translated, none fuzzy."""
    cat = catalog(lang)
    assert cat.num_plurals == 3
    for m in cat:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        assert all(forms(m)), m.id
        assert len(forms(m)) == (cat.num_plurals if m.pluralizable else 1), m.id


@pytest.mark.parametrize("lang", ["es", "cs", "ru"])
def test_placeholders_agree(lang: str) -> None:
    """A translation uses exactly the placeholders of its msgid."""
    for m in catalog(lang):
        if not m.id:
            continue
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        expected = set().union(*(fields(s) for s in sources))
        for text in forms(m):
            got = fields(text)
            assert got <= expected and (got == expected or m.pluralizable), (m.id, text)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_mo_matches_po(lang: str) -> None:
    """The committed .mo (what gettext reads) holds exactly the .po's translations."""
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / "matador.mo"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for m in catalog(lang):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            for n in (1, 2, 5, 21):
                index = compiled.plural(n)  # type: ignore[attr-defined]
                want = forms(m)[index] or (m.id[0] if n == 1 else m.id[1])
                assert compiled.ngettext(m.id[0], m.id[1], n) == want, (m.id, n)
        else:
            assert compiled.gettext(m.id) == (m.string or m.id), m.id


def test_language_choice() -> None:
    """--lang wins; otherwise the locale variables; English by default."""
    assert detect_language({"LC_ALL": "ru_RU.UTF-8", "LANG": "es_ES"}) == "ru"
    assert detect_language({}) == "en"
    assert set_language("cs") == "cs"
    assert translator("cs").gettext("Your hand:") == "Vaše kostky:"
    set_language("en")
    with pytest.raises(ValueError, match="unknown language"):
        translator("de")


def test_no_untranslated_literal_in_the_screens() -> None:
    """User-facing print calls in the ui package pass through _() (no bare English)."""
    bare = re.compile(r"""\.(print|ask|pause)\(\s*(f?["'])[A-Za-z]""")
    for path in sorted((ROOT / "src" / "matador" / "ui").glob("*.py")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not bare.search(line), f"{path.name}:{lineno}: {line.strip()}"
