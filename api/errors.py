"""Every error as ``application/problem+json`` (RFC 9457), turned into a response here only.

``{"type", "title", "status", "detail", "code", ...}``: ``code`` is the stable machine code;
a 409 carries the ``params`` its ``detail`` was built from; ledger refusals add their own
members (``shortfall`` and ``can_raise``, ``errors``).
"""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any, NamedTuple

from eventsourcing.persistence import PersistenceError
from flask import Flask, Response, current_app
from werkzeug.exceptions import HTTPException, UnprocessableEntity, default_exceptions
from werkzeug.http import HTTP_STATUS_CODES

from api.metrics import metrics
from ledger.errors import LedgerError, ledger_codes
from ledger.refusals import REFUSALS
from ledger.store import store_unavailable

PROBLEM_JSON = "application/problem+json"
PROBLEM_TYPE = "https://tablebank.invalid/problems/"


class Problem(NamedTuple):
    """How a problem of one code is answered: its HTTP status and its title."""

    status: int
    title: str


# Every code the contract names and how it is answered, the ledger's refusals and HTTP's own
# alike: the one place a code gets its status and title (the ledger's errors carry neither).
# A refusal of the rules (``ledger.refusals.REFUSALS``) is ``RULES_REFUSED``.
PROBLEMS = {
    "bad_request": Problem(400, "Bad Request"),
    "unauthorized": Problem(401, "Unauthorized"),
    "forbidden": Problem(403, "Forbidden"),
    "not_found": Problem(404, "Not found"),
    "method_not_allowed": Problem(405, "Method not allowed"),
    "idempotency_in_progress": Problem(409, "Idempotency key in progress"),
    "version_conflict": Problem(412, "Precondition failed"),
    "payload_too_large": Problem(413, "Payload too large"),
    "validation_error": Problem(422, "Invalid request"),
    "idempotency_key_reused": Problem(422, "Idempotency key reused"),
    "log_invalid": Problem(422, "Invalid log"),
    "rate_limited": Problem(429, "Too many requests"),
    "internal_error": Problem(500, "Internal error"),
    "storage_unavailable": Problem(503, "Service unavailable"),
    # A write whose game stayed locked past its wait: nothing refused, try again (a read or an
    # import whose slots stayed taken is 503 ``busy``, ``api.offload.Busy``).
    "busy": Problem(409, "Refused"),
}
RULES_REFUSED = Problem(409, "Refused by the rules")
# The code an HTTP error of each of these statuses carries; any other status gets its
# snake-cased name (``http_code``).
HTTP_CODES = {
    PROBLEMS[code].status: code
    for code in (
        "bad_request",
        "unauthorized",
        "forbidden",
        "not_found",
        "method_not_allowed",
        "payload_too_large",
        "validation_error",
        "rate_limited",
    )
}
# Seconds a client is told to wait (Retry-After) when the store is full or unavailable.
STORAGE_RETRY_AFTER = 5

# Where webargs found the bad input: the first level of its messages, not a field.
LOCATIONS = frozenset(
    {
        "json",
        "query",
        "querystring",
        "form",
        "json_or_form",
        "headers",
        "cookies",
        "files",
        "view_args",
        "path",
    }
)


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A problem+json response."""
    body = {
        "type": PROBLEM_TYPE + code,
        "title": title or title_of(status, code),
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update((k, v) for k, v in extra.items() if k not in body)
    metrics().refusal(code)
    return current_app.response_class(
        current_app.json.dumps(body) + "\n",
        status=status,
        mimetype=PROBLEM_JSON,
        headers=headers,
    )


def title_of(status: int, code: str) -> str:
    """A problem's title: its code's (``PROBLEMS``) at its status, else that of the first code
    of its status there (``too_many_streams`` is titled as ``rate_limited``, 503 ``busy`` as
    ``storage_unavailable``), else the status's own phrase."""
    named = PROBLEMS.get(code)
    if named is not None and named.status == status:
        return named.title
    same = (each.title for each in PROBLEMS.values() if each.status == status)
    return next(same, HTTPStatus(status).phrase)


def answered_as(error: LedgerError) -> Problem:
    """How a refusal of the ledger is answered, by its code."""
    return PROBLEMS.get(error.code, RULES_REFUSED)


def ledger_problem(error: LedgerError) -> Response:
    """A refusal of the ledger, by its code (``PROBLEMS``); a 409 with the ``params`` of its
    ``detail`` (API.md, "Refusals a client can translate")."""
    status, title = answered_as(error)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    params = {"params": error.params} if status == 409 else {}
    return problem(
        status, error.code, error.detail, title=title, headers=headers, **params, **error.extra
    )


def http_problem(error: HTTPException) -> Response:
    """An HTTP error: a routing miss, a body too large, or input webargs refused."""
    data = getattr(error, "data", None) or {}
    if "messages" in data:
        return invalid_problem(data["messages"])
    status = error.code or 500
    code = (
        getattr(error, "problem_code", None)
        or HTTP_CODES.get(status)
        or http_code(error.name or "error")
    )
    # Keep the headers the status needs (Allow on 405), not the HTML content type.
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    return problem(status, code, error.description or "", headers=headers)


def invalid_problem(messages: Any) -> Response:
    """422 ``validation_error``: input a schema refused, its messages by dotted field."""
    errors = field_errors(messages)
    return problem(
        422,
        "validation_error",
        "The request is not valid: " + "; ".join(sorted(errors)) + ".",
        errors=errors,
    )


def invalid_body(messages: dict[str, Any]) -> HTTPException:
    """A body refused as webargs refuses one (422 ``validation_error``), for checks made after
    it was parsed; raise it (it needs no request)."""
    error = UnprocessableEntity()
    error.data = {"messages": {"json": messages}}  # type: ignore[attr-defined]
    return error


def http_code(name: str) -> str:
    """The code of an HTTP error the contract names no code for: its name, snake-cased."""
    return re.sub(r"\W+", "_", name.lower())


# The server's own problems besides the ledger's and the HTTP errors'.
OWN_CODES = ("storage_unavailable", "internal_error", "validation_error")


def problem_codes() -> list[str]:
    """Every ``code`` a problem of this server may carry, for the OpenAPI document's union of
    problems: the named ones (``named_codes``) and werkzeug's other HTTP errors (snake-cased
    names, and "Unknown Error" for a status it does not know)."""
    codes = set(named_codes())
    codes |= {http_code(HTTP_STATUS_CODES.get(status, "")) for status in default_exceptions}
    codes |= {http_code("Unknown Error")}
    return sorted(codes)


def named_codes() -> list[str]:
    """The codes the contract names: the ledger's (its rule refusals and its errors), the HTTP
    errors' it gives a name (``HTTP_CODES``, and those of our own exceptions, such as
    ``too_many_streams``), and the server's own. Each is a variant of its own in the OpenAPI
    document; werkzeug's other HTTP errors share one."""
    codes = set(REFUSALS) | set(HTTP_CODES.values()) | set(OWN_CODES) | ledger_codes()
    pending: list[type[HTTPException]] = [HTTPException]
    while pending:
        kind = pending.pop()
        pending.extend(kind.__subclasses__())
        if isinstance(getattr(kind, "problem_code", None), str):
            codes.add(kind.problem_code)  # type: ignore[attr-defined]
    return sorted(codes)


def storage_problem(error: PersistenceError) -> Response:
    """The store failed: full, unreachable, or refusing writes for a while. 503 with
    ``Retry-After``: the write was rolled back whole (or, where PostgreSQL fell silent after
    it was sent, ``api.cli.serving.answering``, perhaps committed), and sending it again with its
    ``Idempotency-Key`` once the store is back records it once. Any other persistence error
    is a defect."""
    metrics().store_error()
    if not store_unavailable(error):
        return unexpected_problem(error)
    current_app.logger.warning("the store is unavailable: %s", error)
    return problem(
        503,
        "storage_unavailable",
        f"The store is full or unavailable; try again in {STORAGE_RETRY_AFTER} s (with the "
        "same Idempotency-Key, a write is recorded once).",
        headers={"Retry-After": str(STORAGE_RETRY_AFTER)},
    )


def unexpected_problem(error: Exception) -> Response:
    """A defect: logged in full, answered without its details."""
    current_app.logger.exception("unexpected error", exc_info=error)
    return problem(500, "internal_error", "The server failed; the request was not recorded.")


def field_errors(messages: Any) -> dict[str, list[str]]:
    """Marshmallow/webargs messages as ``{"dotted.field": [messages]}``, locations dropped."""
    out: dict[str, list[str]] = {}

    def walk(path: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                name = path if key == "_schema" else f"{path}.{key}" if path else str(key)
                walk(name, sub)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(path, item)
        else:
            out.setdefault(path or "body", []).append(str(value))

    if isinstance(messages, dict):
        for location, value in messages.items():
            walk("" if location in LOCATIONS else str(location), value)
    else:
        walk("", messages)
    return out


def register(app: Flask) -> None:
    """Answer ledger refusals, a failing store and defects with problems (HTTP errors:
    ``api.framework``)."""
    app.register_error_handler(LedgerError, ledger_problem)
    app.register_error_handler(PersistenceError, storage_problem)
    app.register_error_handler(Exception, unexpected_problem)
