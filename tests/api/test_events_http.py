"""``GET /api/v1/games/{game}/events`` in process (API.md, "Live: the game's event stream"):
the stream's shape, where it starts, and what it refuses. Streams here are cut after a moment
(``TABLEBANK_STREAM_MAX_SECONDS``) so that a test can read one whole; tests/e2e/test_events.py
follows live streams on a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from api.bank import EXTENSION
from api.limits import STREAMS, StreamCaps


@pytest.fixture
def app(store_db: str) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "TABLEBANK_DB": store_db,
            "TABLEBANK_STREAM_MAX_SECONDS": 0.3,
            "TABLEBANK_STREAM_KEEPALIVE": 0.1,
        }
    )
    yield app
    app.extensions[EXTENSION].close()


def events(text: str) -> list[dict]:
    """The events of a stream's text: id, event and the decoded data of each."""
    out = []
    for block in text.split("\n\n"):
        fields: dict = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            if name in ("id", "event", "data"):
                fields[name] = value
        if "data" in fields:
            out.append(
                {
                    "id": int(fields["id"]),
                    "event": fields["event"],
                    "data": json.loads(fields["data"]),
                }
            )
    return out


def test_after_zero_sends_every_transaction_as_the_post_answered_it(client: FlaskClient, table):
    paid = table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 30})

    response = table.get("/events?after=0")

    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    got = events(response.get_data(as_text=True))
    # Three players' starting cash (seq 1-3), then the payment (seq 4).
    assert [e["id"] for e in got] == [1, 2, 3, 4]
    assert {e["event"] for e in got} == {"transaction"}
    assert got[-1]["data"] == paid


def test_last_event_id_sends_what_came_after_it(table):
    table.record({"type": "salary", "player": "p1"})
    table.record({"type": "salary", "player": "p2"})

    response = table.client.get(
        table.url + "/events", headers={**table.auth(), "Last-Event-ID": "4"}
    )

    assert [e["id"] for e in events(response.get_data(as_text=True))] == [5]


def test_without_a_position_nothing_old_is_sent_and_comments_keep_it_alive(table):
    text = table.get("/events").get_data(as_text=True)

    assert events(text) == []
    assert text.startswith("retry: 2000\n")
    assert ": keep-alive\n\n" in text


@pytest.mark.parametrize("query", ["?after=-1", "?after=x", "?since=1"])
def test_a_bad_position_is_a_validation_error(table, query):
    response = table.get("/events" + query)

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"


def test_a_bad_last_event_id_is_a_validation_error(table):
    response = table.client.get(
        table.url + "/events", headers={**table.auth(), "Last-Event-ID": "soon"}
    )

    assert response.status_code == 422


def test_the_stream_needs_a_token(client, table):
    assert client.get(table.url + "/events").status_code == 401


def test_a_player_token_may_follow(table):
    response = table.get("/events?after=2", token=table.tokens["p3"])

    assert [e["id"] for e in events(response.get_data(as_text=True))] == [3]


def test_a_head_answers_the_headers_of_a_stream_and_holds_nothing(app: Flask, table):
    # API.md, v1.2 "Event streams are bounded": HEAD .../events answers the headers of a
    # stream and holds nothing after it (a HEAD had kept a follower and its backlog forever).
    feed = app.extensions[EXTENSION].reading.feed
    for _ in range(3):
        response = table.client.head(
            table.url + "/events", headers={**table.auth(), "Last-Event-ID": "0"}
        )
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-store"
        assert response.get_data() == b""
    assert feed.followers() == 0


def test_a_head_of_another_games_stream_answers_as_its_get_does(client, table):
    url = "/api/v1/games/00000000-0000-4000-8000-000000000000/events"
    got = client.get(url, headers=table.auth())
    head = client.head(url, headers=table.auth())
    assert got.status_code >= 400  # this game's token opens no other game
    assert (head.status_code, head.mimetype) == (got.status_code, got.mimetype)


def test_a_tokens_eleventh_open_stream_is_refused_until_one_closes(app: Flask, table):
    # API.md, v1.2 "Event streams are bounded": a token holds at most 10 open streams of its
    # game; one more gets 429 too_many_streams with Retry-After.
    url, auth = table.url + "/events", table.auth()
    open_ = [table.client.get(url, headers=auth, buffered=False) for _ in range(10)]
    assert [r.status_code for r in open_] == [200] * 10

    refused = table.client.get(url, headers=auth)
    assert refused.status_code == 429
    assert refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "too_many_streams"
    assert int(refused.headers["Retry-After"]) >= 1
    # Another token of the game has its own ten.
    assert table.client.get(url, headers=table.auth(table.tokens["p1"])).status_code == 200

    open_.pop().close()  # a reader leaves: its place is free, before its first byte even
    again = table.client.get(url, headers=auth, buffered=False)
    assert again.status_code == 200
    for response in [*open_, again]:
        response.close()
    assert app.extensions[EXTENSION].reading.feed.followers() == 0


def test_a_token_opens_sixty_streams_a_minute_and_no_more(app: Flask, table):
    # API.md, "Live": a token may open 60 streams a minute (a reconnect storm from seq 0 held a
    # worker's core); the 61st, though every one before it was closed, is refused 429
    # too_many_streams with Retry-After, and the game's other tokens are not.
    # The caps' clock stands still: the 60 opens take a while on a loaded machine, and the
    # bucket would earn one back each second of it.
    app.extensions[STREAMS] = StreamCaps(clock=lambda: 1000.0)
    url, auth = table.url + "/events?after=0", table.auth()
    for _ in range(60):
        opened = table.client.get(url, headers=auth, buffered=False)
        assert opened.status_code == 200
        opened.close()

    refused = table.client.get(url, headers=auth)
    assert (refused.status_code, refused.json["code"]) == (429, "too_many_streams")
    assert "60 a minute" in refused.json["detail"]
    assert int(refused.headers["Retry-After"]) == 1  # one more a second
    other = table.client.get(url, headers=table.auth(table.tokens["p1"]), buffered=False)
    assert other.status_code == 200
    other.close()
