"""What every part of the suite records, and the games it records it on.

Payments of 1 back and forth between p1 and p2 never run out of money, never change a deed
and cost the ledger the same every time: the cost measured is the ledger's and the store's,
not the rules' of one transaction type or another.
"""

from __future__ import annotations

import math
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from ledger.application import TableBank

PAYMENTS = (
    {"type": "payment", "from": "p1", "to": "p2", "amount": 1},
    {"type": "payment", "from": "p2", "to": "p1", "amount": 1},
)
# The long game's mix: the payments and a salary now and then (salary moves Bank money).
LONG_GAME_BODIES = (*PAYMENTS, {"type": "salary", "player": "p3"})
PLAYERS = ["Ann", "Bob", "Cy"]  # set-up is one starting_cash each: 3 transactions


def payment(i: int) -> dict[str, Any]:
    """The i-th payment of a run: p1 to p2 on even i, back on odd."""
    return PAYMENTS[i % 2]


def long_game_document(transactions: int) -> dict[str, Any]:
    """The exported log of a classic game with ``transactions`` transactions.

    Recorded on the aggregate in hand and saved once, in memory: the store under test then
    gets the game through ``import_game``, which is also what the import rate times.
    """
    bank = TableBank(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    gid = bank.create_game("long", "classic", PLAYERS, {})["id"]
    game = bank.storage.load_game(gid)
    for i in range(game.last_seq, transactions):
        game.record(LONG_GAME_BODIES[i % 3])
    bank.storage.save(game)
    return bank.export(gid)


def new_game_with(bank: TableBank, name: str, prior: int) -> dict[str, Any]:
    """A new classic game with ``prior`` transactions recorded (set-up included)."""
    created = bank.create_game(name, "classic", PLAYERS, {})
    for i in range(created["last_seq"], prior):
        bank.record(created["id"], payment(i))
    return created


class Counter(Aggregate):
    """The raw-append baseline: an aggregate with one field and one event that sets it."""

    @event("Created")
    def __init__(self) -> None:
        self.value = 0

    @event("ValueSet")
    def set_value(self, value: int) -> None:
        self.value = value


class RawAppend(Application[Any]):
    """An eventsourcing application that only appends ``Counter`` events."""


def percentile(samples: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``samples`` (``fraction`` of 1): never interpolated, so
    p99 of 100 samples is the 99th smallest."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]
