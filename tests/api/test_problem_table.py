"""How each refusal of the ledger is answered: its status and title come from one table of the
API's (``api.errors.PROBLEMS``), by the error's code; the ledger's errors carry neither.

The statuses are API.md's ("Errors": 412 ``version_conflict``, 422 ``idempotency_key_reused``,
409 ``idempotency_in_progress``, 401, 403, 404; 422 ``log_invalid`` under "Export and import";
every refusal of the rules 409). A write whose game stayed locked past its wait is 409 ``busy``,
nothing refused, as the OpenAPI document's refusal response says (a read's or an import's
``busy`` is 503, ``api.offload.Busy``: ``tests/api/test_offload.py``).
"""

from __future__ import annotations

import pytest
from flask import Flask

from api.errors import PROBLEMS, answered_as, ledger_problem, title_of
from ledger.errors import (
    BUSY,
    DisputesOpen,
    Forbidden,
    IdempotencyInProgress,
    IdempotencyKeyReused,
    InsufficientFunds,
    InvalidField,
    LedgerError,
    LogInvalid,
    NoLiveFeed,
    NotFound,
    RuleViolation,
    Unauthorized,
    VersionConflict,
    ledger_codes,
)
from ledger.refusals import REFUSALS

CONTRACT = [
    (InvalidField("amount", "must be positive"), 422, "validation_error"),
    (IdempotencyKeyReused("another body"), 422, "idempotency_key_reused"),
    (IdempotencyInProgress("still recording"), 409, "idempotency_in_progress"),
    (LogInvalid("bad hash", seq=3), 422, "log_invalid"),
    (VersionConflict("an older one", current=4), 412, "version_conflict"),
    (NotFound("no such game"), 404, "not_found"),
    (NoLiveFeed("no thread here"), 404, "not_found"),
    (Unauthorized("no token"), 401, "unauthorized"),
    (Forbidden("a player's token"), 403, "forbidden"),
    (LedgerError(BUSY, "the game is too busy; try again"), 409, "busy"),
    (InsufficientFunds(payer="p1", amount=600, cash=100, can_raise=0), 409, "insufficient_funds"),
    (DisputesOpen([7, 9]), 409, "disputes_open"),
    (RuleViolation("game_finished"), 409, "game_finished"),
]


@pytest.mark.parametrize(("error", "status", "code"), CONTRACT, ids=[c for _, _, c in CONTRACT])
def test_each_refusal_is_answered_with_the_status_the_contract_gives(
    app: Flask, error: LedgerError, status: int, code: str
) -> None:
    with app.test_request_context():
        response = ledger_problem(error)
    body = response.get_json()
    assert (response.status_code, body["status"], body["code"]) == (status, status, code)
    assert body["title"] == answered_as(error).title
    assert ("params" in body) == (status == 409)


def test_a_refusal_of_the_rules_is_titled_as_one() -> None:
    assert answered_as(RuleViolation("game_finished")) == (409, "Refused by the rules")


def test_problems_of_http_are_titled_by_their_status() -> None:
    assert title_of(503, "busy") == "Service unavailable"  # not the ledger's 409 busy
    assert title_of(429, "too_many_streams") == "Too many requests"
    assert title_of(408, "request_timeout") == "Request Timeout"
    assert title_of(412, "version_conflict") == "Precondition failed"


def test_an_unknown_token_asks_for_a_bearer_token(app: Flask) -> None:
    with app.test_request_context():
        response = ledger_problem(Unauthorized("no token"))
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_every_code_of_the_ledger_is_in_the_table_or_a_refusal_of_the_rules() -> None:
    """A new error class of the ledger gets its status here, not a refusal's 409 by default."""
    unanswered = ledger_codes() - set(PROBLEMS)
    assert unanswered == set(), unanswered
    assert not set(REFUSALS) & set(PROBLEMS)
