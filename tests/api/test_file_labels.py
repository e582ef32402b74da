"""The words of a game's file in the console (files.js, ``fi_``: keeping a game, opening its
file, what the server said of a refused one) are there in each of the console's languages,
translated, each sentence with the placeholders of its English one."""

from __future__ import annotations

import re

import pytest
from console_languages import dictionaries, words


def labels(name: str) -> dict[str, str]:
    """The ``fi_`` entries of one of the console's dictionaries."""
    return words(name, "fi_")


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("name", dictionaries())
def test_each_language_has_every_word_of_a_game_s_file(name: str) -> None:
    assert set(labels(name)) == set(labels("i18n.js"))


@pytest.mark.parametrize("name", dictionaries())
def test_each_sentence_fills_the_placeholders_of_the_english_one(name: str) -> None:
    english = labels("i18n.js")
    for key, text in labels(name).items():
        assert placeholders(text) == placeholders(english[key]), (name, key)


def test_russian_and_polish_words_are_translated() -> None:
    english = labels("i18n.js")
    for name in ("i18n-ru.js", "i18n-pl.js"):
        same = {k for k, v in labels(name).items() if v == english[k]}
        assert not same, (name, same)
