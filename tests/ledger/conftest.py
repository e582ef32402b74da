"""Fixtures for the ledger's domain tests: a bank and a table to play on.

A rule does not depend on where the events are kept, so ``bank`` keeps them in eventsourcing's
in-memory store and these tests run once (``tests/conftest.py``). A module that tests what a
store can break (reloads, retries, stored formats) asks ``stored_bank`` instead, or ``store``
and its fixtures: it runs on every store of the matrix.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.application import TableBank
from ledger.store import persistence_env

pytest.register_assert_rewrite("ledger_helpers")
from ledger_helpers import Table  # noqa: E402 - after its assertions are set to be rewritten


@pytest.fixture
def bank() -> Iterator[TableBank]:
    """A bank in memory."""
    app = TableBank(env=persistence_env(":memory:"))
    yield app
    app.close()


@pytest.fixture
def stored_bank(store_env: dict[str, str]) -> Iterator[TableBank]:
    """A bank on a fresh database of a store of the matrix."""
    app = TableBank(env=store_env)
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
