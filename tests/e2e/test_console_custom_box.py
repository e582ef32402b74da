"""A game of the banker's own box (a ``ruleset_document``) opens in the console: the page asks
the game for its rule set (``GET /api/v1/games/{game}/ruleset``), since a custom box has no
public name. Before, both pages asked ``/api/v1/rulesets/<name>``, got 404 and showed nothing.
"""

from __future__ import annotations

import contextlib

import pytest
from console_steps import new_game, new_page, open_table
from server import Server

pytestmark = pytest.mark.e2e


with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, expect

BOX = {
    "name": "kitchen-table",
    "extends": "classic",
    "title": "Our kitchen-table box",
    "currency": "beans",
    "parameters": {"starting_cash": 900, "salary": 100},
    "deeds": [
        {
            "name": "Pantry Lane",
            "kind": "street",
            "group": "brown",
            "price": 60,
            "rents": [2, 10, 30, 90, 160, 250],
            "house_price": 50,
        },
        {
            "name": "Cellar Row",
            "kind": "street",
            "group": "brown",
            "price": 60,
            "rents": [4, 20, 60, 180, 320, 450],
            "house_price": 50,
        },
    ],
}


def test_banker_and_player_pages_open_a_game_of_a_custom_box(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "kitchen-table", ["Ann", "Bob"], ruleset_document=BOX)
    page = new_page(browser, request)

    open_table(page, server, game)
    # The box's own figures: starting cash 900 beans, salary 100.
    expect(page.get_by_test_id("cash-p1")).to_contain_text("900")
    expect(page.get_by_test_id("cash-p1")).to_contain_text("beans")
    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_contain_text("1,000")

    player = new_page(browser, request)
    player.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    expect(player.get_by_test_id("my-cash")).to_contain_text("900")
