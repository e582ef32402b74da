"""A toy type with plain fields, declared as any family declares its types: "donation: a
player pays into the pot". Loaded only through ``TABLEBANK_TRANSACTION_MODULES``."""

from __future__ import annotations

from ledger.draft import Body, Draft, whole
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction


class DonationMade(TransactionRecorded):
    """A player pays into the pot."""


@transaction(
    "donation", DonationMade, player_field="player", fields=[f.player(), f.amount(required=True)]
)
def donate(d: Draft, body: Body) -> None:
    """Move the amount from the player to the pot."""
    player = d.player(body["player"])
    amount = whole(body, "amount")
    d.pay(player, "pot", amount)
    d.basis = {"amount": amount}
