"""The ledger application that this app serves, as the factory stored it."""

from __future__ import annotations

from eventsourcing.persistence import InterfaceError
from flask import current_app

from ledger.application import TableBank

EXTENSION = "tablebank"


def tablebank() -> TableBank:
    """The app's ``TableBank``. Once a worker that is stopping has closed it (``tablebank
    serve``'s ``worker_exit``; a worker orphaned by its master's death answers on until it
    notices), a request still being answered gets 503 ``storage_unavailable`` with
    ``Retry-After`` (api/errors.py), which its client sends again to a worker still serving,
    rather than a 500."""
    bank: TableBank | None = current_app.extensions.get(EXTENSION)
    if bank is None:
        raise InterfaceError("the store is closed: this worker is stopping")
    return bank
