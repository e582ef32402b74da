"""A game's live event stream: ``GET /api/v1/games/{game}/events`` (any token of the game).

Server-sent events: each transaction is ``id: <seq>``, ``event: transaction`` and ``data:``
the transaction as a POST answers it; ``Last-Event-ID: N`` or ``?after=N`` first sends every
transaction after seq N. Every event is dumped by ``schemas.events.StreamEventSchema``, which
the OpenAPI document describes event by event. A comment line goes out at least every
``TABLEBANK_STREAM_KEEPALIVE`` seconds (15), so that proxies keep the connection and a reader
that left is noticed.
The server takes a greenlet per connection (``tablebank serve``), so an open stream holds no
thread; what a stream reads comes from this process's ``Feed``, which sees what any process
recorded. The backlog is read a page at a time, each page only once the one before went out
(a reader that does not read holds one page); the streams open at once are capped per token,
game and client address (``api.limits.StreamCaps``; API.md, v1.2, "Event streams are
bounded").
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from flask import Response, current_app, g, request
from flask.views import MethodView
from marshmallow import RAISE

from api.auth import bearer_token
from api.bank import tablebank
from api.blueprints import one_game
from api.limits import STREAMS, StreamCaps, client_key
from api.offload import under_gevent
from ledger.live import Follower
from ledger.transactions.declare import ADMIN
from ledger.views import transaction_view
from schemas.events import EventsHeadersSchema, EventsQuerySchema, StreamEventSchema

KEEPALIVE_SECONDS = 15.0
# A stream ends after this long; the reader's EventSource comes back at once with
# Last-Event-ID and misses nothing. It bounds what one connection holds on the server.
MAX_SECONDS = 3600.0
EVENTS = StreamEventSchema()
# What the document says of the stream besides its events' schema.
STREAM_DESCRIPTION = (
    "Server-sent events. The schema is one event as the SSE standard parses it (OpenAPI 3.2's "
    "`itemSchema`; in 3.1, as schemathesis reads it): `id`, `event` and `data`, whose JSON "
    "`contentSchema` describes. The events after `Last-Event-ID` (or `?after`) come first, "
    "then each as it is recorded. The stream opens with `retry: 2000` and a comment, which "
    "make no event; a comment (`: keep-alive`) goes out at least every 15 s; after an hour "
    "the stream ends and an EventSource comes back with `Last-Event-ID`."
)


events_blp = one_game(
    "events",
    __name__,
    "One game's live event stream; needs a bearer token of that game.",
    conditional=False,
)


@events_blp.route("/events")
class Events(MethodView):
    """A game's live event stream (``/events``)."""

    @events_blp.arguments(EventsQuerySchema, location="query", unknown=RAISE)
    @events_blp.arguments(EventsHeadersSchema, location="headers")
    @events_blp.response(
        200, StreamEventSchema, content_type="text/event-stream", description=STREAM_DESCRIPTION
    )
    @events_blp.alt_response(
        429,
        description="Too many open streams: 10 a token, 200 a game, 50 a client address; or "
        "opened too often: 60 a minute a token, 240 a client address (`too_many_streams`).",
    )
    @events_blp.doc(operationId="stream_events")
    def get(self, query: dict[str, Any], headers: dict[str, Any], game: UUID) -> Any:
        """The game's transactions as they are recorded, by any process of the server."""
        headers_of_a_stream = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        if request.method == "HEAD":
            # The headers of a stream and nothing held after them (API.md, v1.2, "Event streams
            # are bounded"): Flask answers a HEAD with this view but never reads the body, so a
            # follower taken here would never be closed. (An unknown game is already a 404:
            # authorize_game.)
            return Response(mimetype="text/event-stream", headers=headers_of_a_stream)
        caps: StreamCaps = current_app.extensions[STREAMS]
        close_slot = caps.open(f"{game}/{g.role}", str(game), client_key(request.remote_addr))
        try:
            after = headers.get("last_event_id", query.get("after"))
            bank = tablebank()
            # A stream on a token that is replaced meanwhile ends within a poll of the store.
            watch = None if g.role == ADMIN else bank.token_watch(game, bearer_token())
            follower = bank.follow(game, after, watch)
        except BaseException:
            close_slot()
            raise
        config = current_app.config
        keepalive = float(config.get("TABLEBANK_STREAM_KEEPALIVE", KEEPALIVE_SECONDS))
        lasting = float(config.get("TABLEBANK_STREAM_MAX_SECONDS", MAX_SECONDS))
        return Response(
            EventStream(follower, close_slot, keepalive, lasting),
            mimetype="text/event-stream",
            headers=headers_of_a_stream,
        )


class EventStream:
    """The body of one stream: its text as the follower gets transactions, until the reader
    goes away or ``lasting`` seconds have passed. ``close`` (the server calls it however the
    answer ends, even before its first byte) closes the follower and frees the stream's place
    under the caps.

    Under ``tablebank serve`` a greenlet watches the connection meanwhile: a reader that hangs
    up (a reloaded page, a closed tab) ends its stream at once, not at the next keep-alive
    15 s later, so a banker who reloads the console a few times is not refused a stream for
    the ones already gone."""

    def __init__(
        self, follower: Follower, close_slot: Any, keepalive: float, lasting: float
    ) -> None:
        self.follower = follower
        self.close_slot = close_slot
        self.keepalive = keepalive
        self.lasting = lasting
        self.connection = request.environ.get("gunicorn.socket") if under_gevent() else None
        self.watch: Any = None

    def __iter__(self) -> Iterator[str]:
        try:
            if self.connection is not None:
                import gevent

                self.watch = gevent.spawn(hung_up, self.connection, self.follower.close)
            yield from stream(self.follower, self.keepalive, self.lasting)
        finally:
            self.close()

    def close(self) -> None:
        """End the stream: stop its watcher, close its follower, free its place under the caps."""
        if self.watch is not None:
            # Dead before the connection takes its next request: a stream the server ends (a
            # replaced token, its hour up) leaves the connection to gunicorn, whose read of it
            # would meet the watcher's wait on the same socket (gevent's
            # ConcurrentObjectUseError, a 500).
            self.watch.kill(block=True, timeout=1.0)
        self.follower.close()
        self.close_slot()


def hung_up(connection: socket.socket, then: Any) -> None:
    """Wait for the reader's side of the connection to close, then call ``then``. A reader
    sends nothing after its request, so the connection turns readable only when it closes
    (or when a client pipelines another request: then nothing is done)."""
    try:
        if connection.recv(1, socket.MSG_PEEK):
            return
    except OSError:
        pass
    then()


def stream(follower: Follower, keepalive: float, lasting: float) -> Iterator[str]:
    """The text of the stream, until the follower is closed or ``lasting`` seconds have
    passed."""
    ends = time.monotonic() + lasting
    # Which process serves the stream: what a reader sees when it follows across servers.
    yield f"retry: 2000\n: following, process {os.getpid()}\n\n"
    while (left := ends - time.monotonic()) > 0 and not follower.closed:
        batch = follower.next_batch(min(keepalive, left))
        if follower.closed:
            return
        if not batch:
            yield ": keep-alive\n\n"
            continue
        yield "".join(
            sse({"id": str(txn["seq"]), "event": "transaction", "data": transaction_view(txn)})
            for txn in batch
        )


def sse(event: dict[str, Any]) -> str:
    """The text of one event, dumped by the schema its name has (its data one line of JSON)."""
    dumped = EVENTS.dump(event)
    return f"id: {dumped['id']}\nevent: {dumped['event']}\ndata: {dumped['data']}\n\n"
