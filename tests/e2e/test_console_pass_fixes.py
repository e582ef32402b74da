"""What a family's pass found (issue 29), each seen in chromium:

- the Bankruptcy dialog offers as creditors exactly what the server's moves give the
  `bankruptcy` move's `creditor` field (the Bank and the players, docs/rules.md "Bankruptcy"),
  but the debtor himself: never the Free Parking pot, which the game collects (a timed game in
  English at 1280 px, every house rule on, the pot on), and the creditor chosen is recorded;
- a rename voided from the History says what the void does, the name going back ("Robert →
  Bob", from the `name` change of the server's dry run), in its preview, its toast and its
  row, in English, Russian and Polish; the player's card shows the old name again;
- a player's statement heads its last column "Balance" ("Баланс", "Saldo") like its other
  columns, not in the lowercase of the caption's "balance 1,700" ("Сумма баланс" read as one
  phrase on a Russian phone at 360 px).

Needs what tests/e2e/test_console.py needs (Playwright for Python, chromium).
"""

from __future__ import annotations

import contextlib

import pytest
from console_steps import (
    card,
    goto,
    logged,
    money,
    more,
    new_game,
    new_page,
    open_table,
    record,
    settled,
    words,
)
from every_move import NAMES
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, expect

LOCALES = ["en-US", "ru-RU", "pl-PL"]
# Bob's new name in each language, which the void takes back.
NEW_NAMES = {"en-US": "Robert", "ru-RU": "Борис Петрович", "pl-PL": "Bartłomiej"}
# Every house rule of the classic rule sets on, the Free Parking pot with them.
HOUSE_RULES = {
    "free_parking_pot": True,
    "player_loans": True,
    "no_rent_in_jail": True,
    "keep_bankrupt_players": True,
    "one_house_per_turn": True,
    "buy_after_first_lap": True,
}


def test_the_bankruptcy_dialog_offers_the_bank_and_the_players_never_the_pot(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "timed", ["Ann", "Bob", "Cy"], options=HOUSE_RULES)
    page = new_page(browser, request)
    page.set_viewport_size({"width": 1280, "height": 800})
    open_table(page, server, game)

    # docs/rules.md, "Bankruptcy": the creditor is the Bank or a player (not the debtor); the
    # pot, where payments go to it, is nobody's creditor.
    dialog = more(page, "p1", "Bankruptcy")
    creditor = dialog.locator("select[name=creditor]")
    expect(creditor.locator("option")).to_have_text(["Bob", "Cy", "Bank"])
    assert creditor.locator("option").evaluate_all("os => os.map((o) => o.value)") == [
        "p2",
        "p3",
        "bank",
    ]
    expect(dialog).not_to_contain_text("Free Parking pot")

    creditor.select_option("p3")
    settled(page)
    dialog.get_by_test_id("declare-bankruptcy").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    [bankruptcy] = logged(server, game, "bankruptcy")
    assert bankruptcy["request"]["debtor"] == "p1"
    assert bankruptcy["request"]["creditor"] == "p3"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_rename_voided_from_the_history_says_the_name_goes_back(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    ann, bob, cy = NAMES[locale][:3]
    new = NEW_NAMES[locale]
    game = new_game(server, "classic", [ann, bob, cy])
    renamed = record(server, game, {"type": "rename_player", "player": "p2", "name": new})["seq"]
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)
    expect(card(page, "p2").locator("h2")).to_have_text(new)
    goto(page, f"{server.base}/#/g/{game['id']}/history")

    row = page.locator(f"details.txn[data-seq='{renamed}']")
    row.locator("summary").click()
    row.get_by_role("button", name=words(page, "void_ellipsis")).click()
    dialog = page.locator("dialog[open]")
    # The dry run's change: the name goes from the new one back to the old.
    preview = dialog.get_by_test_id("void-quote")
    expect(preview.get_by_test_id("void-quote-names")).to_have_text(
        words(page, "quote_name_back", **{"from": new, "to": bob})
    )
    settled(page)
    dialog.get_by_test_id("move-record").click()
    expect(page.locator("dialog[open]")).to_have_count(0)

    void = renamed + 1
    toast = page.locator("#toasts .toast-ok > span", has_text=f"#{void} ")
    expect(toast).to_contain_text(f"#{renamed}")
    expect(toast).to_contain_text(f"{new} → {bob}")
    [voided] = logged(server, game, "void")
    assert voided["seq"] == void and voided["request"]["seq"] == renamed

    title = page.locator(f"ol.txns details.txn[data-seq='{void}'] .txn-title")
    expect(title).to_contain_text(f"{new} → {bob}")
    goto(page, f"{server.base}/#/g/{game['id']}")
    expect(card(page, "p2").locator("h2")).to_have_text(bob)


def test_the_history_of_a_game_without_a_pot_offers_no_pot_to_filter_by(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # A family's pass: the Polish History filter listed "Pula parkingu" in a short game without
    # the Free Parking house rule, where docs/rules.md says there is no pot at all.
    page = new_page(browser, request, locale="pl-PL")
    without = new_game(server, "classic", NAMES["pl-PL"])
    open_table(page, server, without)
    goto(page, f"{server.base}/#/g/{without['id']}/history")
    accounts = page.locator("select[name=account] option")
    expect(accounts).to_have_count(1 + len(NAMES["pl-PL"]) + 1)  # all, the players, the Bank
    expect(accounts.filter(has_text="Pula")).to_have_count(0)

    # With the house rule the pot is there to filter by, empty as it is.
    with_pot = new_game(server, "classic", NAMES["pl-PL"], options={"free_parking_pot": True})
    open_table(page, server, with_pot)
    goto(page, f"{server.base}/#/g/{with_pot['id']}/history")
    expect(page.locator("select[name=account] option").filter(has_text="Pula")).to_have_count(1)


# The statement's column heads as a reader sees them, each capitalised like its neighbours: a
# lowercase "баланс" after "Сумма" read as one phrase ("Сумма баланс") on a 360 px phone.
STATEMENT_HEADS = {
    "en-US": ["#", "What", "Amount", "Balance"],
    "ru-RU": ["#", "Что", "Сумма", "Баланс"],
    "pl-PL": ["#", "Co", "Kwota", "Saldo"],
}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_players_statement_heads_its_balance_column_as_a_column(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    game = new_game(server, "classic", NAMES[locale][:3])
    record(server, game, {"type": "salary", "player": "p1"})
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server.base}/play/{game['id']}#p=p1&token={game['tokens']['p1']}")
    statement = page.locator("table.statement")
    # docs/rules.md: 1500 at the start, then the salary of 200.
    expect(statement.locator("tbody tr").first).to_contain_text(money(page, 1700))
    expect(statement.locator("thead th")).to_have_text(STATEMENT_HEADS[locale])
