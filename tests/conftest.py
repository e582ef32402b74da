"""The store the whole suite runs on, chosen with ``--store`` (see ``stores``).

``make test`` runs the suite once with ``--store=sqlite`` and once with ``--store=postgres``;
``--store=memory`` is the quick choice for working locally. Fixtures that build a bank or an
app take their database from here: ``db_url`` (a fresh ``--db`` value that outlives one
application, for reloads and server processes), ``store_db`` (a fresh ``--db`` value for one
application) and ``store_env`` (its eventsourcing environment); a fixture of wider scope asks
``store`` itself (``store.new()``, then ``store.drop(db)``). A store that cannot be reached
skips the tests that need it, and fails them when ``TABLEBANK_REQUIRE_ALL=1``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from stores import STORES, Store, Unavailable, open_store

from ledger.store import persistence_env


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store",
        choices=STORES,
        default="sqlite",
        help="where the tests keep their events (default: sqlite; postgres at "
        "$TABLEBANK_TEST_POSTGRES; memory for quick local runs)",
    )


def pytest_report_header(config: pytest.Config) -> str:
    return f"store: {config.getoption('--store')}"


@pytest.fixture(scope="session")
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    """The store of this run."""
    try:
        chosen = open_store(request.config.getoption("--store"))
    except Unavailable as reason:
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(str(reason))
    yield chosen
    chosen.close()


@pytest.fixture
def db_url(store: Store) -> Iterator[str]:
    """A fresh database that outlives one application: a ``--db`` value."""
    db = store.new(durable=True)
    yield db
    store.drop(db)


@pytest.fixture
def store_db(store: Store) -> Iterator[str]:
    """A fresh database for one application: a ``--db`` value (``:memory:`` on memory)."""
    db = store.new()
    yield db
    store.drop(db)


@pytest.fixture
def store_env(store_db: str) -> dict[str, str]:
    """A fresh database for one application: its eventsourcing environment."""
    return persistence_env(store_db)
