"""Jail: the fine, the get-out-of-jail cards, going in and coming out.

docs/rules.md: "Jail fine", "Jail cards", "Go to jail, leave jail".
"""

from __future__ import annotations

from typing import TypedDict

from ledger.draft import Body, Draft, one_of
from ledger.errors import RuleViolation
from ledger.parameters import CLASSIC
from ledger.state import JAIL_DECKS
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction


class JailFinePaid(TransactionRecorded):
    """The fine paid to leave jail."""


class JailCardMoved(TransactionRecorded):
    """A get-out-of-jail card drawn and kept, or used."""


class SentToJail(TransactionRecorded):
    """A player sent to jail (no money moves)."""


class LeftJail(TransactionRecorded):
    """A player out of jail on doubles (no money moves)."""


class JailFineBasis(TypedDict):
    """The jail fine paid."""

    fine: int


class JailCardBasis(TypedDict):
    """The deck whose jail card was drawn and kept, or used."""

    deck: str
    action: str


class GoToJailBasis(TypedDict):
    """The salary a player sent to jail collects on the way: none."""

    salary: int  # none: a player sent to jail collects no salary on the way


class LeaveJailBasis(TypedDict):
    """That the player left jail on doubles."""

    doubles: bool


@transaction("jail_fine", JailFinePaid, fields=[f.player()], basis=JailFineBasis)
def pay_jail_fine(d: Draft[JailFineBasis], body: Body) -> None:
    """Charge the jail fine; the player is out of jail."""
    player = d.player(body["player"])
    fine = int(d.rs.params["jail_fine"])
    d.pay(player, d.fines_account(), fine)
    d.change("jail", False, player=player)
    d.basis = {"fine": fine}


@transaction(
    "jail_card",
    JailCardMoved,
    variants=[CLASSIC],
    refusals=["no_jail_card"],
    fields=[f.player(), f.choice("action", "draw", "use"), f.choice("deck", *JAIL_DECKS)],
    basis=JailCardBasis,
)
def move_jail_card(d: Draft[JailCardBasis], body: Body) -> None:
    """Keep a drawn jail card, or use one held to leave jail."""
    player = d.player(body["player"])
    deck = one_of(body, "deck", JAIL_DECKS)
    action = one_of(body, "action", ("draw", "use"))
    holder = d.state["jail_cards"][deck]
    if action == "draw":
        if holder != "deck":
            raise RuleViolation("no_jail_card", reason="held", deck=deck, holder=holder)
        d.change("jail_card", player, deck=deck)
    else:
        if holder != player:
            raise RuleViolation("no_jail_card", reason="not_held", player=player, deck=deck)
        d.change("jail_card", "deck", deck=deck)
        d.change("jail", False, player=player)
    d.basis = {"deck": deck, "action": action}


@transaction("go_to_jail", SentToJail, fields=[f.player()], basis=GoToJailBasis)
def send_to_jail(d: Draft[GoToJailBasis], body: Body) -> None:
    """Put the player in jail; no salary on the way."""
    player = d.player(body["player"])
    d.change("jail", True, player=player)
    d.basis = {"salary": 0}


@transaction("leave_jail", LeftJail, fields=[f.player()], basis=LeaveJailBasis)
def leave_jail(d: Draft[LeaveJailBasis], body: Body) -> None:
    """Let the player out of jail for free after doubles."""
    player = d.player(body["player"])
    d.change("jail", False, player=player)
    d.basis = {"doubles": True}
