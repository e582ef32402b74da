"""Screens families met in v1.2 at a phone's width (issue 29): the statistics' every player
reachable and visibly so (item 6); the start screen opened at its top, with the language and
theme switches in view, its games each listed once and the finished ones said so, after a game
opened from its file on the device that kept it (item 12); Millionaire Elite's policies in the
box's order, the EXCHANGE's steps in even columns, and on a tablet a "Record it again?" as tall
as its question (item 15).
"""

# The players' names are Cyrillic, which RUF001 would take for look-alikes of Latin letters.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from console_steps import (
    card,
    history_settled,
    hold,
    more,
    new_game,
    new_page,
    open_table,
    record,
    settled,
)
from layout import HEIGHT
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


def at_width(
    browser: Browser, request: pytest.FixtureRequest, locale: str, width: int = 360
) -> Page:
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    return page


# Where each player's column of the statistics is, against the part of the table in view (the
# box it scrolls in, right of the figures' names, which stay put): [name, left, right] and
# [in view from, to]; and whether the box says there is more to its side, visibly.
COLUMNS = """() => {
  const table = document.querySelector('.stats-players');
  const box = table.closest('.table-scroll');
  const frame = box.getBoundingClientRect();
  const names = table.querySelector('thead th').getBoundingClientRect();
  const columns = [...table.querySelectorAll('thead th')].slice(1).map((th) => {
    const r = th.getBoundingClientRect();
    return [th.textContent, r.left, r.right];
  });
  const cue = document.querySelector('[data-testid=stats-more]');
  const cueShown = !!cue && cue.checkVisibility({opacityProperty: true, visibilityProperty: true})
    && cue.getBoundingClientRect().width > 0;
  return {columns, from: names.right, to: frame.right, cue: cueShown,
    overflow: box.scrollWidth > box.clientWidth + 1};
}"""


def out_of_view(measure: dict) -> list[str]:
    return [
        name
        for name, left, right in measure["columns"]
        if left < measure["from"] - 1 or right > measure["to"] + 1
    ]


@pytest.mark.parametrize(
    ("locale", "players"),
    [
        ("ru-RU", ["Александра", "Владимир", "Екатерина", "Станислав"]),
        ("pl-PL", ["Aleksandra", "Bartłomiej", "Małgorzata"]),
    ],
)
def test_every_players_column_of_the_statistics_is_reachable_and_visibly_so(
    browser: Browser,
    server: Server,
    request: pytest.FixtureRequest,
    locale: str,
    players: list[str],
) -> None:
    page = at_width(browser, request, locale)
    game = new_game(server, "classic", players)
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    record(server, game, {"type": "rent", "payer": "p2", "property": "boardwalk"})
    record(server, game, {"type": "finish"})
    open_table(page, server, game)
    expect(page.locator(".stats-players")).to_be_visible()
    settled(page)
    page.locator(".stats-players").scroll_into_view_if_needed()
    measure = page.evaluate(COLUMNS)
    hidden = out_of_view(measure)
    # A column out of view is said to be there: the box shows a cue to its side.
    assert not hidden or measure["cue"], f"columns out of view with no cue: {hidden}"
    # And it can be reached: the box scrolled to its end shows the last column whole, clear
    # of the figures' names.
    page.locator(".stats-players").evaluate(
        "(t) => { const box = t.closest('.table-scroll'); box.scrollLeft = box.scrollWidth; }"
    )
    page.wait_for_timeout(100)
    measure = page.evaluate(COLUMNS)
    last = measure["columns"][-1]
    assert last[1] >= measure["from"] - 1 and last[2] <= measure["to"] + 1, measure


def test_the_start_screen_opens_at_its_top_and_lists_each_game_once_said_finished(
    browser: Browser, server: Server, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    page = at_width(browser, request, "ru-RU")
    game = new_game(server, "classic", ["Анна", "Вера"], name="Пятница")
    record(server, game, {"type": "finish"})
    hold(page, server, game)
    # Kept as the new-game screen keeps a game it created: with the day it was created.
    page.evaluate(
        """([id, created]) => {
          const games = JSON.parse(localStorage.getItem('tablebank.games'));
          games[id].created = created;
          localStorage.setItem('tablebank.games', JSON.stringify(games));
        }""",
        [game["id"], game["created"]],
    )
    page.goto(f"{server.base}/#/g/{game['id']}")  # the banker saw its end
    expect(page.get_by_test_id("cash-p1")).to_be_visible()
    settled(page)
    page.goto(server.base + "/")
    expect(page.locator(".game-list li")).to_have_count(1)
    settled(page)
    # Opened at its top: the language and theme switches in view.
    assert page.evaluate("() => window.scrollY") == 0
    for switch in ("#lang-switch", "[data-testid=theme-switch]"):
        box = page.locator(switch).bounding_box()
        assert box is not None and box["y"] >= 0, switch

    # The game's file opened on this device: a second game, told apart from the first.
    answer = server.call("GET", f"/api/v1/games/{game['id']}/export", None, game["banker_token"])
    assert answer.status == 200, answer
    file = tmp_path / "Пятница.tablebank.json"
    file.write_text(json.dumps(answer.body), encoding="utf-8")
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("open-game-file").click()
    chooser.value.set_files(str(file))
    expect(page.get_by_test_id("cash-p1")).to_be_visible()
    settled(page)
    page.goto(server.base + "/")
    rows = page.locator(".game-list li")
    expect(rows).to_have_count(2)
    texts = rows.all_inner_texts()
    assert len(set(texts)) == 2, texts
    # Both are finished games, and say so.
    for row in rows.all():
        expect(row.get_by_test_id("game-finished")).to_be_visible()


def test_policies_in_the_boxs_order_and_the_exchanges_steps_in_even_columns(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # Millionaire Elite in Polish on a phone, where they were seen (issue 29, item 15).
    page = at_width(browser, request, "pl-PL")
    game = new_game(server, "millionaire-elite", ["Ola", "Kuba"])
    # Ola buys the red policy, then the green one: held, they are listed in the box's order.
    record(server, game, {"type": "insurance", "player": "p1", "action": "buy", "policy": "red"})
    record(server, game, {"type": "insurance", "player": "p1", "action": "buy", "policy": "green"})
    open_table(page, server, game)
    settled(page)
    # The box's policies by their price (docs/rules.md: green 100, blue 200, orange 300, red 500).
    expect(card(page, "p1")).to_contain_text("Polisy: zielona, czerwona")
    dialog = more(page, "p1", "Ubezpieczenie")
    rows = dialog.locator(".policy .grow")
    expect(rows).to_have_text(["zielona", "niebieska", "pomarańczowa", "czerwona"])
    expect(dialog).to_contain_text("Polisy: zielona, czerwona")
    dialog.locator(".dialog-head button").first.click()
    history_settled(page)

    # The EXCHANGE: its steps up and down in columns of one width, one under the other.
    page.get_by_role("button", name="Giełda: cena akcji").click()
    dialog = page.locator("dialog[open]")
    expect(dialog.locator(".moves button").first).to_contain_text("→")
    settled(page)
    rows = dialog.locator(".moves").all()
    assert len(rows) == 2
    boxes = [
        [
            (round(b["x"]), round(b["width"]))
            for b in (btn.bounding_box() for btn in row.locator("button").all())
            if b
        ]
        for row in rows
    ]
    widths = {w for row in boxes for _, w in row}
    assert max(widths) - min(widths) <= 1, boxes
    assert [x for x, _ in boxes[0]] == [x for x, _ in boxes[1]], boxes


def test_record_it_again_on_a_tablet_is_as_tall_as_its_question(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = at_width(browser, request, "en-US", 768)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)

    def pay_bob_50() -> None:
        card(page, "p1").get_by_role("button", name="Pay").click()
        page.locator("dialog select[name=to]").select_option("p2")
        page.locator("dialog input[name=amount]").fill("50")
        page.get_by_test_id("record-payment").click()

    pay_bob_50()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,450")
    pay_bob_50()
    again = page.locator("dialog[open]", has_text="Record it again?")
    expect(again).to_be_visible()
    settled(page)
    # No empty box under the question and its buttons: the dialog ends where they do.
    dialog, head, body = again.evaluate(
        """(d) => [d, d.querySelector('.dialog-head'), d.querySelector('.dialog-body')]
          .map((el) => el.getBoundingClientRect().height)"""
    )
    assert dialog <= head + body + 2, (dialog, head, body)
    page.get_by_test_id("again-no").click()
