"""The REST API of tablebank: ``create_app`` builds the Flask app around one ``TableBank``.

Layers: views (``api.games``, ``api.events``, ``api.transactions``, ``api.audit``,
``api.fairplay``, ``api.stats``, ``api.rulesets``, ``api.health``), each module with a
blueprint of its own that ``create_app`` registers by name, parse with ``schemas``, call one
``TableBank`` method and return; ``api.auth`` checks tokens before any view of a game (its
blueprints are ``api.blueprints.one_game``'s) and the admin token, if any, before the list of
games; ``api.limits`` counts the games each client address creates; ``api.offload`` runs an
import's CPU work off the event loop; ``api.metrics`` counts requests, writes and refusals for
Prometheus where the server has an admin token; ``api.errors`` turns every failure into
``application/problem+json``.
"""

from __future__ import annotations

import os
import re
import uuid
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from eventsourcing.persistence import PersistenceError
from flask import Flask, Response, g, request
from werkzeug.middleware.proxy_fix import ProxyFix

from api import errors, heavy, logs, metrics
from api.audit import audit_blp, import_blp
from api.bank import EXTENSION, LATER, OpenLater
from api.console import console_blp
from api.docs import docs_blp
from api.events import events_blp
from api.fairplay import fairplay_blp
from api.framework import TableBankApi
from api.games import game_blp, games_blp, moves_blp
from api.health import health_blp
from api.intake import BODIES_PER_ADDRESS, INTAKE, Intake, read_the_body
from api.limits import (
    IMPORT_BUDGET,
    LIMITER,
    STREAMS,
    STREAMS_PER_ADDRESS,
    StreamCaps,
    game_limiter,
    import_budget,
)
from api.offload import DEFAULT_SLOTS, POOL, CpuPool, gather_writes
from api.pocket_files import pocket_blp
from api.rulesets import parameters_blp, rulesets_blp
from api.stats import stats_blp
from api.transactions import transactions_blp
from ledger.application import TableBank
from ledger.store import DEFAULT_DB, persistence_env, store_unavailable

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "MAX_IMPORT_LENGTH": 32 * 1024 * 1024,  # an exported log, read by POST /games/import
    "API_TITLE": "tablebank",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": "/api/v1",
    "OPENAPI_JSON_PATH": "openapi.json",
    # Games one client address may create or import a minute; 0: no limit. `tablebank serve`
    # sets 30 unless told otherwise (--games-per-minute).
    "TABLEBANK_GAMES_PER_MINUTE": 0,
    # MiB of imports one client address may send an hour; 0: no limit. `tablebank serve` sets
    # 64 unless told otherwise (--import-mib-per-hour).
    "TABLEBANK_IMPORT_MIB_PER_HOUR": 0,
    # Proxies in front whose X-Forwarded-For to trust for the client's address (--proxy-hops).
    "TABLEBANK_PROXY_HOPS": 0,
    # With a token, GET /api/v1/games answers that bearer token only (--admin-token-file).
    "TABLEBANK_ADMIN_TOKEN": None,
    # Imports checked and rebuilt at once per process, off the event loop (--import-slots).
    "TABLEBANK_IMPORT_SLOTS": DEFAULT_SLOTS,
    # Event streams one client address may hold open at once (--streams-per-address); a
    # token may hold 10 of its game's, a game 200 (api.limits.StreamCaps).
    "TABLEBANK_STREAMS_PER_ADDRESS": STREAMS_PER_ADDRESS,
    # Requests' bodies one client address may be sending at once (--bodies-per-address); each
    # body is read within its deadline before the view runs (api.intake).
    "TABLEBANK_BODIES_PER_ADDRESS": BODIES_PER_ADDRESS,
    # Reads of whole logs computed at once per process, off its event loop (--read-slots), and
    # the bytes of their answers kept (api.heavy).
    "TABLEBANK_READ_SLOTS": heavy.DEFAULT_SLOTS,
    "TABLEBANK_READ_CACHE_BYTES": heavy.CACHE_BYTES,
    # The pocket bundle's folder, served at /pocket/ (api.pocket_files); None: dist/pocket.
    "TABLEBANK_POCKET_DIR": None,
    # Whether the app writes an access line per request (api.logs; tablebank serve in JSON).
    logs.ACCESS_LOG: False,
    # Where the worker processes of tablebank serve keep their counts (api.metrics); None: in
    # this process. Counted only where there is an admin token.
    metrics.METRICS_DIR: None,
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The API app; ``config["TABLEBANK_DB"]`` is a SQLite path, a PostgreSQL URL or
    ":memory:", and ``DEFAULTS`` lists the other keys."""
    app = Flask(__name__, static_folder=None)  # the console serves its own files
    app.config.from_mapping(DEFAULTS, TABLEBANK_DB=os.environ.get("TABLEBANK_DB", DEFAULT_DB))
    app.config.from_mapping(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep seat and board order
    counts = app.extensions[metrics.METRICS] = metrics.for_app(app.config)
    open_the_bank(app, counts)
    set_the_limits(app, counts)
    hops = int(app.config["TABLEBANK_PROXY_HOPS"])
    if hops:
        # The client's address as the last ``hops`` proxies saw it, not the nearest proxy's.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops)  # type: ignore[method-assign]
    errors.register(app)
    register_blueprints(app)
    app.before_request(take_request_id)
    app.before_request(logs.start_clock)
    app.before_request(read_the_body)
    app.after_request(logs.access_line)
    app.after_request(metrics.count_request)
    app.after_request(give_request_id)
    app.after_request(no_store_with_a_token)
    app.after_request(no_sniffing)
    app.after_request(redirect_on_this_server)
    return app


def open_the_bank(app: Flask, counts: metrics.NoMetrics) -> None:
    """The app's ``TableBank`` on its store; if the store does not answer yet, one opened on
    the first request that finds it answering (503 until then)."""

    def open_bank() -> TableBank:
        return TableBank(
            env=persistence_env(app.config["TABLEBANK_DB"]),
            gather=gather_writes,
            committed=counts.group_commit if counts.enabled else None,
        )

    try:
        app.extensions[EXTENSION] = open_bank()
    except PersistenceError as error:
        if not store_unavailable(error):
            raise
        app.logger.warning("the store does not answer; serving 503 until it does: %s", error)
        app.extensions[LATER] = OpenLater(open_bank, error)


def set_the_limits(app: Flask, counts: metrics.NoMetrics) -> None:
    """What one client may cost the app, and the slots of its heavy work (``DEFAULTS``)."""
    app.extensions[LIMITER] = game_limiter(int(app.config["TABLEBANK_GAMES_PER_MINUTE"]))
    app.extensions[IMPORT_BUDGET] = import_budget(int(app.config["TABLEBANK_IMPORT_MIB_PER_HOUR"]))
    app.extensions[POOL] = CpuPool(int(app.config["TABLEBANK_IMPORT_SLOTS"]))
    app.extensions[POOL].start()
    app.extensions[heavy.HEAVY] = heavy.HeavyReads(
        int(app.config["TABLEBANK_READ_SLOTS"]),
        cache_bytes=int(app.config["TABLEBANK_READ_CACHE_BYTES"]),
        waiting=counts.heavy_read_waiting if counts.enabled else None,
    )
    app.extensions[INTAKE] = Intake(int(app.config["TABLEBANK_BODIES_PER_ADDRESS"]))
    app.extensions[STREAMS] = StreamCaps(
        per_address=int(app.config["TABLEBANK_STREAMS_PER_ADDRESS"]),
        counted=counts.stream if counts.enabled else None,
    )


def register_blueprints(app: Flask) -> None:
    """Each blueprint by name: the API's (in its OpenAPI document), then the pages'."""
    api = TableBankApi(app)
    for blueprint in (
        games_blp,
        import_blp,
        game_blp,
        moves_blp,
        events_blp,
        transactions_blp,
        audit_blp,
        fairplay_blp,
        stats_blp,
        rulesets_blp,
        parameters_blp,
        health_blp,
    ):
        api.register_blueprint(blueprint)
    app.register_blueprint(console_blp)  # pages, not API: kept out of the OpenAPI document
    app.register_blueprint(docs_blp)  # the document as a page, at /api/v1/docs
    app.register_blueprint(pocket_blp)  # the pocket bundle, at /pocket/, once built


# A client's X-Request-Id is kept if it is a plain token of up to 128 characters (what proxies
# and tracing send: a UUID, a hex or base64url string); any other is replaced by a new one.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")


def take_request_id() -> None:
    """The request's id: the client's ``X-Request-Id`` if it sent a valid one, else a new one,
    for the answer and every log line of the request (``g.request_id``)."""
    given = request.headers.get("X-Request-Id", "")
    g.request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def give_request_id(response: Response) -> Response:
    """Every answer carries its request's id, so that a client's report of it finds the
    server's log lines."""
    response.headers["X-Request-Id"] = g.get("request_id") or uuid.uuid4().hex
    return response


def no_store_with_a_token(response: Response) -> Response:
    """Every answer to a request with a token is kept by no cache: not a shared device's, not
    a proxy's (API.md, v1.2, "Shared devices and caches")."""
    if "Authorization" in request.headers:
        response.headers["Cache-Control"] = "no-store"
    return response


def redirect_on_this_server(response: Response) -> Response:
    """A redirect of the server's own (``/pocket`` to ``/pocket/``) names the path alone, not
    the host the request said it was for: a forged ``Host`` sends nobody elsewhere, and a cache
    in front keeps no address an attacker chose."""
    location = response.headers.get("Location")
    if location and response.status_code in (301, 302, 303, 307, 308):
        found = urlsplit(location)
        if found.netloc == request.host:
            response.headers["Location"] = urlunsplit(("", "", found.path, found.query, ""))
    return response


def no_sniffing(response: Response) -> Response:
    """Every answer is read as the type it says it is (a JSON answer, a problem, an export),
    never as a page a browser guessed from its bytes."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response
