"""Security checks of issue 6 that no other test makes, and a map of those that others make.

Check -> tests (``here`` is this module):

- Tokens never in the server's log: ``tests/e2e/test_crash.py`` (the log of real servers under
  concurrent writes), ``tests/e2e/test_serve.py`` (the log of ``tablebank serve``); here, the
  app's own log of an unexpected failure: ``test_a_failure_logs_no_token``.
- Tokens never in the list of games, an export or the stored events:
  ``test_auth_http.py::test_game_list_shows_no_token``, ``test_audit_endpoints_http.py``
  (exports); here: ``test_tokens_are_stored_only_as_their_sha256``.
- Constant-time token comparison: here. No comparison of a token exists to make constant-time,
  only a lookup of its SHA-256: ``test_a_token_is_never_compared_only_its_digest_looked_up``.
- No cross-game reads or writes: ``test_auth_http.py`` (a game read, a write),
  ``test_audit_endpoints_http.py::test_audit_with_another_games_token_is_forbidden``; here,
  every operation on a game the OpenAPI document lists, with another game's banker and player
  tokens, nothing recorded: ``test_no_token_of_another_game_reads_or_writes`` (and
  ``test_every_operation_on_a_game_is_checked_below``, so a new route cannot be missed).
- Every operation on a game refuses a request without its token or with a wrong one:
  ``test_auth_http.py``; ``test_schemathesis.py`` (its ``ignored_auth`` check, on the ``bearer``
  scheme the document declares).
- Body-size limit, 413 problem over 64 KiB: ``test_validation_http.py``
  (``test_body_over_64_kib_is_too_large``, ``test_every_error_is_problem_json``),
  ``test_audit_endpoints_http.py::test_new_game_body_over_64_kib_is_still_too_large``; here,
  the limit to the byte, nothing recorded over it:
  ``test_transaction_body_limit_is_64_kib_to_the_byte``.
- A larger limit on import (32 MiB): ``test_audit_endpoints_http.py``
  (``test_import_body_over_64_kib_is_accepted``, ``test_import_body_over_32_mib_is_too_large``,
  ``test_transaction_body_over_64_kib_is_too_large_after_an_import``).
- Console security headers (CSP without inline script, nosniff, frame-ancestors 'none'):
  ``test_console_http.py`` (``test_console_answers_carry_the_security_headers``,
  ``test_content_security_policy_allows_this_origin_only_and_nothing_inline``,
  ``test_refusals_of_the_console_carry_the_headers_too``,
  ``test_pages_hold_nothing_inline_and_load_only_local_files``).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from typing import Any

import pytest

from api.bank import EXTENSION
from ledger.application import TableBank

LIMIT = 64 * 1024  # API.md: 413 payload_too_large for bodies over 64 KiB

# Every operation on one game, with a request that its own banker may make.
GAME_ROUTES: dict[tuple[str, str], tuple[str, Any]] = {
    ("get", "/api/v1/games/{game}"): ("", None),
    ("get", "/api/v1/games/{game}/players/{player}/liquidation"): ("/players/p1/liquidation", None),
    ("get", "/api/v1/games/{game}/transactions"): ("/transactions", None),
    ("post", "/api/v1/games/{game}/transactions"): (
        "/transactions",
        {"type": "payment", "from": "p1", "to": "p2", "amount": 10},
    ),
    ("get", "/api/v1/games/{game}/transactions/{seq}"): ("/transactions/1", None),
    ("get", "/api/v1/games/{game}/accounts/{account}/statement"): ("/accounts/p1/statement", None),
    ("get", "/api/v1/games/{game}/replay"): ("/replay", None),
    ("get", "/api/v1/games/{game}/verify"): ("/verify", None),
    ("get", "/api/v1/games/{game}/export"): ("/export", None),
    ("get", "/api/v1/games/{game}/ruleset"): ("/ruleset", None),
    ("get", "/api/v1/games/{game}/fairplay"): ("/fairplay", None),
    ("get", "/api/v1/games/{game}/stats"): ("/stats", None),
    ("get", "/api/v1/games/{game}/moves"): ("/moves", None),
    # A new token for a role: nothing of the game's log moves.
    ("post", "/api/v1/games/{game}/tokens/{role}"): ("/tokens/p2", None),
    # The stream is refused before it starts; an accepted one is not read here.
    ("get", "/api/v1/games/{game}/events"): ("/events", None),
}


def send(client, method: str, url: str, body: Any, token: str):
    headers = {"Authorization": f"Bearer {token}"}
    if method == "post":
        return client.post(url, json=body, headers=headers)
    return client.get(url, headers=headers)


def test_every_operation_on_a_game_is_checked_below(client):
    document = client.get("/api/v1/openapi.json").json

    on_a_game = {
        (method, path)
        for path, operations in document["paths"].items()
        if "{game}" in path
        for method in operations
        if method != "parameters"
    }

    assert on_a_game == set(GAME_ROUTES)


@pytest.mark.parametrize("holder", ["banker", "p1"])
@pytest.mark.parametrize("route", list(GAME_ROUTES), ids=" ".join)
def test_no_token_of_another_game_reads_or_writes(table, new_game, client, route, holder):
    other = new_game()
    token = other.banker if holder == "banker" else other.tokens[holder]
    path, body = GAME_ROUTES[route]
    before = table.state()
    assert send(client, route[0], table.url + path, body, table.banker).status_code < 300

    response = send(client, route[0], table.url + path, body, token)

    assert response.status_code == 403
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "forbidden"
    assert set(response.json) == {"type", "title", "status", "detail", "code"}  # nothing of it
    after = table.state()
    # Only the banker's own request above may have moved the game; the forbidden one did not.
    allowed = 1 if route == ("post", "/api/v1/games/{game}/transactions") else 0
    assert after["last_seq"] == before["last_seq"] + allowed
    assert other.state()["last_seq"] == 3  # three starting cash transactions, nothing else


def test_transaction_body_limit_is_64_kib_to_the_byte(table, client):
    def padded(size: int) -> bytes:
        body = json.dumps({"type": "salary", "player": "p1"}).encode()
        return body + b" " * (size - len(body))  # JSON allows trailing whitespace

    too_large = client.post(
        table.url + "/transactions",
        data=padded(LIMIT + 1),
        content_type="application/json",
        headers=table.auth(),
    )

    assert too_large.status_code == 413
    assert too_large.mimetype == "application/problem+json"
    assert too_large.json["code"] == "payload_too_large"
    assert table.state()["last_seq"] == 3

    at_the_limit = client.post(
        table.url + "/transactions",
        data=padded(LIMIT),
        content_type="application/json",
        headers=table.auth(),
    )

    assert at_the_limit.status_code == 201
    assert table.state()["balances"]["p1"] == 1500 + 200  # docs/rules.md: GO salary 200


def test_tokens_are_stored_only_as_their_sha256(app, table):
    """What an attacker reading the database finds: digests, from which no token is made."""
    bank: TableBank = app.extensions[EXTENSION]
    stored = b"".join(
        n.state for n in bank.storage.recorder.select_notifications(start=1, limit=10_000)
    )
    tokens = [table.banker, *table.tokens.values()]

    assert len(tokens) == 4
    for token in tokens:
        assert token.encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored


class Untouchable(str):
    """A token that fails the test if anything compares it, or keys a dict or set with it."""

    def __eq__(self, other: object) -> bool:
        raise AssertionError("the token itself was compared")

    def __ne__(self, other: object) -> bool:
        raise AssertionError("the token itself was compared")

    def __hash__(self) -> int:
        raise AssertionError("the token itself was used as a key")


def test_a_token_is_never_compared_only_its_digest_looked_up(app, table, new_game):
    """Why no ``hmac.compare_digest``: there is no comparison of a token to make constant-time.

    ``TableBank.authenticate`` hashes the token (SHA-256) and reads the grant stored under
    that digest; a lookup whose time depends on the digest tells an attacker nothing about a
    token that would give another digest. This fails if the token itself is ever compared
    (``==``, ``!=``) or used as a key, on a hit, on a miss and on another game's token."""
    bank: TableBank = app.extensions[EXTENSION]
    other = new_game()

    assert bank.authenticate(table.id, Untouchable(table.banker)) == "banker"
    assert bank.authenticate(table.id, Untouchable(table.tokens["p2"])) == "p2"
    for token, code in ((table.banker[:-1] + "x", "unauthorized"), (other.banker, "forbidden")):
        with pytest.raises(Exception) as refused:
            bank.authenticate(table.id, Untouchable(token))
        assert getattr(refused.value, "code", None) == code


def test_a_failure_logs_no_token(table, client, caplog, monkeypatch):
    """An unexpected failure is logged in full (api/errors.py), and still shows no token."""

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the store went away")

    monkeypatch.setattr(TableBank, "replay_job", fail)
    caplog.set_level(logging.DEBUG)

    response = table.get("/replay")
    refused = client.get(table.url, headers={"Authorization": f"Bearer {table.banker}x"})

    assert response.status_code == 500
    assert refused.status_code == 401
    assert "the store went away" in caplog.text  # the log is there to be searched
    for token in (table.banker, *table.tokens.values()):
        assert token not in caplog.text


def test_a_chunked_body_over_the_limit_is_413_not_a_body_cut_short(table, client):
    """A chunked body has no Content-Length to refuse up front; werkzeug stops reading it at
    the limit, which once made it look like cut-off JSON (422). Under the limit it records."""

    def chunked(size: int) -> dict[str, Any]:
        body = json.dumps({"type": "salary", "player": "p1"}).encode()
        stream = io.BytesIO(body + b" " * (size - len(body)))
        return {
            "input_stream": stream,
            "content_type": "application/json",
            "headers": {**table.auth(), "Transfer-Encoding": "chunked"},
            # As gunicorn says of a chunked body it has decoded: read to its end.
            "environ_overrides": {"wsgi.input_terminated": True},
        }

    too_large = client.post(table.url + "/transactions", **chunked(LIMIT + 1000))

    assert too_large.status_code == 413
    assert too_large.json["code"] == "payload_too_large"
    assert table.state()["last_seq"] == 3

    small = client.post(table.url + "/transactions", **chunked(1000))

    assert small.status_code == 201
    assert table.state()["balances"]["p1"] == 1500 + 200  # docs/rules.md: GO salary 200
