"""The ledger application that this app serves, as the factory stored it."""

from __future__ import annotations

from flask import current_app

from ledger.application import TableBank

EXTENSION = "tablebank"


def tablebank() -> TableBank:
    """The app's ``TableBank``."""
    bank: TableBank = current_app.extensions[EXTENSION]
    return bank
