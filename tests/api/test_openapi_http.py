"""The OpenAPI document the server serves agrees with the API."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate

TRANSACTION_TYPES = {
    "salary",
    "payment",
    "card",
    "buy",
    "auction",
    "rent",
    "tax",
    "jail_fine",
    "jail_card",
    "go_to_jail",
    "leave_jail",
    "build",
    "sell_buildings",
    "mortgage",
    "unmortgage",
    "trade",
    "bankruptcy",
    "pot_collect",
    "iou",
    "iou_repay",
    "iou_transfer",
    "iou_forgive",
    "turn",
    "shares",
    "share_price",
    "round_tax",
    "tax_exemption",
    "insurance",
    "jackpot",
    "void",
    "finish",
}


@pytest.fixture
def document(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.json


def test_document_is_valid_openapi_3(document):
    assert document["openapi"].startswith("3.")
    validate(document)


def test_document_lists_every_path(document):
    assert set(document["paths"]) == {
        "/api/v1/games",
        "/api/v1/games/{game}",
        "/api/v1/games/{game}/transactions",
        "/api/v1/games/{game}/transactions/{seq}",
        "/api/v1/games/{game}/players/{player}/liquidation",
        "/api/v1/games/{game}/accounts/{account}/statement",
        "/api/v1/games/{game}/replay",
        "/api/v1/games/{game}/verify",
        "/api/v1/games/{game}/export",
        "/api/v1/games/import",
        "/api/v1/rulesets",
        "/api/v1/rulesets/{name}",
        "/healthz",
    }


def test_transaction_body_is_one_of_every_type(document):
    body = document["paths"]["/api/v1/games/{game}/transactions"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    schema = document["components"]["schemas"][ref.rsplit("/", 1)[1]]

    assert schema["discriminator"]["propertyName"] == "type"
    assert set(schema["discriminator"]["mapping"]) == TRANSACTION_TYPES
    assert len(schema["oneOf"]) == len(TRANSACTION_TYPES)


def test_payment_schema_names_its_fields_as_the_api_does(document):
    payment = document["components"]["schemas"]["Payment"]

    assert set(payment["properties"]) == {"type", "from", "to", "amount", "memo"}
    assert set(payment["required"]) == {"type", "from", "to", "amount"}
    assert payment["additionalProperties"] is False


def test_game_and_transaction_answers_are_described(document):
    schemas = document["components"]["schemas"]

    assert {"balances", "players", "properties", "version", "last_seq"} <= set(
        schemas["Game"]["properties"]
    )
    assert {"seq", "postings", "basis", "balances", "hash"} <= set(
        schemas["Transaction"]["properties"]
    )


def test_errors_are_described_as_problems(document):
    post = document["paths"]["/api/v1/games/{game}/transactions"]["post"]
    problem = document["components"]["responses"]["Problem"]

    assert post["responses"]["409"] == {"$ref": "#/components/responses/Problem"}
    assert post["responses"]["422"] == {"$ref": "#/components/responses/Problem"}
    assert set(problem["content"]) == {"application/problem+json"}


def test_openapi_document_needs_no_token(client):
    assert client.get("/api/v1/openapi.json").status_code == 200
