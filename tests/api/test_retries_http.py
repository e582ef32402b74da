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
