"""Disputes: a transaction contested in the log, then kept (``dispute_resolve``) or reversed
(a ``void`` that names the dispute, ``ledger.transactions.corrections``). Neither type moves
money; each is a change to the game's ``disputes``.

API.md v1.1, "Disputes"; docs/audit.md, "Disputes in the log". A dispute and its resolution
cannot be voided: a resolution is final, and a transaction kept may be disputed again. They are
about the log, not the table: a void of an earlier transaction keeps their facts as they stand
(``reads_table=False``) instead of running them again.
"""

from __future__ import annotations

from typing import TypedDict

from ledger.draft import Body, Draft, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.state import DisputeEntry
from ledger.transactions import form as f
from ledger.transactions.declare import PlayerRight, Records, TransactionRecorded, transaction


class TransactionDisputed(TransactionRecorded):
    """A transaction disputed by a player whose money it moved, or by the banker."""


class DisputeResolved(TransactionRecorded):
    """A dispute closed by the banker, the disputed transaction kept."""


class DisputeBasis(TypedDict):
    """The dispute's seq, the transaction it is about, and who disputed it."""

    dispute: int
    about: int
    by: str


class DisputeResolveBasis(TypedDict):
    """The dispute closed, the transaction it was about, and its status (upheld)."""

    dispute: int
    about: int
    status: str


def moved_money_of(body: Body, by: str, records: Records) -> bool:
    """Whether the disputed transaction has a posting from or to the player ``by``."""
    seq = body.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return False
    txn = records(seq)
    return txn is not None and any(by in (p["from"], p["to"]) for p in txn["postings"])


DISPUTER = PlayerRight(
    "a player whose money it moved",
    moved_money_of,
    "a player may dispute only a transaction that moved money of his own ({by})",
)


def text(body: Body, field: str, what: str) -> str:
    """A required sentence (``reason``, ``note``), kept without the spaces around it."""
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise InvalidField(field, what)
    return value.strip()


def open_dispute_of(d: Draft, dispute: int) -> DisputeEntry:
    """The open dispute recorded at seq ``dispute``; refuses any other seq or a closed one."""
    entry = d.state.get("disputes", {}).get(str(dispute))
    if entry is None:
        raise RuleViolation("unknown_dispute", dispute=dispute)
    if entry["status"] != "open":
        raise RuleViolation("dispute_closed", dispute=dispute, resolved_by=entry["resolved_by"])
    return entry


def open_disputes_about(d: Draft, seq: int) -> list[int]:
    """The seqs of the open disputes about transaction ``seq`` (at most one)."""
    return [
        entry["seq"]
        for entry in d.state["disputes"].values()
        if entry["about"] == seq and entry["status"] == "open"
    ]


@transaction(
    "dispute",
    TransactionDisputed,
    voidable=False,
    players=DISPUTER,
    refusals=["already_voided"],
    reads_table=False,
    fields=[f.seq(description="the transaction disputed"), f.text("reason")],
    basis=DisputeBasis,
)
def dispute_transaction(d: Draft[DisputeBasis], body: Body) -> None:
    """Record that transaction ``seq`` is disputed, and why; no money moves."""
    seq = whole(body, "seq")
    reason = text(body, "reason", "say what is disputed")
    last = d.state["last_seq"]
    if seq > last:
        raise InvalidField("seq", f"no transaction {seq}; the last is {last}")
    disputes = d.state["disputes"]
    if str(seq) in disputes:
        raise InvalidField("seq", f"transaction {seq} is a dispute: it is resolved, not disputed")
    for entry in disputes.values():
        if entry["resolved_by"] == seq and entry["status"] == "upheld":
            about = entry["about"]
            raise InvalidField(
                "seq", f"transaction {seq} resolved a dispute: dispute transaction {about} again"
            )
    if str(seq) in d.state["voided"]:
        raise RuleViolation("already_voided", seq=seq, voided_by=d.state["voided"][str(seq)])
    pending = open_disputes_about(d, seq)
    if pending:
        raise InvalidField("seq", f"transaction {seq} is disputed already (dispute {pending[0]})")
    record = {
        "seq": d.seq,
        "about": seq,
        "by": d.by,
        "reason": reason,
        "status": "open",
        "resolved_by": None,
        "note": None,
    }
    d.change("dispute", record, dispute=d.seq)
    d.basis = {"dispute": d.seq, "about": seq, "by": d.by}


@transaction(
    "dispute_resolve",
    DisputeResolved,
    voidable=False,
    refusals=["unknown_dispute", "dispute_closed"],
    reads_table=False,
    fields=[f.seq("dispute", description="the seq of the dispute"), f.text("note")],
    basis=DisputeResolveBasis,
)
def resolve_dispute(d: Draft[DisputeResolveBasis], body: Body) -> None:
    """Close an open dispute and keep the disputed transaction, with the banker's note."""
    dispute = whole(body, "dispute")
    note = text(body, "note", "say why the transaction stands")
    entry = open_dispute_of(d, dispute)
    resolution = {"status": "upheld", "resolved_by": d.seq, "note": note}
    d.change("dispute_status", resolution, dispute=dispute)
    d.basis = {"dispute": dispute, "about": entry["about"], "status": "upheld"}
