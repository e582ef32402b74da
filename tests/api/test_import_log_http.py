"""A refused import writes one line to the log, what was refused and why, never a traceback; a
defect's traceback is logged as before (API.md v1.2, Corrections).

In the app, without gevent: the traceback gevent's hub printed for a job of its thread pool is
``tests/api/test_offload.py``'s, and a real server's log ``tests/e2e/test_serve_logs.py``'s.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from ledger.application import TableBank

IMPORT_URL = "/api/v1/games/import"


@pytest.fixture
def exported(table) -> dict[str, Any]:
    """Friday night's log: Ann, Bob and Cy's starting cash, seq 1-3."""
    return table.get("/export").json  # type: ignore[no-any-return]


def import_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if "import" in record.getMessage()]


def test_an_import_with_a_bad_time_writes_one_warning_naming_the_field(client, exported, caplog):
    exported["transactions"][0]["at"] = "yesterday"
    caplog.set_level(logging.DEBUG)

    response = client.post(IMPORT_URL, json=exported)

    assert response.status_code == 422
    [record] = import_records(caplog)
    assert record.levelno == logging.WARNING
    assert record.exc_info is None
    assert record.getMessage() == (
        "import refused: 422 validation_error: transactions.0.at: Not an RFC 3339 UTC time, "
        "such as 2026-11-29T20:15:03.120Z."
    )


def test_an_import_whose_chain_breaks_writes_one_warning_with_the_detail(client, exported, caplog):
    # Bob's starting cash (seq 2) changed from 1500: its hash no longer holds.
    exported["transactions"][1]["postings"][0]["amount"] = 1499
    caplog.set_level(logging.DEBUG)

    response = client.post(IMPORT_URL, json=exported)

    assert response.json["code"] == "log_invalid"
    assert [record.getMessage() for record in import_records(caplog)] == [
        "import refused: 422 log_invalid: transaction 2 does not match its hash"
    ]


def test_a_log_line_names_three_bad_fields_and_counts_the_rest(client, exported, caplog):
    exported.update(format=1, head=7)
    exported["game"].update(name="", created="never")
    caplog.set_level(logging.DEBUG)

    response = client.post(IMPORT_URL, json=exported)

    assert len(response.json["errors"]) == 4
    [record] = import_records(caplog)
    assert record.getMessage() == (
        "import refused: 422 validation_error: format: Not a valid string.; "
        "game.name: Length must be between 1 and 40.; "
        "game.created: Not an RFC 3339 UTC time, such as 2026-11-29T20:15:03.120Z. (and 1 more)"
    )


def test_a_field_name_with_a_newline_stays_on_the_line(client, exported, caplog):
    exported["game"]["bad\nkey\u2028"] = 1
    caplog.set_level(logging.DEBUG)

    client.post(IMPORT_URL, json=exported)

    [record] = import_records(caplog)
    assert record.getMessage() == (
        "import refused: 422 validation_error: game.bad\\nkey\\u2028: Unknown field."
    )


def test_a_body_that_is_not_json_is_one_warning(client, caplog):
    caplog.set_level(logging.DEBUG)

    response = client.post(IMPORT_URL, data=b"{not json", content_type="application/json")

    assert response.status_code == 422
    [record] = import_records(caplog)
    assert record.exc_info is None
    assert record.getMessage() == (
        "import refused: 422 validation_error: body: Invalid JSON body: Expecting property name "
        "enclosed in double quotes."
    )


def test_an_import_that_fails_on_a_defect_still_logs_its_traceback(
    client, exported, caplog, monkeypatch
):
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the rebuild broke")

    monkeypatch.setattr(TableBank, "rebuild_import", fail)
    caplog.set_level(logging.DEBUG)

    response = client.post(IMPORT_URL, json=exported)

    assert response.status_code == 500
    [record] = [r for r in caplog.records if r.exc_info is not None]
    assert record.exc_info[1].args == ("the rebuild broke",)  # type: ignore[index]
    assert import_records(caplog) == []  # no refusal: a defect
