"""Audit over HTTP: statements, replay, the hash chain verified, export and import."""

from __future__ import annotations

import copy
import json

import pytest

from ledger.chain import chain_hash

IMPORT_URL = "/api/v1/games/import"
MIB = 1024 * 1024


@pytest.fixture
def played(table):
    """Seq 4: Ann (p1) buys Boardwalk for 400; 5: Bob (p2) pays her its bare rent of 50."""
    table.buy("p1", "boardwalk")
    table.record({"type": "rent", "payer": "p2", "property": "boardwalk", "memo": "landed"})
    return table


@pytest.fixture
def exported(played):
    response = played.get("/export")
    assert response.status_code == 200, response.json
    return response.json


def import_game(client, document):
    return client.post(IMPORT_URL, json=document)


def rehash(document, start):
    """Recompute every hash from transaction ``start`` on, as a forger would."""
    txns = document["transactions"]
    previous = txns[start - 2]["hash"]
    for txn in txns[start - 1 :]:
        txn["hash"] = chain_hash(previous, txn)
        previous = txn["hash"]
    document["head"] = previous


# -- statement --------------------------------------------------------------------------------


def test_statement_signs_each_posting_with_the_running_balance(played):
    response = played.get("/accounts/p1/statement")

    assert response.status_code == 200
    items = response.json["items"]
    # 1500 starting cash, Boardwalk's printed price 400, its bare rent 50.
    assert [i["seq"] for i in items] == [1, 4, 5]
    assert [i["amount"] for i in items] == [1500, -400, 50]
    assert [i["balance"] for i in items] == [1500, 1100, 1150]
    assert response.json["balance"] == 1150


def test_statement_names_type_counterparty_and_memo(played):
    items = played.get("/accounts/p1/statement").json["items"]

    assert [(i["type"], i["counterparty"], i["memo"]) for i in items] == [
        ("starting_cash", "bank", None),
        ("buy", "bank", None),
        ("rent", "p2", "landed"),
    ]


def test_statement_item_carries_the_time_of_its_transaction(played):
    item = played.get("/accounts/p1/statement").json["items"][-1]

    assert item["at"] == played.get("/transactions/5").json["at"]


def test_statement_of_the_payer_shows_money_going_out(played):
    response = played.get("/accounts/p2/statement")

    assert [i["amount"] for i in response.json["items"]] == [1500, -50]
    assert response.json["balance"] == 1450


def test_statement_of_the_bank_runs_negative(played):
    response = played.get("/accounts/bank/statement")

    # Three starting payments out (4500), Boardwalk's 400 in.
    assert response.json["balance"] == -4100
    assert response.json["account"] == "bank"


def test_statement_of_an_unknown_account_is_not_found(played):
    response = played.get("/accounts/p9/statement")

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_player_may_read_another_players_statement(played):
    response = played.get("/accounts/p1/statement", token=played.tokens["p3"])

    assert response.status_code == 200


# -- replay -----------------------------------------------------------------------------------


def test_replay_has_one_step_per_transaction(played):
    response = played.get("/replay")

    assert response.status_code == 200
    assert [s["seq"] for s in response.json["steps"]] == [1, 2, 3, 4, 5]


def test_replay_step_holds_every_balance_after_its_transaction(played):
    steps = played.get("/replay").json["steps"]

    assert steps[3]["balances"] == {"bank": -4100, "pot": 0, "p1": 1100, "p2": 1500, "p3": 1500}
    assert steps[4]["balances"] == {"bank": -4100, "pot": 0, "p1": 1150, "p2": 1450, "p3": 1500}


def test_replay_step_holds_every_players_net_worth(played):
    steps = played.get("/replay").json["steps"]

    # Ann after buying: 1100 cash + Boardwalk at its printed 400; after the rent: + 50.
    assert steps[3]["net_worths"] == {"p1": 1500, "p2": 1500, "p3": 1500}
    assert steps[4]["net_worths"] == {"p1": 1550, "p2": 1450, "p3": 1500}


def test_replay_step_carries_the_transaction_as_the_log_shows_it(played):
    step = played.get("/replay").json["steps"][4]

    assert step["transaction"] == played.get("/transactions/5").json


def test_replay_step_shows_the_void_that_reversed_it(played):
    played.record({"type": "void", "seq": 5, "reason": "Bob was on Park Place"})

    steps = played.get("/replay").json["steps"]

    assert steps[4]["transaction"]["voided_by"] == 6
    assert steps[5]["balances"]["p2"] == 1500


# -- verify -----------------------------------------------------------------------------------


def test_verify_counts_the_transactions_and_gives_the_head(played):
    response = played.get("/verify")

    assert response.status_code == 200
    assert response.json == {"ok": True, "transactions": 5, "head": played.state()["head"]}


def test_verify_head_is_the_last_transactions_hash(played):
    assert played.get("/verify").json["head"] == played.get("/transactions/5").json["hash"]


# -- export -----------------------------------------------------------------------------------


def test_export_holds_every_transaction_with_its_hash(played, exported):
    assert exported["format"] == "tablebank-log/1"
    assert [t["seq"] for t in exported["transactions"]] == [1, 2, 3, 4, 5]
    assert all(len(t["hash"]) == 64 for t in exported["transactions"])
    assert exported["head"] == played.state()["head"]


def test_export_names_the_players_in_seat_order(exported):
    assert exported["game"]["players"] == ["Ann", "Bob", "Cy"]
    assert exported["game"]["ruleset"]["name"] == "classic"


def test_export_contains_no_token(played):
    text = played.get("/export").get_data(as_text=True)

    for token in [played.banker, *played.tokens.values()]:
        assert token not in text


def test_audit_answers_carry_the_games_etag(played):
    version = played.state()["version"]

    for path in ("/accounts/p1/statement", "/replay", "/verify", "/export"):
        assert played.get(path).headers["ETag"] == f'"{version}"'


# -- import -----------------------------------------------------------------------------------


def test_import_needs_no_token_and_answers_like_a_new_game(client, exported):
    response = import_game(client, exported)

    assert response.status_code == 201
    assert {"id", "balances", "players", "banker_token", "tokens"} <= set(response.json)
    assert response.headers["Location"] == f"/api/v1/games/{response.json['id']}"
    assert response.headers["ETag"] == f'"{response.json["version"]}"'
    assert response.headers["Cache-Control"] == "no-store"


def test_imported_game_has_the_same_balances_and_head(client, played, exported):
    imported = import_game(client, exported).json

    assert imported["id"] != played.id
    assert imported["balances"] == played.state()["balances"]
    assert imported["head"] == played.state()["head"]
    assert imported["last_seq"] == 5


def test_imported_game_has_new_tokens(client, played, exported):
    imported = import_game(client, exported).json

    assert imported["banker_token"] != played.banker
    assert set(imported["tokens"]) == {"p1", "p2", "p3"}
    assert not set(imported["tokens"].values()) & set(played.tokens.values())


def test_imported_game_opens_to_its_own_tokens_only(client, played, exported):
    imported = import_game(client, exported).json
    url = f"/api/v1/games/{imported['id']}"

    own = client.get(url, headers={"Authorization": f"Bearer {imported['banker_token']}"})
    old = client.get(url, headers=played.auth())

    assert own.status_code == 200
    assert old.status_code == 403


def test_imported_game_exports_the_same_transactions(client, exported):
    imported = import_game(client, exported).json
    again = client.get(
        f"/api/v1/games/{imported['id']}/export",
        headers={"Authorization": f"Bearer {imported['banker_token']}"},
    ).json

    assert again["transactions"] == exported["transactions"]


def test_import_of_a_changed_amount_is_refused_at_its_seq(client, exported):
    exported["transactions"][4]["postings"][0]["amount"] = 500

    response = import_game(client, exported)

    assert response.status_code == 422
    assert response.json["code"] == "log_invalid"
    assert response.json["seq"] == 5


def test_import_of_a_forged_log_with_hashes_recomputed_breaks_the_rules(client, exported):
    # Boardwalk bought for 40 instead of its printed 400, every later hash redone.
    buy = exported["transactions"][3]
    buy["postings"][0]["amount"] = 40
    rehash(exported, start=4)

    response = import_game(client, exported)

    assert response.status_code == 422
    assert response.json["code"] == "log_invalid"
    assert response.json["seq"] == 4


def test_import_of_a_log_cut_short_of_its_head_is_refused(client, exported):
    exported["transactions"].pop()

    response = import_game(client, exported)

    assert response.status_code == 422
    assert response.json["code"] == "log_invalid"
    assert response.json["seq"] == 5


def test_import_of_transactions_out_of_order_is_refused_at_the_first(client, exported):
    txns = exported["transactions"]
    txns[3], txns[4] = txns[4], txns[3]

    response = import_game(client, exported)

    assert response.json["code"] == "log_invalid"
    assert response.json["seq"] == 4


def test_import_of_another_format_is_an_invalid_log(client, exported):
    response = import_game(client, {**exported, "format": "something-else/2"})

    assert response.status_code == 422
    assert response.json["code"] == "log_invalid"
    assert response.json["seq"] == 0


def test_import_without_transactions_is_a_validation_error(client, exported):
    del exported["transactions"]

    response = import_game(client, exported)

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"
    assert list(response.json["errors"]) == ["transactions"]


def test_import_with_an_unknown_member_is_a_validation_error(client, exported):
    response = import_game(client, {**exported, "tokens": {"p1": "x"}})

    assert response.status_code == 422
    assert response.json["errors"] == {"tokens": ["Unknown field."]}


def test_import_with_a_transaction_that_is_not_an_object_is_a_validation_error(client, exported):
    exported["transactions"][2] = "seq 3"

    response = import_game(client, exported)

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"


def test_import_records_nothing_when_refused(client, exported):
    before = client.get("/api/v1/games").json["items"]
    broken = copy.deepcopy(exported)
    broken["transactions"][4]["memo"] = "changed"

    assert import_game(client, broken).status_code == 422
    assert client.get("/api/v1/games").json["items"] == before


# -- body limits ------------------------------------------------------------------------------


def test_import_body_over_64_kib_is_accepted(client, exported):
    body = json.dumps(exported) + " " * (64 * 1024)

    response = client.post(IMPORT_URL, data=body, content_type="application/json")

    assert response.status_code == 201


def test_import_body_over_32_mib_is_too_large(client):
    body = b" " * (32 * MIB + 1)

    response = client.post(IMPORT_URL, data=body, content_type="application/json")

    assert response.status_code == 413
    assert response.json["code"] == "payload_too_large"


def test_new_game_body_over_64_kib_is_still_too_large(client):
    body = json.dumps({"name": "x", "ruleset": "classic", "players": ["A", "B"]})

    response = client.post(
        "/api/v1/games", data=body + " " * (64 * 1024), content_type="application/json"
    )

    assert response.status_code == 413
    assert response.json["code"] == "payload_too_large"


def test_transaction_body_over_64_kib_is_too_large_after_an_import(client, played, exported):
    assert import_game(client, exported).status_code == 201

    response = client.post(
        played.url + "/transactions",
        data=json.dumps({"type": "salary", "player": "p1"}) + " " * (64 * 1024),
        content_type="application/json",
        headers=played.auth(),
    )

    assert response.status_code == 413


# -- tokens -----------------------------------------------------------------------------------

AUDIT_PATHS = ["/accounts/p1/statement", "/replay", "/verify", "/export"]


@pytest.mark.parametrize("path", AUDIT_PATHS)
def test_audit_without_a_token_is_unauthorized(played, client, path):
    response = client.get(played.url + path)

    assert response.status_code == 401
    assert response.json["code"] == "unauthorized"


@pytest.mark.parametrize("path", AUDIT_PATHS)
def test_audit_with_another_games_token_is_forbidden(played, new_game, path):
    other = new_game()

    response = played.get(path, token=other.banker)

    assert response.status_code == 403
    assert response.json["code"] == "forbidden"


@pytest.mark.parametrize("path", AUDIT_PATHS)
def test_audit_of_an_unknown_game_is_not_found(played, client, path):
    url = "/api/v1/games/00000000-0000-4000-8000-000000000000" + path

    response = client.get(url, headers=played.auth())

    assert response.status_code == 404


@pytest.mark.parametrize("path", AUDIT_PATHS)
def test_player_may_audit_his_game(played, path):
    assert played.get(path, token=played.tokens["p2"]).status_code == 200


# -- OpenAPI ----------------------------------------------------------------------------------


@pytest.fixture
def document(client):
    return client.get("/api/v1/openapi.json").json


def response_schema(document, path, method, status):
    content = document["paths"][path][method]["responses"][status]["content"]
    name = content["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    return document["components"]["schemas"][name]


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/api/v1/games/{game}/accounts/{account}/statement", {"account", "items", "balance"}),
        ("/api/v1/games/{game}/replay", {"steps"}),
        ("/api/v1/games/{game}/verify", {"ok", "transactions", "head"}),
        ("/api/v1/games/{game}/export", {"format", "game", "transactions", "head"}),
    ],
)
def test_audit_answers_are_described(document, path, fields):
    assert fields <= set(response_schema(document, path, "get", "200")["properties"])


def test_import_is_described_with_its_body_and_answer(document):
    post = document["paths"]["/api/v1/games/import"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]

    assert set(document["components"]["schemas"][body.rsplit("/", 1)[1]]["required"]) == {
        "format",
        "game",
        "transactions",
        "head",
    }
    assert {"banker_token", "tokens"} <= set(
        response_schema(document, "/api/v1/games/import", "post", "201")["properties"]
    )
    assert post["responses"]["413"] == {"$ref": "#/components/responses/Problem"}
