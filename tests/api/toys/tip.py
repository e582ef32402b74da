"""A toy type whose event class takes the name of a built-in family's event (``PaymentMade``,
``ledger.transactions.money``): "tip: a player gives the banker's table a tip, into the pot".
Loaded only through ``TABLEBANK_TRANSACTION_MODULES``."""

from __future__ import annotations

from ledger.draft import Body, Draft, whole
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction


class PaymentMade(TransactionRecorded):
    """A player's tip into the pot."""


@transaction("tip", PaymentMade, fields=[f.player(), f.amount(required=True)])
def tip(d: Draft, body: Body) -> None:
    """Move the tip from the player to the pot."""
    player = d.player(body["player"])
    amount = whole(body, "amount")
    d.pay(player, "pot", amount)
    d.basis = {"amount": amount}
