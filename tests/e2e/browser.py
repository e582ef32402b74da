"""Debian's chromium under Playwright for the console's browser tests, started the one way.

Imported as ``from browser import chromium`` (pytest puts ``tests/e2e`` on the path). Playwright
drives Debian's ``chromium-headless-shell`` (the old headless mode: the same Blink, about half
the CPU of ``chromium --headless``; ``/usr/bin/chromium`` where it is not installed;
``$TABLEBANK_CHROMIUM`` chooses another), never a browser it downloads; the flags
keep it off the network, which this machine closes (it would try Google's hosts at each start).
Without Playwright or chromium the tests are skipped, or fail where ``TABLEBANK_REQUIRE_ALL=1``
(CI) says everything must run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"  # the package's binary, no wrapper
CHROMIUM = os.environ.get("TABLEBANK_CHROMIUM") or (
    HEADLESS_SHELL if Path(HEADLESS_SHELL).is_file() else "/usr/bin/chromium"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # The name a banker may open the console at (tests/e2e/test_console_links.py), resolved
    # by chromium itself: RFC 6761 keeps ``.test`` from ever being a real host.
    "--host-resolver-rules=MAP bank.test 127.0.0.1",
]


def unavailable(reason: str) -> None:
    if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
        pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)")
    pytest.skip(reason)


@contextlib.contextmanager
def chromium(wait_ms: int) -> Iterator[Browser]:
    """A headless chromium; ``expect`` waits up to ``wait_ms`` for what a test looks for."""
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        unavailable("Playwright for Python is not installed (pip install -e '.[test]')")
        raise
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        unavailable(f"no chromium at {CHROMIUM} (apt-get install -y chromium-headless-shell)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        expect.set_options(timeout=wait_ms)
        try:
            yield browser
        finally:
            browser.close()
