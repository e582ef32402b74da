"""Reading a game's log for audit: the hash chain, replay, statements (voids are a
transaction type: ``ledger.transactions.corrections``).

All of it works on transaction records (the dicts the events carry) and plain states, so the
same code serves a live game (whose records come from the event store) and an imported log
(whose records come from a file).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ledger import rules
from ledger.chain import chain_hash
from ledger.draft import History, Txn

__all__ = ["History", "Txn", "replay_steps", "statement", "verify_chain"]
from ledger.ruleset import RuleSet
from ledger.state import State, apply_transaction, copy_state

# -- the hash chain ---------------------------------------------------------------------------


def verify_chain(genesis: str, txns: Iterable[Txn]) -> dict[str, Any]:
    """Recompute every hash from the header on; the first that differs is reported."""
    head = genesis
    count = 0
    for count, txn in enumerate(txns, start=1):
        if txn.get("seq") != count or chain_hash(head, txn) != txn.get("hash"):
            return {"ok": False, "transactions": count - 1, "seq": count, "head": head}
        head = txn["hash"]
    return {"ok": True, "transactions": count, "head": head}


# -- replay and statements --------------------------------------------------------------------


def replay_steps(rs: RuleSet, initial: State, txns: Iterable[Txn]) -> Iterator[dict[str, Any]]:
    """One step per transaction: the balances and every player's net worth after it.

    A net worth is cash plus what the player holds besides (``rules.net_worth``), and only a
    transaction with ``changes`` moves holdings: after one with postings alone (most of a
    game), each worth is the new cash plus the holdings as they were, with no walk over the
    board for every player at every step.
    """
    state = copy_state(initial)
    players = list(state["players"])
    balances = state["balances"]
    holdings: dict[str, int] | None = None
    for txn in txns:
        apply_transaction(state, txn)
        if holdings is None or txn["changes"]:
            holdings = {p: rules.net_worth(rs, state, p) - balances[p] for p in players}
        yield {
            "seq": txn["seq"],
            "transaction": txn,
            "balances": dict(balances),
            "net_worths": {p: balances[p] + holdings[p] for p in players},
        }


def statement(account: str, txns: Iterable[Txn]) -> dict[str, Any]:
    """Every posting into or out of ``account``, signed, with the running balance."""
    balance = 0
    items = []
    for txn in txns:
        for posting in txn["postings"]:
            if account not in (posting["from"], posting["to"]):
                continue
            incoming = posting["to"] == account
            amount = posting["amount"] if incoming else -posting["amount"]
            balance += amount
            items.append(
                {
                    "seq": txn["seq"],
                    "type": txn["type"],
                    "at": txn["at"],
                    "amount": amount,
                    "counterparty": posting["from"] if incoming else posting["to"],
                    "memo": txn["memo"],
                    "balance": balance,
                }
            )
    return {"account": account, "items": items, "balance": balance}
