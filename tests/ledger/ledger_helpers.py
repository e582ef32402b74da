"""The table the ledger's domain tests play on: a classic game recorded by the banker.

Every figure the tests assert is copied from docs/rules.md (section 1 and the
appendix), never computed by the code under test. The helpers only set the table up through
ordinary transactions (``buy``, ``build``, a ``card`` that collects from the Bank), and check
after every accepted transaction that the balances still sum to zero.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.application import TableBank
from ledger.errors import LedgerError

# The colour groups of the appendix, by deed slug.
GROUPS: dict[str, tuple[str, ...]] = {
    "brown": ("mediterranean-avenue", "baltic-avenue"),
    "light-blue": ("oriental-avenue", "vermont-avenue", "connecticut-avenue"),
    "pink": ("st-charles-place", "states-avenue", "virginia-avenue"),
    "orange": ("st-james-place", "tennessee-avenue", "new-york-avenue"),
    "red": ("kentucky-avenue", "indiana-avenue", "illinois-avenue"),
    "yellow": ("atlantic-avenue", "ventnor-avenue", "marvin-gardens"),
    "green": ("pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue"),
    "dark-blue": ("park-place", "boardwalk"),
    "railroad": ("reading-railroad", "pennsylvania-railroad", "b-o-railroad", "short-line"),
    "utility": ("electric-company", "water-works"),
}


class Table:
    """One game in a ``TableBank`` (classic unless told), recorded by the banker."""

    def __init__(
        self,
        bank: TableBank,
        players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
        options: dict[str, Any] | None = None,
        *,
        ruleset: str = "classic",
        dealt: dict[str, list[str]] | None = None,
    ) -> None:
        self.bank = bank
        self.created = bank.create_game("t", ruleset, list(players), options or {}, dealt=dealt)
        self.id = self.created["id"]

    # -- recording ----------------------------------------------------------------------
    def record(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Record one transaction; every accepted one leaves the balances summing to zero."""
        txn = self.bank.record(self.id, {"type": kind, **fields})
        assert sum(txn["balances"].values()) == 0, txn["balances"]
        assert sum(self.state()["balances"].values()) == 0
        return txn

    def refused(self, kind: str, **fields: Any) -> LedgerError:
        """Record a transaction the rules refuse; check that it changed nothing at all."""
        before = self.state()
        with pytest.raises(LedgerError) as caught:
            self.bank.record(self.id, {"type": kind, **fields})
        assert self.state() == before
        return caught.value

    # -- setting the table up -------------------------------------------------------------
    def buy(self, player: str, *deeds: str) -> None:
        """The player buys each deed from the Bank at its printed price."""
        for deed in deeds:
            self.record("buy", player=player, property=deed)

    def give_group(self, player: str, group: str) -> None:
        """The player buys every deed of a colour group."""
        self.buy(player, *GROUPS[group])

    def fund(self, player: str, amount: int) -> None:
        """A card pays the player ``amount`` from the Bank (to afford a big set-up)."""
        self.record("card", player=player, effect="collect", amount=amount)

    def build_houses(self, group: str, per_street: int) -> None:
        """Build evenly up to ``per_street`` houses on every street of a held group."""
        for _ in range(per_street):
            self.record("build", orders=[{"property": s, "houses": 1} for s in GROUPS[group]])

    def build_hotels(self, group: str) -> None:
        """Four houses on every street of the group, then a hotel on each."""
        self.build_houses(group, 4)
        self.record("build", orders=[{"property": s, "hotel": True} for s in GROUPS[group]])

    # -- reading ------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return self.bank.game(self.id)

    def cash(self, account: str) -> int:
        return int(self.state()["balances"][account])

    def prop(self, deed: str) -> dict[str, Any]:
        return dict(self.state()["properties"][deed])

    def supply(self) -> dict[str, int]:
        return dict(self.state()["bank"])

    def player(self, pid: str) -> dict[str, Any]:
        return next(p for p in self.state()["players"] if p["id"] == pid)
