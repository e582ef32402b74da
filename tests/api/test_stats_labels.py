"""Every figure of a player's statistics (schemas/stats.py) has its label in each of the
console's languages, which the statistics' table shows beside the server's figures (stats.js,
``st_<figure>``: a row per field of the answer), and the statistics' other words are there too."""

from __future__ import annotations

import pytest
from console_languages import dictionaries, words

from schemas.stats import PlayerStatsSchema

# The fields a row is not made of: the player (the column), the first seq of the peak (shown
# under the peak's figure).
NOT_ROWS = {"player", "peak_seq"}


def labels(name: str) -> dict[str, str]:
    """The ``st_`` entries of one of the console's dictionaries."""
    return words(name, "st_")


@pytest.mark.parametrize("name", dictionaries())
def test_every_figure_of_a_player_has_a_label_in_each_language(name: str) -> None:
    figures = set(PlayerStatsSchema().fields) - NOT_ROWS
    assert {f"st_{figure}" for figure in figures} <= set(labels(name))


@pytest.mark.parametrize("name", dictionaries())
def test_each_language_has_every_word_of_the_statistics(name: str) -> None:
    assert set(labels(name)) == set(labels("i18n.js"))


def test_russian_and_polish_labels_are_translated() -> None:
    english = labels("i18n.js")
    for name in ("i18n-ru.js", "i18n-pl.js"):
        same = {k for k, v in labels(name).items() if v == english[k]}
        assert not same, (name, same)
