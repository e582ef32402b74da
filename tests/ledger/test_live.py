"""Following a game's log as it is written (``TableBank.follow``, behind the event stream of
API.md): on every store of the matrix, since what a follower sees comes from the store's
notification log."""

from __future__ import annotations

import time

from ledger_helpers import Table

from ledger.application import TableBank

DEADLINE = 10.0  # seconds for a transaction to reach a follower: it takes milliseconds


def taken(follower, until_seq: int) -> list[int]:
    """The seqs a follower gets, until ``until_seq`` or the deadline."""
    seqs: list[int] = []
    deadline = time.monotonic() + DEADLINE
    while (not seqs or seqs[-1] < until_seq) and time.monotonic() < deadline:
        seqs += [txn["seq"] for txn in follower.next_batch(0.2)]
    return seqs


def test_a_follower_from_beyond_the_last_seq_gets_every_later_transaction(
    stored_bank: TableBank,
) -> None:
    # API.md, v1.2 "Event streams are bounded": a position beyond the game's last seq is taken
    # as its last seq (one from an older game of the same id, or mistyped, dropped every live
    # write up to it).
    table = Table(stored_bank)  # seq 1-3: the starting cash
    follower = stored_bank.follow(table.id, after=100)
    try:
        table.record("payment", **{"from": "p1", "to": "p2", "amount": 30})  # seq 4
        table.record("salary", player="p1")  # seq 5
        assert taken(follower, 5) == [4, 5]
    finally:
        follower.close()


def test_a_follower_from_a_seq_gets_what_came_after_it_and_then_what_is_written(
    stored_bank: TableBank,
) -> None:
    table = Table(stored_bank)
    follower = stored_bank.follow(table.id, after=2)
    try:
        table.record("salary", player="p2")  # seq 4
        assert taken(follower, 4) == [3, 4]
    finally:
        follower.close()
