"""How a transaction type is declared: once, beside its handler, with everything the rest of
the ledger needs to know about it.

A family module (``money``, ``deeds``, ...) defines each type's event class and decorates its
handler::

    class RentPaid(TransactionRecorded):
        \"\"\"Rent paid to a deed's owner.\"\"\"

    @transaction("rent", RentPaid, player_field="payer", refusals=("own_property", ...))
    def pay_rent(d: Draft, body: Body) -> None:
        \"\"\"Charge the rent the rules give for the deed the payer landed on.\"\"\"

``REGISTRY`` then holds one ``TransactionType`` per type, and every table the ledger and the
API used to keep by hand (handlers, event names, set-up types, types that cannot be voided,
which field names the payer a player may record for, the rule sets a type belongs to, the
refusals it can raise) is read off it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from eventsourcing.domain import Aggregate

from ledger.draft import Body, Draft
from ledger.errors import InvalidField
from ledger.refusals import REFUSALS
from ledger.state import apply_transaction

Handler = Callable[[Draft, Body], None]

CLASSIC = "classic"
ELITE = "millionaire-elite"
EVERY_VARIANT = frozenset({CLASSIC, ELITE})

# What any transaction may meet, through the draft's own checks: a finished game, an unknown
# or bankrupt player, someone who cannot pay.
COMMON_REFUSALS = ("game_finished", "unknown_player", "player_bankrupt", "insufficient_funds")


class TransactionRecorded(Aggregate.Event):
    """A transaction accepted by the rules: the event carries its whole record."""

    txn: dict[str, Any]

    def apply(self, aggregate: Aggregate) -> None:
        apply_transaction(aggregate.state, self.txn)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class TransactionType:
    """Everything about one transaction type, declared beside its handler."""

    name: str
    handler: Handler
    event: type[TransactionRecorded]
    variants: frozenset[str]
    setup: bool  # recorded by the ledger itself when a game is created
    voidable: bool
    player_field: str | None  # a player token may record it with itself in this field
    refusals: tuple[str, ...]  # the rule refusal codes it can raise, besides the common ones

    def check_variant(self, variant: str) -> None:
        """Refuse the type in a game whose rule set does not have it."""
        if variant not in self.variants:
            raise InvalidField("type", f"a {variant} game has no {self.name} transactions")


REGISTRY: dict[str, TransactionType] = {}


def transaction(
    name: str,
    event: type[TransactionRecorded],
    *,
    variants: Iterable[str] = EVERY_VARIANT,
    setup: bool = False,
    voidable: bool | None = None,
    player_field: str | None = None,
    refusals: Iterable[str] = (),
) -> Callable[[Handler], Handler]:
    """Declare the transaction type ``name``, recorded by the decorated handler as one
    ``event``. Set-up types are never voidable; others are unless told."""

    def register(handler: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"transaction type {name!r} declared twice")
        unknown = [code for code in refusals if code not in REFUSALS]
        if unknown:
            raise ValueError(f"{name}: refusal codes not in ledger/refusals.py: {unknown}")
        REGISTRY[name] = TransactionType(
            name=name,
            handler=handler,
            event=event,
            variants=frozenset(variants),
            setup=setup,
            voidable=(not setup) if voidable is None else voidable,
            player_field=player_field,
            refusals=tuple(refusals),
        )
        return handler

    return register
