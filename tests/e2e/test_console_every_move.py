"""Every move a game lists (``GET .../moves``) opens its form in the console, built from the
server's declaration (moves.js), quotes what it would record (the dry run) and records it, in
English, Russian and Polish, its preview and its toast in the reader's words (no English word,
no raw id, no Latin letter in Russian: issue 22): a classic game with the house rules that add
types (player loans, the Free Parking pot), and a Millionaire Elite game for its own types.

The test drives the types in an order where each is recordable (a void before the finish, the
disputes resolved first); a type with plain fields and no step of its own is driven with its
fields as the game lists them (tests/every_type.py, ``plain_steps``), and the test fails when
the server lists a type it does not drive, so a new type is tried here as soon as it is
declared. A trade is put together from its legs in a
dialog of its own (test_console_variants.py and the trade tests drive it).

Needs what tests/e2e/test_console.py needs (Playwright for Python, /usr/bin/chromium).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

import pytest
from console_steps import english_words, new_game, new_page, open_table, problems
from every_move import (
    CLASSIC,
    ELITE,
    GAME_NAMES,
    NAMES,
    OWN_DIALOG,
    Step,
    call,
    facts,
    fill,
    neutral,
    set_up_classic,
)
from every_type import plain_steps
from server import Server, serving

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

LOCALES = ["en-US", "ru-RU", "pl-PL"]


def drive(
    page: Page, server: Server, game: dict, steps: list[Step], locale: str, texts: dict[str, str]
) -> list[str]:
    """Each step through the console's form of its move; the types driven. Into ``texts``,
    each step's preview (the dry run's box) before it is recorded and the toast of the
    transaction recorded."""
    for kind, given in steps:
        fields = given(facts(server, game)) if callable(given) else given
        before = facts(server, game)["last_seq"]
        page.get_by_test_id("all-moves").click()
        page.get_by_test_id(f"move-{kind}").click()
        dialog = page.locator("dialog[open]")
        # Its fields are named in the page's language, none by its raw name.
        labels = dialog.locator("label, legend").all_inner_texts()
        assert not [label for label in labels if "_" in label], (kind, labels)
        if locale == "ru-RU":
            cyrillic = re.compile("[\u0400-\u04ff]")
            assert all(cyrillic.search(label) for label in labels if label.strip()), labels
        fill(page, dialog, fields)
        quote = dialog.get_by_test_id("move-quote")
        # What it would record now, as the server answers (money moved, or none), no refusal.
        expect(quote.locator(":scope > *").first).to_be_visible()
        expect(quote.locator(".problem")).to_have_count(0)
        texts[f"#{before + 1} {kind} preview"] = quote.inner_text()
        dialog.get_by_test_id("move-record").click()
        expect(page.locator("dialog[open]")).to_have_count(0)
        after = facts(server, game)
        assert after["last_seq"] == before + 1, kind
        assert after["seq_of"][kind] == before + 1, kind
        toast = page.locator("#toasts .toast-ok > span", has_text=f"#{before + 1} ")
        expect(toast).to_have_count(1)
        texts[f"#{before + 1} {kind} toast"] = toast.inner_text()
    return [kind for kind, _ in steps]


def in_the_readers_words(page: Page, server: Server, game: dict, texts: dict[str, str]) -> None:
    """Every preview and toast in the reader's words (issue 22): no English word in Russian
    or Polish (the English dictionary's texts and the basis keys), no raw id (a deed's slug,
    an IOU's id, a field's name), and no Latin letter at all in Russian."""
    locale = page.evaluate("navigator.language")
    words = english_words(page, locale[:2]) if locale != "en-US" else set()
    slugs = sorted(call(server, game, "")["properties"])
    found = {
        what: bad for what, text in texts.items() if (bad := problems(text, locale, words, slugs))
    }
    assert found == {}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_move_of_a_classic_game_opens_quotes_and_records(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    game = new_game(
        server,
        "classic",
        NAMES[locale],
        name=GAME_NAMES[locale],
        options={"player_loans": True, "free_parking_pot": True},
    )
    set_up_classic(server, game, reason="?")
    moves = call(server, game, "/moves")["moves"]
    listed = {move["type"] for move in moves}
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)
    texts: dict[str, str] = {}

    driven = drive(page, server, game, [*map(neutral, CLASSIC)], locale, texts)
    # A type with plain fields and no step above, its fields as the game lists them.
    plain = [
        (body.pop("type"), body)
        for body in plain_steps({*driven, "finish", *OWN_DIALOG}, moves)
        if body["type"] in listed
    ]
    driven += drive(page, server, game, plain, locale, texts)
    # The setup's dispute, still open, is kept too; then the finish.
    resolve = [("dispute_resolve", lambda g: {"dispute": g["open_disputes"][0], "note": "?"})]
    drive(page, server, game, [*resolve, ("finish", {})], locale, texts)

    assert listed == {*driven, "finish", *OWN_DIALOG}
    assert call(server, game, "")["status"] == "finished"
    assert len(texts) == 2 * (len(driven) + 2)  # a preview and a toast of each
    in_the_readers_words(page, server, game, texts)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_move_of_millionaire_elite_opens_quotes_and_records(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    game = new_game(server, "millionaire-elite", NAMES[locale][:2], name=GAME_NAMES[locale])
    plain = new_game(server, "classic", ["Ann", "Bob"])
    classic = {move["type"] for move in call(server, plain, "/moves")["moves"]}
    listed = {move["type"] for move in call(server, game, "/moves")["moves"]}
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)
    texts: dict[str, str] = {}

    driven = drive(page, server, game, ELITE, locale, texts)

    # Elite's own types, beside what a classic game has (less its taxes and jail cards) and
    # what Elite has without a house rule: the kitty, loans.
    assert listed - classic - {"pot_collect", "iou"} == set(driven)
    assert len(texts) == 2 * len(driven)
    in_the_readers_words(page, server, game, texts)


def test_a_toy_type_is_recorded_through_the_consoles_form(
    browser: Browser,
    local_store: Any,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A type of a house's own (tests/api/toys/donation.py: "donation: a player pays into the
    # pot"), loaded by the server alone: the console has no word of it, and records it.
    toys = Path(__file__).parents[1] / "api"
    monkeypatch.setenv("TABLEBANK_TRANSACTION_MODULES", "toys.donation")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(toys), os.environ.get("PYTHONPATH", "")]))
    with serving(local_store, tmp_path) as server:
        game = new_game(server, "classic", ["Ann", "Bob"])
        page = new_page(browser, request)
        open_table(page, server, game)

        drive(page, server, game, [("donation", {"player": "p2", "amount": 50})], "en-US", {})

        # Bob (1500 starting cash, docs/rules.md "Set-up and starting cash") gives 50 away.
        expect(page.get_by_test_id("cash-p2")).to_have_text("$1,450")
        state = call(server, game, "")
        assert (state["balances"]["p2"], state["balances"]["pot"]) == (1450, 50)
