"""The rule sets, their boards and options; the health check."""

from __future__ import annotations


def test_rule_sets_list_classic(client):
    response = client.get("/api/v1/rulesets")

    assert response.status_code == 200
    assert "classic" in [rs["name"] for rs in response.json["items"]]


def test_classic_has_28_deeds(client):
    response = client.get("/api/v1/rulesets/classic")

    assert response.status_code == 200
    assert len(response.json["deeds"]) == 28


def test_classic_deeds_carry_their_ids_and_mortgage_values(client):
    deeds = {d["id"]: d for d in client.get("/api/v1/rulesets/classic").json["deeds"]}

    assert deeds["boardwalk"]["price"] == 400
    assert deeds["boardwalk"]["mortgage_value"] == 200
    assert deeds["electric-company"]["mortgage_value"] == 75
    assert deeds["b-o-railroad"]["name"] == "B. & O. Railroad"


def test_classic_offers_its_options(client):
    options = client.get("/api/v1/rulesets/classic").json["options"]

    assert options["free_parking_pot"]["default"] is False
    assert options["income_tax"]["choices"] == ["choice", "flat", "percent"]


def test_unknown_rule_set_is_not_found(client):
    response = client.get("/api/v1/rulesets/monopoly-deal")

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_health_check_is_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json == {"status": "ok"}


def test_unknown_rule_set_is_documented_as_not_found(client):
    document = client.get("/api/v1/openapi.json").json

    responses = document["paths"]["/api/v1/rulesets/{name}"]["get"]["responses"]

    assert responses["404"] == {"$ref": "#/components/responses/Problem"}


def test_a_deed_without_a_printed_price_is_shown_and_documented_as_null(client):
    # Millionaire Elite's plots: the banker enters their price (docs/rules.md), the box prints none.
    deeds = client.get("/api/v1/rulesets/millionaire-elite").json["deeds"]
    document = client.get("/api/v1/openapi.json").json
    deed = document["components"]["schemas"]["Deed"]["properties"]

    unpriced = [d for d in deeds if d["price"] is None]
    assert unpriced
    assert all(d["mortgage_value"] is None for d in unpriced)
    assert "null" in deed["price"]["type"]
    assert "null" in deed["mortgage_value"]["type"]
