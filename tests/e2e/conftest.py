"""What every end-to-end test shares: real servers, one browser, the run's servers stopped once.

- ``server``: ``tablebank serve`` on a SQLite file, the embedded default, shared by every test
  of the session that asks for it (the console's browser tests: what they show does not depend
  on the store, so they run once). Each test plays a game of its own on it.
- ``servers``: the session's servers by store and ``serve`` arguments, each started when a test
  first asks for it and stopped at the end of the session; ``servers.get(store, "--workers",
  "2")`` is the one server of that kind. A module whose answers a store can change asks it
  for a store of the matrix (``store``), and runs on each.
- ``browser``: one headless chromium for the session (``browser.py``); every test opens pages
  in contexts of its own (``console_steps.new_page``), closed when it ends.

A test that stops, kills or reconfigures its server starts one of its own (``serving``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from browser import chromium
from server import Server, Servers
from stores import Store

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser

# How long ``expect`` waits for what a test looks for: the longest any page needs, a player's
# page that polls every 2 s and a page reconnecting to a server started again.
WAIT_MS = 25_000


@pytest.fixture(scope="session")
def servers(
    tmp_path_factory: pytest.TempPathFactory,
    _stores: dict[str, object],
    local_store: Store,
) -> Iterator[Servers]:
    # Set up after the stores, so torn down before them: each server stops before its database
    # is dropped.
    pool = Servers(tmp_path_factory.mktemp("servers"))
    yield pool
    pool.stop_all()


@pytest.fixture(scope="session")
def server(servers: Servers, local_store: Store) -> Server:
    """``tablebank serve`` on a SQLite file, shared by the session's browser tests."""
    return servers.get(local_store)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with chromium(WAIT_MS) as launched:
        yield launched
