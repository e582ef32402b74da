"""A game's live event stream: ``GET /api/v1/games/{game}/events`` (any token of the game).

Server-sent events: each transaction is ``id: <seq>``, ``event: transaction`` and ``data:``
the transaction as a POST answers it; ``Last-Event-ID: N`` or ``?after=N`` first sends every
transaction after seq N. A comment line goes out at least every ``TABLEBANK_STREAM_KEEPALIVE``
seconds (15), so that proxies keep the connection and a reader that left is noticed.
The server takes a greenlet per connection (``tablebank serve``), so an open stream holds no
thread; what a stream reads comes from this process's ``Feed``, which sees what any process
recorded.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from flask import Response, current_app, request
from flask.views import MethodView
from marshmallow import RAISE

from api.bank import tablebank
from api.games import game_blp
from ledger.application import transaction_view
from ledger.live import Follower
from schemas.events import EventsHeadersSchema, EventsQuerySchema

KEEPALIVE_SECONDS = 15.0
# A stream ends after this long; the reader's EventSource comes back at once with
# Last-Event-ID and misses nothing. It bounds what one connection holds on the server.
MAX_SECONDS = 3600.0


@game_blp.route("/events")
class Events(MethodView):
    @game_blp.arguments(EventsQuerySchema, location="query", unknown=RAISE)
    @game_blp.arguments(EventsHeadersSchema, location="headers")
    @game_blp.response(
        200,
        content_type="text/event-stream",
        description="`id: <seq>`, `event: transaction`, `data: <the transaction>`, then live",
    )
    def get(self, query: dict[str, Any], headers: dict[str, Any], game: UUID) -> Any:
        """The game's transactions as they are recorded, by any process of the server."""
        headers_of_a_stream = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        if request.method == "HEAD":
            # The headers of a stream and nothing held after them (API.md, v1.2, "Event streams
            # are bounded"): Flask answers a HEAD with this view but never reads the body, so a
            # follower taken here would never be closed. (An unknown game is already a 404:
            # authorize_game.)
            return Response(mimetype="text/event-stream", headers=headers_of_a_stream)
        after = headers.get("last_event_id", query.get("after"))
        follower = tablebank().follow(game, after)
        config = current_app.config
        keepalive = float(config.get("TABLEBANK_STREAM_KEEPALIVE", KEEPALIVE_SECONDS))
        lasting = float(config.get("TABLEBANK_STREAM_MAX_SECONDS", MAX_SECONDS))
        return Response(
            stream(follower, keepalive, lasting),
            mimetype="text/event-stream",
            headers=headers_of_a_stream,
        )


def stream(follower: Follower, keepalive: float, lasting: float) -> Iterator[str]:
    """The text of the stream, until the reader goes away or ``lasting`` seconds have passed
    (then the follower is closed)."""
    ends = time.monotonic() + lasting
    try:
        # Which process serves the stream: what a reader sees when it follows across servers.
        yield f"retry: 2000\n: following, process {os.getpid()}\n\n"
        while (left := ends - time.monotonic()) > 0:
            batch = follower.next_batch(min(keepalive, left))
            if not batch:
                yield ": keep-alive\n\n"
                continue
            yield "".join(
                f"id: {txn['seq']}\nevent: transaction\n"
                f"data: {json.dumps(transaction_view(txn), separators=(',', ':'))}\n\n"
                for txn in batch
            )
    finally:
        follower.close()
