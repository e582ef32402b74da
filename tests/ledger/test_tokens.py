"""Replacing a role's token (API.md v1.3, "Administration") between two banks on one store, as
two processes or two servers hold them: each refuses the old token at once, a replacement
that races another is tried again and comes last, and nothing is removed from the store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.access import Seat
from ledger.application import TableBank
from ledger.errors import Forbidden, NotFound, Unauthorized
from ledger.store import persistence_env


@pytest.fixture
def banks(db_url: str) -> Iterator[tuple[TableBank, TableBank]]:
    first = TableBank(env=persistence_env(db_url))
    second = TableBank(env=persistence_env(db_url))
    yield first, second
    first.close()
    second.close()


def test_another_bank_refuses_the_old_token_it_had_in_hand(banks) -> None:
    first, second = banks
    game = first.create_game("t", "classic", ["Ann", "Bob"])
    old = game["tokens"]["p2"]
    assert second.authenticate(game["id"], old) == "p2"  # its grant now in the cache

    new = first.replace_token(game["id"], "p2", "banker")["token"]

    with pytest.raises(Unauthorized) as refused:
        second.authenticate(game["id"], old)
    assert refused.value.extra == {"replaced": True}
    assert second.authenticate(game["id"], new) == "p2"


def test_a_replacement_by_a_bank_that_saw_an_older_seat_comes_last(banks) -> None:
    first, second = banks
    game = first.create_game("t", "classic", ["Ann", "Bob"])
    # The second bank last read the seat at its first generation.
    one = first.replace_token(game["id"], "p1", "banker")["token"]
    second.storage.repository.get(Seat.create_id(first.storage.load_game(game["id"]).id, "p1"))
    two = first.replace_token(game["id"], "p1", "banker")["token"]

    three = second.replace_token(game["id"], "p1", "banker")["token"]  # its seat was stale

    for bank in banks:
        for token in (game["tokens"]["p1"], one, two):
            with pytest.raises(Unauthorized):
                bank.authenticate(game["id"], token)
        assert bank.authenticate(game["id"], three) == "p1"


def test_a_replacement_adds_events_and_removes_none(banks) -> None:
    first, _ = banks
    game = first.create_game("t", "classic", ["Ann", "Bob"])
    before = first.storage.recorder.max_notification_id() or 0

    first.replace_token(game["id"], "p2", "banker")

    added = first.storage.recorder.select_notifications(before, 10, inclusive_of_start=False)
    # The seat's event and the new token's grant: one write.
    assert len(added) == 2
    assert first.authenticate(game["id"], game["tokens"]["p1"]) == "p1"


def test_only_the_banker_replaces_a_token(banks) -> None:
    first, _ = banks
    game = first.create_game("t", "classic", ["Ann", "Bob"])

    for by in ("p1", "admin"):
        with pytest.raises(Forbidden):
            first.replace_token(game["id"], "p2", by)
    with pytest.raises(NotFound):
        first.replace_token(game["id"], "p3", "banker")
