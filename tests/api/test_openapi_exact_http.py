"""The OpenAPI document says exactly what the server accepts (issue 29, item 16).

Each finding of an outsider's schemathesis run (``--checks all``): a value the document admits
was refused as malformed, or one it does not admit was answered as if it were well formed.
Each test reads the constraint from the served document, then asks the server.

Figures from docs/rules.md: every classic player starts with 1,500; the pink group's houses
cost 100 each and sell back at half price, so the group at 4-4-4 sells back for 12 x 50 = 600.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.fields import Timestamp

PINK = ["st-charles-place", "states-avenue", "virginia-avenue"]


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/api/v1/openapi.json").json  # type: ignore[no-any-return]


def component(document: dict[str, Any], name: str) -> dict[str, Any]:
    return document["components"]["schemas"][name]  # type: ignore[no-any-return]


def parameter(document: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    operation = document["paths"][path][method]
    return next(p for p in operation["parameters"] if p["name"] == name)


def admits(pattern: str, value: str) -> bool:
    """Whether a JSON Schema ``pattern`` admits a value, read as ECMA-262 reads it: ``search``,
    and a final ``$`` only at the very end (Python's also matches before a last newline)."""
    if pattern.endswith("$"):
        pattern = pattern[:-1] + r"\Z"
    return re.search(pattern, value) is not None


# -- a cursor the pattern admits ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/{game}/transactions"])
def test_a_cursor_past_every_position_is_an_empty_last_page(client, table, document, path):
    cursor = parameter(document, path, "get", "after")["schema"]
    assert admits(cursor["pattern"], "9542153586")  # ten digits, past 2**31 - 1

    response = client.get(
        path.replace("{game}", table.id) + "?after=9542153586", headers=table.auth()
    )

    assert response.status_code == 200, response.json
    assert response.json["items"] == []
    assert response.json["next"] is None


# -- extends: a built-in rule set, said as one -------------------------------------------------


def test_extends_is_documented_as_the_built_in_rule_sets(document):
    extends = component(document, "RuleSetDocument")["properties"]["extends"]

    assert extends["enum"] == ["classic", "short", "timed", "millionaire-elite"]
    assert "" not in extends["enum"]


@pytest.mark.parametrize("base", ["", "monopoly"])
def test_extends_naming_no_built_in_rule_set_is_malformed(client, base):
    response = client.post(
        "/api/v1/games",
        json={
            "name": "Own box",
            "ruleset": "own-box",
            "players": ["Ann", "Bob"],
            "ruleset_document": {"name": "own-box", "extends": base},
        },
    )

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"
    assert list(response.json["errors"]) == ["ruleset_document.extends"]


def test_extends_of_a_built_in_rule_set_plays_with_its_figures(client):
    response = client.post(
        "/api/v1/games",
        json={
            "name": "Own box",
            "ruleset": "own-box",
            "players": ["Ann", "Bob"],
            "ruleset_document": {"name": "own-box", "extends": "classic"},
        },
    )

    assert response.status_code == 201, response.json
    assert response.json["balances"]["p1"] == 1500


# -- an import's times: the pattern admits the times that exist, and only those ----------------


def created_pattern(document: dict[str, Any]) -> str:
    """The pattern of an imported log's ``created`` (its ``at`` are held to the same field)."""
    return component(document, "ImportedGame")["properties"]["created"]["pattern"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("text", "exists"),
    [
        ("2026-11-29T20:15:03.120Z", True),
        ("2024-02-29T23:59:59.123456789+00:00", True),  # 2024 is a leap year
        ("2000-02-29T00:00:00Z", True),  # a century divisible by 400
        ("1900-02-29T00:00:00Z", False),  # a century that is not
        ("2023-02-29T00:00:00Z", False),
        ("2026-04-31T00:00:00Z", False),  # April has 30 days
        ("2026-13-01T00:00:00Z", False),
        ("2026-01-01T24:00:00Z", False),
        ("0000-01-01T00:00:00Z", False),  # there is no year 0
        ("2026-11-29T20:15:03Z\n", False),
        ("2026-11-29T20:15:03+01:00", False),  # UTC only
    ],
)
def test_the_time_pattern_admits_a_time_exactly_when_the_server_does(document, text, exists):
    pattern = created_pattern(document)

    assert admits(pattern, text) is exists
    assert accepted(text) is exists


def accepted(text: str) -> bool:
    try:
        Timestamp().deserialize(text)
    except Exception:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_time_the_pattern_admits_the_server_accepts(data):
    from schemas.fields import RFC3339_UTC

    text = data.draw(st.from_regex(RFC3339_UTC, fullmatch=True))

    assert accepted(text), text


def test_an_import_whose_created_fits_the_pattern_is_judged_by_its_chain(client, table, document):
    exported = table.get("/export").json
    exported["game"]["created"] = "2024-02-29T23:59:59.123456789+00:00"
    assert admits(created_pattern(document), exported["game"]["created"])

    response = client.post("/api/v1/games/import", json=exported)

    # Well formed: the chain's hash (which covers the header) is what refuses it, not the form.
    assert response.status_code == 422
    assert response.json["code"] == "log_invalid"


# -- If-Match: * or entity tags (RFC 9110), and nothing else ----------------------------------


def if_match(document: dict[str, Any]) -> dict[str, Any]:
    return parameter(document, "/api/v1/games/{game}/transactions", "post", "If-Match")


def write(table: Any, tag: str, *, dry_run: bool) -> Any:
    return table.client.post(
        table.url + "/transactions" + ("?dry_run=true" if dry_run else ""),
        json={"type": "salary", "player": "p1"},
        headers={**table.auth(), "If-Match": tag},
    )


@pytest.mark.parametrize("tag", ["0", "garbage", '"', '"a" junk', "W/x", '"a",'])
@pytest.mark.parametrize("dry_run", [True, False])
def test_an_if_match_the_pattern_refuses_is_malformed_and_records_nothing(
    table, document, tag, dry_run
):
    assert not admits(if_match(document)["schema"]["pattern"], tag)
    before = table.state()["last_seq"]

    response = write(table, tag, dry_run=dry_run)

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"
    assert list(response.json["errors"]) == ["If-Match"]
    assert table.state()["last_seq"] == before


# A stale version, an empty tag, a weak tag of the current version (If-Match compares strongly)
# and a list of others: well formed, and none names the game's version.
@pytest.mark.parametrize("tag", ['"0000000000000000"', '""', "W/{etag}", '"a", W/{etag}'])
@pytest.mark.parametrize("dry_run", [True, False])
def test_an_if_match_the_pattern_admits_naming_no_current_version_is_412(
    table, document, tag, dry_run
):
    tag = tag.format(etag=table.get().headers["ETag"])
    assert admits(if_match(document)["schema"]["pattern"], tag)
    before = table.state()["last_seq"]

    response = write(table, tag, dry_run=dry_run)

    assert response.status_code == 412
    assert response.json["code"] == "version_conflict"
    assert table.state()["last_seq"] == before


@pytest.mark.parametrize("tag", ["*", "{etag}", '"a", {etag}', 'W/"a",{etag}'])
def test_an_if_match_the_pattern_admits_naming_the_game_records(table, document, tag):
    tag = tag.format(etag=table.get().headers["ETag"])
    assert admits(if_match(document)["schema"]["pattern"], tag)

    response = write(table, tag, dry_run=False)

    assert response.status_code == 201, response.json
    assert response.json["balances"]["p1"] == 1500 + 200  # the salary, recorded


# -- a whole number written 4.0 is 4 -----------------------------------------------------------


def test_houses_written_4_0_sell_as_4(table):
    table.fund("p1", 2000)
    table.buy("p1", *PINK)
    table.record({"type": "build", "orders": [{"property": deed, "houses": 4} for deed in PINK]})
    cash = table.state()["balances"]["p1"]

    sold = table.record(
        {
            "type": "sell_buildings",
            "orders": [{"property": deed, "houses": 4.0} for deed in PINK],
        }
    )

    assert sold["postings"] == [{"from": "bank", "to": "p1", "amount": 600}]
    assert sold["request"]["orders"][0]["houses"] == 4  # recorded as the integer it is
    assert table.state()["balances"]["p1"] == cash + 600


@pytest.mark.parametrize("amount", ["50.0", "5e1", "0.5E2", "500e-1"])
def test_an_amount_written_with_a_fraction_or_exponent_that_is_whole_is_that_amount(table, amount):
    response = table.client.post(
        table.url + "/transactions",
        data=f'{{"type": "payment", "from": "p1", "to": "p2", "amount": {amount}}}',
        content_type="application/json",
        headers=table.auth(),
    )

    assert response.status_code == 201, response.json
    assert response.json["postings"] == [{"from": "p1", "to": "p2", "amount": 50}]
    assert response.json["balances"]["p1"] == 1500 - 50


@pytest.mark.parametrize("amount", ["12.5", "1e-3", "50.0000000000000000001", "1e999999999"])
def test_an_amount_with_a_fraction_is_still_refused(table, amount):
    response = table.client.post(
        table.url + "/transactions",
        data=f'{{"type": "payment", "from": "p1", "to": "p2", "amount": {amount}}}',
        content_type="application/json",
        headers=table.auth(),
    )

    assert response.status_code == 422
    assert response.json["errors"] == {"amount": ["Not a valid integer."]}
    assert table.state()["balances"]["p1"] == 1500


# -- how many players, and an import's format ----------------------------------------------------


@pytest.mark.parametrize(("path", "name"), [("NewGame", "players"), ("ImportedGame", "players")])
def test_the_document_says_every_rule_set_is_played_by_two_or_more(document, path, name):
    players = component(document, path)["properties"][name]

    assert (players["minItems"], players["maxItems"]) == (2, 8)
    assert players["uniqueItems"] is True  # and no two alike, ignoring case: the server's


def test_two_players_of_one_name_are_refused(client):
    response = client.post(
        "/api/v1/games", json={"name": "Twins", "ruleset": "classic", "players": ["0", "0"]}
    )

    assert response.status_code == 422
    assert list(response.json["errors"]) == ["players"]


def test_a_game_of_one_player_is_refused_naming_its_rule_set(client):
    response = client.post(
        "/api/v1/games", json={"name": "Alone", "ruleset": "classic", "players": ["Ann"]}
    )

    assert response.status_code == 422
    assert response.json["errors"] == {"players": ["classic is played by 2 to 8"]}


def test_an_import_s_format_is_the_one_value_an_export_writes(client, table, document):
    format_ = component(document, "Import")["properties"]["format"]

    assert format_["enum"] == [table.get("/export").json["format"]] == ["tablebank-log/1"]
