"""Writes are safe to retry: Idempotency-Key replays, If-Match refuses stale versions."""

from __future__ import annotations

import pytest
from flask import Flask


@pytest.fixture
def app(stored_app: Flask) -> Flask:
    """Idempotency-Key replays and If-Match, on every store of the matrix."""
    return stored_app


SALARY = {"type": "salary", "player": "p1"}


def post(table, body, **headers):
    return table.client.post(
        table.url + "/transactions", json=body, headers={**table.auth(), **headers}
    )


def test_repeat_with_the_same_key_and_body_answers_the_first_response(table):
    first = post(table, SALARY, **{"Idempotency-Key": "go-1"})

    again = post(table, SALARY, **{"Idempotency-Key": "go-1"})

    assert again.status_code == 201
    assert again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"


def test_repeat_with_the_same_key_records_nothing(table):
    post(table, SALARY, **{"Idempotency-Key": "go-1"})

    post(table, SALARY, **{"Idempotency-Key": "go-1"})

    assert table.state()["balances"]["p1"] == 1700
    assert table.state()["last_seq"] == 4


def test_first_request_with_a_key_is_not_marked_replayed(table):
    response = post(table, SALARY, **{"Idempotency-Key": "go-1"})

    assert "Idempotent-Replayed" not in response.headers


def test_same_key_with_another_body_is_refused(table):
    post(table, SALARY, **{"Idempotency-Key": "go-1"})

    response = post(table, {"type": "salary", "player": "p2"}, **{"Idempotency-Key": "go-1"})

    assert response.status_code == 422
    assert response.json["code"] == "idempotency_key_reused"


def test_key_of_a_refused_request_may_be_used_again(table):
    post(table, {"type": "salary", "player": "p9"}, **{"Idempotency-Key": "go-1"})

    response = post(table, SALARY, **{"Idempotency-Key": "go-1"})

    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers


# -- a dry run with a key answers as the real POST would (API.md v1.2, Corrections) ----------


def dry_run(table, body, **headers):
    return table.client.post(
        table.url + "/transactions?dry_run=true", json=body, headers={**table.auth(), **headers}
    )


def test_a_dry_run_with_a_recorded_key_and_body_answers_the_recorded_transaction(table):
    first = post(table, SALARY, **{"Idempotency-Key": "go-1"})  # seq 4, after 3 set-up

    again = dry_run(table, SALARY, **{"Idempotency-Key": "go-1"})

    # The real repeat's answer: the 201 of seq 4, not what a salary would be now (seq 5).
    assert again.status_code == first.status_code == 201
    assert again.json == first.json and again.json["seq"] == 4
    assert again.json["at"] is not None and again.json["hash"] == first.json["hash"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"] == f"{table.url}/transactions/4"
    assert again.headers["ETag"] == first.headers["ETag"]
    # Nothing more recorded: Ann's 200 of salary once, 1,500 + 200.
    assert table.state()["last_seq"] == 4
    assert table.state()["balances"]["p1"] == 1700


def test_a_dry_run_with_a_recorded_key_and_another_body_is_refused(table):
    post(table, SALARY, **{"Idempotency-Key": "go-1"})  # seq 4

    response = dry_run(table, {"type": "salary", "player": "p2"}, **{"Idempotency-Key": "go-1"})

    # Where the dry run without the key would answer 200 with seq 5.
    assert response.status_code == 422
    assert response.json["code"] == "idempotency_key_reused"
    assert response.json["seq"] == 4
    assert "Idempotent-Replayed" not in response.headers
    assert table.state()["last_seq"] == 4


def test_a_dry_run_with_a_new_key_answers_as_a_dry_run_and_leaves_the_key_unused(table):
    preview = dry_run(table, SALARY, **{"Idempotency-Key": "go-1"})

    assert preview.status_code == 200
    assert (preview.json["seq"], preview.json["at"], preview.json["hash"]) == (4, None, None)
    assert "Idempotent-Replayed" not in preview.headers
    assert table.state()["last_seq"] == 3
    # The key is still free: the real POST with it records seq 4 ...
    real = post(table, SALARY, **{"Idempotency-Key": "go-1"})
    assert real.status_code == 201 and real.json["seq"] == 4
    assert "Idempotent-Replayed" not in real.headers
    # ... and from then on a dry run with it replays that.
    again = dry_run(table, SALARY, **{"Idempotency-Key": "go-1"})
    assert (again.status_code, again.json) == (201, real.json)
    assert again.headers["Idempotent-Replayed"] == "true"


def test_a_dry_run_replays_a_recorded_key_as_the_real_post_does_after_the_game_moved_on(table):
    before = table.get().headers["ETag"]
    first = post(table, SALARY, **{"Idempotency-Key": "go-1"})  # seq 4
    table.record({"type": "salary", "player": "p2"})  # seq 5

    stale = {"Idempotency-Key": "go-1", "If-Match": before}
    preview, real = dry_run(table, SALARY, **stale), post(table, SALARY, **stale)

    assert preview.status_code == real.status_code == 201
    assert preview.json == real.json == first.json
    assert preview.headers["Idempotent-Replayed"] == real.headers["Idempotent-Replayed"] == "true"
    assert table.state()["last_seq"] == 5


def test_key_over_255_characters_is_refused(table):
    response = post(table, SALARY, **{"Idempotency-Key": "k" * 256})

    assert response.status_code == 422
    assert list(response.json["errors"]) == ["Idempotency-Key"]


def test_if_match_with_the_current_etag_records(table):
    etag = table.get().headers["ETag"]

    response = post(table, SALARY, **{"If-Match": etag})

    assert response.status_code == 201


def test_if_match_with_an_older_etag_is_a_version_conflict(table):
    etag = table.get().headers["ETag"]
    table.record({"type": "salary", "player": "p2"})

    response = post(table, SALARY, **{"If-Match": etag})

    assert response.status_code == 412
    assert response.json["code"] == "version_conflict"
    assert table.state()["last_seq"] == 4


def test_if_match_star_records_on_any_version(table):
    response = post(table, SALARY, **{"If-Match": "*"})

    assert response.status_code == 201


def test_if_match_with_a_weak_etag_never_matches(table):
    version = table.state()["version"]

    response = post(table, SALARY, **{"If-Match": f'W/"{version}"'})

    assert response.status_code == 412
