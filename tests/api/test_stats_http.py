"""The statistics of a game over HTTP (API.md v1.2, "Statistics of a game"): a short classic
game with a voided rent, a house sold back, a lifted mortgage, an auction, taxes and a jail
fine, each figure worked out by hand from docs/rules.md; as of a point (``?seq=N``), with the
ETag and 304 of the fixed-point reads, and refused as the other reads of a game are.

The records are read through each store's own SELECT, so the module runs on the store matrix.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest
from api_helpers import NewGame, Table
from flask import Flask
from flask.testing import FlaskClient

from api.bank import EXTENSION
from api.heavy import Child, encode

PLAYER_FIELDS = {
    "player",
    "salary",
    "rent_received",
    "rent_paid",
    "taxes",
    "bought",
    "buildings_bought",
    "buildings_sold",
    "interest",
    "peak_net_worth",
    "peak_seq",
}
DEED_FIELDS = {"property", "owner", "price_paid", "rent_collected", "rent_count"}


@pytest.fixture
def app(stored_app: Flask) -> Flask:
    """On every store of the matrix."""
    return stored_app


@pytest.fixture
def evening(table: Table) -> Table:
    """Ann (p1), Bob (p2) and Cy (p3) start with 1500 each (seq 1-3), then:

    4. Ann's salary: 200 (Ann 1700).
    5-6. Ann buys Boardwalk (400) and Park Place (350): the dark blues (Ann 950).
    7. Bob pays Boardwalk's rent, 50 doubled on a bare street of a complete group: 100;
    8. voided: it was Cy who landed there (Bob 1500 again, Ann 950).
    9. Cy pays it: 100 (Cy 1400, Ann 1050).
    10. Reading Railroad (printed 200) auctioned: Bob wins at 150 (Bob 1350).
    11. Ann builds a house on Boardwalk: 200 (Ann 850);
    12. and sells it back at half: 100 (Ann 950).
    13. Bob mortgages Reading Railroad: half its price, 100 (Bob 1450);
    14. and lifts it: 100 + 10 % = 110 (Bob 1340).
    15. Bob's income tax, flat: 200 (Bob 1140).
    16. Cy's luxury tax: 75 (Cy 1325).
    17. Cy's jail fine: 50 (Cy 1275).
    18. Ann pays Reading Railroad's rent, one railroad held: 25 (Ann 925, Bob 1165).
    19. finish.
    """
    table.record({"type": "salary", "player": "p1"})
    table.buy("p1", "boardwalk", "park-place")
    rent = table.record({"type": "rent", "payer": "p2", "property": "boardwalk"})
    assert rent["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]
    table.record({"type": "void", "seq": rent["seq"], "reason": "Cy landed there, not Bob"})
    table.record({"type": "rent", "payer": "p3", "property": "boardwalk"})
    table.record({"type": "auction", "property": "reading-railroad", "winner": "p2", "bid": 150})
    table.record({"type": "build", "property": "boardwalk", "houses": 1})
    table.record({"type": "sell_buildings", "property": "boardwalk", "houses": 1})
    table.record({"type": "mortgage", "property": "reading-railroad"})
    lifted = table.record({"type": "unmortgage", "property": "reading-railroad"})
    assert lifted["postings"] == [{"from": "p2", "to": "bank", "amount": 110}]
    table.record({"type": "tax", "player": "p2", "tax": "income", "choice": "flat"})
    table.record({"type": "tax", "player": "p3", "tax": "luxury"})
    table.record({"type": "jail_fine", "player": "p3"})
    table.record({"type": "rent", "payer": "p1", "property": "reading-railroad"})
    finished = table.record({"type": "finish"})
    assert finished["seq"] == 19
    balances = finished["balances"]
    assert (balances["p1"], balances["p2"], balances["p3"]) == (925, 1165, 1275)
    return table


def by_player(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["player"]: row for row in answer["players"]}


def by_deed(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["property"]: row for row in answer["deeds"]}


def test_each_player_s_figures_over_the_transactions_not_voided(evening: Table) -> None:
    response = evening.get("/stats", token=evening.tokens["p3"])

    assert response.status_code == 200
    assert response.json["seq"] == 19
    assert [row["player"] for row in response.json["players"]] == ["p1", "p2", "p3"]
    assert all(set(row) == PLAYER_FIELDS for row in response.json["players"])
    players = by_player(response.json)
    # Ann: salary 200; Cy's rent 100 (Bob's, voided, not); Reading Railroad's 25 paid;
    # deeds 400 + 350 = 750; a house 200, sold back for 100. Net worth: 1700 after her
    # salary, bought at printed prices (no change); 1050 cash + 750 in deeds = 1800 after
    # Cy's rent at seq 9 (the voided rent's 1800 at seq 7 is not counted); 1800 again with
    # the house (850 + 750 + 200), then less.
    assert players["p1"] == {
        "player": "p1",
        "salary": 200,
        "rent_received": 100,
        "rent_paid": 25,
        "taxes": 0,
        "bought": 750,
        "buildings_bought": 200,
        "buildings_sold": 100,
        "interest": 0,
        "peak_net_worth": 1800,
        "peak_seq": 9,
    }
    # Bob: the voided 100 is not his rent paid; Ann's 25 received; income tax 200; Reading
    # Railroad at auction 150; interest 10 % of the mortgage value 100 = 10. Net worth: 1350
    # cash + the railroad at its printed 200 = 1550 at seq 10 (mortgaged: 1450 + 100, the
    # same), then 1340 + 200 = 1540 and less.
    assert players["p2"] == {
        "player": "p2",
        "salary": 0,
        "rent_received": 25,
        "rent_paid": 0,
        "taxes": 200,
        "bought": 150,
        "buildings_bought": 0,
        "buildings_sold": 0,
        "interest": 10,
        "peak_net_worth": 1550,
        "peak_seq": 10,
    }
    # Cy: Boardwalk's 100; luxury tax 75 + the jail fine 50 = 125; his 1500 at seq 3 his best.
    assert players["p3"] == {
        "player": "p3",
        "salary": 0,
        "rent_received": 0,
        "rent_paid": 100,
        "taxes": 125,
        "bought": 0,
        "buildings_bought": 0,
        "buildings_sold": 0,
        "interest": 0,
        "peak_net_worth": 1500,
        "peak_seq": 3,
    }


def test_each_deed_s_owner_price_paid_and_rent_collected(evening: Table) -> None:
    answer = evening.get("/stats").json

    assert all(set(row) == DEED_FIELDS for row in answer["deeds"])
    assert len(answer["deeds"]) == 28  # every deed of the board (docs/rules.md, appendix)
    deeds = by_deed(answer)
    # Boardwalk: bought at 400, Cy's 100 once (Bob's voided rent not counted).
    assert deeds["boardwalk"] == {
        "property": "boardwalk",
        "owner": "p1",
        "price_paid": 400,
        "rent_collected": 100,
        "rent_count": 1,
    }
    assert deeds["park-place"] == {
        "property": "park-place",
        "owner": "p1",
        "price_paid": 350,
        "rent_collected": 0,
        "rent_count": 0,
    }
    # Won at auction for 150 (printed 200): what Bob paid; Ann's 25 once.
    assert deeds["reading-railroad"] == {
        "property": "reading-railroad",
        "owner": "p2",
        "price_paid": 150,
        "rent_collected": 25,
        "rent_count": 1,
    }
    assert deeds["mediterranean-avenue"] == {
        "property": "mediterranean-avenue",
        "owner": "bank",
        "price_paid": None,
        "rent_collected": 0,
        "rent_count": 0,
    }


def test_as_of_a_seq_before_the_void_the_rent_still_counts(evening: Table) -> None:
    # Right after seq 7 Bob's rent stood: Ann had received 100 and was worth 1050 + 750.
    at_7 = evening.get("/stats?seq=7").json
    assert at_7["seq"] == 7
    ann, bob = by_player(at_7)["p1"], by_player(at_7)["p2"]
    assert (ann["rent_received"], ann["peak_net_worth"], ann["peak_seq"]) == (100, 1800, 7)
    assert bob["rent_paid"] == 100
    assert by_deed(at_7)["boardwalk"]["rent_count"] == 1
    # Right after the void (seq 8), neither counts: Ann's best is her 1700 of seq 4.
    at_8 = evening.get("/stats?seq=8").json
    ann, bob = by_player(at_8)["p1"], by_player(at_8)["p2"]
    assert (ann["rent_received"], ann["peak_net_worth"], ann["peak_seq"]) == (0, 1700, 4)
    assert bob["rent_paid"] == 0
    assert by_deed(at_8)["boardwalk"]["rent_collected"] == 0
    # Before anything, the empty table: nobody is worth anything, and the Bank holds it all.
    at_0 = evening.get("/stats?seq=0").json
    assert [(p["peak_net_worth"], p["peak_seq"]) for p in at_0["players"]] == [(0, 0)] * 3
    assert {d["owner"] for d in at_0["deeds"]} == {"bank"}


def test_an_answer_at_a_seq_keeps_its_tag_and_answers_304(evening: Table) -> None:
    at_8 = evening.get("/stats?seq=8")
    game_at_8 = evening.get("?seq=8")
    assert at_8.headers["ETag"] == game_at_8.headers["ETag"]  # the version the game had then

    again = evening.client.get(
        evening.url + "/stats?seq=8",
        headers={**evening.auth(), "If-None-Match": at_8.headers["ETag"]},
    )

    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == at_8.headers["ETag"]


def test_a_finished_game_s_answer_answers_304(evening: Table) -> None:
    first = evening.get("/stats", token=evening.tokens["p1"])
    assert first.headers["ETag"] == evening.get().headers["ETag"]

    again = evening.client.get(
        evening.url + "/stats",
        headers={**evening.auth(evening.tokens["p1"]), "If-None-Match": first.headers["ETag"]},
    )

    assert again.status_code == 304


def test_an_active_game_s_answer_follows_its_version(table: Table) -> None:
    before = table.get("/stats")
    table.record({"type": "salary", "player": "p2"})

    after = table.get("/stats")

    assert after.headers["ETag"] != before.headers["ETag"]
    assert by_player(after.json)["p2"]["salary"] == 200


@pytest.mark.parametrize("seq", ["-1", "x", "2.5", str(2**31)])
def test_a_bad_seq_is_a_validation_error(table: Table, seq: str) -> None:
    response = table.get(f"/stats?seq={seq}")

    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "validation_error"
    assert set(response.json["errors"]) == {"seq"}


def test_an_unknown_query_parameter_is_a_validation_error(table: Table) -> None:
    response = table.get("/stats?player=p1")

    assert response.status_code == 422
    assert set(response.json["errors"]) == {"player"}


def test_a_seq_beyond_the_log_is_not_found(table: Table) -> None:
    response = table.get("/stats?seq=99")

    assert response.status_code == 404
    assert response.json["detail"] == "no transaction 99; the last is 3"


def test_an_unknown_game_is_not_found(table: Table, client: FlaskClient) -> None:
    response = client.get(
        "/api/v1/games/00000000-0000-4000-8000-000000000000/stats", headers=table.auth()
    )

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_no_token_or_an_unknown_one_is_401(table: Table, client: FlaskClient) -> None:
    assert client.get(table.url + "/stats").status_code == 401
    assert table.get("/stats", token="not-a-token").status_code == 401


def test_a_token_of_another_game_is_403(table: Table, new_game: NewGame) -> None:
    other = new_game()

    response = table.get("/stats", token=other.tokens["p1"])

    assert response.status_code == 403
    assert response.json["code"] == "forbidden"


def test_the_statistics_change_nothing(evening: Table) -> None:
    before = evening.state()
    evening.get("/stats")
    assert evening.state() == before


def test_the_openapi_document_declares_the_answer_with_every_field_required(
    client: FlaskClient,
) -> None:
    document = client.get("/api/v1/openapi.json").json
    operation = document["paths"]["/api/v1/games/{game}/stats"]["get"]
    schemas = document["components"]["schemas"]

    assert operation["operationId"] == "get_stats"
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["seq"]
    assert set(schemas["Stats"]["required"]) == {"seq", "players", "deeds"}
    assert set(schemas["PlayerStats"]["required"]) == PLAYER_FIELDS
    assert set(schemas["DeedStats"]["required"]) == DEED_FIELDS
    assert "null" in schemas["DeedStats"]["properties"]["price_paid"]["type"]


def test_a_long_game_s_job_computes_the_same_answer_in_a_process_of_its_own(
    app: Flask, evening: Table
) -> None:
    # A game of 500 transactions or more has its answer computed in a child process
    # (api.heavy): the job must travel there and answer what it answers here.
    job = app.extensions[EXTENSION].stats_job(evening.id, 9)
    child = Child()
    try:
        body = child.run(partial(encode, json.dumps, job))
    finally:
        assert child.process is not None
        with child.process:  # its pipes closed: the child's loop ends, and it is waited for
            pass
    assert json.loads(body) == evening.get("/stats?seq=9").json
