"""Reading a game's log for audit: voids, the hash chain, replay, statements, export, import.

All of it works on transaction records (the dicts the events carry) and plain states, so the
same code serves a live game (whose records come from the event store) and an imported log
(whose records come from a file).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ledger import rules
from ledger.chain import chain_hash
from ledger.commands import HANDLERS, SETUP_TYPES
from ledger.draft import Draft, whole
from ledger.errors import InvalidField, LedgerError, RuleViolation
from ledger.ruleset import RuleSet
from ledger.state import State, apply_change, apply_transaction, copy_state

Txn = dict[str, Any]
# Given a seq: the transaction, the state just before it, and every transaction after it.
History = Callable[[int], tuple[Txn, State, list[Txn]]]

NOT_VOIDABLE = SETUP_TYPES | {"void", "finish"}


def draft_void(d: Draft, body: dict[str, Any], history: History | None) -> None:
    """Reverse transaction ``seq`` if every later one would still stand without it."""
    seq = whole(body, "seq")
    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidField("reason", "say why the transaction is voided")
    if seq > d.before["last_seq"]:
        raise InvalidField("seq", f"no transaction {seq}; the last is {d.before['last_seq']}")
    if str(seq) in d.before["voided"]:
        raise RuleViolation("already_voided", seq=seq, voided_by=d.before["voided"][str(seq)])
    assert history is not None, "a void needs the game's history"
    target, state, later = history(seq)
    if target["type"] in NOT_VOIDABLE:
        raise RuleViolation("void_conflict", reason="not_voidable", seq=seq, type=target["type"])
    # A later transaction already voided, and its void, cancel out: they need not stand.
    voided = d.before["voided"]
    cancelled = {t["seq"] for t in later if str(t["seq"]) in voided}
    cancelled |= {voided[str(s)] for s in cancelled}
    for txn in later:
        if txn["seq"] not in cancelled:
            state = _replay_without(d, state, txn, seq)
    # Every later transaction stands: take the target's postings and changes back.
    for posting in reversed(target["postings"]):
        d.pay(posting["to"], posting["from"], posting["amount"])
    for change in reversed(target["changes"]):
        reverse = {**change, "from": change["to"], "to": change["from"]}
        _check_from(d, reverse, target["seq"], seq)
        d.changes.append(reverse)
        apply_change(d.state, reverse)
    d.change("void", d.seq, seq=seq)
    d.basis = {
        "voided": seq,
        "voided_type": target["type"],
        "reason": reason.strip(),
        "later_transactions_checked": len(later) - len(cancelled),
    }


def _replay_without(d: Draft, state: State, txn: Txn, voided: int) -> State:
    """Run a later transaction again on the table without the voided one; same facts or refuse."""
    rd = Draft(d.rs, state, d.options, seq=txn["seq"])
    try:
        if txn["type"] == "void":
            # A later correction reverses its own target, whose facts stood: re-apply them.
            for posting in txn["postings"]:
                rd.pay(posting["from"], posting["to"], posting["amount"])
            for change in txn["changes"]:
                _check_from(rd, change, txn["seq"], voided)
                rd.changes.append(change)
                apply_change(rd.state, change)
        else:
            HANDLERS[txn["type"]][0](rd, dict(txn["request"]))
        rd.check_funds()
    except LedgerError as err:
        raise RuleViolation(
            "void_conflict",
            reason="refused",
            seq=txn["seq"],
            type=txn["type"],
            depends_on=voided,
            would_be=err.code,
        ) from None
    if rd.postings != txn["postings"] or rd.changes != txn["changes"]:
        raise RuleViolation(
            "void_conflict", reason="changed", seq=txn["seq"], type=txn["type"], depends_on=voided
        )
    rd.state["last_seq"] = txn["seq"]
    return rd.state


def _check_from(d: Draft, change: dict[str, Any], at_seq: int, voided: int) -> None:
    target = {k: v for k, v in change.items() if k not in ("kind", "from", "to", "standings")}
    if d._current(change["kind"], target) != change["from"]:
        raise RuleViolation("void_conflict", reason="table_changed", seq=at_seq, depends_on=voided)


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
