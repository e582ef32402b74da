"""Every key the ledger writes in a basis, at any depth (a trade's legs, a building order, a
standing), has its label in each of the console's languages (views.js basisList: ``b_<key>``),
translated in Russian and Polish (issue 22, "Every word in the reader's language"). The keys
are read off games that record every transaction type (tests/every_type.py), so a new key is
labelled here or this fails."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, get_origin, get_type_hints

import pytest
from api_helpers import Table, serving_app
from console_languages import dictionaries, words
from every_type import (
    CLASSIC,
    CLASSIC_OPTIONS,
    CLASSIC_PLAYERS,
    ELITE,
    ELITE_PLAYERS,
    Step,
    plain_steps,
    play,
)
from flask.testing import FlaskClient

from ledger.transactions import REGISTRY


def keys_of(value: Any, ids: frozenset[str] = frozenset()) -> set[str]:
    """The keys of a basis and of every record inside it, but ``ids`` (a deal's prices are
    by deed: the console names the deed)."""
    if isinstance(value, dict):
        return (set(value) - ids) | {k for v in value.values() for k in keys_of(v, ids)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v, ids)}
    return set()


def logged(
    client: FlaskClient, ruleset: str, players: list[str], steps: list[Step], **options: Any
) -> list[dict[str, Any]]:
    body = {"name": "words", "ruleset": ruleset, "players": players, "options": options}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.json
    table = Table(client, created.json)
    play(steps, table.record, table.state)
    answer = table.get("/transactions?limit=1000")
    assert answer.status_code == 200, answer.json
    deeds = set(table.state()["properties"])
    return [{**txn, "deeds": deeds} for txn in answer.json["items"]]


def moves_of(client: FlaskClient, ruleset: str, players: list[str], **options: Any) -> list[Any]:
    """What a fresh game of the rule set lists in its ``/moves``."""
    body = {"name": "moves", "ruleset": ruleset, "players": players, "options": options}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.json
    answer = Table(client, created.json).get("/moves")
    assert answer.status_code == 200, answer.json
    return answer.json["moves"]  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def transactions() -> list[dict[str, Any]]:
    serving = serving_app(":memory:")
    client = next(serving).test_client()
    try:
        written = [
            *logged(client, "classic", CLASSIC_PLAYERS, CLASSIC, **CLASSIC_OPTIONS),
            *logged(client, "millionaire-elite", ELITE_PLAYERS, ELITE),
            *logged(client, "short", ["Ann", "Bob"], []),  # its deal
        ]
        # A type with plain fields that no step above records, made of its fields alone.
        recorded = {txn["type"] for txn in written}
        for ruleset, players, options in (
            ("classic", CLASSIC_PLAYERS, CLASSIC_OPTIONS),
            ("millionaire-elite", ELITE_PLAYERS, {}),
        ):
            steps = plain_steps(recorded, moves_of(client, ruleset, players, **options))
            if steps:
                written += logged(client, ruleset, players, steps, **options)
                recorded |= {step["type"] for step in steps}
        return written
    finally:
        next(serving, None)


def test_the_games_record_every_type(transactions: list[dict[str, Any]]) -> None:
    assert {txn["type"] for txn in transactions} == set(REGISTRY)


@pytest.fixture(scope="module")
def basis_keys(transactions: list[dict[str, Any]]) -> set[str]:
    return {k for txn in transactions for k in keys_of(txn["basis"], frozenset(txn["deeds"]))}


@pytest.mark.parametrize("name", dictionaries())
def test_every_basis_key_has_a_label(name: str, basis_keys: set[str]) -> None:
    named = words(name, "b_")

    assert sorted(k for k in basis_keys if f"b_{k}" not in named) == []


@pytest.mark.parametrize("name", ["i18n-ru.js", "i18n-pl.js"])
def test_the_labels_are_translated(name: str, basis_keys: set[str]) -> None:
    english, named = words("i18n.js", "b_"), words(name, "b_")
    same = {k for k in basis_keys if named.get(f"b_{k}") == english.get(f"b_{k}")}

    assert same - {"hotel"} == set()  # (Polish writes a hotel as English does.)


def test_a_basis_key_is_found_in_a_record_of_a_list() -> None:
    basis = {"legs": [{"from": "p1", "jail_cards": []}], "prices": {"boardwalk": 400}}

    assert keys_of(basis, frozenset({"boardwalk"})) == {"legs", "from", "jail_cards", "prices"}


def declared_keys(kind: type) -> tuple[set[str], set[str]]:
    """The keys a basis TypedDict requires, and all it declares."""
    hints = get_type_hints(kind, include_extras=True)
    optional = {k for k, hint in hints.items() if get_origin(hint) is NotRequired}
    return set(hints) - optional, set(hints)


def test_every_basis_holds_the_keys_its_type_declares(transactions: list[dict[str, Any]]) -> None:
    """Each type declares its basis (``transaction(basis=...)``, a TypedDict whose ``Draft``
    its handler writes, which mypy checks); what the ledger records holds every key the
    declaration requires and none it does not name."""
    wrong = []
    for txn in transactions:
        declared = REGISTRY[txn["type"]].basis
        assert declared is not None, txn["type"]
        required, named = declared_keys(declared)
        if not required <= set(txn["basis"]) <= named:
            wrong.append((txn["type"], sorted(txn["basis"]), sorted(required), sorted(named)))
    assert wrong == []


def test_the_check_sees_a_key_left_out_and_a_key_not_declared() -> None:
    class Paid(TypedDict):
        amount: int
        note: NotRequired[str]

    required, named = declared_keys(Paid)
    assert (required, named) == ({"amount"}, {"amount", "note"})
    assert not required <= {"note"}  # "amount" left out
    assert not {"amount", "tip"} <= named  # "tip" not declared
