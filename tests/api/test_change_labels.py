"""Every change kind of the registry (ledger/changes.py) has its label in each of the console's
languages, which the history shows beside the change's from and to (views.js, ``c_<kind>``)."""

from __future__ import annotations

import pytest
from console_languages import dictionaries, words

from ledger.changes import CHANGES


def labels(name: str) -> dict[str, str]:
    """The ``c_`` entries of one of the console's dictionaries."""
    return words(name, "c_")


@pytest.mark.parametrize("name", dictionaries())
def test_every_change_kind_has_a_label_in_each_language(name: str) -> None:
    assert set(labels(name)) == {f"c_{kind}" for kind in CHANGES}


def test_russian_and_polish_labels_are_translated() -> None:
    english = labels("i18n.js")
    for name in ("i18n-ru.js", "i18n-pl.js"):
        # (Polish writes a hotel as English does.)
        same = {k for k, v in labels(name).items() if v == english[k]} - {"c_hotel"}
        assert not same, (name, same)
