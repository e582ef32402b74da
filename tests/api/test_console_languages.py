"""A new language of the console is its dictionary file and its line in ``LANGUAGES``
(js/i18n.js): the files and the list agree, each line loads its own file, and that file
exports its dictionary under the name i18n.js reads it by."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from console_languages import CONSOLE_JS, dictionary_files, listed


def unmatched(folder: Path) -> tuple[set[str], set[str]]:
    """Dictionary files of ``folder`` that the list leaves out, and listed files not there."""
    files = dictionary_files(folder)
    named = {language.file for language in listed(folder)}
    return files - named, named - files


def test_every_dictionary_file_is_listed_and_every_listed_one_exists() -> None:
    assert unmatched(CONSOLE_JS) == (set(), set())


def test_the_check_sees_a_file_left_out_and_a_line_without_its_file(tmp_path: Path) -> None:
    folder = tmp_path / "js"
    shutil.copytree(CONSOLE_JS, folder)
    (folder / "i18n-de.js").write_text("export const de = {};\n", "utf-8")
    (folder / "i18n-pl.js").unlink()

    assert unmatched(folder) == ({"i18n-de.js"}, {"i18n-pl.js"})


def test_the_languages_are_english_russian_and_polish_in_that_order() -> None:
    assert [(lang.code, lang.name, lang.locale) for lang in listed()] == [
        ("en", "English", "en-US"),
        ("ru", "Русский", "ru-RU"),
        ("pl", "Polski", "pl-PL"),
    ]


def test_each_line_loads_its_own_dictionary_under_its_code() -> None:
    for language in listed():
        text = (CONSOLE_JS / language.file).read_text("utf-8")
        assert re.search(rf"^export const {language.code} = \{{$", text, re.M), language.file
        assert language.file_code in (None, language.code), language
        assert language.locale.split("-")[0] == language.code, language
    assert listed()[0].file_code is None  # English is i18n.js's own, and the fallback
