"""Every figure a dialog shows is the server's (issue: the console computes no rule), and the
context of a refused move is carried: in Debian's chromium headless against a real
`tablebank serve`.

- The rent preview of a deed whose owner is in jail, under the house rule `no_rent_in_jail`,
  is the server's refusal, not a figure the console worked out (it used to show the printed
  rent: its own rules.js did not know the house rule).
- A figure changed on its way from the server is the figure the console shows: nothing is
  recomputed in the page.
- A rent Bob cannot pay yet: from the shortfall, he mortgages two deeds and the rent is paid
  from the same screen, recorded once; the taps are counted.
- A bankruptcy opened from a shortfall comes filled in with the creditor and the debt.
- Only accounts that can be paid are offered as payees: no pot without the house rule, no
  bankrupt player.

Figures are those of docs/rules.md (classic board), quoted where they are used.
"""

# The console writes a true minus sign, the docstrings a multiplication sign (docs/rules.md).
# ruff: noqa: RUF001, RUF002

from __future__ import annotations

import contextlib
import json

import pytest
from console_steps import card, more, new_game, new_page, open_table, record
from server import Server

pytestmark = pytest.mark.e2e


with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, Route, expect


def transactions(server: Server, game: dict, kind: str) -> list[dict]:
    answer = server.call(
        "GET", f"/api/v1/games/{game['id']}/transactions?type={kind}", None, game["banker_token"]
    )
    assert answer.status == 200, answer
    return [t for t in answer.body["items"] if t["voided_by"] is None]


def taps(page: Page) -> list[int]:
    """A counter of the banker's taps (clicks) on the page from now on."""
    counter = [0]
    page.on(
        "console", lambda msg: counter.__setitem__(0, counter[0] + 1) if msg.text == "tap" else None
    )
    page.evaluate("() => document.addEventListener('click', () => console.log('tap'), true)")
    return counter


def test_rent_preview_follows_the_house_rule_no_rent_in_jail(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"], options={"no_rent_in_jail": True})
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    record(server, game, {"type": "go_to_jail", "player": "p1"})
    open_table(page, server, game)

    # docs/rules.md#house-rule-options: with no_rent_in_jail, an owner in jail collects no rent.
    card(page, "p2").get_by_role("button", name="Rent").click()
    page.locator("dialog .tile[data-deed=boardwalk]").click()
    quote = page.get_by_test_id("rent-quote")
    expect(quote.locator(".problem-title")).to_have_text("The owner is in jail")
    expect(page.get_by_test_id("rent-amount")).to_have_count(0)
    expect(page.get_by_test_id("record-rent")).to_have_text("Record rent")


def test_the_figures_shown_are_the_servers_answer(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})

    def altered(route: Route) -> None:
        # The server's answer with its amounts changed: the page must show these.
        response = route.fetch()
        body = response.json()
        for posting in body.get("postings", []):
            posting["amount"] = 777
        if "rent" in body.get("basis", {}):
            body["basis"]["rent"] = 777
        route.fulfill(response=response, body=json.dumps(body))

    page.route("**/transactions?dry_run=true", altered)
    open_table(page, server, game)
    # GO's salary is 200 (docs/rules.md#go); the page shows what the server said it would be.
    expect(page.get_by_test_id("salary-p1")).to_have_text("GO +$777")
    card(page, "p2").get_by_role("button", name="Rent").click()
    page.locator("dialog .tile[data-deed=boardwalk]").click()
    expect(page.get_by_test_id("rent-amount")).to_have_text("Rent: $777")
    expect(page.get_by_test_id("record-rent")).to_have_text("Record rent $777")


def shortfall_game(server: Server, *, bob_keeps_deeds: bool) -> dict:
    """Ann holds the dark blues with 2 houses each; Bob is about to land on Boardwalk.

    docs/rules.md#rent: Boardwalk with 2 houses charges 600. Ann: 1500 + 200 (GO) - 400 - 350
    (the two deeds) - 4 × 200 (the houses) = 150. Bob: 1500 - 200 - 200 (two railroads) - 700
    = 400, short by 200; each railroad mortgages for 100 (docs/rules.md#mortgages).
    """
    game = new_game(server, "classic", ["Ann", "Bob"])
    for body in (
        {"type": "salary", "player": "p1"},
        {"type": "buy", "player": "p1", "property": "boardwalk"},
        {"type": "buy", "player": "p1", "property": "park-place"},
        {
            "type": "build",
            "orders": [
                {"property": "boardwalk", "houses": 1},
                {"property": "park-place", "houses": 1},
            ],
        },
        {
            "type": "build",
            "orders": [
                {"property": "boardwalk", "houses": 1},
                {"property": "park-place", "houses": 1},
            ],
        },
    ):
        record(server, game, body)
    if bob_keeps_deeds:
        record(server, game, {"type": "buy", "player": "p2", "property": "reading-railroad"})
        record(server, game, {"type": "buy", "player": "p2", "property": "pennsylvania-railroad"})
        record(server, game, {"type": "payment", "from": "p2", "to": "bank", "amount": 700})
    else:
        record(server, game, {"type": "payment", "from": "p2", "to": "bank", "amount": 1100})
    return game


def test_mortgaging_from_the_shortfall_then_the_rent_is_paid_from_the_same_screen(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = shortfall_game(server, bob_keeps_deeds=True)
    open_table(page, server, game)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$150")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$400")
    counted = taps(page)

    card(page, "p2").get_by_role("button", name="Rent").click()
    page.locator("dialog .tile[data-deed=boardwalk]").click()
    # Before any confirmation, the server's answer: 600 due, 200 short.
    quote = page.get_by_test_id("rent-quote")
    expect(quote.get_by_test_id("shortfall")).to_have_text("Bob is short by $200.")
    quote.get_by_test_id("raise-mortgage").click()

    # The mortgage dialog over the rent, with the rent as the server would record it now.
    raising = page.locator("dialog[open]").last
    pending = raising.get_by_test_id("pending-quote")
    expect(pending.get_by_test_id("shortfall")).to_have_text("Bob is short by $200.")
    expect(raising.get_by_test_id("pending-record")).to_be_disabled()
    raising.locator("li[data-deed=reading-railroad]").get_by_role(
        "button", name="Mortgage +$100"
    ).click()
    # The dialog stays, drawn again: Reading Railroad is mortgaged, the rent 100 short now.
    expect(raising.locator("li[data-deed=reading-railroad]")).to_contain_text("Lift −$110")
    expect(pending.get_by_test_id("shortfall")).to_have_text("Bob is short by $100.")
    raising.locator("li[data-deed=pennsylvania-railroad]").get_by_role(
        "button", name="Mortgage +$100"
    ).click()
    expect(pending.get_by_test_id("pending-quote-moves")).to_have_text("Bob → Ann: $600")
    raising.get_by_test_id("pending-record").click()

    # Paid: 600 from Bob's 600 to Ann's 150; both dialogs closed; one rent in the log.
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.get_by_test_id("cash-p2")).to_have_text("$0")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$750")
    rents = transactions(server, game, "rent")
    assert [(r["request"]["payer"], r["postings"]) for r in rents] == [
        ("p2", [{"from": "p2", "to": "p1", "amount": 600}])
    ]
    # Rent, the deed, Mortgage, two mortgages, the rent: 6 taps (about 11 before: the rent
    # dialog closed on the shortfall, and each mortgage closed its dialog).
    assert counted[0] == 6


def test_a_bankruptcy_opened_from_a_shortfall_is_filled_in(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = shortfall_game(server, bob_keeps_deeds=False)
    open_table(page, server, game)
    expect(page.get_by_test_id("cash-p2")).to_have_text("$400")

    card(page, "p2").get_by_role("button", name="Rent").click()
    page.locator("dialog .tile[data-deed=boardwalk]").click()
    page.get_by_test_id("rent-quote").get_by_test_id("raise-bankruptcy").click()
    dialog = page.locator("dialog[open]").last
    # The creditor is Ann, whom the rent was owed; the debt is the 600 rent.
    expect(dialog.locator("select[name=creditor]")).to_have_value("p1")
    expect(dialog.locator("input[name=owed]")).to_have_value("600")
    # docs/rules.md#bankruptcy: a debtor who owes a player hands over his 400 in cash.
    expect(dialog.get_by_test_id("bankruptcy-quote-moves")).to_have_text("Bob → Ann: $400")
    dialog.get_by_test_id("declare-bankruptcy").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(card(page, "p2").locator(".badges")).to_contain_text("bankrupt")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$550")


def test_only_accounts_that_can_be_paid_are_offered_as_payees(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"])
    record(server, game, {"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 5000})
    open_table(page, server, game)
    dialog = more(page, "p1", "Payment")
    # No Free Parking pot without its house rule; Cy is bankrupt.
    expect(dialog.locator("select[name=to] option")).to_have_text(["Ann", "Bob", "Bank"])

    pot_game = new_game(server, "classic", ["Ann", "Bob"], options={"free_parking_pot": True})
    open_table(page, server, pot_game)
    dialog = more(page, "p1", "Payment")
    expect(dialog.locator("select[name=to] option")).to_have_text(
        ["Ann", "Bob", "Bank", "Free Parking pot"]
    )
    # A player's own page offers the same, without the player himself.
    page.goto(f"{server.base}/play/{game['id']}#p=p1&token={game['tokens']['p1']}")
    expect(page.locator("select[name=to] option")).to_have_text(["Bob", "Bank"])
