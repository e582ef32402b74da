"""Screens families met in v1.2 at a phone's width (issue 29): the statistics' every player
reachable and visibly so (item 6).
"""

from __future__ import annotations

import contextlib

import pytest
from console_steps import new_game, new_page, open_table, record, settled
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
