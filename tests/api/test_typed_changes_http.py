"""A transaction's ``changes`` are typed in the OpenAPI document (issue 29, item 18): a union
discriminated by ``kind``, a variant per kind the ledger declares, with what names the thing
changed and what ``from`` and ``to`` hold. Every transaction of games that record every type
(tests/every_type.py) is valid against the document's ``Transaction``, its changes against
the variant of their kind; and a change of the wrong shape is not.
"""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import serving_app
from every_type import CLASSIC, CLASSIC_OPTIONS, CLASSIC_PLAYERS, ELITE, ELITE_PLAYERS
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from test_basis_labels import logged

from ledger.changes import CHANGES

DOCUMENT = "urn:tablebank:openapi"


@pytest.fixture(scope="module")
def served() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The served document, and the transactions of a classic and a Millionaire Elite game."""
    serving = serving_app(":memory:")
    client = next(serving).test_client()
    try:
        document = client.get("/api/v1/openapi.json").json
        written = [
            *logged(client, "classic", CLASSIC_PLAYERS, CLASSIC, **CLASSIC_OPTIONS),
            *logged(client, "millionaire-elite", ELITE_PLAYERS, ELITE),
        ]
        return document, written
    finally:
        next(serving, None)


def validator(document: dict[str, Any], component: str) -> Draft202012Validator:
    registry = Registry().with_resource(DOCUMENT, Resource.opaque(document))
    schema = {"$ref": f"{DOCUMENT}#/components/schemas/{component}"}
    return Draft202012Validator(schema, registry=registry)


def test_every_kind_of_change_has_a_variant(served):
    document, _ = served
    change = document["components"]["schemas"]["Change"]

    assert change["discriminator"]["propertyName"] == "kind"
    assert set(change["discriminator"]["mapping"]) == set(CHANGES)


def test_every_transaction_recorded_fits_the_document(served):
    document, written = served
    transaction = validator(document, "Transaction")
    kinds = set()

    for txn in written:
        txn = {key: value for key, value in txn.items() if key != "deeds"}  # logged() adds it
        errors = [error.message for error in transaction.iter_errors(txn)]
        assert errors == [], (txn["seq"], txn["type"], errors[:3])
        kinds |= {change["kind"] for change in txn["changes"]}

    # Most kinds seen, each checked against its own variant.
    assert {"deed", "houses", "hotel", "iou", "dispute_status", "shares", "policy"} <= kinds


@pytest.mark.parametrize(
    "change",
    [
        {"kind": "houses", "property": "boardwalk", "from": 1, "to": "2"},
        {"kind": "houses", "from": 1, "to": 2},
        {"kind": "jail_card", "deck": "bonus", "from": "deck", "to": "p1"},
        {"kind": "mortgage", "property": "boardwalk", "from": 0, "to": 1},
        {"kind": "teleport", "player": "p1", "from": 0, "to": 5},
    ],
)
def test_a_change_of_the_wrong_shape_does_not_fit(served, change):
    document, _ = served

    assert not validator(document, "Change").is_valid(change)
