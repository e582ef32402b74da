"""Liveness, for load balancers and scripts (no token)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.framework import Blueprint
from schemas.health import HealthSchema

health_blp = Blueprint("health", __name__, description="Liveness.")


@health_blp.route("/healthz")
class Health(MethodView):
    @health_blp.response(200, HealthSchema)
    @health_blp.doc(operationId="get_health")
    def get(self) -> Any:
        """The server is up."""
        return {"status": "ok"}
