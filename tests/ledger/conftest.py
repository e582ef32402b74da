"""Fixtures for the ledger's domain tests: a bank on the run's store and a table to play on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.application import TableBank

pytest.register_assert_rewrite("ledger_helpers")
from ledger_helpers import Table  # noqa: E402 - after its assertions are set to be rewritten


@pytest.fixture
def bank(store_env: dict[str, str]) -> Iterator[TableBank]:
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
