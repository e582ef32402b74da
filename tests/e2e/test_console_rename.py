"""A player renamed from the row of the banker's table (API.md v1.3, "Players and boxes";
issue 29, item 21), on a 360 px phone in English, Russian and Polish: "Rename" on the player's
card opens a dialog with the new name, what it would record (the server's dry run: the old
name and the new), and a name the server refuses (too like another player's, the player's own,
too long) said in the players' words, recording nothing; once renamed, the card, the toast and
the history say the new name, the history's row the old one with it.

Needs what tests/e2e/test_console.py needs (Playwright for Python, /usr/bin/chromium).
"""

# The players' names are Cyrillic, which RUF001 would take for look-alikes of Latin letters.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib

import pytest
from console_steps import card, goto, new_game, new_page, open_table, words
from every_move import NAMES
from layout import OFFENDERS, TAP
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

LOCALES = ["en-US", "ru-RU", "pl-PL"]
# Bob's new name in each language.
NEW_NAMES = {"en-US": "Robert", "ru-RU": "Борис Петрович", "pl-PL": "Bartłomiej"}


def last_seq(server: Server, game: dict) -> int:
    answer = server.call("GET", f"/api/v1/games/{game['id']}", None, game["banker_token"])
    assert answer.status == 200, answer
    return int(answer.body["last_seq"])


def open_rename(page: Page, player: str) -> None:
    button = card(page, player).get_by_test_id(f"rename-{player}")
    box = button.bounding_box()
    assert box is not None and box["width"] >= TAP and box["height"] >= TAP, box
    button.click()
    expect(page.locator("dialog[open] input[name=name]")).to_be_visible()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_player_is_renamed_from_the_row_and_the_table_and_history_say_it(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    ann, bob, cy = NAMES[locale][:3]
    new = NEW_NAMES[locale]
    game = new_game(server, "classic", [ann, bob, cy])
    page = new_page(browser, request, locale=locale)  # 360 px wide
    open_table(page, server, game)
    assert page.evaluate("document.documentElement.clientWidth") == 360
    # The table with its Rename buttons fits the phone: nothing clipped, cut off or overlapping.
    assert page.evaluate(OFFENDERS, TAP) == []

    open_rename(page, "p2")
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("h2")).to_have_text(words(page, "rename_title", name=bob))
    dialog.locator("input[name=name]").fill(new)
    expect(dialog.get_by_test_id("rename-preview")).to_have_text(
        words(page, "rename_preview", old=bob, new=new)
    )
    assert page.evaluate(OFFENDERS, TAP) == []
    dialog.get_by_test_id("rename-record").click()

    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(card(page, "p2").locator("h2")).to_have_text(new)
    expect(card(page, "p1").locator("h2")).to_have_text(ann)
    toast = page.locator("#toasts .toast-ok > span", has_text="#4 ")
    expect(toast).to_contain_text(f"{bob} → {new}")
    assert last_seq(server, game) == 4

    goto(page, f"{server.base}/#/g/{game['id']}/history")
    row = page.locator("ol.txns details.txn[data-seq='4'] .txn-title")
    expect(row).to_have_text(f"#4 {words(page, 'ty_rename_player')} · {bob} → {new}")
    # Every row names the player by the name the table knows now: a starting cash of #2 too.
    page.locator("ol.txns details.txn[data-seq='2'] summary").click()
    expect(page.locator("ol.txns details.txn[data-seq='2'] .postings")).to_contain_text(new)


# A name the server refuses, in each language: another player's name in other case, one that
# looks like it (a Latin letter for a Cyrillic one, a Cyrillic one for a Latin one), the
# player's own, and one too long; what each says, with the name it is too like.
REFUSED = {
    "en-US": [("ann", "taken", "Ann"), ("C\u0443", "taken", "Cy"), ("Bob", "same", "Bob")],
    "ru-RU": [("аня", "taken", "Аня"), ("Bepa", "taken", "Вера"), ("Борис", "same", "Борис")],
    "pl-PL": [
        ("ANIA", "taken", "Ania"),
        ("\u0421\u0435lina", "taken", "Celina"),
        ("Bartek", "same", "Bartek"),
    ],
}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_name_the_server_refuses_is_said_in_the_players_words_and_nothing_recorded(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    game = new_game(server, "classic", NAMES[locale][:3])
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)
    open_rename(page, "p2")
    dialog = page.locator("dialog[open]")
    name = dialog.locator("input[name=name]")

    for typed, why, other in REFUSED[locale]:
        name.fill(typed)
        said = words(page, f"rename_{why}", name=other)
        expect(dialog.get_by_test_id("rename-refusal")).to_have_text(said)
        expect(name).to_have_attribute("aria-invalid", "true")
        dialog.get_by_test_id("rename-record").click()
        expect(dialog.get_by_test_id("rename-refusal")).to_have_text(said)
        expect(dialog.locator(".problem")).to_have_count(1)  # said once, not again by the tap

    # Too long: 41 characters, pasted whole (never cut short), refused by the server.
    name.fill("B" * 41)
    assert name.input_value() == "B" * 41
    expect(dialog.get_by_test_id("rename-refusal")).to_have_text(words(page, "rename_bad", max=40))

    assert last_seq(server, game) == 3
    page.keyboard.press("Escape")
    expect(card(page, "p2").locator("h2")).to_have_text(NAMES[locale][1])
