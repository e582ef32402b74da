"""Corrections: a void reverses an earlier transaction, which stays in the log, if every later
transaction would still stand without it; a void that names a dispute about that transaction
closes it as voided.

docs/audit.md, "Corrections"; API.md: a ``void`` is accepted only if every later transaction
would still be accepted with the same postings had the voided one never happened.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ledger.draft import Body, Draft, whole
from ledger.errors import InvalidField, LedgerError, RuleViolation
from ledger.state import State
from ledger.transactions import form as f
from ledger.transactions.declare import REGISTRY, TransactionRecorded, transaction
from ledger.transactions.disputes import open_dispute_of, open_disputes_about

Txn = dict[str, Any]


class TransactionVoided(TransactionRecorded):
    """A correction: an earlier transaction reversed."""


class VoidBasis(TypedDict):
    """The transaction voided, why, how many later ones were checked; the dispute it closes."""

    voided: int
    voided_type: str
    reason: str
    later_transactions_checked: int
    dispute: NotRequired[int]


@transaction(
    "void",
    TransactionVoided,
    voidable=False,
    refusals=["already_voided", "void_conflict", "unknown_dispute", "dispute_closed"],
    reads_table=False,
    fields=[
        f.seq(),
        f.text("reason"),
        f.seq(
            "dispute",
            required=False,
            description="the open dispute about seq that this void resolves",
        ),
    ],
    basis=VoidBasis,
)
def void_transaction(d: Draft[VoidBasis], body: Body) -> None:
    """Reverse transaction ``seq`` if every later one would still stand without it."""
    seq = whole(body, "seq")
    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidField("reason", "say why the transaction is voided")
    if seq > d.before["last_seq"]:
        raise InvalidField("seq", f"no transaction {seq}; the last is {d.before['last_seq']}")
    if str(seq) in d.before["voided"]:
        raise RuleViolation("already_voided", seq=seq, voided_by=d.before["voided"][str(seq)])
    assert d.history is not None, "a void needs the game's history"
    target, state, later = d.history(seq)
    if not REGISTRY[target["type"]].voidable:
        raise RuleViolation("void_conflict", reason="not_voidable", seq=seq, type=target["type"])
    dispute = _dispute_resolved(d, body, seq)
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
        d.apply(reverse)
    d.change("void", d.seq, seq=seq)
    d.basis = {
        "voided": seq,
        "voided_type": target["type"],
        "reason": reason.strip(),
        "later_transactions_checked": len(later) - len(cancelled),
    }
    if dispute is not None:
        closed = {"status": "voided", "resolved_by": d.seq, "note": reason.strip()}
        d.change("dispute_status", closed, dispute=dispute)
        d.basis["dispute"] = dispute


def _dispute_resolved(d: Draft, body: Body, seq: int) -> int | None:
    """The open dispute about ``seq`` this void closes: the one named, which must be about
    ``seq``; with one open and none named, the void is refused (the dispute must say how it
    ended)."""
    if body.get("dispute") is None:
        pending = open_disputes_about(d, seq)
        if pending:
            raise InvalidField(
                "dispute",
                f"transaction {seq} is disputed (dispute {pending[0]}): name the dispute "
                "this void resolves",
            )
        return None
    dispute = whole(body, "dispute")
    about = open_dispute_of(d, dispute)["about"]
    if about != seq:
        raise InvalidField("dispute", f"dispute {dispute} is about transaction {about}, not {seq}")
    return dispute


def _replay_without(d: Draft, state: State, txn: Txn, voided: int) -> State:
    """Run a later transaction again on the table without the voided one; same facts or refuse."""
    rd: Draft[Any] = Draft(d.rs, state, d.options, seq=txn["seq"], by=str(txn.get("by", "banker")))
    try:
        if not REGISTRY[txn["type"]].reads_table:
            # A later correction reverses its own target, whose facts stood, and a dispute is
            # about the log, not the table: re-apply their facts.
            for posting in txn["postings"]:
                rd.pay(posting["from"], posting["to"], posting["amount"])
            for change in txn["changes"]:
                _check_from(rd, change, txn["seq"], voided)
                rd.changes.append(change)
                rd.apply(change)
        else:
            REGISTRY[txn["type"]].handler(rd, dict(txn["request"]))
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
    """Refuse the void (``table_changed``) unless the table holds ``change``'s ``from``."""
    target = {k: v for k, v in change.items() if k not in ("kind", "from", "to", "standings")}
    if d._current(change["kind"], target) != change["from"]:
        raise RuleViolation("void_conflict", reason="table_changed", seq=at_seq, depends_on=voided)
