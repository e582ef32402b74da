"""The ledger application that this app serves, as the factory stored it, or opened later
when its store did not answer as the app was made."""

from __future__ import annotations

import time
from collections.abc import Callable

from eventsourcing.persistence import InterfaceError, OperationalError
from flask import current_app

from ledger.application import TableBank

EXTENSION = "tablebank"
LATER = "tablebank.later"  # an ``OpenLater``, while the bank is not open yet


def tablebank() -> TableBank:
    """The app's ``TableBank``. Once a worker that is stopping has closed it (``tablebank
    serve``'s ``worker_exit``; a worker orphaned by its master's death answers on until it
    notices), a request still being answered gets 503 ``storage_unavailable`` with
    ``Retry-After`` (api/errors.py), which its client sends again to a worker still serving,
    rather than a 500. So does a request while the store has not answered since the worker
    started (``OpenLater``)."""
    bank: TableBank | None = current_app.extensions.get(EXTENSION)
    if bank is not None:
        return bank
    later: OpenLater | None = current_app.extensions.get(LATER)
    if later is None:
        raise InterfaceError("the store is closed: this worker is stopping")
    bank = later.open()
    if current_app.extensions.get(LATER) is not later:
        # The worker began to stop while the store was being opened (``worker_exit`` took
        # away what it would have closed): this bank is nobody's to close later.
        bank.close()
        raise InterfaceError("the store is closed: this worker is stopping")
    current_app.extensions[EXTENSION] = bank
    del current_app.extensions[LATER]
    return bank


class OpenLater:
    """The bank of a worker whose store did not answer when it started (PostgreSQL away while
    gunicorn started a worker, to replace one it lost): the worker serves anyway, answering
    503 ``storage_unavailable`` (``/readyz`` too) until the store answers, then opens the bank
    on a request. Before, the worker failed to boot, and gunicorn stopped the whole server for
    it: a club's server stayed down after its database came back.

    One request at a time tries to open it, no more often than every ``PAUSE`` seconds; the
    others meanwhile are answered 503 at once."""

    PAUSE = 1.0

    def __init__(self, open_bank: Callable[[], TableBank], failed: BaseException) -> None:
        self._open = open_bank
        self._failed: BaseException = failed
        self._at = time.monotonic()
        self._opening = False

    def open(self) -> TableBank:
        """The bank, opened now; else the store's error (the last one, if it failed less than
        ``PAUSE`` ago or another request is opening it)."""
        if self._opening or time.monotonic() - self._at < self.PAUSE:
            raise OperationalError(
                f"the store has not answered since the worker started: {self._failed}"
            )
        self._opening = True
        try:
            return self._open()
        except (OperationalError, InterfaceError) as error:
            self._failed = error
            raise
        finally:
            self._opening = False
            self._at = time.monotonic()
