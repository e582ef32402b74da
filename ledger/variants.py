"""The variants of the game: where Millionaire Elite's money rules differ from the classic
ones inside transaction types they share. A game's rule set names its variant
(``parameters.variant``); a ``Draft`` hands handlers that variant as ``d.variant``, so a
common handler asks it rather than testing which game it is.

A variant is its values (``ledger.parameters.KNOWN_VARIANTS``: the kitty, loans, auctioned
buildings, shares) and, here, the checks that truly differ: one class per variant, each
method a rule of docs/rules.md. The types only one variant has are declared with their
variants (``ledger.transactions``); the parameters only one variant reads say so in
``ledger.parameters``.

docs/rules.md: "Millionaire Elite" for each difference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ledger import rules
from ledger.errors import RuleViolation
from ledger.parameters import CLASSIC, ELITE, KNOWN_VARIANTS, Variant

if TYPE_CHECKING:
    from ledger.draft import Draft
    from ledger.ruleset import Deed
    from ledger.transactions.money import SalaryBasis


class Classic:
    """Classic Monopoly, and the short and timed games built on it."""

    values: ClassVar[Variant] = KNOWN_VARIANTS[CLASSIC]
    # Whether a player's deed may go to auction at all (``check_auction_of_owned`` says when).
    auctions_owned: ClassVar[bool] = False

    @property
    def name(self) -> str:
        """The variant's name, as a rule set's ``variant`` parameter gives it."""
        return self.values.name

    @property
    def kitty(self) -> bool:
        """Whether the pot is collected without the Free Parking house rule."""
        return self.values.kitty

    @property
    def loans(self) -> bool:
        """Whether players lend with IOUs without the player_loans house rule."""
        return self.values.loans

    @property
    def auctioned_buildings(self) -> bool:
        """Whether scarce buildings may be auctioned above the printed price."""
        return self.values.auctioned_buildings

    def pay_salary(self, d: Draft[SalaryBasis], player: str) -> None:
        """GO: the Bank pays the salary."""
        amount = int(d.rs.params["salary"])
        d.pay("bank", player, amount)
        d.basis = {"player": player, "salary": amount}

    def check_auction_of_owned(self, d: Draft, deed: Deed, owner: str) -> None:
        """Only the Bank's deeds go to auction."""
        raise RuleViolation("already_owned", property=deed.slug, owner=owner)

    def check_mortgage(self, d: Draft, deed: Deed) -> None:
        """A deed is mortgaged only when its whole group is bare."""
        if rules.group_has_buildings(d.rs, d.state, deed.slug):
            raise RuleViolation(
                "group_has_buildings", reason="group", property=deed.slug, group=deed.group
            )

    def check_trade(self, d: Draft, deed: Deed) -> None:
        """No deed of a colour group on which any building stands may change hands."""
        if rules.group_has_buildings(d.rs, d.before, deed.slug):
            raise RuleViolation(
                "group_has_buildings", reason="trade", property=deed.slug, group=deed.group
            )


class MillionaireElite(Classic):
    """Millionaire Elite (seed 004): round income, the kitty, loans, per-plot rules."""

    values = KNOWN_VARIANTS[ELITE]
    auctions_owned = True

    def pay_salary(self, d: Draft[SalaryBasis], player: str) -> None:
        """Passing START: the salary plus a share of the shares' value; the policies that
        last one round go back."""
        base = int(d.rs.params["salary"])
        value = rules.shares_value(d.state, player)
        pct = int(d.rs.params["share_income_percent"])
        income = base + rules.percent(value, pct)
        d.pay("bank", player, income)
        held = d.state["policies"].get(player, [])
        expired = [p for p in d.rs.params["policies_ending_at_start"] if p in held]
        for policy in expired:
            d.change("policy", False, player=player, policy=policy)
        d.basis = {
            "player": player,
            "salary": base,
            "shares_value": value,
            "share_income_percent": pct,
            "share_income": income - base,
            "income": income,
            "policies_expired": expired,
        }

    def check_auction_of_owned(self, d: Draft, deed: Deed, owner: str) -> None:
        """The AUCTION space may pick a player's plot, unless mortgaged, insured or built on."""
        prop = d.prop(deed.slug)
        if prop["mortgaged"]:
            raise RuleViolation("mortgaged", reason="auction", property=deed.slug)
        if prop["houses"] or prop["hotel"]:
            raise RuleViolation("group_has_buildings", reason="auction", property=deed.slug)
        if d.state["policies"].get(owner):
            raise RuleViolation("insured", owner=owner, property=deed.slug)

    def check_mortgage(self, d: Draft, deed: Deed) -> None:
        """The plot's own buildings are sold first; a bare plot of a built branch may be
        mortgaged, and then the branch stops building."""
        built = d.prop(deed.slug)
        if built["houses"] or built["hotel"]:
            raise RuleViolation("group_has_buildings", reason="plot", property=deed.slug)

    def check_trade(self, d: Draft, deed: Deed) -> None:
        """Per plot (seed 004, "ТОРГОВЛЯ СОБСТВЕННОСТЬЮ"): a bare plot may change hands while
        other plots of its branch carry buildings; a plot with a building on it may not."""
        built = d.before["properties"][deed.slug]
        if built["houses"] or built["hotel"]:
            raise RuleViolation("group_has_buildings", reason="plot_trade", property=deed.slug)


VARIANTS: dict[str, Classic] = {v.name: v for v in (Classic(), MillionaireElite())}
if set(VARIANTS) != set(KNOWN_VARIANTS):
    raise TypeError(f"a class of checks for each variant: {sorted(KNOWN_VARIANTS)}")
