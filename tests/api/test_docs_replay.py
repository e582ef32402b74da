"""The pages that show the server's answers are replayed, and fail when an answer drifts.

docs/api.md and docs/audit.md each run against a fresh app, every example in the order of its
game's log; each answer they show must be what the server answers (the conventions are in
``doc_pages`` and in a comment at the top of each page). The figures are the pages' own: these
tests check the pages, and the rules behind the figures are tested where they live.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from doc_pages import Shell, Unreplayable, plan, replay
from flask.testing import FlaskClient

from api.cli import main as tablebank

DOCS = Path(__file__).parents[2] / "docs"


@pytest.fixture
def shell(client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Shell:
    """The page's terminal: the app's test client, and a folder for the files it writes."""
    if shutil.which("jq") is None:
        reason = "the pages pipe answers through jq, which is not installed"
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(reason)
    monkeypatch.chdir(tmp_path)  # tablebank reads the files the page saved
    return Shell(client, tmp_path, tablebank)


@pytest.mark.parametrize("page", ["api.md", "audit.md"])
def test_page_shows_what_the_server_answers(page: str, shell: Shell) -> None:
    report = replay(f"docs/{page}", (DOCS / page).read_text(encoding="utf-8"), shell)

    if report.drifts:
        pytest.fail(report.message(), pytrace=False)
    assert report.answers >= 20  # the page was read, not skipped over


# The replay itself, on a page of two examples.
PAGE = """\
# A page

```sh
BASE=http://127.0.0.1:8000/api/v1
curl -s -X POST "$BASE/games" -H 'Content-Type: application/json' \\
  -d '{"name": "Tuesday", "ruleset": "classic", "players": ["Ann", "Bob"]}' > game.json
GAME=$(jq -r .id game.json); BANKER=$(jq -r .banker_token game.json)
```

## Salary

```sh
curl -s -X POST "$BASE/games/$GAME/transactions" -H "Authorization: Bearer $BANKER" \\
  -H 'Content-Type: application/json' -d '{"type": "salary", "player": "p1"}'
```
```
HTTP/1.1 201 CREATED
ETag: "d56a228fba191e7d"
```
```json
{"seq": 3, "type": "salary", "postings": [{"from": "bank", "to": "p1", "amount": 200}], …}
```

## Rent

```sh
curl -s -X POST "$BASE/games/$GAME/transactions" -H "Authorization: Bearer $BANKER" \\
  -H 'Content-Type: application/json' -H 'If-Match: "d56a228fba191e7d"' \\
  -d '{"type": "payment", "from": "p2", "to": "p1", "amount": 50}'
```
```json
{"seq": 4, "type": "payment", "balances": {"bank": -3200, "pot": 0, "p1": 1750, "p2": 1450},
 …}
```
"""


def test_page_that_agrees_with_the_server_has_no_drift(shell: Shell) -> None:
    report = replay("page.md", PAGE, shell)

    assert report.drifts == []
    assert (report.commands, report.answers) == (3, 2)


def test_changed_figure_is_named_with_its_page_heading_and_line(shell: Shell) -> None:
    page = PAGE.replace('"amount": 200}]', '"amount": 250}]')

    report = replay("page.md", page, shell)

    assert len(report.drifts) == 1
    assert report.drifts[0].startswith("page.md:13 (## Salary) `curl -s -X POST")
    assert ".postings[0].amount: shown as 250, the server says 200" in report.drifts[0]


def test_field_left_out_without_an_ellipsis_is_a_drift(shell: Shell) -> None:
    page = PAGE.replace('"amount": 200}], …}', '"amount": 200}]}')

    report = replay("page.md", page, shell)

    assert "the server also says" in report.message()
    assert '"balances"' in report.message()


def test_version_shown_is_the_one_the_server_gave(shell: Shell) -> None:
    # Sent stale, the If-Match no longer names the version of the salary's answer: 412.
    page = PAGE.replace('If-Match: "d56a228fba191e7d"', 'If-Match: "0000000000000000"')

    report = replay("page.md", page, shell)

    assert "(## Rent)" in report.message()
    assert "412" in report.message()


def test_answer_with_no_command_before_it_must_say_it_is_not_replayed() -> None:
    with pytest.raises(Unreplayable, match=r"page.md:3 \(# A page\)"):
        plan("page.md", '# A page\n\n```json\n{"seq": 1}\n```\n')

    steps, report = plan("page.md", "# A page\n<!-- not replayed: prose -->\n```json\n{}\n```\n")
    assert (steps, report.not_replayed) == ([], 1)
