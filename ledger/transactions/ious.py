"""IOUs between players: issued, repaid, passed on, forgiven, and what becomes of them in a
bankruptcy. Allowed by the ``player_loans`` house rule in classic games and always where the
variant has loans (Millionaire Elite).

docs/rules.md: "IOUs (player loans)".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from ledger.draft import Body, Draft, option_value, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.ruleset import RuleSet
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction
from ledger.variants import VARIANTS


class IouIssued(TransactionRecorded):
    """An IOU written by a debtor to a creditor."""


class IouRepaid(TransactionRecorded):
    """An IOU repaid, in whole or in part."""


class IouTransferred(TransactionRecorded):
    """An IOU passed to another holder."""


class IouForgiven(TransactionRecorded):
    """An IOU cancelled by its holder."""


# The IOU a repayment, transfer or forgiveness is about: one of the game's open IOUs.
AN_IOU = f.choice("iou", source="ious", description="the IOU's id, e.g. iou-12")


class IouBasis(TypedDict):
    """A new IOU: its id, its debtor and creditor, and its amount."""

    iou: str
    debtor: str
    creditor: str
    amount: int


class IouRepayBasis(TypedDict):
    """What was repaid on an IOU, and what it still owes."""

    iou: str
    repaid: int
    outstanding: int


IouTransferBasis = TypedDict(
    "IouTransferBasis", {"iou": str, "from": str, "to": str, "outstanding": int}
)


class IouForgiveBasis(TypedDict):
    """An IOU forgiven: its holder, and what it no longer owes."""

    iou: str
    holder: str
    forgiven: int


def loans_offered(rs: RuleSet, options: Mapping[str, Any]) -> bool:
    """Whether players may lend: Millionaire Elite's rule, or the player_loans house rule."""
    return VARIANTS[rs.params["variant"]].loans or bool(option_value(rs, options, "player_loans"))


def _loans_allowed(d: Draft) -> None:
    """Refuse unless players may lend in this game (``loans_offered``)."""
    if not loans_offered(d.rs, d.options):
        raise RuleViolation("option_disabled", reason="player_loans")


def _iou(d: Draft, body: Body) -> tuple[str, dict[str, Any]]:
    """The open IOU the body names, with its id; an unknown or settled one is refused."""
    iou_id = body.get("iou")
    iou = d.state["ious"].get(iou_id) if isinstance(iou_id, str) else None
    if iou is None:
        raise RuleViolation("unknown_iou", iou=str(iou_id))
    if iou["outstanding"] == 0:
        raise RuleViolation("iou_settled", iou=iou_id)
    return str(iou_id), dict(iou)


@transaction(
    "iou",
    IouIssued,
    refusals=["option_disabled"],
    offered=loans_offered,
    fields=[f.player("debtor"), f.player("creditor"), f.amount(required=True)],
    basis=IouBasis,
)
def issue_iou(d: Draft[IouBasis], body: Body) -> None:
    """Record a debtor's IOU to a creditor; its id is iou-<seq>."""
    _loans_allowed(d)
    debtor, creditor = d.player(body["debtor"]), d.player(body["creditor"])
    if debtor == creditor:
        raise InvalidField("creditor", "a player cannot owe himself")
    amount = whole(body, "amount")
    iou_id = f"iou-{d.seq}"
    record = {
        "id": iou_id,
        "debtor": debtor,
        "holder": creditor,
        "amount": amount,
        "outstanding": amount,
    }
    d.change("iou", record, iou=iou_id)
    d.basis = {"iou": iou_id, "debtor": debtor, "creditor": creditor, "amount": amount}


@transaction(
    "iou_repay",
    IouRepaid,
    refusals=["unknown_iou", "iou_settled"],
    fields=[AN_IOU, f.amount(required=True)],
    basis=IouRepayBasis,
)
def repay_iou(d: Draft[IouRepayBasis], body: Body) -> None:
    """Pay the holder part or all of what the IOU still owes."""
    iou_id, iou = _iou(d, body)
    amount = whole(body, "amount", 1, iou["outstanding"])
    d.pay(iou["debtor"], iou["holder"], amount)
    d.change("iou_outstanding", iou["outstanding"] - amount, iou=iou_id)
    d.basis = {"iou": iou_id, "repaid": amount, "outstanding": iou["outstanding"] - amount}


@transaction(
    "iou_transfer",
    IouTransferred,
    refusals=["unknown_iou", "iou_settled"],
    fields=[AN_IOU, f.player("to")],
    basis=IouTransferBasis,
)
def transfer_iou(d: Draft[IouTransferBasis], body: Body) -> None:
    """Pass the IOU to another holder."""
    iou_id, iou = _iou(d, body)
    to = d.player(body["to"])
    if to in (iou["holder"], iou["debtor"]):
        raise InvalidField("to", f"{to} cannot take {iou_id}: he holds or owes it")
    d.change("iou_holder", to, iou=iou_id)
    d.basis = {"iou": iou_id, "from": iou["holder"], "to": to, "outstanding": iou["outstanding"]}


@transaction(
    "iou_forgive",
    IouForgiven,
    refusals=["unknown_iou", "iou_settled"],
    fields=[AN_IOU],
    basis=IouForgiveBasis,
)
def forgive_iou(d: Draft[IouForgiveBasis], body: Body) -> None:
    """Cancel what the IOU still owes."""
    iou_id, iou = _iou(d, body)
    d.change("iou_outstanding", 0, iou=iou_id)
    d.basis = {"iou": iou_id, "holder": iou["holder"], "forgiven": iou["outstanding"]}


def pass_ious(d: Draft, debtor: str, creditor: str) -> tuple[list[str], list[Body]]:
    """In a bankruptcy: IOUs the debtor held pass to the creditor; IOUs he owed are written
    off (merged into this debt where the creditor holds them)."""
    received: list[str] = []
    cleared: list[Body] = []
    for iou_id, iou in sorted(d.state["ious"].items()):
        if iou["outstanding"] and iou["holder"] == debtor:
            d.change("iou_holder", creditor, iou=iou_id)
            received.append(iou_id)
            if iou["debtor"] == creditor:
                # A debt passed to its own debtor is extinguished.
                cleared.append({"iou": iou_id, "outstanding": iou["outstanding"], "merged": True})
                d.change("iou_outstanding", 0, iou=iou_id)
        if iou["outstanding"] and iou["debtor"] == debtor:
            cleared.append(
                {
                    "iou": iou_id,
                    "outstanding": iou["outstanding"],
                    "merged": iou["holder"] == creditor,
                }
            )
            d.change("iou_outstanding", 0, iou=iou_id)
    return received, cleared
