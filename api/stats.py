"""The statistics of a game: ``GET /api/v1/games/{game}/stats`` (any token of the game;
``?seq=N`` as of a point), over the transactions not voided (API.md v1.2, "Statistics of a
game"). It reads the whole log, so it is a heavy read (``api.heavy``)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.bank import tablebank
from api.blueprints import one_game
from api.heavy import heavy
from schemas.games import AsOfQuerySchema
from schemas.stats import StatsSchema

stats_blp = one_game(
    "stats",
    __name__,
    "What came in and went out of one game, per player and per deed; needs a bearer token of "
    "that game.",
)


@stats_blp.route("/stats")
class Stats(MethodView):
    """A game's statistics, per player and per deed (``/stats``)."""

    @stats_blp.read(StatsSchema, "get_stats", AsOfQuerySchema)
    def get(self, query: dict[str, Any], game: UUID) -> Any:
        """Per player and per deed, what came in and went out, and the peak net worths."""
        seq = query.get("seq")
        return heavy(game, lambda: tablebank().stats_job(game, seq), seq)
