"""``GET /console/address``: the address ``tablebank serve`` found for the players' phones, which
the console's Links page puts in their links when it was itself opened at a loopback address."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from api.bank import EXTENSION


@pytest.fixture
def served_on_the_network() -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "TABLEBANK_DB": ":memory:",
            "TABLEBANK_PUBLIC_URL": "http://192.168.1.20:8000",
        }
    )
    yield app
    app.extensions[EXTENSION].close()


def test_address_is_the_one_serve_found(served_on_the_network: Flask) -> None:
    response = served_on_the_network.test_client().get("/console/address")
    assert response.status_code == 200
    assert response.json == {"lan": "http://192.168.1.20:8000"}


def test_address_is_null_when_only_this_machine_can_reach_the_server(
    client: FlaskClient,
) -> None:
    response = client.get("/console/address")
    assert response.status_code == 200
    assert response.json == {"lan": None}


def test_address_is_never_cached_and_carries_the_console_headers(client: FlaskClient) -> None:
    response = client.get("/console/address")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
