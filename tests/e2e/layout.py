"""The measure of a console screen that the layout tests share (``test_console_layout.py``,
``test_console_disputes.py``, ``test_console_touch.py``): the sizes they open, the smallest
touch target, the script that lists what is wrong with what a screen shows, the one that
lists the controls smaller than a finger, and the one that finds a control something else
takes the tap of; and ``AtEachWidth``, which measures each screen of one walk at every width.

Imported as ``from layout import ...`` (pytest puts ``tests/e2e`` on the path).
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

with contextlib.suppress(ImportError):
    from playwright.sync_api import Page

HEIGHT = {360: 740, 768: 1024, 1280: 800}  # px: the window's height at each width tested
# Each width tested paired with a language of its own, for a test slow enough that the cross
# product of widths and languages would take too long: every width and every language once.
SPREAD = [(360, "ru-RU"), (768, "pl-PL"), (1280, "en-US")]
TAP = 44  # px: the smallest touch target a quick button may be

# Every visible control of the open dialog (else of the page), and what is wrong with it:
# - clipped: its content is wider (or taller) than its box (scrollWidth > clientWidth + 1),
#   a text field aside (a long link scrolls inside its field);
# - a word broken: a word of a deed's name or of a button's label split over two lines;
# - hidden by its container: it reaches past an ancestor that hides what overflows;
# - cut off: it reaches past the edge of the screen (a horizontal scroller's content aside);
# - overlapping: two controls' boxes intersect (neither holding the other);
# - small: a quick button under 44 px by 44 px;
# - out of sight: a dialog's own button below the screen as the dialog opens;
# - the page (or the dialog) scrolls sideways.
# Whether a control is on the screen, as both walks below see it.
SHOWN = r"""const shown = (el) => {
    if (!el.getClientRects().length || el.closest('.sr-only, .skip-link, [hidden]')) return false;
    if (getComputedStyle(el).visibility === 'hidden') return false;
    // What a closed <details> holds beyond its summary keeps a box in Chromium (its content is
    // only skipped when drawn) but is not on the screen.
    const closed = el.closest('details:not([open])');
    if (closed && !closed.querySelector(':scope > summary')?.contains(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };"""

OFFENDERS = r"""(tap) => {
  const dialog = document.querySelector('dialog[open]');
  const root = dialog || document.body;
  const screen = document.documentElement.clientWidth;
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, label, summary,'
    + ' .tile, .tile-name, .tile-sub, .chip, .chip-name';
  const INTERACTIVE = 'button, a[href], input:not([type=hidden]), select, textarea, summary, label';
  const WORDS = '.tile-name, .chip-name, button';
  /*SHOWN*/
  const what = (el) => {
    const r = el.getBoundingClientRect();
    const cls = typeof el.className === 'string' && el.className.trim()
      ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 48);
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    return `${el.tagName.toLowerCase()}${cls} "${text}" ${size}`;
  };
  const controls = [...root.querySelectorAll(CONTROLS)].filter(shown);
  const found = [];
  for (const el of controls) {
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (style.display !== 'inline' && !el.matches('input, textarea')) {
      if (el.scrollWidth > el.clientWidth + 1) {
        found.push(`clipped: ${what(el)}: ${el.scrollWidth} px wide inside ${el.clientWidth}`);
      }
      if (el.scrollHeight > el.clientHeight + 1) {
        found.push(`clipped: ${what(el)}: ${el.scrollHeight} px tall inside ${el.clientHeight}`);
      }
    }
    let inScroller = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (a === dialog) break;
      const overflow = getComputedStyle(a).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') { inScroller = true; break; }
      if (overflow === 'hidden' || overflow === 'clip') {
        const box = a.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) {
          found.push(`hidden by its container: ${what(el)} in ${what(a)}`);
        }
      }
    }
    if (!inScroller && (r.left < -1 || r.right > screen + 1)) {
      const span = `${Math.round(r.left)}..${Math.round(r.right)}`;
      found.push(`cut off: ${what(el)} spans ${span} px of ${screen}`);
    }
  }
  for (const el of root.querySelectorAll(WORDS)) {
    if (!shown(el)) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.sr-only')) continue;
      for (const m of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((q) => Math.round(q.top)));
        if (tops.size > 1) found.push(`a word broken: "${m[0]}" in ${what(el)}`);
      }
    }
  }
  // What a scroller shows of a control: its box cut to every ancestor that clips (a deed
  // picker scrolled, the dialog) and to the opaque rows that stick to the scroller's edges (a
  // dialog's head, its row of buttons: what scrolls beneath them shows again once scrolled
  // on); a control scrolled out of sight overlaps nothing.
  const stuck = [...root.querySelectorAll('*')].filter((el) => shown(el)
    && getComputedStyle(el).position === 'sticky');
  const seen = (el) => {
    let {left, top, right, bottom} = el.getBoundingClientRect();
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      left = Math.max(left, box.left);
      top = Math.max(top, box.top);
      right = Math.min(right, box.right);
      bottom = Math.min(bottom, box.bottom);
    }
    for (const row of stuck) {
      if (row.contains(el)) continue;
      const box = row.getBoundingClientRect();
      const before = row.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING;
      // A row stuck to the bottom has what comes before it pass beneath; one stuck to the
      // top, what comes after it.
      if (getComputedStyle(row).bottom !== 'auto') {
        if (before) bottom = Math.min(bottom, box.top);
      } else if (!before) {
        top = Math.max(top, box.bottom);
      }
    }
    return {left, top, right, bottom};
  };
  const boxes = [...root.querySelectorAll(INTERACTIVE)].filter(shown)
    .map((el) => [el, seen(el)]).filter(([, r]) => r.right - r.left > 1 && r.bottom - r.top > 1);
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i][1];
    for (let j = i + 1; j < boxes.length; j++) {
      if (boxes[i][0].contains(boxes[j][0]) || boxes[j][0].contains(boxes[i][0])) continue;
      const b = boxes[j][1];
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 1 && down > 1) {
        found.push(`overlapping: ${what(boxes[i][0])} and ${what(boxes[j][0])}`);
      }
    }
  }
  // A dialog's own buttons are in sight as it opens, however long its form (its row sticks
  // to the bottom edge): none waits below the screen to be scrolled to.
  if (dialog) {
    for (const el of dialog.querySelectorAll('.dialog-body > .actions button')) {
      const r = el.getBoundingClientRect();
      if (shown(el) && (r.bottom > innerHeight + 1 || r.top < -1)) {
        const span = `${Math.round(r.top)}..${Math.round(r.bottom)}`;
        found.push(`out of sight: ${what(el)} at ${span} px of ${innerHeight}`);
      }
    }
  }
  for (const el of root.querySelectorAll('.quick')) {
    const r = el.getBoundingClientRect();
    if (shown(el) && (r.width < tap || r.height < tap)) found.push(`small: ${what(el)}`);
  }
  // The page's scroller: the body while the dock holds a toast or the banner (dom.js).
  const docked = document.documentElement.classList.contains('docked');
  const page = docked ? document.body : document.scrollingElement;
  if (page.scrollWidth > page.clientWidth + 1) {
    found.push(`the page scrolls sideways: ${page.scrollWidth} px wide on ${page.clientWidth}`);
  }
  if (dialog && dialog.scrollWidth > dialog.clientWidth + 1) {
    found.push(`the dialog scrolls sideways: ${dialog.scrollWidth} px in ${dialog.clientWidth}`);
  }
  return found;
}""".replace("/*SHOWN*/", SHOWN)

# Every visible control of the open dialog (else of the page) smaller than a finger: under
# `tap` px wide or tall. A radio or a checkbox is measured with its label (the box holding
# both: a tap on the label ticks it). A control in a closed <details>, or scrolled out of its
# scroller's sight, is not shown.
SMALL = r"""(tap) => {
  const dialog = document.querySelector('dialog[open]');
  const root = dialog || document.body;
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, summary';
  /*SHOWN*/
  const labelOf = (el) => el.closest('label')
    || (el.id && root.querySelector(`label[for="${CSS.escape(el.id)}"]`)) || null;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    let {left, top, right, bottom} = r;
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      const label = labelOf(el);
      if (label) {
        const q = label.getBoundingClientRect();
        left = Math.min(left, q.left); top = Math.min(top, q.top);
        right = Math.max(right, q.right); bottom = Math.max(bottom, q.bottom);
      }
    }
    return {width: right - left, height: bottom - top};
  };
  const what = (el, b) => {
    const cls = typeof el.className === 'string' && el.className.trim()
      ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const type = el.type && el.tagName === 'INPUT' ? `[${el.type}]` : '';
    const ticked = el.matches('input[type=radio], input[type=checkbox]') && labelOf(el);
    const text = ((ticked ? ticked.innerText : el.innerText || el.value)
      || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    const size = `${Math.round(b.width)}x${Math.round(b.height)}`;
    return `${el.tagName.toLowerCase()}${type}${cls} "${text}" ${size}`;
  };
  const found = [];
  for (const el of root.querySelectorAll(CONTROLS)) {
    if (!shown(el)) continue;
    const b = box(el);
    if (b.width < tap - 0.5 || b.height < tap - 0.5) found.push(`small: ${what(el, b)}`);
  }
  return found;
}""".replace("/*SHOWN*/", SHOWN)

# Every control of the page the banker can see (its box cut to the screen and to every
# scroller holding it has room) that something else takes the tap of: the element at the
# centre of what shows of it is neither itself nor inside it (a toast, a banner over it).
COVERED = r"""() => {
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, summary';
  const found = [];
  const shown = (el) => el.getClientRects().length > 0
    && !el.closest('.sr-only, .skip-link, [hidden]')
    && getComputedStyle(el).visibility !== 'hidden';
  const seen = (el) => {
    let {left, top, right, bottom} = el.getBoundingClientRect();
    left = Math.max(left, 0); top = Math.max(top, 0);
    right = Math.min(right, innerWidth); bottom = Math.min(bottom, innerHeight);
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (a === document.documentElement) continue; // the screen, above
      const q = a.getBoundingClientRect();
      left = Math.max(left, q.left); top = Math.max(top, q.top);
      right = Math.min(right, q.right); bottom = Math.min(bottom, q.bottom);
    }
    return {left, top, right, bottom};
  };
  let count = 0;
  for (const el of document.body.querySelectorAll(CONTROLS)) {
    if (!shown(el) || el.closest('#toasts, #net, dialog')) continue;
    const r = seen(el);
    if (r.right - r.left < 1 || r.bottom - r.top < 1) continue;
    count += 1;
    const x = (r.left + r.right) / 2;
    const y = (r.top + r.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      const name = (el.innerText || el.value || el.getAttribute('aria-label') || '')
        .replace(/\s+/g, ' ').trim().slice(0, 40);
      const over = hit
        ? `${hit.tagName.toLowerCase()}${hit.id ? '#' + hit.id : ''}.${hit.className}` : 'nothing';
      const at = `${Math.round(x)},${Math.round(y)}`;
      found.push(`${el.tagName.toLowerCase()} "${name}" at ${at} under ${over}`);
    }
  }
  return {count, found};
}"""


# The widths a screen is measured at: a phone, a tablet, a laptop.
WIDTHS = [360, 768, 1280]
# Two frames drawn: the page laid out anew (at the window's new width, or with room made for
# what the dock holds: dom.js fits it before the frame that shows it is painted).
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


class AtEachWidth:
    """What a script of this module (``check``, given ``TAP``) finds on each screen looked at,
    at each width of ``WIDTHS``: the screen as it is, the window made that wide (the console's
    layout is its CSS's), ``before`` run first at each width; a picture where asked, or where
    anything is found. One walk of the console measures it at every width."""

    def __init__(
        self, page: Page, out: Path, lang: str, check: str, *, before: str = "", every: bool = False
    ) -> None:
        self.page, self.out, self.lang, self.check = page, out, lang, check
        self.before, self.every = before, every
        self.found: dict[int, dict[str, list[str]]] = {width: {} for width in WIDTHS}
        self.count = 0

    def look(self, name: str, *, picture: bool = False) -> None:
        self.count += 1
        for width in WIDTHS:
            self.page.set_viewport_size({"width": width, "height": HEIGHT[width]})
            self.page.evaluate(FRAMES)
            if self.before:
                self.page.evaluate(self.before)
            found: list[str] = self.page.evaluate(self.check, TAP)
            if found:
                self.found[width][name] = found
            if found or picture or self.every:
                slug = re.sub(r"\W+", "-", name).strip("-").lower()
                path = self.out / f"{width}-{self.lang}-{self.count:02d}-{slug}.png"
                # A table in full; a dialog as the banker sees it, its own scroller at the top.
                full = not self.page.locator("dialog[open]").count()
                self.page.screenshot(path=path, full_page=full)
        self.page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT[WIDTHS[0]]})

    def report(self, width: int) -> str:
        lines = [f"{name}: {line}" for name, each in self.found[width].items() for line in each]
        return "\n".join([f"at {width}-{self.lang}:", *lines, f"pictures in {self.out}"])
