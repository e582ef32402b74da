"""The deeds' names in the players' languages and a currency by language over HTTP (API.md v1.1,
"Names in the players' languages"): served with the rule sets, taken with a game's own rule
set, kept through export and import, refused when malformed, described in the OpenAPI document.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from openapi_spec_validator import validate

GAMES_URL = "/api/v1/games"

# A classic box sold in Poland and Russia: classic's board, its own names and money labels.
BILINGUAL: dict[str, Any] = {
    "name": "warsaw-moscow",
    "extends": "classic",
    "currency": {"en": "$", "pl": "zł", "ru": "₽"},
    "names": {"pl": {"park-place": "Belweder"}, "ru": {"boardwalk": "Арбат"}},
}


def create(client, document: dict[str, Any]) -> Any:
    return client.post(
        GAMES_URL,
        json={
            "name": "Kitchen table",
            "ruleset": document["name"],
            "players": ["Ania", "Borys"],
            "ruleset_document": copy.deepcopy(document),
        },
    )


def changed(**changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(BILINGUAL), **changes}


def test_the_classic_rule_set_carries_the_warsaw_and_moscow_names(client) -> None:
    rs = client.get("/api/v1/rulesets/classic").json

    assert rs["names"]["ru"]["boardwalk"] == "улица Арбат"
    assert rs["names"]["pl"]["boardwalk"] == "Aleje Ujazdowskie"
    assert rs["names"]["ru"]["mediterranean-avenue"] == "Житная улица"
    assert rs["names"]["pl"]["mediterranean-avenue"] == "ul. Konopacka"
    assert rs["currency"] == "$"
    assert {d["id"]: d["name"] for d in rs["deeds"]}["boardwalk"] == "Boardwalk"


def test_the_list_of_rule_sets_carries_the_names_of_short_and_timed_too(client) -> None:
    items = {rs["name"]: rs for rs in client.get("/api/v1/rulesets").json["items"]}

    assert items["short"]["names"]["ru"]["boardwalk"] == "улица Арбат"
    assert items["timed"]["names"]["pl"]["boardwalk"] == "Aleje Ujazdowskie"
    assert "names" not in items["millionaire-elite"]


def test_a_classic_game_serves_the_names_with_its_rule_set(table) -> None:
    rs = table.get("/ruleset", token=table.tokens["p1"]).json

    assert rs["names"]["ru"]["boardwalk"] == "улица Арбат"
    assert rs["names"]["pl"]["boardwalk"] == "Aleje Ujazdowskie"


def test_a_game_s_own_names_and_currency_are_served_merged_with_classic_s(client) -> None:
    created = create(client, BILINGUAL)
    assert created.status_code == 201, created.json
    headers = {"Authorization": f"Bearer {created.json['banker_token']}"}

    rs = client.get(f"{GAMES_URL}/{created.json['id']}/ruleset", headers=headers).json

    assert rs["currency"] == {"en": "$", "pl": "zł", "ru": "₽"}
    assert rs["names"]["ru"]["boardwalk"] == "Арбат"
    assert rs["names"]["ru"]["park-place"] == "улица Малая Бронная"
    assert rs["names"]["pl"]["park-place"] == "Belweder"
    assert rs["names"]["pl"]["boardwalk"] == "Aleje Ujazdowskie"


def test_names_and_currency_round_trip_through_export_and_import(client) -> None:
    created = create(client, BILINGUAL).json
    headers = {"Authorization": f"Bearer {created['banker_token']}"}
    url = f"{GAMES_URL}/{created['id']}"
    bought = client.post(
        url + "/transactions",
        json={"type": "buy", "player": "p1", "property": "boardwalk"},
        headers=headers,
    )
    assert bought.status_code == 201, bought.json
    exported = client.get(url + "/export", headers=headers).json

    imported = client.post(f"{GAMES_URL}/import", json=exported)

    assert imported.status_code == 201, imported.json
    assert imported.json["head"] == exported["head"]
    again = {"Authorization": f"Bearer {imported.json['banker_token']}"}
    rs = client.get(f"{GAMES_URL}/{imported.json['id']}/ruleset", headers=again).json
    assert rs["currency"] == {"en": "$", "pl": "zł", "ru": "₽"}
    assert rs["names"] == exported["game"]["ruleset"]["names"]
    assert rs["names"]["ru"]["boardwalk"] == "Арбат"


def test_a_plain_currency_is_still_one_label(client) -> None:
    created = create(client, changed(currency="thousand rubles")).json
    headers = {"Authorization": f"Bearer {created['banker_token']}"}

    rs = client.get(f"{GAMES_URL}/{created['id']}/ruleset", headers=headers).json

    assert rs["currency"] == "thousand rubles"


MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("language in capitals", changed(names={"RU": {}}), "ruleset_document.names.RU.key"),
    (
        "deed id in capitals",
        changed(names={"ru": {"Boardwalk": "Арбат"}}),
        "ruleset_document.names.ru.value.Boardwalk.key",
    ),
    (
        "name of 61 characters",
        changed(names={"ru": {"boardwalk": "я" * 61}}),
        "ruleset_document.names.ru.value.boardwalk.value",
    ),
    (
        "blank name",
        changed(names={"ru": {"boardwalk": "   "}}),
        "ruleset_document.names.ru.value.boardwalk.value",
    ),
    (
        "name a number",
        changed(names={"ru": {"boardwalk": 7}}),
        "ruleset_document.names.ru.value.boardwalk.value",
    ),
    ("currency a number", changed(currency=1000), "ruleset_document.currency"),
    ("currency of no language", changed(currency={}), "ruleset_document.currency"),
    (
        "currency language of three letters",
        changed(currency={"rus": "₽"}),
        "ruleset_document.currency.rus.key",
    ),
    (
        "empty currency label",
        changed(currency={"ru": ""}),
        "ruleset_document.currency.ru.value",
    ),
]


@pytest.mark.parametrize(
    ("document", "field"), [(d, f) for _, d, f in MALFORMED], ids=[i for i, _, _ in MALFORMED]
)
def test_malformed_names_or_currency_are_a_422_naming_the_field(client, document, field) -> None:
    response = create(client, document)

    assert response.status_code == 422, response.json
    assert field in response.json["errors"], response.json["errors"]
    assert client.get(GAMES_URL).json["items"] == []


def test_a_name_of_a_deed_the_board_does_not_have_is_a_422_from_the_ledger(client) -> None:
    response = create(client, changed(names={"ru": {"red-square": "Красная площадь"}}))

    assert response.status_code == 422, response.json
    assert response.json["errors"] == {
        "ruleset_document": ["names.ru.red-square: no deed has this id"]
    }


@pytest.fixture
def openapi(client) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/api/v1/openapi.json").json
    validate(document)
    return document


def test_the_document_describes_names_as_the_server_checks_them(openapi) -> None:
    names = openapi["components"]["schemas"]["RuleSetDocument"]["properties"]["names"]

    assert names["propertyNames"] == {"pattern": "^[a-z]{2}$"}
    by_deed = names["additionalProperties"]
    assert by_deed["propertyNames"] == {"pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}
    assert by_deed["additionalProperties"]["minLength"] == 1
    assert by_deed["additionalProperties"]["maxLength"] == 60


def test_the_document_describes_a_currency_as_a_label_or_labels_by_language(openapi) -> None:
    currency = openapi["components"]["schemas"]["RuleSetDocument"]["properties"]["currency"]
    label, by_language = currency["oneOf"]

    assert label == {"type": "string", "maxLength": 32}
    assert by_language["type"] == "object"
    assert by_language["propertyNames"] == {"pattern": "^[a-z]{2}$"}
    assert by_language["additionalProperties"]["maxLength"] == 32


def test_the_served_rule_set_describes_names_and_currency(openapi) -> None:
    served = openapi["components"]["schemas"]["RuleSet"]["properties"]

    assert served["names"]["additionalProperties"]["additionalProperties"] == {"type": "string"}
    assert [form["type"] for form in served["currency"]["oneOf"]] == ["string", "object"]
