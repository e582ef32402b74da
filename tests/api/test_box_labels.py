"""The words of "Your own box" (ownbox.js): a label for every money figure the server publishes
(``pm_<parameter>``: each ``amount`` of GET /api/v1/parameters, the form's fields) and the
section's sentences (``box_``), in each of the console's languages, translated, each sentence
with the placeholders of its English one."""

from __future__ import annotations

import re

import pytest
from console_languages import dictionaries, words


def labels(name: str) -> dict[str, str]:
    return {**words(name, "pm_"), **words(name, "box_")}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("name", dictionaries())
def test_every_money_figure_the_server_publishes_has_its_label(name: str, client) -> None:
    published = client.get("/api/v1/parameters").json["parameters"]
    amounts = {p["name"] for p in published if p["kind"] == "amount"}

    assert {"starting_cash", "salary", "jail_fine", "luxury_tax", "income_tax_flat"} <= amounts
    assert {f"pm_{n}" for n in amounts} <= set(words(name, "pm_"))


@pytest.mark.parametrize("name", dictionaries())
def test_each_language_has_every_word_of_the_box(name: str) -> None:
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
