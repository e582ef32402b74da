"""The fair-play audit: ``GET /api/v1/games/{game}/fairplay`` (any token of the game), the
transactions that look like asset dumping or propping up (seed 002), for the table to judge."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.bank import tablebank
from api.blueprints import one_game
from api.heavy import heavy
from schemas.fairplay import FairPlaySchema

fairplay_blp = one_game(
    "fairplay",
    __name__,
    "The transactions of one game that look like asset dumping or propping up; needs a bearer "
    "token of that game.",
)


@fairplay_blp.route("/fairplay")
class FairPlay(MethodView):
    """A game's fair-play audit (``/fairplay``)."""

    @fairplay_blp.read(FairPlaySchema, "get_fairplay")
    def get(self, _query: dict[str, Any], game: UUID) -> Any:
        """The transactions that look like asset dumping or propping up; they change nothing."""
        return heavy(game, lambda: tablebank().fairplay_job(game))
