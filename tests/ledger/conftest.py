"""Fixtures for the ledger's domain tests: a bank in memory and a table to play on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.application import TableBank

pytest.register_assert_rewrite("ledger_helpers")
from ledger_helpers import Table  # noqa: E402 - after its assertions are set to be rewritten


@pytest.fixture
def bank() -> Iterator[TableBank]:
    app = TableBank(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    yield app
    app.close()


@pytest.fixture
def table(bank: TableBank) -> Table:
    """Ann (p1), Bob (p2) and Cy (p3), 1500 each."""
    return Table(bank)


@pytest.fixture
def duel(bank: TableBank) -> Table:
    """Ann (p1) and Bob (p2) alone: one bankruptcy ends the game."""
    return Table(bank, players=("Ann", "Bob"))
