"""The console names every move's type, field and choice in each of its languages: the words
of the forms it builds from ``GET .../moves`` (moves.js: ``ty_<type>``, ``mf_<field>``,
``mc_<field>_<choice>`` or an older ``<field>_<choice>``), for every type the ledger declares.
A new type's fields are named here or this fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from console_languages import dictionaries, words

from ledger.transactions import RECORDABLE, REGISTRY
from ledger.transactions.form import Field

ROOT = Path(__file__).parents[2]


def declared_fields() -> list[Field]:
    out: list[Field] = []

    def walk(fields: tuple[Field, ...]) -> None:
        for f in fields:
            out.append(f)
            walk(f.fields)

    for name in RECORDABLE:
        walk(REGISTRY[name].fields)
    return out


def needed() -> dict[str, tuple[str, ...]]:
    """Each word the forms need, with the keys that may give it (the first one found wins)."""
    keys: dict[str, tuple[str, ...]] = {f"ty_{name}": (f"ty_{name}",) for name in RECORDABLE}
    for f in declared_fields():
        keys[f"mf_{f.name}"] = (f"mf_{f.name}",)
        if f.kind == "account":  # accounts and players are named by the game
            continue
        for choice in f.choices:
            keys[f"mc_{f.name}_{choice}"] = (f"mc_{f.name}_{choice}", f"{f.name}_{choice}")
    return keys


@pytest.mark.parametrize("name", dictionaries())
def test_every_type_field_and_choice_is_named(name: str) -> None:
    named = words(name)

    missing = [word for word, keys in needed().items() if not any(k in named for k in keys)]

    assert missing == []


@pytest.mark.parametrize("name", ["i18n-ru.js", "i18n-pl.js"])
def test_the_names_are_translated(name: str) -> None:
    english, named = words("i18n.js"), words(name)
    same = [
        key
        for keys in needed().values()
        for key in keys[:1]
        if key in named and named[key] == english.get(key)
    ]
    # Polish writes a hotel and a jackpot as English does.
    assert sorted(same) == (["mf_hotel", "ty_jackpot"] if name == "i18n-pl.js" else [])


def test_the_forms_would_find_the_words_they_need() -> None:
    # The check reads what moves.js asks for: these prefixes, nothing else.
    script = (ROOT / "api/static/console/js/moves.js").read_text(encoding="utf-8")

    assert "`mf_${name}`" in script
    assert "`mc_${f.name}_${value}`" in script
    assert "`${f.name}_${value}`" in script
