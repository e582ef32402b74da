"""Every transaction type of the ledger, each declared once beside its handler
(``ledger.transactions.declare``), one module per family:

- ``money``: starting cash, salary, payments, cards, taxes, the Free Parking pot;
- ``deeds``: dealing, buying, auctions, rent, mortgages;
- ``buildings``: houses and hotels bought and sold;
- ``jail``: the fine, the cards, going in and out;
- ``trades``: deals between players;
- ``bankruptcy``: a player's end;
- ``ious``: loans between players;
- ``turns``: whose turn it is, and the end of the game;
- ``elite``: the Millionaire Elite types;
- ``disputes``: transactions disputed, and disputes resolved;
- ``corrections``: voids (which may resolve a dispute).

The tables below are read off ``REGISTRY``; nothing else lists the types.
"""

from __future__ import annotations

import importlib
import os

from eventsourcing.utils import register_topic

from ledger.transactions import (
    bankruptcy,
    buildings,
    corrections,
    deeds,
    disputes,
    elite,
    ious,
    jail,
    money,
    trades,
    turns,
)
from ledger.transactions.declare import (
    COMMON_REFUSALS,
    REGISTRY,
    TransactionRecorded,
    TransactionType,
)

__all__ = [
    "COMMON_REFUSALS",
    "ORDERED",
    "RECORDABLE",
    "REGISTRY",
    "SETUP_TYPES",
    "TransactionRecorded",
    "TransactionType",
]

# A house's own types: modules of families of its own, named in the environment
# (``TABLEBANK_TRANSACTION_MODULES=pkg.module,...``), declared like those above.
EXTRA_FAMILIES = [
    importlib.import_module(name.strip())
    for name in os.environ.get("TABLEBANK_TRANSACTION_MODULES", "").split(",")
    if name.strip()
]

# The families in the order the API lists their types (docs/api.md's table, /moves).
FAMILIES = [money, deeds, buildings, jail, trades, bankruptcy, ious, turns, elite, disputes]
FAMILIES += [corrections, *EXTRA_FAMILIES]
_FAMILY_NAMES = [family.__name__ for family in FAMILIES]
ORDERED: tuple[str, ...] = tuple(
    sorted(REGISTRY, key=lambda name: _FAMILY_NAMES.index(REGISTRY[name].handler.__module__))
)
"""Every declared type: by family, then as each family declares them."""

SETUP_TYPES = frozenset(name for name, t in REGISTRY.items() if t.setup)
"""Recorded by the ledger itself when a game is created; never sent by a client."""

RECORDABLE = frozenset(name for name, t in REGISTRY.items() if not t.setup)
"""What a client may send."""

# Games stored before the types moved here name their events as inner classes of Game; those
# topics resolve to the same classes.
for _declared in REGISTRY.values():
    register_topic(f"ledger.game:Game.{_declared.event.__name__}", _declared.event)
