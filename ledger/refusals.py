"""Every code a rule refusal can have: its ``params``, the English ``detail`` built from them.

A refusal is a code from ``REFUSALS`` plus ``params``: ids and whole numbers, never sentences,
so that a client in any language builds its own sentence from them (API.md, "Refusals a client
can translate"). ``detail`` is built here from the params, never the other way round.

A code has one meaning, or, where one code covers conditions that differ (``mortgaged``: no
rent, no building, no second mortgage, ...), one ``Case`` per ``reason``, each with its own
params and sentence; ``reason`` is then a param too. Every param name means one thing
everywhere (``PARAMS``), so a client formats it by its name: an account, a deed, an amount...

A code, a param or a sentence that does not fit is a programming error: ``check_registry``
runs when this module is imported, ``Refusal.params_of`` when a refusal is raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

REASON = "reason"

# What a param holds; the OpenAPI document and the console format each kind its own way.
ID_KINDS = frozenset({"account", "player", "deed", "group", "word", "code"})
NUMBER_KINDS = frozenset({"money", "count", "seq"})
LEVELS = "levels"  # deed id -> building level (a hotel counts one more than its houses)


@dataclass(frozen=True)
class Param:
    """What one param name holds, wherever it appears."""

    kind: str
    description: str


PARAMS: dict[str, Param] = {
    "reason": Param("word", "which of the code's conditions it is"),
    # accounts and players
    "payer": Param("account", "who was to pay: a player, or the pot"),
    "creditor": Param(
        "account", "whom the money was owed to: `bank` (the pot counts as the Bank) or a player"
    ),
    "debtor": Param("player", "the player going bankrupt"),
    "player": Param("player", "the player concerned (as given, where it names no one)"),
    "owner": Param("player", "the player who holds the deed"),
    "holder": Param("player", "the player who holds the card"),
    "turn": Param("player", "the player whose turn it is"),
    # money
    "amount": Param("money", "what the transaction takes out of the payer's account"),
    "cash": Param("money", "the cash held before the transaction"),
    "shortfall": Param("money", "amount - cash: what is missing"),
    "can_raise": Param("money", "what selling buildings and mortgaging could still raise"),
    "total": Param("money", "cash + can_raise: everything the player could raise"),
    "owed": Param("money", "the unpaid debt given with the bankruptcy"),
    # deeds and buildings
    "property": Param("deed", "the deed concerned (as given, where it names none)"),
    "group": Param("group", "the deed's colour group (or branch)"),
    "kind": Param("word", "the deed's kind: railroad, utility, plot, central"),
    LEVELS: Param(LEVELS, "each deed of the group and its building level after the move"),
    "houses": Param("count", "houses standing on the deed"),
    "count": Param("count", "how many were asked for (`disputes_open`: how many are open)"),
    "needed": Param("count", "how many houses the move needs"),
    "left": Param("count", "how many the Bank has left"),
    "limit": Param("count", "the most houses a deed may carry"),
    "built": Param("count", "houses the player would have built this turn"),
    # cards, policies, shares, IOUs
    "deck": Param("word", "the jail card's deck: chance or community_chest"),
    "policy": Param("word", "the insurance policy: green, blue, orange or red"),
    "held": Param("count", "shares the player holds"),
    "only": Param("word", "the one income tax this game allows: flat or percent"),
    "iou": Param("word", "the IOU's id (as given, where it names none)"),
    "dispute": Param("seq", "the seq of the dispute"),
    "resolved_by": Param("seq", "the void or dispute_resolve that closed the dispute"),
    # the log
    "seq": Param("seq", "the transaction concerned"),
    "voided_by": Param("seq", "the void that voided it"),
    "depends_on": Param("seq", "the transaction to void, which it depends on"),
    "type": Param("word", "the transaction's type"),
    "would_be": Param("code", "the code it would be refused with"),
}


@dataclass(frozen=True)
class Case:
    """One meaning of a code: its params, its English sentence and, where the code has
    several, what it means (``description``)."""

    template: str
    params: tuple[str, ...]
    optional: tuple[str, ...] = ()
    description: str = ""
    # Problem members of version 1 kept beside ``params``: member name -> param name.
    members: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Refusal:
    """A refusal code: what it means and its cases (one, keyed ``None``, or one per reason)."""

    code: str
    description: str
    cases: Mapping[str | None, Case]
    reserved: bool = False  # promised by the contract, not raised yet

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reasons the code is given for, where it has one case per reason."""
        return tuple(r for r in self.cases if r is not None)

    def case(self, params: Mapping[str, Any]) -> Case:
        """The case that ``params`` belong to; a reason the code lacks is an error."""
        if None in self.cases:
            return self.cases[None]
        reason = params.get(REASON)
        if reason not in self.cases:
            raise TypeError(f"{self.code}: reason {reason!r} is not one of {self.reasons}")
        return self.cases[reason]

    def params_of(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` checked against the case and in its order; anything amiss is an error."""
        case = self.case(params)
        names = (REASON,) * bool(self.reasons) + case.params
        given = set(params)
        missing = set(names) - given
        extra = given - set(names) - set(case.optional)
        if missing or extra:
            raise TypeError(
                f"{self.code}: missing params {sorted(missing)}, unexpected {sorted(extra)}"
            )
        for name, value in params.items():
            check_value(self.code, name, value)
        return {n: params[n] for n in (*names, *case.optional) if n in params}

    def detail(self, params: Mapping[str, Any]) -> str:
        """The English sentence of ``params`` (checked)."""
        return self.case(params).template.format_map(params)

    def members(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The version 1 problem members this refusal still carries beside ``params``."""
        case = self.case(params)
        return {member: params[name] for member, name in case.members.items() if name in params}


def check_value(code: str, name: str, value: Any) -> None:
    """A param value of its kind: an id (a string), a whole number, or levels by deed."""
    kind = PARAMS[name].kind
    if kind in ID_KINDS:
        ok = isinstance(value, str)
    elif kind in NUMBER_KINDS:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, dict) and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        )
    if not ok:
        raise TypeError(f"{code}: param {name} is a {kind}, not {value!r}")


def one(
    code: str,
    description: str,
    template: str,
    *params: str,
    optional: tuple[str, ...] = (),
    members: Mapping[str, str] | None = None,
    reserved: bool = False,
) -> Refusal:
    """A code with one meaning."""
    case = Case(template, params, optional, members=dict(members or {}))
    return Refusal(code, description, {None: case}, reserved)


def by_reason(code: str, description: str, **cases: Case) -> Refusal:
    """A code covering several conditions, told apart by the ``reason`` param."""
    keyed: dict[str | None, Case] = {reason: c for reason, c in cases.items()}
    return Refusal(code, description, keyed)


def case(description: str, template: str, *params: str, **members: str) -> Case:
    """One reason of a code: what it means, its sentence, its params."""
    return Case(template, params, description=description, members=members)


def registry(*refusals: Refusal) -> dict[str, Refusal]:
    """The refusal codes by code, in the order given."""
    return {r.code: r for r in refusals}


_VOID = {"seq": "seq", "depends_on": "depends_on"}

REFUSALS: dict[str, Refusal] = registry(
    # -- money -------------------------------------------------------------------------------
    one(
        "insufficient_funds",
        "the payer lacks the cash (`creditor`: whom it was owed, absent where several)",
        "{payer} must pay {amount} but holds {cash} (short by {shortfall}; could raise "
        "{can_raise} more by selling buildings and mortgaging)",
        "payer",
        "amount",
        "cash",
        "shortfall",
        "can_raise",
        optional=("creditor",),  # absent where the money was owed to several accounts
        members={
            "account": "payer",
            "amount": "amount",
            "shortfall": "shortfall",
            "can_raise": "can_raise",
        },
    ),
    one(
        "not_insolvent",
        "a bankruptcy of a debtor who could still raise what he owes",
        "{debtor} could raise {total} (cash {cash} + {can_raise}) and owes {owed}",
        "debtor",
        "owed",
        "cash",
        "can_raise",
        "total",
        members={"cash": "cash", "can_raise": "can_raise"},
    ),
    # -- players and deeds named -------------------------------------------------------------
    one(
        "unknown_player",
        "no such player at this table",
        "no player '{player}' at this table",
        "player",
    ),
    one(
        "player_bankrupt",
        "the player is bankrupt and out of the game",
        "{player} is bankrupt and out of the game",
        "player",
    ),
    one(
        "unknown_property",
        "no such deed in the game's rule set",
        "no property '{property}' in this rule set",
        "property",
    ),
    one(
        "not_owned",
        "the Bank holds the deed (rent, building, mortgage)",
        "the Bank holds {property}",
        "property",
    ),
    one(
        "already_owned",
        "the deed belongs to a player already (buy, auction, deal)",
        "{property} belongs to {owner}",
        "property",
        "owner",
    ),
    one(
        "not_owner",
        "a trade gives a deed its giver does not hold",
        "{player} does not hold {property}",
        "player",
        "property",
    ),
    # -- rent --------------------------------------------------------------------------------
    one("own_property", "rent to oneself", "{payer} owns {property}", "payer", "property"),
    one(
        "owner_in_jail",
        "the owner is in jail and collects no rent (house rule)",
        "{owner} is in jail and collects no rent",
        "owner",
        "property",
    ),
    one(
        "claim_window_closed",
        "rent charged to another player than the one whose turn it is",
        "it is {turn}'s turn: rent can only be charged to {turn}",
        "turn",
        "payer",
    ),
    by_reason(
        "mortgaged",
        "the deed, or a deed of its group, is mortgaged",
        rent=case("rent on a mortgaged deed", "{property} is mortgaged: no rent", "property"),
        build=case(
            "a building on a group with a mortgaged deed",
            "a deed of the {group} group is mortgaged ({property})",
            "property",
            "group",
        ),
        mortgage=case(
            "a mortgage of a mortgaged deed", "{property} is mortgaged already", "property"
        ),
        trade=case(
            "a mortgaged deed traded where the rules forbid it",
            "{property} is mortgaged: it changes hands only in a bankruptcy",
            "property",
        ),
        auction=case(
            "an auction of a mortgaged plot (Millionaire Elite)",
            "{property} is mortgaged: it cannot be auctioned",
            "property",
        ),
    ),
    one(
        "not_mortgaged",
        "a mortgage lifted from a deed that is not mortgaged",
        "{property} is not mortgaged",
        "property",
    ),
    # -- buildings ---------------------------------------------------------------------------
    one(
        "group_incomplete",
        "a building on a group its owner does not hold whole",
        "{owner} does not hold the whole {group} group",
        "owner",
        "property",
        "group",
    ),
    by_reason(
        "group_has_buildings",
        "buildings stand in the way: sell them first",
        group=case(
            "a mortgage of a deed whose group has buildings",
            "sell the {group} group's buildings before mortgaging {property}",
            "property",
            "group",
        ),
        plot=case(
            "a mortgage of a plot with buildings (Millionaire Elite)",
            "sell {property}'s buildings before mortgaging it",
            "property",
        ),
        trade=case(
            "a trade of a deed whose group has buildings",
            "the {group} group has buildings: sell them before trading {property}",
            "property",
            "group",
        ),
        auction=case(
            "an auction of a plot with buildings (Millionaire Elite)",
            "{property} has buildings: no auction",
            "property",
        ),
        plot_trade=case(
            "a trade of a plot with buildings (Millionaire Elite: bare plots of a built "
            "branch may change hands)",
            "{property} has buildings: sell them before trading it",
            "property",
        ),
    ),
    one(
        "not_buildable",
        "a building on a railroad, utility or central plot",
        "{property} is a {kind}: no buildings",
        "property",
        "kind",
    ),
    by_reason(
        "uneven_building",
        "the group would stand uneven",
        uneven=case(
            "building or selling would leave the group uneven",
            "the {group} group would stand uneven: {levels}",
            "property",
            "group",
            "levels",
            levels="levels",
        ),
        hotel=case(
            "a hotel before the deed has its houses",
            "a hotel needs {needed} houses on {property} first",
            "property",
            "needed",
            "houses",
        ),
    ),
    by_reason(
        "building_limit",
        "no more buildings there",
        hotel=case("a second hotel on a deed", "{property} already has a hotel", "property"),
        houses=case(
            "more houses than a deed carries",
            "at most {limit} houses on {property}",
            "property",
            "limit",
        ),
        one_house_per_turn=case(
            "a second house in one turn (house rule)",
            "one house a turn (house rule): {player} would build {built}",
            "player",
            "built",
        ),
    ),
    by_reason(
        "no_houses_left",
        "the Bank has too few houses",
        build=case(
            "houses bought beyond what the Bank has",
            "the Bank has {left} houses left; {property} needs {needed}",
            "property",
            "needed",
            "left",
        ),
        break_down=case(
            "a hotel broken down into more houses than the Bank has",
            "breaking the hotel on {property} down needs {needed} houses in the Bank "
            "(it has {left})",
            "property",
            "needed",
            "left",
        ),
    ),
    one("no_hotels_left", "the Bank has no hotels left", "the Bank has no hotels left", "property"),
    by_reason(
        "no_buildings",
        "nothing there to sell",
        hotel=case("a hotel sold where there is none", "{property} has no hotel", "property"),
        houses=case(
            "more houses sold than stand there",
            "{property} has {houses} houses",
            "property",
            "houses",
            "count",
        ),
    ),
    # -- jail cards, options -----------------------------------------------------------------
    by_reason(
        "no_jail_card",
        "the jail card is not where the move needs it",
        held=case(
            "a card drawn that a player holds",
            "the {deck} card is held by {holder}",
            "deck",
            "holder",
        ),
        not_held=case(
            "a card used or traded that the player does not hold",
            "{player} holds no {deck} jail card",
            "player",
            "deck",
        ),
    ),
    by_reason(
        "option_disabled",
        "the game's rule set or options do not have it",
        income_tax=case(
            "an income tax the game does not offer", "this game's income tax is {only} only", "only"
        ),
        free_parking_pot=case(
            "a pot collected, or paid into or out of, in a game without one",
            "this game has no Free Parking pot",
        ),
        player_loans=case(
            "an IOU in a game without player loans", "this game has no player loans (IOUs)"
        ),
    ),
    one(
        "first_lap_not_done",
        "a deed bought, won or received in a trade before the buyer's first salary on GO "
        "(house rule buy_after_first_lap)",
        "{player} has not completed his first lap: no deeds before his first salary (house rule)",
        "player",
    ),
    # -- IOUs --------------------------------------------------------------------------------
    one("unknown_iou", "no such IOU in this game", "no IOU '{iou}' in this game", "iou"),
    one("iou_settled", "the IOU is settled", "{iou} is settled", "iou"),
    # -- Millionaire Elite -------------------------------------------------------------------
    one(
        "shares_unavailable",
        "the Bank sells no shares at price 0",
        "at price 0 the Bank sells no shares",
    ),
    one(
        "insufficient_shares",
        "more shares sold than the player holds",
        "{player} holds {held} shares",
        "player",
        "held",
        "count",
    ),
    one(
        "no_policy",
        "a policy used or handed back that the player does not hold",
        "{player} holds no {policy} policy",
        "player",
        "policy",
    ),
    one(
        "insured",
        "an auction of an insured player's plot",
        "{owner} is insured against auctions",
        "owner",
        "property",
    ),
    # -- the log -----------------------------------------------------------------------------
    one(
        "game_finished",
        "the game is finished: nothing more is recorded",
        "the game is finished: nothing more is recorded",
    ),
    one(
        "already_voided",
        "the transaction was voided already",
        "transaction {seq} was voided by {voided_by}",
        "seq",
        "voided_by",
    ),
    by_reason(
        "void_conflict",
        "the transaction cannot be voided",
        not_voidable=case(
            "a set-up transaction, a void or the finish",
            "a {type} transaction cannot be voided",
            "seq",
            "type",
        ),
        refused=case(
            "a later transaction would be refused without it",
            "transaction {seq} ({type}) depends on {depends_on}: without it, it would be "
            "refused ({would_be})",
            "seq",
            "type",
            "depends_on",
            "would_be",
            **_VOID,
            would_be="would_be",
        ),
        changed=case(
            "a later transaction would move other amounts or assets without it",
            "transaction {seq} ({type}) depends on {depends_on}: without it, it would "
            "move other amounts or assets",
            "seq",
            "type",
            "depends_on",
            **_VOID,
        ),
        table_changed=case(
            "what it moved has moved again since",
            "transaction {seq} depends on {depends_on}: the table has changed since",
            "seq",
            "depends_on",
            **_VOID,
        ),
    ),
    # -- disputes (API.md v1.1) ----------------------------------------------------------------
    one(
        "unknown_dispute",
        "no such dispute in this game (`dispute`: the seq given, which is no dispute)",
        "no dispute {dispute} in this game",
        "dispute",
    ),
    one(
        "dispute_closed",
        "the dispute is resolved already, by a void or a dispute_resolve",
        "dispute {dispute} was closed by transaction {resolved_by}",
        "dispute",
        "resolved_by",
    ),
    one(
        "disputes_open",
        "a finish while a dispute is open (`seq`: the first open dispute): uphold or void "
        "each first",
        "open disputes: {count} (the first is transaction {seq}); uphold or void each before "
        "the game ends",
        "count",
        "seq",
    ),
)


def refusal(code: str) -> Refusal:
    """The registered refusal ``code``; an unregistered one is a programming error."""
    try:
        return REFUSALS[code]
    except KeyError:
        raise LookupError(f"{code!r} is not a registered refusal code") from None


def check_registry() -> None:
    """Every param is declared, every sentence uses only its case's params, every kept
    member names a param of its case, every reason says what it means."""
    for r in REFUSALS.values():
        for reason, c in r.cases.items():
            where = f"refusal {r.code}" + (f", reason {reason}" if reason else "")
            names = set(c.params) | set(c.optional)
            used = {name for _, name, _, _ in Formatter().parse(c.template) if name}
            if not names <= set(PARAMS) or REASON in names:
                raise TypeError(f"{where}: undeclared params {sorted(names - set(PARAMS))}")
            if not used <= set(c.params):
                raise TypeError(f"{where}: its sentence uses {sorted(used - set(c.params))}")
            if not set(c.members.values()) <= names:
                raise TypeError(f"{where}: a member kept names no param")
            if (reason is None) != (len(r.cases) == 1) or (reason and not c.description):
                raise TypeError(f"{where}: a code has one meaning, or reasons that say theirs")


check_registry()
