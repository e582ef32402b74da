"""What a game can record now: its moves (``GET /api/v1/games/{game}/moves``, API.md v1.2).

Each transaction type the game accepts now, from its rule set's variant, its options and its
status, as the type is declared (``ledger.transactions``: who may record it, whether it can be
voided, its request fields), with the choices that only the game knows filled in: its active
players, its accounts (the pot only where the game collects it), the deeds of its board (those
a move can take, where the rules narrow them: the Bank's for a purchase, the mortgaged ones for
a lifted mortgage), its open IOUs, its rule set's policy colours, the taxes it charges, its last
seq.

Left out: every type of a finished game (it records nothing more), the set-up types (the
ledger records them itself), a type the game does not offer (an option that is off, the other
variant's type), and a type with a field it must have and nothing to fill it with (an IOU
repaid when no IOU is open, rent before anyone holds a deed, a purchase once the Bank holds
none). With a player's token only the types that player may record are
listed, and a field naming the acting player offers that player alone (and the type's other
accounts and deeds everyone else's: a payment goes to somebody else, rent is paid on somebody
else's deed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger import rules
from ledger.draft import pot_offered, pot_open
from ledger.ruleset import RuleSet
from ledger.state import State
from ledger.transactions import ORDERED, REGISTRY, TransactionType
from ledger.transactions.declare import ADMIN
from ledger.transactions.form import Field

NOT_VOIDABLE = tuple(name for name in ORDERED if not REGISTRY[name].voidable)
"""The types whose transactions are never voided, listed now or not: the set-up's, voids,
disputes and their resolutions, the finish."""


def moves_of(
    rs: RuleSet, options: Mapping[str, Any], state: State, by: str = "banker"
) -> list[dict[str, Any]]:
    """The moves ``by`` ("banker" or a player id) may record in the game now."""
    if state["status"] == "finished":
        return []
    # The players still at the table: a bankrupt too where the house rule keeps him seated.
    active = rules.seated_players(state, dict(options))
    # The pot is an account to pay into where the game collects it (the Free Parking rule, the
    # kitty); else what is paid there would stay there, and the ledger refuses it. A game of a
    # rule set written before that refusal offers it while it holds money, to pay it out.
    pot = pot_offered(rs, options) or (
        pot_open(rs, options) and state["balances"].get("pot", 0) > 0
    )
    table = _Table(rs, options, state, active, pot)
    out = []
    for name in ORDERED:
        declared = REGISTRY[name]
        if declared.setup or not declared.offered_in(rs, options):
            continue
        if not _may_record(declared, by, active):
            continue
        # A player's own field (a payment's `from`) offers him alone, and the type's other
        # accounts everyone else: he pays somebody, not himself.
        acting = declared.player_field if by != "banker" else None
        fields = [
            table.filled(f, only=by) if f.name == acting else table.filled(f, besides=acting and by)
            for f in declared.fields
        ]
        if any(_empty(spec) for spec in fields):
            continue
        out.append(
            {
                "type": name,
                "who": ["banker", "player"] if declared.players is not None else ["banker"],
                "voidable": declared.voidable,
                "fields": fields,
            }
        )
    return out


def _may_record(declared: TransactionType, by: str, active: list[str]) -> bool:
    """Whether ``by`` may record the type at all: the banker always; a player if the type has a
    right for players, and (a right of his own field) while he is still in the game."""
    if by == "banker":
        return True
    if by == ADMIN:
        return declared.admin
    if declared.players is None:
        return False
    return declared.player_field is None or by in active


def _empty(spec: dict[str, Any]) -> bool:
    """Whether a field the type must have has nothing it may hold."""
    return spec["required"] and "when" not in spec and spec.get("choices") == []


class _Table:
    """The game's own words for the fields: its players, accounts, deeds, IOUs, policies."""

    def __init__(
        self,
        rs: RuleSet,
        options: Mapping[str, Any],
        state: State,
        active: list[str],
        pot: bool,
    ) -> None:
        self.rs, self.options, self.state, self.active, self.pot = rs, options, state, active, pot

    def filled(
        self, field: Field, only: str | None = None, besides: str | None = None
    ) -> dict[str, Any]:
        choices = [only] if only is not None else self.choices(field)
        if besides and choices is not None and field.kind in ("account", "player"):
            choices = [c for c in choices if c != besides]
        if besides and choices is not None and field.kind == "deed":
            # Rent is paid on somebody else's deed.
            props = self.state["properties"]
            choices = [c for c in choices if props[c]["owner"] != besides]
        bounds = {"max": self.state["last_seq"]} if field.kind == "seq" else None
        spec = field.spec(choices, bounds)
        if field.fields:
            spec["fields"] = [self.filled(f) for f in field.fields]
        return spec

    def choices(self, field: Field) -> list[str] | None:
        kind = field.kind
        if field.offer is not None:
            return field.offer(self.rs, self.options, self.state)
        if kind == "player":
            return list(self.active)
        if kind == "account":
            fixed = [c for c in field.choices if c != "pot" or self.pot]
            return [*fixed, *self.active]
        if kind in ("deed", "deeds"):
            return list(self.rs.deeds)
        if field.source == "policies":
            return sorted(self.rs.params.get("policies") or {})
        if field.source == "ious":
            return [i for i, iou in self.state["ious"].items() if iou["outstanding"] > 0]
        return list(field.choices) if field.choices else None
