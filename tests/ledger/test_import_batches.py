"""An imported game is saved in batches of events, other requests served between two, and is
nobody's until its last batch, which also saves its tokens and its line in the list
(``ledger.setup.SAVED_AT_ONCE``; issue 31: one transaction of 76,000 events held every other
table's writes up to 4.4 s). Classic figures (docs/rules.md): each player starts with 1,500;
the log's payments of 1 go each way in turn, so Ann and Bob end as they began.
"""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.persistence import OperationalError
from long_logs import long_log

from ledger import setup
from ledger.application import TableBank

BATCH = 100  # events a batch here, so that a short log makes several
MOVES = 450  # payments: with the set-up's, 453 transactions and their game's events


@pytest.fixture
def inserts(stored_bank: TableBank, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of events of each insert into the store's events, in order."""
    monkeypatch.setattr(setup, "SAVED_AT_ONCE", BATCH)
    counted: list[int] = []
    recorder = stored_bank.storage.recorder
    insert = recorder.insert_events

    def counting(events: Any, **kwargs: Any) -> Any:
        counted.append(len(events))
        return insert(events, **kwargs)

    monkeypatch.setattr(recorder, "insert_events", counting)
    return counted


def test_a_long_import_is_saved_in_batches_and_listed_with_the_last(
    stored_bank: TableBank, inserts: list[int]
) -> None:
    log = long_log(MOVES)
    listed_between: list[list[str]] = []
    stored_bank.setup._between = lambda: listed_between.append(
        [line["id"] for line in stored_bank.list_games()]
    )

    imported = stored_bank.import_game(log)

    events = stored_bank.storage.load_game(imported["id"]).version
    batches = -(-events // BATCH)  # rounded up
    assert events > MOVES + 3
    # Every batch but the last holds BATCH of the game's events; the last, the rest with the
    # token grants and the line in the list.
    assert inserts[: batches - 1] == [BATCH] * (batches - 1)
    assert inserts[batches - 1] > events - (batches - 1) * BATCH
    assert len(inserts) == batches
    # Between two batches, the list did not show the game.
    assert listed_between[: batches - 1] == [[]] * (batches - 1)
    assert [line["id"] for line in stored_bank.list_games()] == [imported["id"]]
    game = stored_bank.game(imported["id"])
    assert (game["balances"]["p1"], game["balances"]["p2"], game["last_seq"]) == (1500, 1500, 453)
    assert stored_bank.export(imported["id"])["head"] == log["head"]


def test_an_import_that_fails_between_two_batches_lists_nothing_and_may_be_sent_again(
    stored_bank: TableBank, inserts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = long_log(MOVES)
    recorder = stored_bank.storage.recorder
    counting = recorder.insert_events

    def failing_third(events: Any, **kwargs: Any) -> Any:
        if len(inserts) == 2:
            inserts.append(len(events))
            raise OperationalError("the store went away")
        return counting(events, **kwargs)

    monkeypatch.setattr(recorder, "insert_events", failing_third)
    with pytest.raises(OperationalError):
        stored_bank.import_game(log)
    assert stored_bank.list_games() == []

    monkeypatch.setattr(recorder, "insert_events", counting)
    imported = stored_bank.import_game(log)  # the client sends it again: a game of its own
    assert [line["id"] for line in stored_bank.list_games()] == [imported["id"]]
    assert stored_bank.game(imported["id"])["balances"]["p1"] == 1500
    assert stored_bank.export(imported["id"])["head"] == log["head"]
