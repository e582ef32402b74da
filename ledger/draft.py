"""The draft of one transaction: a working copy of the table and what the command writes.

Every handler (``ledger.transactions``) receives a ``Draft``. Postings and
changes are applied to the draft's state as they are written, so later checks see the table
as it will be; ``check_funds`` refuses the whole transaction if anyone but the Bank would
end below zero. The field checkers below make the ledger refuse malformed input itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar, cast

from ledger import rules
from ledger.changes import change_kind
from ledger.errors import InsufficientFunds, InvalidField, RuleViolation
from ledger.ruleset import Deed, RuleSet
from ledger.state import PropertyEntry, State, apply_change, apply_posting, copy_state
from ledger.variants import VARIANTS, Classic

Body = dict[str, Any]
Txn = dict[str, Any]
# Given a seq: the transaction, the state just before it, and every transaction after it.
History = Callable[[int], tuple[Txn, State, list[Txn]]]


class Fields(dict[str, Any]):
    """A request's fields: one that is left out is refused as required, never a ``KeyError``.

    Handlers read ``body["player"]``; the schemas of the API have checked that required
    fields are there, but ``record`` is also called by the CLI, the import and tests.
    """

    def __missing__(self, field: str) -> Any:
        raise InvalidField(field, "required")


def fields(value: Any) -> Any:
    """``value`` with every mapping in it (orders, legs, ...) read as ``Fields``."""
    if isinstance(value, dict):
        return Fields({k: fields(v) for k, v in value.items()})
    if isinstance(value, list):
        return [fields(v) for v in value]
    return value


# The basis a type's handler writes: the TypedDict it declares (``transaction(basis=...)``).
B = TypeVar("B", bound=Mapping[str, object])


class Draft(Generic[B]):
    """A transaction being written against a working copy of the state; ``basis`` is of the
    type the handler declares (``Draft[ThatBasis]``), so that mypy checks what it writes."""

    def __init__(
        self,
        rs: RuleSet,
        state: State,
        options: dict[str, Any],
        seq: int | None = None,
        history: History | None = None,
        by: str = "banker",
    ) -> None:
        self.rs = rs
        self.history = history  # the game's earlier transactions, for a void
        self.by = by  # who records it: "banker" or a player id (a dispute keeps it)
        self.before = state
        self.state = copy_state(state, share_lazy=True)
        self.options = options
        self.seq = state["last_seq"] + 1 if seq is None else seq
        self.postings: list[dict[str, Any]] = []
        self.changes: list[dict[str, Any]] = []
        self.basis: B = cast(B, {})

    # -- lookups that refuse ------------------------------------------------------------
    def player(self, pid: Any, *, active: bool = True) -> str:
        """A seated player's id; refuses strangers and, unless told, the bankrupt."""
        if not isinstance(pid, str) or pid not in self.state["players"]:
            raise RuleViolation("unknown_player", player=str(pid))
        if (
            active
            and self.state["players"][pid]["bankrupt_seq"] is not None
            and not self.options.get("keep_bankrupt_players")
        ):
            raise RuleViolation("player_bankrupt", player=pid)
        return str(pid)

    def account(self, acc: Any) -> str:
        """'bank', 'pot' (where the game has one) or an active player."""
        if acc == "pot" and not pot_open(self.rs, self.options):
            # Money paid there would stay there: nothing collects it in this game.
            raise RuleViolation("option_disabled", reason="free_parking_pot")
        if isinstance(acc, str) and acc in ("bank", "pot"):
            return str(acc)
        return self.player(acc)

    def deed(self, slug: Any) -> Deed:
        """A deed of this rule set, with the figures the banker entered for it."""
        if not isinstance(slug, str) or slug not in self.rs.deeds:
            raise RuleViolation("unknown_property", property=str(slug))
        return rules.deed_of(self.rs, self.state, slug)

    def priced(self, deed: Deed, price: Any, field: str = "price") -> Deed:
        """The deed with its price known: printed, entered earlier, or entered now."""
        if deed.price is None:
            if price is None:
                raise InvalidField(field, f"the rule set prints no price for {deed.slug}: enter it")
            entered = whole({field: price}, field, 2)
            self.change("figure", entered, property=deed.slug, field="price")
            return rules.deed_of(self.rs, self.state, deed.slug)
        if price is not None and price != deed.price:
            raise InvalidField(field, f"the price of {deed.slug} is {deed.price}; leave it out")
        return deed

    @property
    def variant(self) -> Classic:
        """The money rules of the game's variant, where they differ inside common types."""
        return VARIANTS[self.rs.params["variant"]]

    def prop(self, slug: str) -> PropertyEntry:
        """The deed's current state in the draft."""
        return self.state["properties"][slug]

    def owned_deed(self, slug: Any) -> tuple[Deed, str]:
        """A deed some player holds, with that player."""
        deed = self.deed(slug)
        owner = self.prop(deed.slug)["owner"]
        if owner == "bank":
            raise RuleViolation("not_owned", property=deed.slug)
        return deed, owner

    # -- writing ------------------------------------------------------------------------
    def pay(self, frm: str, to: str, amount: int) -> None:
        """Post a movement of money (nothing for a zero amount)."""
        if amount <= 0:
            return
        posting = {"from": frm, "to": to, "amount": amount}
        self.postings.append(posting)
        apply_posting(self.state, posting)

    def change(self, kind: str, to: Any, **target: Any) -> None:
        """Record and apply a change of state; ``from`` is read off the draft."""
        change = {"kind": kind, **target, "from": self._current(kind, target), "to": to}
        if change["from"] == to:
            return
        self.changes.append(change)
        self.apply(change)

    def apply(self, change: dict[str, Any]) -> None:
        """Apply a change to the draft's state (the one way a draft's state changes, but for
        money: ``pay``)."""
        apply_change(self.state, change)

    def _current(self, kind: str, target: dict[str, Any]) -> Any:
        """The value the draft holds now where a change of ``kind`` at ``target`` would go."""
        return change_kind(kind).current(self.state, target)

    def fines_account(self) -> str:
        """Where taxes and fines go: the Bank, or the pot under the Free Parking house rule."""
        return "pot" if self.options.get("free_parking_pot") else "bank"

    def check_funds(self) -> None:
        """Refuse if any player or the pot would end below zero (the Bank may)."""
        for account, balance in self.state["balances"].items():
            if account == "bank" or balance >= 0:
                continue
            start = self.before["balances"][account]
            raise InsufficientFunds(
                payer=account,
                amount=start - balance,
                cash=start,
                can_raise=rules.can_raise(self.rs, self.before, account),
                creditor=self.creditor_of(account),
            )

    def creditor_of(self, payer: str) -> str | None:
        """Whom the payer's money in this transaction goes to: the Bank (the pot counts as
        the Bank's), one player, or ``None`` where it goes to several."""
        owed_to = {
            "bank" if p["to"] == "pot" else p["to"] for p in self.postings if p["from"] == payer
        }
        return owed_to.pop() if len(owed_to) == 1 else None


def whole(
    body: Body, field: str, minimum: int = 1, maximum: int | None = None, default: Any = None
) -> int:
    """A whole-number field within its range (the ledger checks even what schemas checked)."""
    value = body.get(field)
    if value is None:
        value = default
    if value is None:
        raise InvalidField(field, "required")
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        upper = f" to {maximum}" if maximum is not None else " or more"
        raise InvalidField(field, f"a whole number from {minimum}{upper}")
    return value


def one_of(body: Body, field: str, choices: tuple[str, ...], required: bool = True) -> Any:
    """A field whose value is one of ``choices``."""
    value = body.get(field)
    if value is None and not required:
        return None
    if value not in choices:
        raise InvalidField(field, f"one of {', '.join(choices)}")
    return value


def names(body: Body, field: str) -> list[str]:
    """A list of names (deeds, decks); anything else is refused."""
    value = body.get(field) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidField(field, "a list of names")
    return value


def option(d: Draft, name: str) -> Any:
    """The game's value of a rule-set option."""
    return option_value(d.rs, d.options, name)


def option_value(rs: RuleSet, options: Mapping[str, Any], name: str) -> Any:
    """A game's value of a rule-set option: its own, or the rule set's default."""
    return options.get(name, rs.options.get(name, {}).get("default"))


def pot_offered(rs: RuleSet, options: Mapping[str, Any]) -> bool:
    """Whether the pot is ever collected: Millionaire Elite's kitty, or the Free Parking house
    rule (docs/rules.md, "House-rule options")."""
    return VARIANTS[rs.params["variant"]].kitty or bool(
        option_value(rs, options, "free_parking_pot")
    )


def pot_open(rs: RuleSet, options: Mapping[str, Any]) -> bool:
    """Whether a payment may go into or out of the pot: where the game collects it, or under a
    rule set written before ``pot_only_with_option``, whose games replay and import as they
    were played (docs/rules.md, "The pot without the option")."""
    return pot_offered(rs, options) or not rs.params["pot_only_with_option"]
