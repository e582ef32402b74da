"""The statistics in the console (js/stats.js), in Debian's chromium against a real
`tablebank serve`: a finished game's table and the replay show the statistics the server gave
(GET .../stats, docs/api.md "Statistics"), per player and per deed, with the deeds' chart, at
360, 768 and 1280 px, in Russian, Polish and English (one language a width). The console
computes no figure: each one shown is the server's answer written with the page's money
formatting.

The game is tests/api/test_stats_http.py's (docs/rules.md's figures): Ann buys the dark blues
(400 + 350), Bob's rent of 100 on Boardwalk is voided and Cy pays it, Bob wins Reading
Railroad at auction for 150, Ann builds a house on Boardwalk and sells it back, Bob mortgages
and lifts his railroad (interest 10), Bob's income tax (200), Cy's luxury tax (75) and jail
fine (50), Ann pays Reading Railroad's 25; the banker finishes it in the console.

TABLEBANK_LAYOUT_SCREENSHOTS=<dir> keeps a picture of each screen there; a screen the layout
measure finds wrong (tests/e2e/layout.py) is kept in a temporary directory the failure names.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
from console_steps import goto, logged, money, new_game, new_page, open_table, record, words
from layout import HEIGHT, OFFENDERS, SPREAD, TAP
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Locator, Page, expect

KEEP_PICTURES = os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS")


def played(server: Server) -> dict:
    """The evening of the HTTP test, up to seq 18, left for the banker to finish."""
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"])
    record(server, game, {"type": "salary", "player": "p1"})
    for deed in ("boardwalk", "park-place"):
        record(server, game, {"type": "buy", "player": "p1", "property": deed})
    rent = record(server, game, {"type": "rent", "payer": "p2", "property": "boardwalk"})
    record(server, game, {"type": "void", "seq": rent["seq"], "reason": "Cy landed there"})
    bodies: list[dict[str, Any]] = [
        {"type": "rent", "payer": "p3", "property": "boardwalk"},
        {"type": "auction", "property": "reading-railroad", "winner": "p2", "bid": 150},
        {"type": "build", "property": "boardwalk", "houses": 1},
        {"type": "sell_buildings", "property": "boardwalk", "houses": 1},
        {"type": "mortgage", "property": "reading-railroad"},
        {"type": "unmortgage", "property": "reading-railroad"},
        {"type": "tax", "player": "p2", "tax": "income", "choice": "flat"},
        {"type": "tax", "player": "p3", "tax": "luxury"},
        {"type": "jail_fine", "player": "p3"},
        {"type": "rent", "payer": "p1", "property": "reading-railroad"},
    ]
    for body in bodies:
        last = record(server, game, body)
    assert last["seq"] == 18
    return game


def stats(server: Server, game: dict, seq: int | None = None) -> dict[str, Any]:
    query = "" if seq is None else f"?seq={seq}"
    answer = server.call(
        "GET", f"/api/v1/games/{game['id']}/stats{query}", None, game["banker_token"]
    )
    assert answer.status == 200, answer
    return answer.body  # type: ignore[no-any-return]


def shows_the_answer(page: Page, section: Locator, answer: dict[str, Any]) -> None:
    """Every figure of the server's answer in its cell, in the page's money; the deeds a
    player holds or that collected rent, each with its figures; the chart drawn."""
    for row in answer["players"]:
        for figure, value in row.items():
            if figure in ("player", "peak_seq"):
                continue
            cell = section.get_by_test_id(f"stats-{figure}-{row['player']}")
            shown = money(page, value)
            if figure == "peak_net_worth":
                shown += " " + words(page, "st_at_seq", seq=row["peak_seq"])
            expect(cell).to_have_text(shown)
    deeds = [d for d in answer["deeds"] if d["owner"] != "bank" or d["rent_count"]]
    expect(section.locator("tr[data-testid^=stats-deed-]")).to_have_count(len(deeds))
    for deed in deeds:
        line = section.get_by_test_id(f"stats-deed-{deed['property']}")
        paid = deed["price_paid"]
        expect(line.get_by_test_id("price-paid")).to_have_text(
            words(page, "st_not_bought") if paid is None else money(page, paid)
        )
        expect(line.get_by_test_id("rent-collected")).to_have_text(
            money(page, deed["rent_collected"])
        )
        expect(line.get_by_test_id("rent-count")).to_have_text(str(deed["rent_count"]))
    expect(section.locator(".stats-chart canvas").first).to_be_visible()


class Screens:
    """Each screen measured (layout.OFFENDERS); its picture kept where asked, or where found."""

    def __init__(self, page: Page, out: Path, prefix: str) -> None:
        self.page, self.out, self.prefix = page, out, prefix
        self.offenders: dict[str, list[str]] = {}

    def look(self, name: str, part: Locator) -> None:
        found = self.page.evaluate(OFFENDERS, TAP)
        if found:
            self.offenders[name] = found
        elif not KEEP_PICTURES:
            return
        part.screenshot(path=self.out / f"stats-{self.prefix}-{name}.png")

    def report(self) -> str:
        lines = [f"{name}: {line}" for name, found in self.offenders.items() for line in found]
        return "\n".join([f"at {self.prefix}:", *lines, f"pictures in {self.out}"])


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = Path(KEEP_PICTURES) if KEEP_PICTURES else tmp_path_factory.mktemp("stats-screens")
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.mark.parametrize(("width", "locale"), SPREAD)
def test_a_game_finished_in_the_console_shows_the_server_s_statistics(
    browser: Browser,
    server: Server,
    screenshots: Path,
    request: pytest.FixtureRequest,
    width: int,
    locale: str,
) -> None:
    game = played(server)
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    screens = Screens(page, screenshots, f"{width}-{locale[:2]}")
    open_table(page, server, game)
    expect(page.get_by_test_id("stats")).to_have_count(0)  # not while the game goes on

    page.locator(".table-actions button", has_text=words(page, "a_finish")).click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_test_id("finish-now").click()
    expect(dialog).to_have_count(0)
    assert [t["seq"] for t in logged(server, game, "finish")] == [19]
    page.locator("#toasts .toast button.close").click()  # the finish's toast, read
    expect(page.locator("#toasts .toast")).to_have_count(0)

    section = page.locator(".game-head [data-testid=stats]")
    expect(section.locator("h2")).to_have_text(words(page, "st_title"))
    answer = stats(server, game)
    # The server's figures (tests/api/test_stats_http.py works them out): Ann's 100 of rent
    # is Cy's (Bob's, voided, is not); Bob's interest is 10 % of his railroad's 100.
    ann, bob = answer["players"][0], answer["players"][1]
    assert (ann["rent_received"], ann["peak_net_worth"], bob["interest"]) == (100, 1800, 10)
    shows_the_answer(page, section, answer)
    section.scroll_into_view_if_needed()
    screens.look("table", section)

    # The replay shows them as of the step shown: right after seq 7, Bob's rent (voided at
    # seq 8) still stood.
    goto(page, f"{server.base}/#/g/{game['id']}/replay")
    in_replay = page.locator("main [data-testid=stats]")
    expect(in_replay.get_by_test_id("stats-as-of")).to_have_text(words(page, "st_as_of", seq=19))
    shows_the_answer(page, in_replay, answer)
    slider = page.get_by_test_id("replay-slider")
    slider.evaluate(
        "(el) => { el.value = 6; for (const kind of ['input', 'change'])"
        " el.dispatchEvent(new Event(kind)); }"
    )
    expect(in_replay.get_by_test_id("stats-as-of")).to_have_text(words(page, "st_as_of", seq=7))
    at_7 = stats(server, game, 7)
    assert at_7["players"][0]["rent_received"] == 100 and at_7["players"][1]["rent_paid"] == 100
    shows_the_answer(page, in_replay, at_7)
    in_replay.scroll_into_view_if_needed()
    screens.look("replay", in_replay)

    assert screens.offenders == {}, screens.report()


def test_a_player_s_page_of_a_finished_game_shows_the_statistics_too(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = played(server)
    record(server, game, {"type": "finish"})
    page = new_page(browser, request)
    page.goto(f"{server.base}/play/{game['id']}#p=p3&token={game['tokens']['p3']}")
    expect(page.get_by_test_id("my-cash")).to_be_visible()

    section = page.locator("section.me [data-testid=stats]")
    # Cy's own: Boardwalk's 100 paid, luxury tax 75 + jail fine 50 = 125 (docs/rules.md).
    expect(section.get_by_test_id("stats-rent_paid-p3")).to_have_text("$100")
    expect(section.get_by_test_id("stats-taxes-p3")).to_have_text("$125")
    shows_the_answer(page, section, stats(server, game))
