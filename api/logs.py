"""What a server writes to its log about each request, for ``tablebank serve --log-format
json`` (api/cli/serving.py formats every line as one JSON object; API.md v1.3, "Operating a
server").

- ``access_line`` (after each request, where ``TABLEBANK_ACCESS_LOG`` is on): the event
  ``request`` with its ``request_id``, ``method``, ``route`` (the URL rule, never the path
  with its ids, never a query string), ``status``, ``duration_ms`` and ``game`` where the
  request names one.
- ``RequestFields``, a filter on the log's handler: every line written while a request is
  answered carries its ``request_id`` (and ``game``), so that one request's lines are found
  together, and a client's report of its ``X-Request-Id`` finds them.
"""

from __future__ import annotations

import logging
import time

from flask import Response, current_app, g, has_request_context, request

ACCESS = logging.getLogger("tablebank.access")
# Config: whether the app writes the access lines (tablebank serve, in JSON; gunicorn writes
# its own in text).
ACCESS_LOG = "TABLEBANK_ACCESS_LOG"


def start_clock() -> None:
    """Before each request: when it arrived, for its access line and its time in the metrics."""
    g.started = time.perf_counter()


def access_line(response: Response) -> Response:
    """The request's one access line, once its answer is made."""
    if current_app.config.get(ACCESS_LOG):
        started = g.get("started")
        ACCESS.info(
            "request",
            extra={
                "method": request.method,
                "route": request.url_rule.rule if request.url_rule is not None else None,
                "status": response.status_code,
                "duration_ms": (
                    None if started is None else round((time.perf_counter() - started) * 1000, 1)
                ),
            },
        )
    return response


class RequestFields(logging.Filter):
    """Adds the request's id and game to every line written while it is answered."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Every line let through, with its request's ``request_id`` and the ``game`` it names."""
        if has_request_context():
            record.request_id = g.get("request_id")
            game = (request.view_args or {}).get("game")
            if game is not None:
                record.game = str(game)
        return True
