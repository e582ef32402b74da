"""The REST API of tablebank: ``create_app`` builds the Flask app around one ``TableBank``.

Layers: views (``api.games``, ``api.transactions``, ``api.audit``, ``api.rulesets``,
``api.health``) parse with ``schemas``, call one ``TableBank`` method and return; ``api.auth``
checks tokens before any view of a game; ``api.errors`` turns every failure into
``application/problem+json``.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from api import errors
from api.audit import audit_blp, import_blp
from api.bank import EXTENSION
from api import events  # noqa: F401 - adds the event stream to game_blp
from api.console import console_blp
from api.framework import TableBankApi
from api.games import game_blp, games_blp
from api.health import health_blp
from api.rulesets import rulesets_blp
from api.transactions import transactions_blp
from ledger.application import TableBank
from ledger.store import DEFAULT_DB, persistence_env

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "MAX_IMPORT_LENGTH": 32 * 1024 * 1024,  # an exported log, read by POST /games/import
    "API_TITLE": "tablebank",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": "/api/v1",
    "OPENAPI_JSON_PATH": "openapi.json",
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The API app; ``config["TABLEBANK_DB"]`` is a SQLite path or ":memory:"."""
    app = Flask(__name__, static_folder=None)  # the console serves its own files
    app.config.from_mapping(DEFAULTS, TABLEBANK_DB=os.environ.get("TABLEBANK_DB", DEFAULT_DB))
    app.config.from_mapping(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep seat and board order
    app.extensions[EXTENSION] = TableBank(env=persistence_env(app.config["TABLEBANK_DB"]))
    errors.register(app)
    api = TableBankApi(app)
    for blueprint in (
        games_blp,
        import_blp,
        game_blp,
        transactions_blp,
        audit_blp,
        rulesets_blp,
        health_blp,
    ):
        api.register_blueprint(blueprint)
    app.register_blueprint(console_blp)  # pages, not API: kept out of the OpenAPI document
    return app
