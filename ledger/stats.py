"""The statistics of a game (API.md v1.2, "Statistics of a game"): per player what came in and
went out by kind (salary, rent, taxes, deeds, buildings, interest) and the peak net worth; per
deed its owner, what that owner paid for it and the rent it collected.

Read off the records alone, over the transactions not voided: a voided transaction and the
void that reversed it are both left out, as if neither had been recorded (a void is accepted
only when every later transaction stands without its target, with the same postings and
changes: ``ledger.transactions.corrections``), so the states between are those of the game
without them, rebuilt by the replay (``ledger.audit.replay_steps``), whose net worths are the
ones the game shows. Each figure is taken from a transaction's postings or its ``basis``, never
computed again with the rules: ``TALLIES`` says, per type, what counts where.

docs/api.md, "Statistics", says what a family reads in each figure, Millionaire Elite's round
income (a ``salary``) included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ledger.audit import replay_steps
from ledger.fairplay import loan_pair
from ledger.ruleset import RuleSet
from ledger.state import State
from ledger.transactions import REGISTRY

Txn = dict[str, Any]

# A player's figures, in the order the answer lists them (peak_net_worth and peak_seq after).
PLAYER_FIGURES = (
    "salary",
    "rent_received",
    "rent_paid",
    "taxes",
    "bought",
    "buildings_bought",
    "buildings_sold",
    "interest",
)


class Tally:
    """The figures counted so far: per player, and per deed."""

    def __init__(self, rs: RuleSet, initial: State) -> None:
        self.players = {p: dict.fromkeys(PLAYER_FIGURES, 0) for p in initial["players"]}
        self.owners = {slug: prop["owner"] for slug, prop in initial["properties"].items()}
        # What the deed's owner paid the Bank (or the seller) for it; None once it moved else.
        self.price_paid: dict[str, int | None] = dict.fromkeys(rs.deeds)
        self.rent = {slug: [0, 0] for slug in rs.deeds}  # collected, times

    def add(self, player: str, figure: str, amount: int) -> None:
        """Count ``amount`` in a player's ``figure``; the Bank and the pot count in none."""
        if player in self.players:
            self.players[player][figure] += amount


def _paid_by_players(tally: Tally, txn: Txn, figure: str) -> None:
    """Every posting out of a player counts as ``figure`` of that player."""
    for posting in txn["postings"]:
        tally.add(posting["from"], figure, posting["amount"])


def _received_by_players(tally: Tally, txn: Txn, figure: str) -> None:
    """Every posting into a player counts as ``figure`` of that player."""
    for posting in txn["postings"]:
        tally.add(posting["to"], figure, posting["amount"])


def _deed_bought(tally: Tally, txn: Txn) -> None:
    """A buy or an auction: the buyer paid the price (the winning bid) for the deed. An owner
    who wins the auction of his own plot (Millionaire Elite) pays nothing and keeps it: what
    he paid for it stands."""
    if not txn["postings"]:
        return
    _paid_by_players(tally, txn, "bought")
    tally.price_paid[txn["basis"]["property"]] = sum(p["amount"] for p in txn["postings"])


def _deeds_dealt(tally: Tally, txn: Txn) -> None:
    """The short and timed games' deal: the player paid the Bank each dealt deed's printed
    price at set-up (``basis.prices``), as for a deed bought (docs/api.md, "Statistics")."""
    _paid_by_players(tally, txn, "bought")
    for slug, price in txn["basis"]["prices"].items():
        tally.price_paid[slug] = price


def _rent(tally: Tally, txn: Txn) -> None:
    """Rent: what the payer paid and the owner received, counted on the deed too (sum and times)."""
    for posting in txn["postings"]:
        tally.add(posting["from"], "rent_paid", posting["amount"])
        tally.add(posting["to"], "rent_received", posting["amount"])
        collected = tally.rent[txn["basis"]["property"]]
        collected[0] += posting["amount"]
    tally.rent[txn["basis"]["property"]][1] += 1


def _fees(tally: Tally, txn: Txn) -> None:
    """The 10 % each receiver of a mortgaged deed paid at once (a trade, a bankruptcy); the
    mortgage value of one lifted then is the loan repaid, not interest."""
    for line in txn["basis"].get("mortgaged_received", []):
        tally.add(line["receiver"], "interest", line["fee"])


def _bankruptcy(tally: Tally, txn: Txn) -> None:
    """The bankrupt's buildings sold to the Bank (their money goes on to the creditor), and
    the fees on the mortgaged deeds the creditor received."""
    for sold in txn["basis"].get("buildings", []):
        tally.add(txn["basis"]["debtor"], "buildings_sold", sold["amount"])
    _fees(tally, txn)


def _unmortgage(tally: Tally, txn: Txn) -> None:
    """A mortgage lifted: the interest its owner paid."""
    tally.add(txn["basis"]["owner"], "interest", txn["basis"]["interest"])


# What each type's transactions count, by type; any other type counts in no figure (cards,
# payments, trades' cash, shares, policies, the jackpot, the pot: money a family does not
# read as salary, rent, taxes, deeds, buildings or interest).
TALLIES: dict[str, Callable[[Tally, Txn], None]] = {
    "salary": lambda t, txn: _received_by_players(t, txn, "salary"),
    "rent": _rent,
    "tax": lambda t, txn: _paid_by_players(t, txn, "taxes"),
    "jail_fine": lambda t, txn: _paid_by_players(t, txn, "taxes"),
    "round_tax": lambda t, txn: _paid_by_players(t, txn, "taxes"),
    "deal": _deeds_dealt,
    "buy": _deed_bought,
    "auction": _deed_bought,
    "build": lambda t, txn: _paid_by_players(t, txn, "buildings_bought"),
    "sell_buildings": lambda t, txn: _received_by_players(t, txn, "buildings_sold"),
    "unmortgage": _unmortgage,
    "trade": _fees,
    "bankruptcy": _bankruptcy,
}
# The types whose deeds their new owner paid for, each at its own price (``price_paid``).
PAID_FOR = ("deal", "buy", "auction")
_unknown = set(TALLIES) - set(REGISTRY)
if _unknown:  # a type renamed or gone: its figures would silently count nothing
    raise ValueError(f"TALLIES names no transaction type {sorted(_unknown)}")


def counted(txns: Iterable[Txn], voided: dict[str, int]) -> Iterable[Txn]:
    """The transactions not voided, and no void: the game as if neither had been recorded."""
    voids = set(voided.values())
    for txn in txns:
        if str(txn["seq"]) not in voided and txn["seq"] not in voids:
            yield txn


def _peak(peaks: dict[str, tuple[int, int]], step: dict[str, Any]) -> None:
    """Each player's net worth after a step, kept where it is above his peak so far."""
    for player, worth in step["net_worths"].items():
        if worth > peaks[player][0]:
            peaks[player] = (worth, step["seq"])


def game_stats(
    rs: RuleSet, initial: State, txns: Iterable[Txn], voided: dict[str, int], seq: int
) -> dict[str, Any]:
    """The statistics of a game's records up to ``seq``, ``voided`` the voids recorded by then
    (voided seq -> its void's seq)."""
    tally = Tally(rs, initial)
    peaks = {p: (0, 0) for p in initial["players"]}  # net worth, first seq: the empty table
    # A peak is taken after a step unless the next one balances it: between a loan's cash and
    # its IOU (``ledger.fairplay.loan_pair``, either order) one side holds both for a moment.
    waiting: dict[str, Any] | None = None
    for step in replay_steps(rs, initial, counted(txns, voided)):
        txn = step["transaction"]
        if waiting is not None and not loan_pair(waiting["transaction"], txn):
            _peak(peaks, waiting)
        waiting = step
        tally_of = TALLIES.get(txn["type"])
        if tally_of is not None:
            tally_of(tally, txn)
        for change in txn["changes"]:
            if change["kind"] == "deed":
                tally.owners[change["property"]] = change["to"]
                if txn["type"] not in PAID_FOR:
                    tally.price_paid[change["property"]] = None  # traded, handed over
    if waiting is not None:
        _peak(peaks, waiting)
    return {
        "seq": seq,
        "players": [
            {
                "player": player,
                **figures,
                "peak_net_worth": peaks[player][0],
                "peak_seq": peaks[player][1],
            }
            for player, figures in tally.players.items()
        ],
        "deeds": [
            {
                "property": slug,
                "owner": tally.owners[slug],
                "price_paid": tally.price_paid[slug],
                "rent_collected": tally.rent[slug][0],
                "rent_count": tally.rent[slug][1],
            }
            for slug in rs.deeds
        ],
    }
