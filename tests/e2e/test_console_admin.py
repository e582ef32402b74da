"""A game the server's admin closed (API.md v1.3, "Administration"): its history says who
recorded the finish, "the server's admin", in the banker's words."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from console_steps import goto, new_game, new_page, open_table, words
from server import Server, Servers
from stores import Store

pytestmark = pytest.mark.e2e

ADMIN_TOKEN = "club-admin-7f3c9a1e5b2d4086"

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, expect


@pytest.fixture(scope="module")
def server(
    servers: Servers, local_store: Store, tmp_path_factory: pytest.TempPathFactory
) -> Server:
    """The session's server with an admin token."""
    token_file: Path = tmp_path_factory.mktemp("admin") / "admin-token"
    token_file.write_text(ADMIN_TOKEN + "\n", "utf-8")
    token_file.chmod(0o600)
    return servers.get(local_store, "--admin-token-file", str(token_file))


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
def test_the_history_says_the_servers_admin_finished_the_game(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    path = f"/api/v1/games/{game['id']}/transactions"
    finished = server.call("POST", path, {"type": "finish"}, ADMIN_TOKEN)
    assert finished.status == 201, finished
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)

    goto(page, f"{server.base}/#/g/{game['id']}/history")
    row = page.locator(f"ol.txns details.txn[data-seq='{finished.body['seq']}']")
    row.locator("summary").click()

    expect(row.locator(".txn-details")).to_contain_text(
        f"{words(page, 'recorded_by')} {words(page, 'server_admin')}"
    )
