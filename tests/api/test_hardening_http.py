"""Issue 12, a club server on the internet, over HTTP: text that no store can keep, malformed
``If-Match``, the rate limit on creating games, and the admin-only, paginated list of games.

Related: the field rules one by one in ``tests/schemas/test_text_fields.py``, the limiter with
a clock of its own in ``test_limits.py``, ``tablebank serve``'s options in
``test_cli_serve_hardening.py``, the access log of a real server in
``tests/e2e/test_serve_logs.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from api import create_app
from api.bank import EXTENSION

NEW_GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}
SURROGATE = "\ud800"  # sent as the JSON escape "\ud800": no UTF-8 can carry it
SURROGATE_REFUSED = ["Must not contain a lone surrogate (U+D800)."]
ADMIN_TOKEN = "club-admin-7f3c9a1e5b2d4086"


@pytest.fixture
def app(stored_app: Flask) -> Flask:
    """Text no store can keep, on every store of the matrix."""
    return stored_app


@pytest.fixture
def make_app(store_db: str) -> Iterator[Any]:
    """An app on the run's store with more configuration; closed after the test."""
    apps: list[Flask] = []

    def make(**config: Any) -> Flask:
        app = create_app({"TESTING": True, "TABLEBANK_DB": store_db, **config})
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions[EXTENSION].close()


def created(client: Any, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", json={**NEW_GAME, **changes})
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


# -- text no store can keep: 422, never 500 ----------------------------------------------------


def test_a_lone_surrogate_in_a_games_name_is_refused(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "name": f"Friday{SURROGATE}"})

    assert response.status_code == 422
    assert response.json["errors"] == {"name": SURROGATE_REFUSED}
    assert client.get("/api/v1/games").json["items"] == []


def test_a_lone_surrogate_in_a_players_name_is_refused(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "players": ["Ann", SURROGATE]})

    assert response.status_code == 422
    assert response.json["errors"] == {"players.1": SURROGATE_REFUSED}


def test_a_lone_surrogate_in_a_memo_is_refused_and_nothing_recorded(table):
    errors = table.invalid({"type": "salary", "player": "p1", "memo": f"GO {SURROGATE}"})

    assert errors == {"memo": SURROGATE_REFUSED}
    assert table.state()["last_seq"] == 3


def test_a_lone_surrogate_in_a_memo_of_a_dry_run_is_refused(table):
    response = table.client.post(
        table.url + "/transactions?dry_run=true",
        json={"type": "salary", "player": "p1", "memo": SURROGATE},
        headers=table.auth(),
    )

    assert response.status_code == 422
    assert response.json["errors"] == {"memo": SURROGATE_REFUSED}


def test_a_lone_surrogate_in_a_void_reason_is_refused_and_nothing_recorded(table):
    table.record({"type": "salary", "player": "p1"})

    errors = table.invalid({"type": "void", "seq": 4, "reason": f"typo {SURROGATE}"})

    assert errors == {"reason": SURROGATE_REFUSED}
    assert table.state()["last_seq"] == 4


def test_a_lone_surrogate_in_a_qr_codes_text_is_refused(client):
    response = client.post("/console/qr", json={"text": f"http://x/play/1#token={SURROGATE}"})

    assert response.status_code == 422
    assert response.json["errors"] == {"text": SURROGATE_REFUSED}


def test_a_lone_surrogate_anywhere_in_a_body_is_refused_where_it_is(client):
    # A label of the banker's own box: no field type of ours, refused all the same.
    box = {
        "name": "kitchen-table",
        "extends": "classic",
        "options": {
            "income_tax": {
                "type": "choice",
                "default": "flat",
                "choices": ["flat", "percent"],
                "description": f"flat {SURROGATE}",
            }
        },
    }

    response = client.post(
        "/api/v1/games", json={**NEW_GAME, "ruleset": "kitchen-table", "ruleset_document": box}
    )

    assert response.status_code == 422
    assert response.json["errors"] == {
        "ruleset_document.options.income_tax.description": SURROGATE_REFUSED
    }


def test_an_escaped_surrogate_pair_is_a_character_like_any_other(client):
    # "\ud83c\udfa9" is one character, U+1F3A9 TOP HAT, as JSON encoders escape it.
    response = client.post(
        "/api/v1/games",
        data='{"name": "Top \\ud83c\\udfa9", "ruleset": "classic", "players": ["Ann", "Bob"]}',
        content_type="application/json",
    )

    assert response.status_code == 201
    assert response.json["name"] == "Top \U0001f3a9"


def test_a_memo_with_a_control_character_other_than_newline_is_refused(table):
    # schemas/transactions.py's memo is a schemas.fields.Text (API.md "Server limits").
    errors = table.invalid({"type": "salary", "player": "p1", "memo": "\x1b[2Jgone"})

    assert errors == {"memo": ["Must not contain control characters other than newline (U+001B)."]}
    assert table.state()["last_seq"] == 3


def test_a_memo_keeps_its_newlines(table):
    txn = table.record({"type": "salary", "player": "p1", "memo": "GO\nagain"})

    assert txn["memo"] == "GO\nagain"


@pytest.mark.parametrize(
    ("players", "field"),
    [
        (["A", "a"], "players"),
        (["Ann", "Ann\u200b"], "players.1"),
        (["Ann", "\u202eboB"], "players.1"),
        (["Ann", "B\x00b"], "players.1"),
        (["Ann", "\x1b[31mBob"], "players.1"),
        (["A nn", "A  nn"], "players"),  # two spaces read as one at the table
        (["Ann", "Ann\u00a0Lee", "Ann Lee"], "players"),  # a no-break space is a space
        (["Ann", "\u0301\u0302"], "players.1"),  # combining marks over nothing
    ],
    ids=["A and a", "U+200B", "U+202E", "NUL", "ESC", "two spaces", "NBSP", "marks only"],
)
def test_look_alike_player_names_are_refused(client, players, field):
    response = client.post("/api/v1/games", json={**NEW_GAME, "players": players})

    assert response.status_code == 422
    assert list(response.json["errors"]) == [field]


def test_a_players_name_is_stored_nfc_normalised(client):
    game = created(client, players=["Re\u0301my", "Bob"])

    assert [player["name"] for player in game["players"]] == ["R\u00e9my", "Bob"]


# -- If-Match: no tag, no write ---------------------------------------------------------------
# Tags that name no current version (an empty one, a weak one, which If-Match never matches, a
# list of others) are a version conflict; what is not an If-Match at all is refused as malformed
# (422 naming it, as its documented pattern says; issue 29). Never read as no condition.


@pytest.mark.parametrize("tag", ['""', 'W/"x"', '"a", "b"'])
def test_tags_naming_no_current_version_are_a_version_conflict_and_nothing_recorded(table, tag):
    response = table.client.post(
        table.url + "/transactions",
        json={"type": "salary", "player": "p1"},
        headers={**table.auth(), "If-Match": tag},
    )

    assert response.status_code == 412
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "version_conflict"
    assert response.json["current"] == table.state()["version"]
    assert table.state()["last_seq"] == 3


@pytest.mark.parametrize("tag", ["garbage", '"', '"a" junk'])
def test_a_malformed_if_match_is_refused_and_nothing_recorded(table, tag):
    response = table.client.post(
        table.url + "/transactions",
        json={"type": "salary", "player": "p1"},
        headers={**table.auth(), "If-Match": tag},
    )

    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "validation_error"
    assert list(response.json["errors"]) == ["If-Match"]
    assert table.state()["last_seq"] == 3


def test_if_match_with_the_version_unquoted_is_refused(table):
    version = table.state()["version"]

    response = table.client.post(
        table.url + "/transactions",
        json={"type": "salary", "player": "p1"},
        headers={**table.auth(), "If-Match": version},
    )

    assert response.status_code == 422
    assert table.state()["last_seq"] == 3


def test_an_empty_if_match_on_a_dry_run_is_a_version_conflict(table):
    response = table.client.post(
        table.url + "/transactions?dry_run=true",
        json={"type": "salary", "player": "p1"},
        headers={**table.auth(), "If-Match": '""'},
    )

    assert response.status_code == 412
    assert response.json["code"] == "version_conflict"


def test_if_match_with_spaces_around_the_current_tag_records(table):
    etag = table.get().headers["ETag"]

    response = table.client.post(
        table.url + "/transactions",
        json={"type": "salary", "player": "p1"},
        headers={**table.auth(), "If-Match": f"  {etag} "},
    )

    assert response.status_code == 201


# -- the rate limit on creating and importing games -------------------------------------------


def test_the_third_game_a_minute_from_one_address_is_rate_limited(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=2).test_client()
    created(client)
    created(client)

    response = client.post("/api/v1/games", json=NEW_GAME)

    assert response.status_code == 429
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "rate_limited"
    assert response.json["status"] == 429
    # 2 a minute: one every 30 s, two at once; the third waits for the first's 30 s.
    assert response.headers["Retry-After"] == "30"
    assert len(client.get("/api/v1/games").json["items"]) == 2


def test_an_import_counts_against_the_same_limit(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=1).test_client()
    created(client)

    response = client.post("/api/v1/games/import", json={"format": "tablebank-log/1"})

    assert response.status_code == 429
    assert response.json["code"] == "rate_limited"
    assert response.headers["Retry-After"] == "60"


def test_a_refused_attempt_counts_too(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=1).test_client()
    assert client.post("/api/v1/games", json={"name": "no players"}).status_code == 422

    response = client.post("/api/v1/games", json=NEW_GAME)

    assert response.status_code == 429


def test_another_address_has_a_limit_of_its_own(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=1).test_client()
    created(client)

    response = client.post(
        "/api/v1/games", json=NEW_GAME, environ_base={"REMOTE_ADDR": "203.0.113.7"}
    )

    assert response.status_code == 201


def test_reading_and_playing_are_not_limited(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=1).test_client()
    game = created(client)
    auth = {"Authorization": f"Bearer {game['banker_token']}"}
    url = f"/api/v1/games/{game['id']}"

    answers = [client.get(url, headers=auth).status_code for _ in range(5)]
    answers += [
        client.post(
            url + "/transactions", json={"type": "salary", "player": "p1"}, headers=auth
        ).status_code
        for _ in range(3)
    ]

    assert answers == [200] * 5 + [201] * 3


def test_no_limit_when_the_app_is_given_none(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=0).test_client()

    statuses = {client.post("/api/v1/games", json=NEW_GAME).status_code for _ in range(40)}

    assert statuses == {201}


def test_behind_a_proxy_the_forwarded_address_is_the_clients(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=1, TABLEBANK_PROXY_HOPS=1).test_client()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}

    first = client.post(
        "/api/v1/games",
        json=NEW_GAME,
        headers={"X-Forwarded-For": "198.51.100.1"},
        environ_base=proxy,
    )
    other = client.post(
        "/api/v1/games",
        json=NEW_GAME,
        headers={"X-Forwarded-For": "198.51.100.2"},
        environ_base=proxy,
    )
    again = client.post(
        "/api/v1/games",
        json=NEW_GAME,
        headers={"X-Forwarded-For": "198.51.100.1"},
        environ_base=proxy,
    )

    assert [first.status_code, other.status_code, again.status_code] == [201, 201, 429]


def test_without_proxy_hops_a_forwarded_address_is_not_believed(make_app):
    client = make_app(TABLEBANK_GAMES_PER_MINUTE=1).test_client()
    created(client)

    response = client.post(
        "/api/v1/games", json=NEW_GAME, headers={"X-Forwarded-For": "198.51.100.9"}
    )

    assert response.status_code == 429


# -- the list of games: admin token, pages ----------------------------------------------------


def test_with_an_admin_token_the_list_needs_it(make_app):
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()
    created(client)

    anonymous = client.get("/api/v1/games")
    wrong = client.get("/api/v1/games", headers={"Authorization": "Bearer not-the-admin-token"})
    admin = client.get("/api/v1/games", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})

    assert anonymous.status_code == 401
    assert anonymous.mimetype == "application/problem+json"
    assert anonymous.json["code"] == "unauthorized"
    assert anonymous.headers["WWW-Authenticate"] == "Bearer"
    assert wrong.status_code == 401
    assert admin.status_code == 200
    assert [game["name"] for game in admin.json["items"]] == ["Friday night"]


def test_a_head_of_the_list_needs_the_admin_token_too(make_app):
    # A HEAD answers with the GET's headers: its Content-Length would tell the list's size.
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()
    created(client)

    anonymous = client.head("/api/v1/games")
    admin = client.head("/api/v1/games", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})

    assert anonymous.status_code == 401
    assert admin.status_code == 200


def test_every_api_answer_says_not_to_sniff_its_type(make_app, table):
    client = make_app().test_client()
    answers = [
        client.get("/api/v1/rulesets"),
        client.get("/healthz"),
        client.get("/api/v1/games/0b9e6f1e-0000-4000-8000-000000000000"),  # a problem
        table.post({"type": "salary", "player": "p1"}),
    ]

    assert [a.headers.get("X-Content-Type-Options") for a in answers] == ["nosniff"] * 4


def test_a_redirect_names_no_host_the_request_made_up(make_app):
    client = make_app().test_client()

    response = client.get("/pocket", headers={"Host": "evil.example"})

    assert (response.status_code, response.headers["Location"]) == (308, "/pocket/")


def test_an_unknown_query_parameter_on_a_whole_log_read_is_refused(table):
    # Each would be computed and kept in the read cache apart (api/heavy.py), for nothing.
    for read in ("replay", "export", "verify", "fairplay", "accounts/p1/statement"):
        response = table.client.get(f"{table.url}/{read}?x=1", headers=table.auth())
        assert (response.status_code, response.json["errors"]) == (
            422,
            {"x": ["Unknown field."]},
        ), read
        assert table.client.get(f"{table.url}/{read}", headers=table.auth()).status_code == 200


def test_a_games_own_banker_token_does_not_open_the_list(make_app):
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()
    game = created(client)

    response = client.get(
        "/api/v1/games", headers={"Authorization": f"Bearer {game['banker_token']}"}
    )

    assert response.status_code == 401


def test_a_token_of_other_characters_is_refused_not_a_failure(make_app):
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()

    response = client.get("/api/v1/games", headers={"Authorization": "Bearer caf\u00e9"})

    assert response.status_code == 401


def test_with_an_admin_token_games_are_still_created_without_one(make_app):
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()

    response = client.post("/api/v1/games", json=NEW_GAME)

    assert response.status_code == 201


def test_with_an_admin_token_games_are_still_imported_without_one(make_app):
    # The console opens a game's file on a server with --admin-token-file as on any other:
    # it asks the banker for no admin token (API.md: import needs no token).
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()
    game = created(client)
    banker = {"Authorization": f"Bearer {game['banker_token']}"}
    exported = client.get(f"/api/v1/games/{game['id']}/export", headers=banker)

    response = client.post("/api/v1/games/import", json=exported.json)

    assert response.status_code == 201
    assert response.json["name"] == "Friday night" and response.json["last_seq"] == 3


def test_without_an_admin_token_anyone_reads_the_list(client, table):
    response = client.get("/api/v1/games")

    assert response.status_code == 200
    assert response.json == {"items": response.json["items"], "next": None}
    assert [game["id"] for game in response.json["items"]] == [table.id]


def test_the_list_comes_a_page_at_a_time(make_app):
    client = make_app().test_client()
    ids = [created(client, name=f"Table {n}")["id"] for n in range(1, 6)]

    first = client.get("/api/v1/games?limit=2").json
    second = client.get(f"/api/v1/games?limit=2&after={first['next']}").json
    last = client.get(f"/api/v1/games?limit=2&after={second['next']}").json

    assert [game["id"] for game in first["items"]] == ids[0:2]
    assert first["next"] == "2"
    assert [game["id"] for game in second["items"]] == ids[2:4]
    assert second["next"] == "4"
    assert [game["id"] for game in last["items"]] == ids[4:5]
    assert last["next"] is None


def test_a_page_that_ends_with_the_last_game_has_no_next(make_app):
    client = make_app().test_client()
    for n in range(1, 3):
        created(client, name=f"Table {n}")

    page = client.get("/api/v1/games?limit=2").json

    assert len(page["items"]) == 2
    assert page["next"] is None


def test_the_admin_reads_the_pages_with_the_token(make_app):
    client = make_app(TABLEBANK_ADMIN_TOKEN=ADMIN_TOKEN).test_client()
    for n in range(1, 4):
        created(client, name=f"Table {n}")
    auth = {"Authorization": f"Bearer {ADMIN_TOKEN}"}

    first = client.get("/api/v1/games?limit=2", headers=auth).json
    second = client.get(f"/api/v1/games?after={first['next']}", headers=auth).json

    assert [game["name"] for game in first["items"]] == ["Table 1", "Table 2"]
    assert [game["name"] for game in second["items"]] == ["Table 3"]
    assert second["next"] is None


@pytest.mark.parametrize(
    "query",
    ["limit=0", "limit=1001", "after=-1", "after=x", "after=1.5", "after=12345678901", "page=2"],
)
def test_a_bad_page_query_is_refused(client, query):
    response = client.get(f"/api/v1/games?{query}")

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"


def test_a_page_holds_100_games_unless_told_otherwise(make_app):
    client = make_app().test_client()
    for n in range(101):
        created(client, name=f"Table {n}")

    page = client.get("/api/v1/games").json

    assert len(page["items"]) == 100
    assert page["next"] == "100"


# -- the OpenAPI document says so ---------------------------------------------------------------


def test_the_document_lists_429_for_creating_and_importing_and_401_for_the_list(client):
    paths = client.get("/api/v1/openapi.json").json["paths"]

    assert "429" in paths["/api/v1/games"]["post"]["responses"]
    assert "429" in paths["/api/v1/games/import"]["post"]["responses"]
    assert "401" in paths["/api/v1/games"]["get"]["responses"]
    assert {p["name"] for p in paths["/api/v1/games"]["get"]["parameters"]} == {
        "after",
        "limit",
        "status",
        "idle_days",
    }


def test_the_documented_429_carries_retry_after(client):
    document = client.get("/api/v1/openapi.json").json

    assert document["paths"]["/api/v1/games"]["post"]["responses"]["429"] == {
        "$ref": "#/components/responses/RateLimited"
    }
    assert document["components"]["responses"]["RateLimited"]["headers"]["Retry-After"]["required"]


# -- X-Request-Id (API.md v1.3, "Operating a server") -----------------------------------------


def test_every_answer_carries_a_request_id_of_its_own(make_app, table):
    client = make_app().test_client()
    answers = [
        client.get("/api/v1/rulesets"),
        client.get("/healthz"),
        client.get("/api/v1/games/0b9e6f1e-0000-4000-8000-000000000000"),  # 404
        client.post("/api/v1/games", json={"name": ""}),  # 422
        table.post({"type": "salary", "player": "p1"}),
    ]
    ids = [answer.headers.get("X-Request-Id") for answer in answers]

    assert all(ids) and len(set(ids)) == len(ids), ids


def test_a_clients_request_id_is_kept_if_it_is_a_plain_token(make_app):
    client = make_app().test_client()
    given = "4bf92f3577b34da6a3ce929d0e0e4736"

    answer = client.get("/healthz", headers={"X-Request-Id": given})

    assert answer.headers["X-Request-Id"] == given


@pytest.mark.parametrize("given", ["a b", "x" * 129, "<script>", "id\u00e9"])
def test_a_request_id_that_is_not_a_plain_token_is_replaced(make_app, given):
    # Whatever a client sends goes into the server's logs: only a plain token of its own.
    client = make_app().test_client()

    answer = client.get("/healthz", headers={"X-Request-Id": given})

    kept = answer.headers["X-Request-Id"]
    assert kept != given and len(kept) == 32 and kept.isalnum()


def test_an_address_imports_its_budget_of_bytes_an_hour_and_no_more(make_app):
    # API.md v1.3 "What an attacker can still do": an anonymous client's imports have a budget
    # (`--import-mib-per-hour`, 64 MiB: two of the largest logs), counted by the body's
    # Content-Length before it is read. Here 1 MiB an hour, and logs of 600,000 bytes: the
    # first is imported, the second would overdraw the hour by 600,000 * 2 - 1 MiB = 151,424
    # bytes, which the budget earns back in 151,424 / 1,048,576 * 3,600 s = 520 s.
    app = make_app(TABLEBANK_IMPORT_MIB_PER_HOUR=1, TABLEBANK_PROXY_HOPS=1)
    client = app.test_client()
    game = created(client)
    exported = client.get(
        f"/api/v1/games/{game['id']}/export",
        headers={"Authorization": f"Bearer {game['banker_token']}"},
    ).get_data()
    log = exported + b" " * (600_000 - len(exported))  # JSON may end in blanks
    proxy = {"REMOTE_ADDR": "127.0.0.1"}

    def import_from(address: str) -> Any:
        return client.post(
            "/api/v1/games/import",
            data=log,
            content_type="application/json",
            headers={"X-Forwarded-For": address},
            environ_base=proxy,
        )

    assert import_from("198.51.100.1").status_code == 201
    refused = import_from("198.51.100.1")
    assert (refused.status_code, refused.json["code"]) == (429, "rate_limited")
    assert int(refused.headers["Retry-After"]) == 520
    assert import_from("198.51.100.2").status_code == 201  # another address, its own budget
