"""``POST .../transactions?dry_run=true``: what a move would record, and nothing recorded
(API.md, "Dry run: what a move would record"). Figures from docs/rules.md: rent on Boardwalk
bare is 50, doubled to 100 on the whole dark-blue group; Boardwalk costs 400, Park Place 350."""

from __future__ import annotations

from typing import Any

from api_helpers import Table


def dry_run(table: Table, body: Any, *, token: str | None = None, headers: dict | None = None):
    return table.client.post(
        table.url + "/transactions?dry_run=true",
        json=body,
        headers={**table.auth(token), **(headers or {})},
    )


def test_dry_run_answers_200_with_the_transaction_it_would_record(table):
    table.buy("p1", "boardwalk", "park-place")

    response = dry_run(table, {"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert response.status_code == 200
    txn = response.json
    # Three set-up transactions (starting cash) and two purchases: the rent would be seq 6.
    assert txn["seq"] == 6
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]
    assert txn["basis"]["rent"] == 100 and txn["basis"]["monopoly"] is True
    # Ann: 1,500 - 400 - 350 + 100; Bob: 1,500 - 100.
    assert (txn["balances"]["p1"], txn["balances"]["p2"]) == (850, 1400)
    assert txn["at"] is None and txn["hash"] is None


def test_dry_run_changes_nothing(table):
    before = table.get()
    export_before = table.get("/export").json

    dry_run(table, {"type": "salary", "player": "p1"}, headers={"Idempotency-Key": "k1"})

    after = table.get()
    assert after.json["last_seq"] == before.json["last_seq"] == 3
    assert after.headers["ETag"] == before.headers["ETag"]
    assert table.get("/export").json == export_before
    # The key was neither used nor kept: a real write with it records (201, not a replay).
    response = table.client.post(
        table.url + "/transactions",
        json={"type": "payment", "from": "p1", "to": "p2", "amount": 5},
        headers={**table.auth(), "Idempotency-Key": "k1"},
    )
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers


def test_dry_run_then_the_real_post_agree(table):
    body = {"type": "tax", "player": "p1", "tax": "income", "choice": "percent"}

    preview = dry_run(table, body).json
    recorded = table.record(body)

    # Income tax at 10 % of a worth of 1,500 is 150.
    assert (
        preview["postings"] == recorded["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]
    )
    for field in ("seq", "type", "basis", "balances", "request", "changes", "by", "memo"):
        assert preview[field] == recorded[field], field


def test_refused_dry_run_gets_the_real_refusal(table):
    body = {"type": "payment", "from": "p1", "to": "p2", "amount": 5000}

    preview = dry_run(table, body)
    real = table.post(body)

    assert preview.status_code == real.status_code == 409
    assert preview.json == real.json
    assert preview.json["code"] == "insufficient_funds"
    # 5,000 asked of a player holding 1,500.
    assert preview.json["shortfall"] == 3500


def test_player_may_dry_run_what_it_may_record_and_nothing_more(table):
    own = dry_run(
        table, {"type": "payment", "from": "p2", "to": "p1", "amount": 20}, token=table.tokens["p2"]
    )
    other = dry_run(
        table, {"type": "payment", "from": "p1", "to": "p2", "amount": 20}, token=table.tokens["p2"]
    )

    assert own.status_code == 200 and own.json["postings"] == [
        {"from": "p2", "to": "p1", "amount": 20}
    ]
    assert other.status_code == 403


def test_dry_run_with_an_old_if_match_is_refused_like_a_write(table):
    old = table.get().headers["ETag"]
    table.record({"type": "salary", "player": "p1"})

    response = dry_run(table, {"type": "salary", "player": "p2"}, headers={"If-Match": old})

    assert response.status_code == 412
    assert response.json["code"] == "version_conflict"


def test_dry_run_of_a_malformed_body_is_a_validation_error(table):
    response = dry_run(table, {"type": "salary"})

    assert response.status_code == 422
    assert "player" in response.json["errors"]


def test_dry_run_of_a_void_shows_the_reversal(table):
    paid = table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 75})

    txn = dry_run(table, {"type": "void", "seq": paid["seq"], "reason": "wrong player"}).json

    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 75}]
    assert table.get(f"/transactions/{paid['seq']}").json["voided_by"] is None


def test_dry_run_value_must_be_a_boolean(table):
    response = table.client.post(
        table.url + "/transactions?dry_run=maybe",
        json={"type": "salary", "player": "p1"},
        headers=table.auth(),
    )

    assert response.status_code == 422
    assert table.state()["last_seq"] == 3
