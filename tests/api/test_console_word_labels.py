"""Words of the console's dictionaries that must not be confused (issue 22, "one word for
undo, another for void"): in each language Undo (the toast's, which takes the move just made
back) and Void (the history's, which reverses a transaction with a reason) are different
words, and every button of a void says the void's word, never the undo's."""

from __future__ import annotations

import pytest
from console_languages import dictionaries, words

# The buttons and titles that void a transaction, beside the history's "Void".
VOID_BUTTONS = ("a_void", "void_ellipsis", "dp_void", "dp_void_send")


@pytest.mark.parametrize("name", dictionaries())
def test_undo_and_void_are_different_words(name: str) -> None:
    said = words(name)
    undo, void = said["undo"], said["void"]

    assert undo.lower() != void.lower()
    for key in VOID_BUTTONS:
        assert void.lower() in said[key].lower(), (key, said[key])
        assert undo.lower() not in said[key].lower(), (key, said[key])


def test_russian_undo_and_void() -> None:
    said = words("i18n-ru.js")

    assert (said["undo"], said["void"]) == ("Отменить", "Аннулировать")
