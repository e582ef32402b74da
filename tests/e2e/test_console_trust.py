"""A console a family can trust at the table (issue 11, items 6 and 8; issue 12, item 7).

In Debian's chromium against a real `tablebank serve`:

- the countdown of a game to a clock is the server's `ends_at` (docs/api.md, the game view;
  docs/rules.md, "Timed game"), the same on the banker's table and a player's phone, and a game
  without one shows none;
- turn tracking is a mode the banker switches on, read from the game's `turn` (docs/rules.md,
  "Claim window": once a `turn` is recorded, rent is charged only to the player whose turn it
  is), so that every banker device shows the same;
- the browser's back closes a dialog and leaves the page as it was, and a dialog closed by its
  own button leaves no back press that does nothing;
- only the latest move's toast offers Undo;
- a name longer than the server's 40 characters (docs/api.md) is refused with a message, never
  cut;
- a player's page takes its token out of the address bar and still opens on a reload, and the
  link from the QR code still opens it.
"""

# The console's texts: typographic apostrophes, and Cyrillic where the page is in Russian.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib
import re
import time

import pytest
from console_steps import card, new_game, new_page, open_table, record, settled
from server import Server

pytestmark = pytest.mark.e2e


with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Route, expect


def game_view(server: Server, game: dict) -> dict:
    answer = server.call("GET", f"/api/v1/games/{game['id']}", None, game["banker_token"])
    assert answer.status == 200, answer
    return answer.body


def player_link(server: Server, game: dict, player: str) -> str:
    return f"{server.base}/play/{game['id']}#p={player}&token={game['tokens'][player]}"


# -- the countdown -------------------------------------------------------------------------


def test_countdown_is_the_servers_end_on_the_banker_and_the_player_page(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"], options={"minutes": 30})
    ends_at = game_view(server, game)["ends_at"]
    banker = new_page(browser, request)
    open_table(banker, server, game)
    player = new_page(browser, request)
    player.goto(player_link(server, game, "p2"))
    expect(player.get_by_test_id("my-cash")).to_be_visible()

    # Created moments ago with 30 minutes: 30 minutes left (rounded up), on both phones, counted
    # to the end the server gives.
    for page in (banker, player):
        countdown = page.get_by_test_id("countdown")
        expect(countdown).to_contain_text("30 min left")
        expect(countdown).to_have_attribute("data-ends-at", ends_at)
    # The end time is the server's: no time for the banker to type on one device.
    expect(banker.locator("input[type=time]")).to_have_count(0)
    expect(banker.get_by_label("Agreed end time")).to_have_count(0)


def test_countdown_counts_down_by_itself_and_says_when_time_is_up(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "timed", ["Ann", "Bob"], options={"minutes": 20})
    page = new_page(browser, request)
    page.clock.install()  # this page's clock, moved on below; the server's end stays put
    page.goto(player_link(server, game, "p1"))
    countdown = page.get_by_test_id("countdown")
    expect(countdown).to_contain_text("20 min left")

    page.clock.run_for("05:10")  # no reload, no transaction: the countdown counts on its own
    expect(countdown).to_contain_text("15 min left")
    page.clock.run_for("15:00")
    expect(countdown).to_contain_text("Time is up")


def test_a_game_without_minutes_shows_no_countdown(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # A short game: deeds dealt as in the timed game, but no clock (no option `minutes`).
    game = new_game(server, "short", ["Ann", "Bob"])
    assert "ends_at" not in game_view(server, game)
    banker = new_page(browser, request)
    open_table(banker, server, game)
    player = new_page(browser, request)
    player.goto(player_link(server, game, "p1"))
    expect(player.get_by_test_id("my-cash")).to_be_visible()
    for page in (banker, player):
        expect(page.get_by_test_id("countdown")).to_have_count(0)
        expect(page.locator("main")).not_to_contain_text("min left")
    expect(banker.locator("input[type=time]")).to_have_count(0)


# -- turn tracking -------------------------------------------------------------------------


def test_turn_tracking_is_a_mode_the_banker_switches_on_and_every_device_shows(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"])
    page = new_page(browser, request)
    open_table(page, server, game)

    turns = page.get_by_test_id("turns")
    expect(turns.get_by_test_id("turn-mode")).to_have_text("off")
    expect(turns).to_contain_text("rent can be charged to any player at any time")
    # No more a one-tap "Turn: Ann" among a player's moves, where it looked like information.
    card(page, "p1").locator(".quick.more").click()
    expect(page.locator("dialog[open]")).not_to_contain_text("Turn")
    page.keyboard.press("Escape")

    turns.get_by_test_id("turns-on").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("rent can be charged only to the player whose turn it is")
    expect(dialog).to_contain_text("no way to switch it off again")
    dialog.get_by_role("button", name="Ann starts").click()
    expect(dialog).to_have_count(0)
    expect(turns.get_by_test_id("turn-mode")).to_have_text("on")
    expect(turns.get_by_test_id("turn-now")).to_have_text("Now: Ann’s turn")
    assert game_view(server, game)["turn"] == "p1"
    # Nothing but words between the turn and its button: no "null" written out (issue 22).
    assert "null" not in turns.inner_text()

    # Another banker device reads the same mode from the game.
    other = new_page(browser, request)
    open_table(other, server, game)
    expect(other.get_by_test_id("turn-mode")).to_have_text("on")
    expect(other.get_by_test_id("turn-now")).to_have_text("Now: Ann’s turn")

    page.get_by_test_id("next-turn").click()
    expect(turns.get_by_test_id("turn-now")).to_have_text("Now: Bob’s turn")
    assert game_view(server, game)["turn"] == "p2"
    expect(other.get_by_test_id("turn-now")).to_have_text("Now: Bob’s turn")  # live
    expect(page.get_by_test_id("next-turn")).to_have_text("Next turn: Cy")

    # Someone else than the next player in seat order: one tap further.
    turns.locator("summary", has_text="Another player’s turn…").click()
    turns.get_by_role("button", name="Ann’s turn").click()
    expect(turns.get_by_test_id("turn-now")).to_have_text("Now: Ann’s turn")
    assert game_view(server, game)["turn"] == "p1"


def test_turn_tracking_stays_on_when_the_player_whose_turn_it_was_goes_bankrupt(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"])
    record(server, game, {"type": "turn", "player": "p1"})
    # Ann owes the Bank more than she could ever raise (1500 in cash, nothing else).
    record(server, game, {"type": "bankruptcy", "debtor": "p1", "creditor": "bank", "owed": 5000})
    assert game_view(server, game)["turn"] is None  # the server clears her turn
    page = new_page(browser, request)
    open_table(page, server, game)

    turns = page.get_by_test_id("turns")
    expect(turns.get_by_test_id("turn-mode")).to_have_text("on")
    expect(turns.get_by_test_id("turn-now")).to_have_text("Nobody’s turn")
    expect(turns).to_contain_text("went bankrupt: choose who plays next")
    turns.get_by_role("button", name="Bob’s turn").click()
    expect(turns.get_by_test_id("turn-now")).to_have_text("Now: Bob’s turn")
    assert game_view(server, game)["turn"] == "p2"


# -- back closes a dialog ------------------------------------------------------------------


def test_back_closes_the_dialog_and_a_closed_dialog_leaves_no_dead_back(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    open_table(page, server, game)
    table_url = page.url
    page.get_by_role("link", name="History", exact=True).click()
    expect(page).to_have_url(re.compile(r"/history$"))
    page.get_by_role("link", name="Table", exact=True).click()
    expect(page).to_have_url(table_url)
    dialog = page.locator("dialog[open]")

    # Back with a dialog open: the dialog goes, the table stays as it was.
    card(page, "p1").get_by_role("button", name="Pay").click()
    page.locator("dialog input[name=amount]").fill("50")
    expect(dialog).to_have_count(1)
    page.go_back()
    expect(dialog).to_have_count(0)
    expect(page).to_have_url(table_url)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")

    # Closed by its own button, by Escape, or a sheet that opens a move in its place: the next
    # back goes where it went before the dialog, to History.
    card(page, "p1").get_by_role("button", name="Pay").click()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)
    card(page, "p2").get_by_role("button", name="Rent").click()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    card(page, "p1").locator(".quick.more").click()
    dialog.locator(".sheet-btn", has_text="Payment").click()
    expect(dialog.locator("h2").first).to_have_text("Payment")
    page.go_back()  # the move opened from the sheet: back closes it, not a sheet behind
    expect(dialog).to_have_count(0)
    expect(page).to_have_url(table_url)
    page.go_back()
    expect(page).to_have_url(re.compile(r"/history$"))
    expect(page.locator("main details.txn").first).to_be_visible()  # History's list


def test_a_screen_whose_fetch_answers_late_draws_nothing_over_the_next(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # History's log is held back until the banker has gone on to the table: the late answer
    # must not draw History over the table (it did, on a loaded machine).
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    open_table(page, server, game)
    log = re.compile(r"/api/v1/games/[^/?]+/transactions(\?.*)?$")
    held: list[Route] = []
    page.route(
        log,  # History's GET of the log is held; the table's own reads and dry runs go on
        lambda route: (
            held.append(route) if route.request.method == "GET" and not held else route.continue_()
        ),
    )
    page.get_by_role("link", name="History", exact=True).click()
    expect(page).to_have_url(re.compile(r"/history$"))
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "History never asked for the log"
        page.wait_for_timeout(20)
    page.get_by_role("link", name="Table", exact=True).click()
    expect(card(page, "p1").get_by_role("button", name="Pay")).to_be_visible()
    with page.expect_response(lambda answer: answer.request == held[0].request):
        held[0].continue_()  # History's answer comes now, late
    page.unroute(log)
    # A stale History went on to fetch a statement and drew then, well within a second.
    page.wait_for_timeout(1000)
    settled(page)
    expect(card(page, "p1").get_by_role("button", name="Pay")).to_be_visible()
    expect(page.locator("main ol.txns")).to_have_count(0)  # History's list never drawn


# -- undo on the latest toast only ----------------------------------------------------------


def test_only_the_latest_moves_toast_offers_undo(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    open_table(page, server, game)
    toasts = page.locator(".toast")

    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    expect(toasts.last.get_by_role("button", name="Undo")).to_be_visible()
    page.get_by_test_id("salary-p2").click()
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,700")

    expect(toasts).to_have_count(2)
    expect(toasts.first.get_by_role("button", name="Undo")).to_have_count(0)
    expect(toasts.last.get_by_role("button", name="Undo")).to_be_visible()
    toasts.last.get_by_role("button", name="Undo").click()
    # The latest move undone (Bob's salary), the earlier one kept: 1,500 + 200 for Ann.
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,500")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")


# -- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "message"),
    [
        ("en-US", "Too long: at most 40 characters, and this one has 60. Shorten it."),
        ("ru-RU", "Слишком длинно: не больше 40 символов, а здесь 60. Сократите."),
        ("pl-PL", "Za długa nazwa: najwyżej 40 znaków, a ta ma 60. Skróć ją."),
    ],
)
def test_a_name_longer_than_40_characters_is_refused_with_a_message_never_cut(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str, message: str
) -> None:
    page = new_page(browser, request, locale=locale)
    page.goto(server.base + "/#/new")
    long = ("Anna-Maria Wiśniewska " * 3)[:60]
    assert len(long) == 60 and long == long.strip()
    game_name = page.locator("input[name=name]")
    seats = page.locator(".player-inputs input")
    game_name.fill(long)
    seats.nth(0).fill(long)  # as typed or pasted: the whole text stays in the field
    seats.nth(1).fill("Bob")
    seats.nth(2).fill("")

    expect(game_name).to_have_value(long)
    expect(seats.nth(0)).to_have_value(long)
    notes = page.get_by_test_id("name-too-long")
    expect(notes).to_have_count(2)
    expect(notes.first).to_have_text(message)
    expect(game_name).to_have_attribute("aria-invalid", "true")
    expect(seats.nth(0)).to_have_attribute("aria-invalid", "true")

    posted: list[str] = []
    page.on("request", lambda req: posted.append(req.url) if req.method == "POST" else None)
    page.get_by_test_id("create-game").click()
    expect(page.locator("form .problem[role=alert]")).to_be_visible()
    assert posted == []  # refused here, nothing sent
    expect(page).to_have_url(re.compile(r"#/new$"))

    # Shortened: the messages go and the game is created with the names as typed.
    game_name.fill(long[:40])
    seats.nth(0).fill(long[:40])
    expect(notes).to_have_count(0)
    page.get_by_test_id("create-game").click()
    expect(page).to_have_url(re.compile(r"#/g/[0-9a-f-]{36}/players$"))
    assert page.locator(".link-card h2").first.inner_text() == long[:40]


# -- the player's token leaves the address bar ---------------------------------------------


def test_player_page_takes_its_token_out_of_the_address_bar_and_still_opens(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    token = game["tokens"]["p2"]
    link = player_link(server, game, "p2")
    page = new_page(browser, request)
    page.goto(link)
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,500")
    expect(page.locator("#me-h")).to_have_text("Bob")
    assert token not in page.url and "#" not in page.url
    assert page.url == f"{server.base}/play/{game['id']}"

    page.reload()  # the address without the token: the page keeps it
    expect(page.locator("#me-h")).to_have_text("Bob")
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,500")
    record(server, game, {"type": "salary", "player": "p2"})
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,700")  # and follows the game

    # The QR code's link again, on a phone that never opened it, and in this same tab.
    fresh = new_page(browser, request)
    fresh.goto(link)
    expect(fresh.locator("#me-h")).to_have_text("Bob")
    expect(fresh.get_by_test_id("my-cash")).to_have_text("$1,700")
    assert token not in fresh.url
    ann = player_link(server, game, "p1")
    page.goto(ann)  # only the fragment differs from the page open: the page starts again
    expect(page.locator("#me-h")).to_have_text("Ann")
    assert game["tokens"]["p1"] not in page.url
