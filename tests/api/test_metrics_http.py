"""``GET /metrics`` on an app without gunicorn (API.md v1.3, "Operating a server"): Prometheus's
text format for the server's admin token only (401 otherwise, 404 on a server without one), the
counts of known requests, writes and refusals, and labels nobody can grow by sending requests:
``route`` is the URL rule, never a game id, and a path no rule matches is ``unmatched``.
tests/e2e/test_serve_metrics.py reads them summed over the workers of a real server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import Table
from eventsourcing.persistence import OperationalError
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from api import create_app
from api.bank import EXTENSION
from schemas.fields import MAX_SEQ

ADMIN_TOKEN = "metrics-admin-token-8c1f2b"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
WRITES = "/api/v1/games/<uuid:game>/transactions"
NEW_GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}


@pytest.fixture
def app() -> Iterator[Flask]:
    """An app in memory with an admin token (``client`` and ``new_game`` use it)."""
    app = create_app(
        {"TESTING": True, "TABLEBANK_DB": ":memory:", "TABLEBANK_ADMIN_TOKEN": ADMIN_TOKEN}
    )
    yield app
    app.extensions[EXTENSION].close()


def scrape(client: FlaskClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, by name and labels."""
    answer = client.get("/metrics", headers=ADMIN)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.get_data(as_text=True))
        for sample in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


# -- who may read them ----------------------------------------------------------------------------


def test_metrics_are_prometheus_text_0_0_4_for_the_admin_token(client: FlaskClient) -> None:
    answer = client.get("/metrics", headers=ADMIN)

    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert answer.headers["Cache-Control"] == "no-store"
    names = {family.name for family in text_string_to_metric_families(answer.get_data(True))}
    assert {
        "tablebank_http_requests",
        "tablebank_http_request_duration_seconds",
        "tablebank_transactions",
        "tablebank_refusals",
        "tablebank_group_commit_size",
        "tablebank_event_streams_open",
        "tablebank_heavy_reads_waiting",
        "tablebank_store_errors",
        "tablebank_games",
    } <= names
    assert all(name.startswith("tablebank_") for name in names)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-the-admin-token-at-all"},
        {"Authorization": f"Basic {ADMIN_TOKEN}"},
        {"Authorization": f"Bearer {ADMIN_TOKEN[:-1]}"},
    ],
)
def test_metrics_without_the_admin_token_are_401(client: FlaskClient, headers) -> None:
    answer = client.get("/metrics", headers=headers)

    assert answer.status_code == 401
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == "unauthorized"
    assert answer.headers["WWW-Authenticate"] == "Bearer"


def test_a_server_without_an_admin_token_has_no_metrics_and_counts_nothing() -> None:
    app = create_app({"TESTING": True, "TABLEBANK_DB": ":memory:"})
    client = app.test_client()
    created = client.post("/api/v1/games", json=NEW_GAME).json
    auth = {"Authorization": f"Bearer {created['banker_token']}"}
    url = f"/api/v1/games/{created['id']}/transactions"
    assert (
        client.post(url, json={"type": "salary", "player": "p1"}, headers=auth).status_code == 201
    )

    for headers in ({}, ADMIN, auth):
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code == 404
        assert answer.json["code"] == "not_found"
    assert app.extensions["tablebank.metrics"].enabled is False
    app.extensions[EXTENSION].close()


# -- what they count ------------------------------------------------------------------------------


def test_writes_refusals_and_requests_are_counted_by_type_code_and_route(
    client: FlaskClient, table: Table
) -> None:
    for _ in range(3):
        table.record({"type": "salary", "player": "p1"})
    for _ in range(2):
        table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 10})
    for _ in range(2):
        table.refusal({"type": "payment", "from": "p1", "to": "p2", "amount": 999_999})
    table.invalid({"type": "payment", "from": "p1", "to": "p2", "amount": -5})

    samples = scrape(client)

    assert value(samples, "tablebank_transactions_total", type="salary") == 3
    assert value(samples, "tablebank_transactions_total", type="payment") == 2
    assert value(samples, "tablebank_refusals_total", code="insufficient_funds") == 2
    assert value(samples, "tablebank_refusals_total", code="validation_error") == 1
    requests = "tablebank_http_requests_total"
    assert value(samples, requests, method="POST", route=WRITES, status="201") == 5
    assert value(samples, requests, method="POST", route=WRITES, status="409") == 2
    assert value(samples, requests, method="POST", route=WRITES, status="422") == 1
    assert value(samples, requests, method="POST", route="/api/v1/games", status="201") == 1
    durations = "tablebank_http_request_duration_seconds_count"
    assert value(samples, durations, method="POST", route=WRITES) == 8
    # Each write its own commit (no gevent: none gathers others), and only the 5 recorded.
    assert value(samples, "tablebank_group_commit_size_count") == 5
    assert value(samples, "tablebank_group_commit_size_sum") == 5


def test_a_dry_run_and_a_repeated_idempotency_key_record_no_transaction(
    client: FlaskClient, table: Table
) -> None:
    body = {"type": "salary", "player": "p1"}
    keyed = {**table.auth(), "Idempotency-Key": "salary-once"}
    answers = [
        client.post(table.url + "/transactions?dry_run=true", json=body, headers=table.auth()),
        client.post(table.url + "/transactions", json=body, headers=keyed),
        client.post(table.url + "/transactions", json=body, headers=keyed),
    ]

    assert [answer.status_code for answer in answers] == [200, 201, 201]
    assert answers[2].headers["Idempotent-Replayed"] == "true"
    assert value(scrape(client), "tablebank_transactions_total", type="salary") == 1


def test_games_are_counted_by_status_when_the_metrics_are_read(
    client: FlaskClient, new_game: Any
) -> None:
    first, _, _ = new_game(), new_game(), new_game()
    first.record({"type": "finish"})

    samples = scrape(client)

    assert value(samples, "tablebank_games", status="active") == 2
    assert value(samples, "tablebank_games", status="finished") == 1


def test_an_open_event_stream_is_counted_until_it_closes(client: FlaskClient, table: Table) -> None:
    stream = client.get(table.url + "/events", headers=table.auth(), buffered=False)
    assert stream.status_code == 200
    assert value(scrape(client), "tablebank_event_streams_open") == 1

    stream.close()

    assert value(scrape(client), "tablebank_event_streams_open") == 0


def test_a_store_out_of_reach_counts_a_store_error_and_its_refusal(
    app: Flask, client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection failed: Connection refused")

    monkeypatch.setattr(app.extensions[EXTENSION].storage.repository, "get", unreachable)
    assert table.get().status_code == 503
    monkeypatch.undo()

    samples = scrape(client)

    assert value(samples, "tablebank_store_errors_total") == 1
    assert value(samples, "tablebank_refusals_total", code="storage_unavailable") == 1


def test_metrics_without_their_store_still_answer_without_the_games(
    app: Flask, client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection failed: Connection refused")

    monkeypatch.setattr(app.extensions[EXTENSION], "list_games", unreachable)
    samples = scrape(client)

    assert not any(name == "tablebank_games" for name, _ in samples)
    assert value(samples, "tablebank_store_errors_total") == 1


# -- labels nobody can grow ------------------------------------------------------------------------


def test_no_game_id_nor_token_is_ever_a_label(client: FlaskClient, table: Table) -> None:
    table.record({"type": "salary", "player": "p1"})
    table.get()
    table.get("/transactions/1")
    client.get(f"/api/v1/games/{table.id}/transactions", headers={"Authorization": "Bearer x"})
    client.get(f"/api/v1/games/{table.id}/no-such-thing", headers=table.auth())

    text = client.get("/metrics", headers=ADMIN).get_data(as_text=True)

    secrets = [table.id, table.banker, *table.tokens.values(), ADMIN_TOKEN]
    assert not [secret for secret in secrets if secret in text]
    assert 'route="/api/v1/games/<uuid:game>"' in text
    assert f'route="{WRITES}/<int(max={MAX_SEQ}):seq>"' in text


def test_paths_no_rule_matches_share_one_route_and_odd_methods_one_method(
    client: FlaskClient,
) -> None:
    for n in range(20):
        assert client.get(f"/nothing/{n}").status_code == 404
    assert client.open("/api/v1/rulesets", method="BREW").status_code == 405

    samples = scrape(client)

    requests = "tablebank_http_requests_total"
    assert value(samples, requests, method="GET", route="unmatched", status="404") == 20
    assert value(samples, requests, method="other", route="unmatched", status="405") == 1
    routes = {dict(labels).get("route") for name, labels in samples if name == requests}
    assert not [route for route in routes if route and "nothing" in route]
