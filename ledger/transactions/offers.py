"""What a field may hold in a game now, where the rules narrow it (``Field.offer``): the deeds a
move can take, the taxes a game charges. ``GET /api/v1/games/{game}/moves`` lists these as the
field's choices, so a client offers the Bank's deeds for a purchase and the mortgaged ones for
a lifted mortgage without knowing the rules that say so. A choice still left open (a deed that
cannot be mortgaged while its group is built on) is refused with its reason when asked.

Each offer is ``offer(rs, options, state) -> [choice, ...]``, in the board's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger import rules
from ledger.draft import option_value
from ledger.ruleset import RuleSet
from ledger.state import PropertyEntry, State
from ledger.variants import VARIANTS

Offer = Callable[[RuleSet, Mapping[str, Any], State], list[str]]


def _deeds(rs: RuleSet, state: State, keep: Callable[[PropertyEntry], bool]) -> list[str]:
    """The deeds whose entry on the table ``keep`` keeps, in the rule set's order."""
    return [slug for slug in rs.deeds if keep(state["properties"][slug])]


def bank_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The deeds the Bank still holds (docs/rules.md, "Buying")."""
    return _deeds(rs, state, lambda p: p["owner"] == "bank")


def owned_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The deeds a player holds (rent is paid on them)."""
    return _deeds(rs, state, lambda p: p["owner"] != "bank")


def unmortgaged_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The deeds a player holds that are not mortgaged (docs/rules.md, "Mortgages")."""
    return _deeds(rs, state, lambda p: p["owner"] != "bank" and not p["mortgaged"])


def mortgaged_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The mortgaged deeds (a player's, to lift)."""
    return _deeds(rs, state, lambda p: p["mortgaged"])


def auction_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The Bank's deeds, and where the variant auctions a player's plot too (docs/rules.md,
    "Auctions of owned plots"), every deed: the quote says when one may not go."""
    if VARIANTS[rs.params["variant"]].auctions_owned:
        return list(rs.deeds)
    return bank_deeds(rs, options, state)


def taxes(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The taxes the game charges (docs/rules.md, "Income tax and luxury tax"): income tax
    where the rule set has one, luxury tax unless the game's option made it 0."""
    out = []
    if rs.params.get("income_tax_flat") or rs.params.get("income_tax_percent"):
        out.append("income")
    chosen = option_value(rs, options, "luxury_tax")
    if rs.params.get("luxury_tax") if chosen is None else chosen:
        out.append("luxury")
    return out


def income_tax_ways(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """How the income tax may be paid: as the player chooses, or the one way the game's
    ``income_tax`` option leaves (docs/rules.md, "House-rule options")."""
    mode = option_value(rs, options, "income_tax") or "choice"
    return ["flat", "percent"] if mode == "choice" else [mode]


def buildable_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The streets a building may go on: its owner holds the whole group, and it has no hotel
    yet (docs/rules.md, "Complete group, no mortgage"); even building, the Bank's supply and a
    mortgage in the group are the answer's to tell."""
    return [
        slug
        for slug, deed in rs.deeds.items()
        if deed.buildable
        and (owner := state["properties"][slug]["owner"]) != "bank"
        and not state["properties"][slug]["hotel"]
        and rules.holds_group(rs, state, slug, owner)
    ]


def built_deeds(rs: RuleSet, options: Mapping[str, Any], state: State) -> list[str]:
    """The streets with a house or a hotel on them, to sell back (docs/rules.md, "Selling
    buildings")."""
    return _deeds(rs, state, lambda p: bool(p["houses"] or p["hotel"]))
