"""Every word in the reader's language (issue 22): the history of games that record every
transaction type (tests/every_type.py, recorded through the API), each row opened to its
money, changes and basis, in English, Russian and Polish (the previews and toasts of every move
recorded in the console are read as test_console_every_move.py drives them). No English word
(the English dictionary's texts and the basis keys), no raw id (a deed's slug, an IOU's id, a
field's name) in Russian or Polish, and no Latin letter at all in Russian (the players have
Russian names, the deeds the rule set's Russian names). The plural forms, the currency word and
the dates of the console's language, whatever the browser's.

Needs what tests/e2e/test_console.py needs (Playwright for Python, /usr/bin/chromium).
"""

# The players' names and the expected texts are Cyrillic, which RUF001 would take for
# look-alikes of Latin letters.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from console_steps import (
    english_words,
    goto,
    hold,
    more,
    new_page,
    open_table,
    problems,
    record,
    words,
)
from every_move import GAME_NAMES, NAMES
from every_type import (
    CLASSIC,
    CLASSIC_OPTIONS,
    ELITE,
    Step,
    play,
)
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

# The history's rows, each opened, as the reader sees them (the hashes left out: hex digits).
ROWS = """() => [...document.querySelectorAll('ol.txns details.txn')].map((row) => {
  const hash = row.querySelector('.hash');
  return [row.dataset.seq, row.innerText.replace(hash ? hash.innerText : '', '')];
})"""


def new_game(server: Server, ruleset: str, players: list[str], **options: Any) -> dict:
    """A game named in its players' language."""
    name = next(GAME_NAMES[locale] for locale, names in NAMES.items() if names[0] == players[0])
    answer = server.call(
        "POST",
        "/api/v1/games",
        {"name": name, "ruleset": ruleset, "players": players, "options": options},
    )
    assert answer.status == 201, answer
    return answer.body


def played(
    server: Server, ruleset: str, players: list[str], steps: list[Step], **options: Any
) -> dict:
    game = new_game(server, ruleset, players, **options)

    def state() -> dict[str, Any]:
        answer = server.call("GET", f"/api/v1/games/{game['id']}", None, game["banker_token"])
        assert answer.status == 200, answer
        return answer.body  # type: ignore[no-any-return]

    play(steps, lambda body: record(server, game, body), state)
    game["deeds"] = sorted(state()["properties"])
    return game


def history_rows(page: Page, server: Server, game: dict) -> dict[str, str]:
    open_table(page, server, game)
    goto(page, f"{server.base}/#/g/{game['id']}/history")
    rows = page.locator("ol.txns details.txn")
    expect(rows.first).to_be_visible()
    # Every row opened at once (its toggle fills it, as a tap on its summary does).
    page.evaluate(
        "() => { for (const d of document.querySelectorAll('ol.txns details.txn')) d.open = true; }"
    )
    expect(page.locator("ol.txns details.txn[open] .txn-details")).to_have_count(rows.count())
    return dict(page.evaluate(ROWS))


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
def test_every_history_row_of_every_type_is_in_the_readers_words(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    names = NAMES[locale]
    classic = played(server, "classic", names, CLASSIC, **CLASSIC_OPTIONS)
    elite = played(server, "millionaire-elite", names[:3], ELITE)
    page = new_page(browser, request, locale=locale)
    goto(page, server.base + "/")
    words = english_words(page, locale[:2]) if locale != "en-US" else set()
    assert locale == "en-US" or {"Record the payment", "whole group"} <= words  # the dictionary's

    found: dict[str, list[str]] = {}
    for game in (classic, elite):
        rows = history_rows(page, server, game)
        assert len(rows) > 30
        for seq, text in rows.items():
            if bad := problems(text, locale, words, game["deeds"]):
                found[f"{game['ruleset']} #{seq}"] = bad
    assert found == {}

    # Millionaire Elite's plots by branch and number, its round income by its button's word,
    # its currency counted in the reader's language (docs/rules.md: 2000 each at the start).
    income = {"en-US": "Income", "ru-RU": "Доход", "pl-PL": "Dochód"}[locale]
    plot = {
        "en-US": "Branch 1, plot 1",
        "ru-RU": "Отрасль 1, участок 1",
        "pl-PL": "Branża 1, działka 1",
    }
    start = {
        "en-US": "2,000\u00a0фанты",
        "ru-RU": "2\u00a0000\u00a0фантов",
        "pl-PL": "2000\u00a0fantów",
    }
    text = "\n".join(rows.values())
    assert plot[locale] in text
    assert re.search(rf"#\d+ {income}\b", text)
    assert start[locale] in text


PLURALS = """async ([lang, key, counts]) => {
  const i18n = await import('/console/static/js/i18n.js');
  i18n.setLang(lang);
  return counts.map((n) => i18n.plural(n, key));
}"""

MONEY = """async ([lang, amounts]) => {
  const i18n = await import('/console/static/js/i18n.js');
  i18n.setLang(lang);
  return amounts.map((n) => i18n.money(n, 'фанты'));
}"""


def test_plurals_follow_the_languages_rules(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    goto(page, server.base + "/")
    # CLDR's examples: Russian one 1, 21; few 2, 22; many 5, 25, 111 (11 to 14 are many).
    ru = page.evaluate(PLURALS, ["ru", "cnt_shares", [1, 2, 5, 21, 22, 25, 111, 12]])
    assert ru == [
        "1 акция", "2 акции", "5 акций", "21 акция", "22 акции", "25 акций", "111 акций",
        "12 акций",
    ]  # fmt: skip
    # Polish one 1 only; few 2-4 and 22-24 but 12-14; many the rest.
    pl = page.evaluate(PLURALS, ["pl", "cnt_shares", [1, 2, 5, 12, 22]])
    assert pl == ["1 akcja", "2 akcje", "5 akcji", "12 akcji", "22 akcje"]
    en = page.evaluate(PLURALS, ["en", "cnt_shares", [1, 2, 21]])
    assert en == ["1 share", "2 shares", "21 shares"]
    # The box's currency word after a figure, in the language's form and its own grouping.
    nb = "\u00a0"
    assert page.evaluate(MONEY, ["ru", [1, 3, 2050, 21]]) == [
        f"1{nb}фант", f"3{nb}фанта", f"2{nb}050{nb}фантов", f"21{nb}фант",
    ]  # fmt: skip
    assert page.evaluate(MONEY, ["pl", [1, 2, 5, 2050]]) == [
        f"1{nb}fant", f"2{nb}fanty", f"5{nb}fantów", f"2050{nb}fantów",
    ]  # fmt: skip


def test_a_russian_console_in_an_english_browser_names_a_new_game_by_a_russian_date(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, locale="en-US")
    goto(page, server.base + "/")
    page.evaluate("localStorage.setItem('tablebank.lang', 'ru')")
    goto(page, server.base + "/#/new")
    page.reload()
    name = page.locator("input[name=name]")
    expect(name).to_be_visible()
    # ru-RU writes a date day.month.year, two digits each but the year's four (en-US would
    # write 12/2/2026).
    day, month, year = page.evaluate(
        "(() => { const d = new Date(); return [d.getDate(), d.getMonth() + 1, d.getFullYear()] })"
        "()"
    )
    expect(name).to_have_value(f"Игра {day:02d}.{month:02d}.{year}")


def test_the_start_screen_dates_its_games_in_the_console_s_language(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # A Polish console in an English browser: the game kept on this device is dated as
    # pl-PL writes a day (3.12.2026), neither en-US's 12/3/2026 nor the raw 2026-12-03.
    page = new_page(browser, request, locale="en-US")
    game = new_game(server, "classic", ["Ania", "Bartek"])
    hold(page, server, game)
    page.evaluate(
        "created => { const g = JSON.parse(localStorage.getItem('tablebank.games'));"
        " for (const k in g) g[k].created = created;"
        " localStorage.setItem('tablebank.games', JSON.stringify(g));"
        " localStorage.setItem('tablebank.lang', 'pl'); }",
        "2026-12-03T18:30:00+00:00",
    )
    page.reload()
    row = page.locator(f"li[data-game='{game['id']}']")
    expect(row).to_contain_text("3.12.2026")
    expect(row).not_to_contain_text("2026-12-03")


# A screen as the reader sees it: its text, and the names given to what has no text.
SHOWN = """() => {
  const main = document.querySelector('main');
  const labels = [...main.querySelectorAll('[aria-label], [title]')]
    .map((el) => el.getAttribute('aria-label') || el.getAttribute('title'));
  return [main.innerText, ...labels].join('\\n');
}"""


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
def test_the_table_replay_and_players_page_of_a_game_under_way_are_in_the_readers_words(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    # The games of the history's test, stopped before their bankruptcies and the finish:
    # deeds held, built on and mortgaged, IOUs, jail cards, shares and policies.
    names = NAMES[locale]
    classic = played(server, "classic", names, CLASSIC[:-3], **CLASSIC_OPTIONS)
    elite = played(server, "millionaire-elite", names[:3], ELITE[:-2])
    page = new_page(browser, request, locale=locale)
    goto(page, server.base + "/")
    words = english_words(page, locale[:2]) if locale != "en-US" else set()

    screens: dict[str, str] = {}
    for game in (classic, elite):
        where = game["ruleset"]
        open_table(page, server, game)
        screens[f"{where} table"] = page.evaluate(SHOWN)
        goto(page, f"{server.base}/#/g/{game['id']}/replay")
        expect(page.locator("main .replay")).to_be_visible()
        screens[f"{where} replay"] = page.evaluate(SHOWN)
        page.goto(f"{server.base}/play/{game['id']}#p=p1&token={game['tokens']['p1']}")
        expect(page.get_by_test_id("my-cash")).to_be_visible()
        screens[f"{where} player's page"] = page.evaluate(SHOWN)

    found = {
        what: bad
        for what, text in screens.items()
        if (bad := problems(text, locale, words, classic["deeds"] + elite["deeds"]))
    }
    assert found == {}


# The rule set's bookkeeping that the issue found in Russian and Polish basis lines (issue 22):
# a purchase's "printed: yes", a utility's rent's "kind: utility".
JARGON = {
    "ru-RU": ["напечатана: да", "вид: предприятие"],
    "pl-PL": ["nadrukowana: tak", "rodzaj: zakład"],
}
# The basis keys those lines were labelled with (views.js LEFT_OUT), and the entered price's.
BOOKKEEPING = ["printed", "kind", "entered"]


def quoted(page: Page, dialog: Any, testid: str, record_testid: str | None = None) -> str:
    """The preview of a move's dialog once the server's answer is in it; then recorded."""
    expect(dialog.get_by_test_id(f"{testid}-moves")).to_be_visible()
    text = dialog.get_by_test_id(testid).inner_text()
    if record_testid:
        dialog.get_by_test_id(record_testid).click()
    else:
        dialog.get_by_role("button", name=words(page, "record_card")).click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    return text


@pytest.mark.parametrize("locale", ["ru-RU", "pl-PL"])
def test_a_purchase_a_utilitys_rent_and_a_card_say_no_bookkeeping_words(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    names = NAMES[locale]
    game = new_game(server, "classic", names[:3])
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)

    # In the console: the first player buys the Electric Company (150, docs/rules.md), the
    # second lands on it and throws 7 (4 times 7 = 28, one utility held), then draws a card that
    # collects 50 from the Bank; each previewed, then recorded.
    texts: dict[str, str] = {}
    dialog = more(page, "p1", words(page, "a_buy"))
    dialog.locator(".tile[data-deed=electric-company]").click()
    texts["purchase, previewed"] = quoted(page, dialog, "buy-quote", "record-buy")
    dialog = more(page, "p2", words(page, "a_rent"))
    dialog.locator(".tile[data-deed=electric-company]").click()
    dialog.locator("input[name=dice]").fill("7")
    expect(dialog.get_by_test_id("rent-amount")).to_contain_text("28")
    texts["utility's rent, previewed"] = quoted(page, dialog, "rent-quote", "record-rent")
    dialog = more(page, "p2", words(page, "a_card"))
    dialog.locator("[data-field=effect] input[value=collect]").check()
    dialog.locator("input[name=amount]").fill("50")
    texts["card, previewed"] = quoted(page, dialog, "card-quote")
    rows = history_rows(page, server, game)
    assert len(rows) == 6  # three starting cash, the purchase, the rent, the card
    texts |= {f"history #{seq}": text for seq, text in rows.items() if int(seq) > 3}

    labels = [words(page, f"b_{key}") for key in BOOKKEEPING]
    assert labels[0] == {"ru-RU": "напечатана", "pl-PL": "nadrukowana"}[locale]  # what it was
    found = {
        what: [phrase for phrase in JARGON[locale] if phrase in text.lower()]
        + [
            f"the label {label!r}"
            for label in labels
            if re.search(rf"(?m)^\s*{re.escape(label)}\s*(:|$)", text, re.IGNORECASE)
        ]
        for what, text in texts.items()
    }
    assert found == {what: [] for what in texts}
