"""What the whole suite shares: the store matrix, the embedded store, hypothesis's profiles.

Two kinds of test, told apart by the fixtures they ask for (docs/testing.md):

- **Once.** A rule does not depend on where its events are kept: the domain tests play on the
  ``Game`` aggregate in eventsourcing's in-memory store (``tests/ledger/conftest.py``), the HTTP
  tests on an app over it (``tests/api/conftest.py``), the console's browser tests on a server
  with a SQLite file (``local_store``, the embedded default). They run once, whatever ``--store``
  says.
- **The store matrix.** What storage can break (persistence and reload, concurrency and retries,
  idempotency, group commit, crash, stored formats, import and export, streams across
  processes, limits) asks for ``store`` or for one of the fixtures built on it: ``db_url`` (a
  fresh ``--db`` value that outlives one application, for reloads and server processes),
  ``store_db`` (a fresh ``--db`` value for one application) and ``store_env`` (its eventsourcing
  environment). Such a test runs once on each store that ``--store`` names (``sqlite``,
  ``postgres``, ``memory``; comma-separated), its id ending in the store's name. A fixture of
  wider scope asks ``store`` itself (``store.new()``, then ``store.drop(db)``).

A store that cannot be reached skips the tests that need it, and fails them when
``TABLEBANK_REQUIRE_ALL=1`` (CI).

Hypothesis runs the profile ``HYPOTHESIS_PROFILE`` names (``tests/profiles.py``; ``ci`` unless
told): ``make test`` and CI a fixed number of examples, ``make fuzz`` the long ``fuzz`` one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from profiles import PROFILE
from stores import STORES, PostgresStore, SQLiteStore, Store, Unavailable, open_store

from ledger.store import persistence_env


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store",
        default="sqlite",
        help="the stores the store matrix runs on, comma-separated (default: sqlite; "
        f"any of {', '.join(STORES)}; postgres at $TABLEBANK_TEST_POSTGRES)",
    )


def matrix(config: pytest.Config) -> list[str]:
    """The stores ``--store`` names, in its order, each once."""
    names = [name.strip() for name in config.getoption("--store").split(",") if name.strip()]
    unknown = sorted(set(names) - set(STORES))
    if unknown or not names:
        raise pytest.UsageError(f"--store: {', '.join(unknown) or 'none'}; choose from {STORES}")
    return list(dict.fromkeys(names))


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [
        f"store matrix: {', '.join(matrix(config))}",
        f"hypothesis profile: {PROFILE}",
    ]


# The modules of the longest tests (a whole game in taps, every move in every language, the
# loads against a server), run first: spread over the processes from the start, none of them
# is left to run alone at the end of the run while the other processes wait (docs/testing.md).
LONGEST_FIRST = (
    "tests/e2e/test_image.py",  # builds the image: 2 min on a new machine
    "tests/e2e/test_console_family_game.py",
    "tests/e2e/test_console_every_move.py",
    "tests/e2e/test_console_touch.py",
    "tests/e2e/test_console_words.py",
    "tests/e2e/test_console_live.py",
    "tests/e2e/test_heavy_reads.py",
    "tests/e2e/test_slow_clients.py",
    "tests/test_benchmarks.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests' modules first, in ``LONGEST_FIRST``'s order; the rest as collected."""

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each module's tests keep their order


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that asks for ``store`` (itself or through a fixture) runs on each store."""
    if "store" in metafunc.fixturenames:
        names = matrix(metafunc.config)
        metafunc.parametrize("store", names, indirect=True, scope="session", ids=names)


@pytest.fixture(scope="session")
def _stores() -> Iterator[dict[str, Store | Unavailable]]:
    """Each store of the matrix, opened once when a test first asks for it."""
    opened: dict[str, Store | Unavailable] = {}
    yield opened
    for each in opened.values():
        if isinstance(each, Store):
            each.close()


@pytest.fixture(scope="session")
def store(request: pytest.FixtureRequest, _stores: dict[str, Store | Unavailable]) -> Store:
    """A store of the matrix (the test runs once on each)."""
    return opened(request.param, _stores)


@pytest.fixture(scope="session")
def postgres(_stores: dict[str, Store | Unavailable]) -> PostgresStore:
    """PostgreSQL whatever the matrix says, for a test of what PostgreSQL alone does (a
    trigger, a server that stops answering); skipped where it cannot be reached, failed so in
    CI (``TABLEBANK_REQUIRE_ALL=1``)."""
    found = opened("postgres", _stores)
    assert isinstance(found, PostgresStore)
    return found


def opened(name: str, _stores: dict[str, Store | Unavailable]) -> Store:
    """The store ``name``, opened once for the session; a skip (a failure in CI) where it
    cannot be reached."""
    if name not in _stores:
        try:
            _stores[name] = open_store(name)
        except Unavailable as reason:
            _stores[name] = reason  # asked once: a store that is down is not asked again
    chosen = _stores[name]
    if isinstance(chosen, Unavailable):
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{chosen} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(str(chosen))
    return chosen


@pytest.fixture(scope="session")
def local_store() -> Iterator[Store]:
    """SQLite files, the embedded default, for the tests that run once and need a database a
    process of its own opens (a real server for the console's browser tests)."""
    files = SQLiteStore()
    yield files
    files.close()


@pytest.fixture
def local_db(local_store: Store) -> Iterator[str]:
    """A fresh SQLite file for a test that runs once: a ``--db`` value."""
    db = local_store.new(durable=True)
    yield db
    local_store.drop(db)


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
