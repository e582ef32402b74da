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
- ``players``: a player's name corrected;
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
    players,
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
FAMILIES = [money, deeds, buildings, jail, trades, bankruptcy, ious, turns, players, elite]
FAMILIES += [disputes, corrections, *EXTRA_FAMILIES]
_FAMILY_NAMES = [family.__name__ for family in FAMILIES]
ORDERED: tuple[str, ...] = tuple(
    sorted(REGISTRY, key=lambda name: _FAMILY_NAMES.index(REGISTRY[name].handler.__module__))
)
"""Every declared type: by family, then as each family declares them."""

SETUP_TYPES = frozenset(name for name, t in REGISTRY.items() if t.setup)
"""Recorded by the ledger itself when a game is created; never sent by a client."""

RECORDABLE = frozenset(name for name, t in REGISTRY.items() if not t.setup)
"""What a client may send."""

# Games stored before the types moved here (v1) name their events as inner classes of Game;
# those topics resolve to the same classes. The names are v1's, written out: every other event
# is stored under its own module's topic, so an event class of a family may take any name,
# the name of another family's event too.
V1_EVENT_NAMES = frozenset(
    {
        "AuctionWon", "BuildingsBought", "BuildingsSold", "CardApplied", "DeedBought",
        "DeedMortgaged", "DeedsDealt", "GameFinished", "InsuranceMoved", "IouForgiven",
        "IouIssued", "IouRepaid", "IouTransferred", "JackpotPlayed", "JailCardMoved",
        "JailFinePaid", "LeftJail", "MortgageLifted", "PaymentMade", "PlayerWentBankrupt",
        "PotCollected", "PotSeeded", "RentPaid", "RoundTaxPaid", "SalaryPaid", "SentToJail",
        "SharePriceMoved", "SharesTraded", "StartingCashPaid", "TaxExemptionGranted", "TaxPaid",
        "TradeMade", "TransactionVoided", "TurnStarted",
    }
)  # fmt: skip


def _v1_events() -> dict[str, type[TransactionRecorded]]:
    """Each v1 name's event, from the families that stored it (a house's own never did)."""
    built_in = {family.__name__ for family in FAMILIES} - {f.__name__ for f in EXTRA_FAMILIES}
    found: dict[str, type[TransactionRecorded]] = {}
    for declared in REGISTRY.values():
        event = declared.event
        if event.__name__ not in V1_EVENT_NAMES or event.__module__ not in built_in:
            continue
        if found.get(event.__name__, event) is not event:
            raise ValueError(
                f"two events named {event.__name__} in {found[event.__name__].__module__} and "
                f"{event.__module__}: games stored by v1 name one of them "
                f"(ledger.game:Game.{event.__name__}); rename the new one"
            )
        found[event.__name__] = event
    return found


for _name, _event in _v1_events().items():
    register_topic(f"ledger.game:Game.{_name}", _event)
