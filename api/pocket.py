"""The pocket bank's Python side: the API app over the pocket store (``ledger.journal``),
answering the requests the console's Web Worker hands it, one at a time.

The worker (``api/static/console/js/pocket-worker.js``) runs this module under Pyodide. For each
request it calls ``PocketBank.handle``, then ``take_writes`` for the lines of what the request
recorded, stores them durably in IndexedDB, and only then gives the console the answer. The
app is the server's own ``create_app``: the same paths, bodies, statuses, problems, ETags, dry
runs and idempotency; no rule is written again anywhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from flask import Flask
from werkzeug.wrappers import Response

from api import create_app
from api.errors import STORAGE_RETRY_AFTER, problem
from ledger.journal import Journal, use
from ledger.store import POCKET_DB

# The client address every request has: the device's own.
DEVICE = "127.0.0.1"


class PocketBank:
    """One bank of the games kept on this device, made again from their journal lines."""

    def __init__(self, lines: Iterable[str] = ()) -> None:
        self.journal = use(Journal(lines))
        self.app: Flask = create_app({"TABLEBANK_DB": POCKET_DB})
        self.client = self.app.test_client()

    def handle(
        self, method: str, path: str, headers: str, body: str | None
    ) -> tuple[int, str, str]:
        """The answer to one request: its status, its headers (a JSON list of name and value
        pairs) and its body as text. ``path`` keeps its query; ``headers`` is a JSON object."""
        response = self.client.open(
            path,
            method=method,
            headers=json.loads(headers),
            data=None if body is None else body.encode(),
            environ_base={"REMOTE_ADDR": DEVICE},
        )
        try:
            return answer(response)
        finally:
            response.close()

    def take_writes(self) -> list[str]:
        """The journal lines of what was recorded since the last call, for the worker to keep."""
        return self.journal.take()

    def unkept(self) -> tuple[int, str, str]:
        """The answer to a request whose write the device could not keep (its storage is full):
        503 ``storage_unavailable``, as a server whose disk is full answers. The worker then
        makes the bank again from what the device kept, so the write is gone from memory too."""
        with self.app.test_request_context():
            response = problem(
                503,
                "storage_unavailable",
                "This device has no room left to keep the game's log, so nothing was recorded. "
                "Free some space (or move the game to a server), then record it again.",
                headers={"Retry-After": str(STORAGE_RETRY_AFTER)},
            )
        return answer(response)


def answer(response: Response) -> tuple[int, str, str]:
    """An answer as the worker hands it to the page: status, headers (a JSON list of name and
    value pairs), body as text."""
    return (
        response.status_code,
        json.dumps(list(response.headers.items())),
        response.get_data(as_text=True),
    )
