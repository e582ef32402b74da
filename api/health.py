"""Liveness, readiness and the release a server runs, for load balancers, scripts and admins
(no token); its metrics, for Prometheus (the admin token: ``api.metrics``)."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app
from flask.views import MethodView
from werkzeug.exceptions import NotFound

from api.auth import ADMIN_TOKEN, carries_token
from api.bank import tablebank
from api.errors import STORAGE_RETRY_AFTER, problem
from api.framework import ADMIN, Blueprint
from api.metrics import CONTENT_TYPE, Metrics, games_by_status, metrics
from api.version import VERSION
from ledger.errors import Unauthorized
from ledger.store import READY_SECONDS, store_kind
from schemas.health import HealthSchema, ReadySchema, VersionSchema

health_blp = Blueprint(
    "health", __name__, description="Liveness, readiness, the release, and metrics."
)


@health_blp.route("/healthz")
class Health(MethodView):
    """Liveness: the server is up (``/healthz``)."""

    @health_blp.response(200, HealthSchema)
    @health_blp.doc(operationId="get_health")
    def get(self) -> Any:
        """The server is up."""
        return {"status": "ok"}


@health_blp.route("/readyz")
class Ready(MethodView):
    """Readiness: the server's store answers (``/readyz``)."""

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
    """The release this server runs and what keeps its games (``/api/v1/version``)."""

    @health_blp.response(200, VersionSchema)
    @health_blp.doc(operationId="get_version")
    def get(self) -> Any:
        """The release this server runs, what keeps its games and the layout of that store."""
        return {
            "version": VERSION,
            "store": store_kind(str(current_app.config["TABLEBANK_DB"])),
            "schema": tablebank().schema,
        }


@health_blp.route("/metrics")
class MetricsPage(MethodView):
    """The server's counts for Prometheus, for its admin token (``/metrics``)."""

    @health_blp.response(
        200,
        content_type="text/plain",
        description="Prometheus's text format (`text/plain; version=0.0.4`): every count "
        "summed over the server's worker processes.",
    )
    @health_blp.alt_response(401, description="Not the server's admin token.")
    @health_blp.alt_response(404, description="The server has no admin token: no metrics.")
    @health_blp.doc(operationId="get_metrics", security=[{ADMIN: []}])
    def get(self) -> Any:
        """The server's counts for Prometheus (docs/deploy.md, "Metrics"), for its admin token
        only; a server without one counts nothing and answers 404."""
        counts = metrics()
        expected: str | None = current_app.config.get(ADMIN_TOKEN)
        if not isinstance(counts, Metrics) or not expected:
            raise NotFound("This server has no admin token, so it keeps no metrics.")
        if not carries_token(expected):
            raise Unauthorized("the metrics need the server's admin token")
        return Response(counts.exposition(games_by_status), content_type=CONTENT_TYPE)
