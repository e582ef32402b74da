"""The console's languages as its one list declares them (``LANGUAGES`` in js/i18n.js), and
the dictionary files beside it: English in i18n.js itself, every other language in
``i18n-<code>.js``, which i18n.js imports by name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

CONSOLE_JS = Path(__file__).resolve().parents[2] / "api" / "static" / "console" / "js"
ENGLISH = "en"
LIST = re.compile(r"export const LANGUAGES = \[\n(.*?)\n\];", re.S)
ENTRY = re.compile(
    r"^\s*\{code: '(?P<code>[a-z]+)', name: '(?P<name>[^']+)', locale: '(?P<locale>[A-Za-z-]+)', "
    r"dict: (?P<dict>[a-z]+)\},$"
)
# A dictionary i18n.js imports by name: ``import {pl} from './i18n-pl.js';``.
IMPORT = re.compile(r"^import \{([a-z]+)\} from '\./i18n-([a-z]+)\.js';$", re.M)
FILE = re.compile(r"^i18n-([a-z]+)\.js$")


class Language(NamedTuple):
    code: str
    name: str
    locale: str
    file: str  # the dictionary file, by name, in CONSOLE_JS
    file_code: str | None  # the code of the file its dictionary is imported from (None: English)


def listed(folder: Path = CONSOLE_JS) -> list[Language]:
    """The entries of the list, in its order; a line not in the list's form fails."""
    text = (folder / "i18n.js").read_text("utf-8")
    found = LIST.search(text)
    assert found is not None, "no LANGUAGES list in i18n.js"
    imported = dict(IMPORT.findall(text))  # each dictionary's name: the code of its file
    languages = []
    for line in found.group(1).splitlines():
        entry = ENTRY.match(line)
        assert entry is not None, f"not a language's line: {line!r}"
        code, file_code = entry["code"], imported.get(entry["dict"])
        assert file_code is not None or entry["dict"] == ENGLISH, f"{line!r}: not imported"
        file = "i18n.js" if code == ENGLISH else f"i18n-{code}.js"
        languages.append(Language(code, entry["name"], entry["locale"], file, file_code))
    return languages


def dictionary_files(folder: Path = CONSOLE_JS) -> set[str]:
    """The languages' dictionary files in the folder: i18n.js (English) and i18n-<code>.js."""
    return {"i18n.js"} | {p.name for p in folder.iterdir() if FILE.match(p.name)}


def dictionaries() -> list[str]:
    """Every listed language's dictionary file, English first."""
    return [language.file for language in listed()]


# One entry `key: 'text'` of a dictionary, several to a line.
WORD = re.compile(r"\b(\w+): '((?:[^'\\]|\\.)*)'")


def words(file: str, prefix: str = "") -> dict[str, str]:
    """The entries of one dictionary file, read as text (those whose key starts ``prefix``)."""
    text = (CONSOLE_JS / file).read_text(encoding="utf-8")
    return {k: v for k, v in WORD.findall(text) if k.startswith(prefix)}
