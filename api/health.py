"""Liveness and the release a server runs, for load balancers, scripts and admins (no
token)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from api.bank import tablebank
from api.errors import STORAGE_RETRY_AFTER, problem
from api.framework import Blueprint
from api.version import VERSION
from ledger.store import READY_SECONDS, store_kind
from schemas.health import HealthSchema, ReadySchema, VersionSchema

health_blp = Blueprint("health", __name__, description="Liveness.")


@health_blp.route("/healthz")
class Health(MethodView):
    @health_blp.response(200, HealthSchema)
    @health_blp.doc(operationId="get_health")
    def get(self) -> Any:
        """The server is up."""
        return {"status": "ok"}


@health_blp.route("/readyz")
class Ready(MethodView):
    @health_blp.response(200, ReadySchema)
    @health_blp.alt_response(503, description="The store did not answer in time.")
    @health_blp.doc(operationId="get_readiness")
    def get(self) -> Any:
        """The server can serve: its store answered a round trip within 2 s. Else 503
        ``storage_unavailable`` with ``Retry-After``: take it out of the rotation for now."""
        if not tablebank().store_answers():
            current_app.logger.warning("not ready: the store did not answer within 2 s")
            return problem(
                503,
                "storage_unavailable",
                f"The store did not answer within {READY_SECONDS:g} s; "
                f"ask again in {STORAGE_RETRY_AFTER} s.",
                headers={"Retry-After": str(STORAGE_RETRY_AFTER)},
            )
        return {"status": "ready"}


@health_blp.route("/api/v1/version")
class Version(MethodView):
    @health_blp.response(200, VersionSchema)
    @health_blp.doc(operationId="get_version")
    def get(self) -> Any:
        """The release this server runs, what keeps its games and the layout of that store."""
        return {
            "version": VERSION,
            "store": store_kind(str(current_app.config["TABLEBANK_DB"])),
            "schema": tablebank().schema,
        }
