"""The fair-play audit: ``GET /api/v1/games/{game}/fairplay`` (any token of the game), the
transactions that look like asset dumping or propping up (seed 002), for the table to judge."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView
from marshmallow import RAISE

from api.audit import audit_blp
from api.bank import tablebank
from api.heavy import heavy
from schemas.fairplay import FairPlaySchema
from schemas.games import NoQuerySchema


@audit_blp.route("/fairplay")
class FairPlay(MethodView):
    @audit_blp.response(200, FairPlaySchema)
    @audit_blp.arguments(NoQuerySchema, location="query", unknown=RAISE)
    @audit_blp.doc(operationId="get_fairplay")
    def get(self, _query: dict[str, Any], game: UUID) -> Any:
        """The transactions that look like asset dumping or propping up; they change nothing."""
        return heavy(game, lambda: tablebank().fairplay_job(game))
