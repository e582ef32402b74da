"""Liveness and the release a server runs, for load balancers, scripts and admins (no
token)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from api.framework import Blueprint
from api.version import VERSION
from ledger.store import SCHEMA, store_kind
from schemas.health import HealthSchema, VersionSchema

health_blp = Blueprint("health", __name__, description="Liveness.")


@health_blp.route("/healthz")
class Health(MethodView):
    @health_blp.response(200, HealthSchema)
    @health_blp.doc(operationId="get_health")
    def get(self) -> Any:
        """The server is up."""
        return {"status": "ok"}


@health_blp.route("/api/v1/version")
class Version(MethodView):
    @health_blp.response(200, VersionSchema)
    @health_blp.doc(operationId="get_version")
    def get(self) -> Any:
        """The release this server runs, what keeps its games and the layout of that store."""
        return {
            "version": VERSION,
            "store": store_kind(str(current_app.config["TABLEBANK_DB"])),
            "schema": SCHEMA,
        }
