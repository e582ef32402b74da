"""``idempotency_in_progress`` (API.md, "Errors": "409 idempotency_in_progress: the first
request with that key is still being recorded"; issue 29, item 18).

A dry run with an Idempotency-Key answers as the real repeat would (docs/api.md, "Dry run"):
the recorded transaction, or ``idempotency_key_reused``. While the first request with that key
is still being recorded, neither is known yet: the dry run answers 409
``idempotency_in_progress`` and records nothing; asked again once the first is recorded, it
answers the replay. A real repeat meanwhile waits for the first and replays it (never a 409:
tests/e2e/test_concurrency.py races them).

The first write is held inside its save (the store's commit) until the test lets it go.
Figures from docs/rules.md: every classic player starts with 1,500; the Bank pays 200 at GO.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from api.bank import EXTENSION

SALARY = {"type": "salary", "player": "p1"}
KEY = "go-ann-1"


class HeldSave:
    """The store's commit of the first write, held until ``release``."""

    def __init__(self, app: Flask) -> None:
        self.commit = app.extensions[EXTENSION].writing.group_commit
        self.save = self.commit.save
        self.entered = threading.Event()
        self.released = threading.Event()

    def __call__(self, *objs: Any) -> None:
        self.entered.set()
        assert self.released.wait(timeout=30), "the test never let the save go"
        self.save(*objs)

    def release(self) -> None:
        self.released.set()


@pytest.fixture
def held(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldSave]:
    hold = HeldSave(app)
    monkeypatch.setattr(hold.commit, "save", hold)
    yield hold
    hold.release()


def post(table: Any, body: dict[str, Any], key: str, *, dry_run: bool = False) -> Any:
    return table.client.post(
        table.url + "/transactions" + ("?dry_run=true" if dry_run else ""),
        json=body,
        headers={**table.auth(), "Idempotency-Key": key},
    )


def test_a_dry_run_of_a_key_being_recorded_is_told_to_ask_again(table, held):
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(post(table, SALARY, KEY)))
    first.start()
    assert held.entered.wait(timeout=30)

    while_recording = post(table, SALARY, KEY, dry_run=True)
    other_body = post(table, {"type": "salary", "player": "p2"}, KEY, dry_run=True)
    other_key = post(table, SALARY, "go-ann-2", dry_run=True)
    held.release()
    first.join(timeout=30)
    after = post(table, SALARY, KEY, dry_run=True)

    assert while_recording.status_code == 409
    assert while_recording.mimetype == "application/problem+json"
    assert while_recording.json["code"] == "idempotency_in_progress"
    assert while_recording.json["title"] and while_recording.json["detail"]
    # Another body with that key: whether it is refused is not known yet either.
    assert other_body.status_code == 409
    assert other_body.json["code"] == "idempotency_in_progress"
    # Another key is no repeat: what a salary would record now, Ann's 1,500 + 200.
    assert other_key.status_code == 200
    assert other_key.json["balances"]["p1"] == 1700
    # The first is recorded once; asked again, the dry run answers its replay.
    (recorded,) = answers
    assert recorded.status_code == 201
    assert recorded.json["balances"]["p1"] == 1700
    assert after.status_code == 201
    assert after.headers["Idempotent-Replayed"] == "true"
    assert after.json["seq"] == recorded.json["seq"]
    assert table.state()["last_seq"] == recorded.json["seq"]
    assert table.state()["balances"]["p1"] == 1700


def test_a_real_repeat_of_a_key_being_recorded_waits_and_replays(table, held):
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(post(table, SALARY, KEY)))
    first.start()
    assert held.entered.wait(timeout=30)
    repeats: list[Any] = []
    repeat = threading.Thread(target=lambda: repeats.append(post(table, SALARY, KEY)))
    repeat.start()

    held.release()
    first.join(timeout=30)
    repeat.join(timeout=30)

    (recorded,), (replayed,) = answers, repeats
    assert recorded.status_code == replayed.status_code == 201
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json == recorded.json
    assert table.state()["balances"]["p1"] == 1700  # paid once


def test_the_document_lists_it_among_a_write_s_409s(client):
    document = client.get("/api/v1/openapi.json").json
    conflict = document["components"]["schemas"]["Conflict"]["discriminator"]["mapping"]
    variant = document["components"]["schemas"]["ProblemIdempotencyInProgress"]

    assert conflict["idempotency_in_progress"].endswith("/ProblemIdempotencyInProgress")
    assert variant["properties"]["code"] == {"type": "string", "enum": ["idempotency_in_progress"]}
