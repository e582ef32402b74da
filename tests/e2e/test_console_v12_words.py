"""The words and the contrast families met in v1.2 (issue 29, item 14), each where it was seen:
Russian and Polish at a phone's width, English at a laptop's.

- Russian: no verb that takes a man's ending after a woman's name (the jail's buttons), no
  dispute whose status says its word twice, the Millionaire Elite box named in Cyrillic, an
  income tax's percent amount in money, a railroad count in the form Russian counts it;
- Polish: deeds dealt and shares held counted in their noun's form, a mortgaged deed said
  without a gender (a railroad, "dworzec", is masculine), a Millionaire Elite plot called a
  plot ("działka") on the table;
- English: the head's note in plain grammar, a preview that says no money moves (it has not
  moved yet), a file named by the game's date once;
- the bankrupt player's card, drawn apart from the others, keeps every text at WCAG AA's
  4.5:1 in the light and the dark theme.
"""

# The players' names and the expected texts are Cyrillic, which RUF001 would take for
# look-alikes of Latin letters.
# ruff: noqa: RUF001, RUF003

from __future__ import annotations

import contextlib
import re

import pytest
from console_steps import more, new_game, new_page, open_table, record, settled, words
from layout import HEIGHT
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

AA = 4.5  # WCAG 2.x, level AA: normal text on its background

# A Russian verb in the past tense, a man's form ("Вытянул", "Выбросил"): said of Анна it is
# wrong; the present ("тянет") or no verb at all needs no gender.
MASCULINE_PAST = re.compile(r"\b[А-ЯЁа-яё]+(?:ил|ул|ял|ал|ел)\b")
# A Polish participle in a woman's form after a deed's name ("Dworzec … zastawiona").
FEMININE_MORTGAGED = re.compile(r"\bzastawiona\b")


def phone(browser: Browser, request: pytest.FixtureRequest, locale: str, width: int = 360) -> Page:
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    return page


def test_russian_words_agree_with_anna_and_vera_and_say_things_once(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = phone(browser, request, "ru-RU")
    game = new_game(server, "classic", ["Анна", "Вера", "Борис"])
    record(server, game, {"type": "go_to_jail", "player": "p1"})
    # Income tax by the percent: 10 % of Вера's 1 500 is 150 (docs/rules.md, "Income tax").
    record(server, game, {"type": "tax", "player": "p2", "tax": "income", "choice": "percent"})
    record(server, game, {"type": "buy", "player": "p3", "property": "reading-railroad"})
    record(server, game, {"type": "buy", "player": "p3", "property": "pennsylvania-railroad"})
    salary = record(server, game, {"type": "salary", "player": "p2"})
    dispute = record(server, game, {"type": "dispute", "seq": salary["seq"], "reason": "ошибка"})
    record(
        server,
        game,
        {"type": "void", "seq": salary["seq"], "reason": "ошибка", "dispute": dispute["seq"]},
    )
    open_table(page, server, game)
    settled(page)

    # The jail's buttons for Анна: no man's verb.
    dialog = more(page, "p1", words(page, "a_jail"))
    buttons = dialog.locator("button").all_inner_texts()
    assert [b for b in buttons if MASCULINE_PAST.search(b)] == []
    expect(dialog.get_by_role("button", name="Тянет карточку «Шанс»")).to_be_visible()
    dialog.locator(".dialog-head button").first.click()

    # The dispute voided: "аннулировано транзакцией №…", its word once.
    status = page.get_by_test_id("dispute-status").first.text_content() or ""
    assert not re.search(r"аннулирован\w*\s+аннулирован", status, re.IGNORECASE), status
    assert re.match(r"\s*аннулировано транзакцией №\d+", status), status

    # Rent of a railroad when its owner holds two: "2 железные дороги" (the toast's basis).
    rent = page.evaluate(
        """async () => (await import('/console/static/js/i18n.js')).plural(2, 'cnt_railroads')"""
    )
    assert rent == "2 железные дороги"
    # The income tax's amount by the percent, in money as the history shows it.
    page.goto(f"{server.base}/#/g/{game['id']}/history")
    row = page.locator("details.txn", has_text="Налог").first
    row.locator("summary").click()
    amount = row.locator("dt", has_text="по проценту").locator("xpath=following-sibling::dd[1]")
    expect(amount).to_have_text("150\u00a0$")

    # The new-game screen names the box in Cyrillic.
    page.goto(f"{server.base}/#/new")
    expect(page.locator("select[name=ruleset]")).to_contain_text("Миллионер Элит")
    titles = page.locator("select[name=ruleset] option").all_inner_texts()
    assert "Миллионер Элит" in titles
    assert [title for title in titles if re.search(r"[A-Za-z]", title)] == []


def test_polish_words_count_deeds_and_shares_and_give_a_mortgage_no_gender(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = phone(browser, request, "pl-PL")
    # The short game deals 2 deeds to each player (docs/rules.md, "The short game").
    page.goto(f"{server.base}/#/new")
    rulesets = page.locator("select[name=ruleset]")
    expect(rulesets).to_contain_text("Krótka gra")
    rulesets.select_option("short")
    expect(page.locator("main")).to_contain_text("na początku każdy gracz dostaje 2 akty własności")
    expect(page.locator("main")).to_contain_text("Rozdanie: każdy dostaje 2 akty własności")

    # A railroad ("dworzec", masculine) mortgaged: said with no gender.
    classic = new_game(server, "classic", ["Ola", "Kuba"])
    record(server, classic, {"type": "buy", "player": "p1", "property": "reading-railroad"})
    record(server, classic, {"type": "mortgage", "property": "reading-railroad"})
    open_table(page, server, classic)
    settled(page)
    dialog = more(page, "p1", words(page, "a_mortgage"))
    expect(dialog).to_contain_text("w zastawie")
    assert not FEMININE_MORTGAGED.search(dialog.inner_text())
    dialog.locator(".dialog-head button").first.click()

    # Millionaire Elite: Ola holds no shares ("0 akcji"); a plot is a plot ("działka").
    elite = new_game(server, "millionaire-elite", ["Ola", "Kuba"])
    record(server, elite, {"type": "buy", "player": "p1", "property": "b1-1", "price": 200})
    open_table(page, server, elite)
    settled(page)
    expect(page.locator("main")).to_contain_text("Branża 1, działka 1")
    assert " pole " not in page.locator("main").inner_text()
    dialog = more(page, "p1", words(page, "a_shares"))
    expect(dialog).to_contain_text("Ola: 0 akcji; kurs akcji")
    dialog.locator(".dialog-head button").first.click()
    # A price the rules leave to the box: asked of the plot with no other word for it.
    assert words(page, "enter_price") == "Wpisz cenę: zasady jej nie podają."


def test_english_previews_notes_and_file_names_read_as_plain_english(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = phone(browser, request, "en-US", width=1280)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "go_to_jail", "player": "p1"})
    open_table(page, server, game)
    settled(page)
    # A preview of a move that moves no money (Bob sent to jail) says it in the future.
    page.get_by_role("button", name="All moves").click()
    page.locator("dialog[open]").get_by_role("button", name="Go to jail").click()
    dialog = page.locator("dialog[open]")
    dialog.locator("select[name=player]").select_option("p2")
    expect(dialog).to_contain_text("No money moves.")
    assert "No money moved" not in dialog.inner_text()
    dialog.locator(".dialog-head button").first.click()

    # A finished game's head, and the note under it: the table follows the finish by its
    # event stream (a reload as the stream redraws the page would be aborted).
    record(server, game, {"type": "finish"})
    expect(page.locator("main")).to_contain_text(
        "Photograph this code: later, it proves that the log has not changed."
    )

    # The file of a game named by the day ("Game 12/4/2026", as the new-game screen names it).
    names = page.evaluate(
        """async () => {
          const {fileName} = await import('/console/static/js/files.js');
          const {t, date} = await import('/console/static/js/i18n.js');
          const day = new Date(2026, 11, 4);
          return [fileName(`${t('game')} ${date(day)}`, day), fileName('Friday', day)];
        }"""
    )
    assert names == ["Game 12-4-2026.tablebank.json", "Friday 2026-12-04.tablebank.json"]


# Each text of an element, with the colour it is drawn in and the ground under it as the eye
# sees them: the colours composited up the element's ancestors (their backgrounds, and the
# opacity of a group, which blends its inside with what is behind it), then the WCAG ratio.
CONTRASTS = """(root) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const mix = (a, b, k) => a.map((c, i) => c * k + b[i] * (1 - k));
  const lum = (rgb) => {
    const lin = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const seen = (el) => {
    const chain = [];
    for (let at = el; at; at = at.parentElement) chain.unshift(at);
    let ground = [255, 255, 255];
    const groups = [];
    for (const at of chain) {
      const style = getComputedStyle(at);
      const opacity = Number(style.opacity);
      if (opacity < 1) groups.push([opacity, ground]);
      ground = over(parse(style.backgroundColor), ground);
    }
    let ink = over(parse(getComputedStyle(el).color), ground);
    for (const [opacity, behind] of groups.reverse()) {
      ink = mix(ink, behind, opacity);
      ground = mix(ground, behind, opacity);
    }
    return ratio(ink, ground);
  };
  const texts = [...root.querySelectorAll('*')].filter((el) => el.checkVisibility()
    && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  return texts.map((el) => [el.textContent.trim().slice(0, 40), Math.round(seen(el) * 100) / 100]);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_bankrupt_players_card_reads_at_4_5_to_1(
    browser: Browser, server: Server, request: pytest.FixtureRequest, scheme: str
) -> None:
    page = phone(browser, request, "ru-RU")
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    game = new_game(server, "classic", ["Анна", "Вера", "Борис"])
    record(server, game, {"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 5000})
    open_table(page, server, game)
    settled(page)
    out = page.locator("article.player[data-player=p3]")
    expect(out).to_have_class(re.compile(r"\bout\b"))
    measured = out.evaluate(CONTRASTS)
    assert measured, "the card has text"
    assert [(text, ratio) for text, ratio in measured if ratio < AA] == []
