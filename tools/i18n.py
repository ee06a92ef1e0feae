#!/usr/bin/env python3
"""Maintain the gettext catalogs of the terminal interface with Babel.

    python tools/i18n.py extract   # write src/matador/locale/matador.pot from the sources
    python tools/i18n.py update    # merge the template into every LANG/LC_MESSAGES/matador.po
    python tools/i18n.py compile   # compile every .po to the .mo that gettext reads
    python tools/i18n.py all       # the three in order

The interface marks its strings with ``_``, ``N_`` and ``ngettext``
(:mod:`matador.ui.i18n`); so do the browser client's pages (``web/*.py``) and
scripts (``web/static/*.js``, with ``_("...")``). ``extract`` also lists the
scripts' ids in ``web/static/messages.json``, from which each page gets its
words (:mod:`matador.web.i18n`). The compiled ``.mo`` files are committed, so the
package needs Babel only here and in the tests (``pip install -e '.[test]'``),
which check that every string is translated and that the ``.mo`` files match
the ``.po`` files.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "matador"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "matador.pot"
LANGUAGES = ("en", "es", "cs", "ru")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
SOURCES = ("ui/*.py", "cli/play.py", "cli/show.py", "web/*.py")
SCRIPTS = ("web/static/*.js",)
SCRIPT_IDS = PACKAGE / "web" / "static" / "messages.json"


def source_files() -> list[Path]:
    """The modules whose strings are translated."""
    files: list[Path] = []
    for pattern in SOURCES:
        files.extend(sorted(PACKAGE.glob(pattern)))
    return files


def script_files() -> list[Path]:
    """The browser scripts whose strings are translated."""
    files: list[Path] = []
    for pattern in SCRIPTS:
        files.extend(sorted(PACKAGE.glob(pattern)))
    return files


def script_ids() -> list[str]:
    """Every string the browser scripts mark with ``_("...")``, sorted."""
    ids: set[str] = set()
    for path in script_files():
        for _lineno, message, _comments, _context in extract_from_file(
                "javascript", str(path), keywords={"_": None}):
            ids.add(message)
    return sorted(ids)


MARKED = re.compile(r'\b_\(\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+)\)')
"""``_("...")`` with one or more adjacent double-quoted literals (inside f-strings too)."""


def marked_in_fstrings(path: Path) -> list[tuple[int, str]]:
    """``_("...")`` calls that Babel's Python extractor does not see before Python 3.12:
    those inside f-strings (the pages' templates)."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in MARKED.finditer(text):
        lineno = text.count("\n", 0, m.start()) + 1
        out.append((lineno, ast.literal_eval(m.group(1).replace("\n", " "))))
    return out


def extract() -> Catalog:
    """A catalog of every marked string of :func:`source_files` and :func:`script_files`."""
    catalog = Catalog(project="matador", version="0.1.0", charset="utf-8")
    for method, files in (("python", source_files()), ("javascript", script_files())):
        for path in files:
            rel = path.relative_to(ROOT).as_posix()
            for lineno, message, _comments, context in extract_from_file(
                    method, str(path), keywords=KEYWORDS if method == "python" else {"_": None}):
                catalog.add(message, None, [(rel, lineno)], context=context)
            if method == "python" and path.parent.name == "web":
                for lineno, message in marked_in_fstrings(path):
                    if message not in catalog:
                        catalog.add(message, None, [(rel, lineno)])
    return catalog


def po_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / "matador.po"


def read(lang: str) -> Catalog:
    """The catalog of ``lang`` as it is on disk."""
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def write(lang: str, catalog: Catalog) -> None:
    """Write ``catalog`` as the ``.po`` of ``lang``."""
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False,
                 include_previous=False, include_lineno=False)


def cmd_extract() -> Catalog:
    ids = script_ids()
    SCRIPT_IDS.write_text(json.dumps(ids, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{SCRIPT_IDS.relative_to(ROOT)}: {len(ids)} script messages")
    template = extract()
    if TEMPLATE.exists():  # keep the creation date while the messages stay the same
        with TEMPLATE.open("rb") as f:
            old = read_po(f)
        if {m.id for m in old} == {m.id for m in template}:
            template.creation_date = old.creation_date
    with TEMPLATE.open("wb") as f:
        write_po(f, template, width=100, include_lineno=False)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(template)} messages")
    return template


def cmd_update(template: Catalog | None = None) -> None:
    if template is None:
        with TEMPLATE.open("rb") as f:
            template = read_po(f)
    for lang in LANGUAGES:
        if po_path(lang).exists():
            catalog = read(lang)
        else:
            catalog = Catalog(locale=lang, project="matador", version="0.1.0", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(lang, catalog)
        missing = [m.id for m in catalog if m.id and lang != "en" and not _done(m.string)]
        print(f"{po_path(lang).relative_to(ROOT)}: {len(missing)} untranslated")


def _done(string: object) -> bool:
    if isinstance(string, (list, tuple)):
        return all(string)
    return bool(string)


def cmd_compile() -> None:
    for lang in LANGUAGES:
        catalog = read(lang)
        mo = po_path(lang).with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        print(f"{mo.relative_to(ROOT)}: compiled")


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "all"
    if command == "extract":
        cmd_extract()
    elif command == "update":
        cmd_update()
    elif command == "compile":
        cmd_compile()
    elif command == "all":
        cmd_update(cmd_extract())
        cmd_compile()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
