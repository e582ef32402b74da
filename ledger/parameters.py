"""Every parameter a rule set may give, and the variants its ``variant`` parameter names.

A rule-set document's ``parameters`` are the money figures of a box (docs/rulesets.md,
"Parameters"). Each is declared once here (``PARAMETERS``): its kind, its default (or that a
complete document must give it), its range or its choices, the variants whose rules read it,
and what it means. The check of a document's parameters (``check_parameters``), its sentence
for each figure out of range, the OpenAPI document's description of ``parameters``
(``schemas/rulesets.py``) and docs/rulesets.md's tables (checked by
``tests/ledger/test_parameters.py``) all come from it.

A variant (``KNOWN_VARIANTS``) is a name and the values in which its money rules differ from the
other's; the checks that truly differ are its class in ``ledger.variants``.

A declaration that does not fit is a programming error: ``check_registry`` runs when this
module is imported.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CLASSIC = "classic"
ELITE = "millionaire-elite"


@dataclass(frozen=True)
class Variant:
    """A variant of the game: its name and the values in which its money rules differ."""

    name: str
    description: str
    kitty: bool = False  # the pot takes money without the Free Parking house rule
    loans: bool = False  # IOUs without the player_loans house rule
    auctioned_buildings: bool = True  # scarce buildings may be auctioned above the printed price
    shares: bool = False  # the game has shares, and their price in its state


KNOWN_VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(CLASSIC, "Classic Monopoly, and the short and timed games built on it"),
        Variant(
            ELITE,
            "Millionaire Elite (seed 004): round income, shares, insurance, the kitty, loans, "
            "per-plot rules",
            kitty=True,
            loans=True,
            auctioned_buildings=False,
            shares=True,
        ),
    )
}
EVERY_VARIANT = frozenset(KNOWN_VARIANTS)
ONLY_ELITE = frozenset({ELITE})

# What a parameter holds.
WHOLE = "whole"  # a whole number from low to high
WHOLE_OR_NULL = "whole_or_null"  # null, or a whole number from low to high
BOOLEAN = "boolean"
CHOICE = "choice"  # one of ``choices``
VARIANT = "variant"  # the name of a variant
WHOLES = "wholes"  # a list of whole numbers from low to high
PRICES = "prices"  # an object of name -> a whole number from low to high
KEYS = "keys"  # a list of keys of the parameter ``of``; null: those of ``legacy`` it has
KINDS = frozenset({WHOLE, WHOLE_OR_NULL, BOOLEAN, CHOICE, VARIANT, WHOLES, PRICES, KEYS})
NUMERIC = frozenset({WHOLE, WHOLE_OR_NULL, WHOLES, PRICES})  # the kinds that hold whole numbers

# What a numeric parameter's whole numbers count: the ledger checks them alike, but a form
# (the console's "your own box") offers money figures, not a percentage or a count, and shows
# each in its own way. ``GET /api/v1/parameters`` publishes it as the parameter's ``kind``.
AMOUNT = "amount"  # money, in the box's currency
PERCENT = "percent"  # a percentage, 0 to 100
NUMBER = "number"  # a count or a multiplier: not money
UNITS = frozenset({AMOUNT, PERCENT, NUMBER})

MAX_FIGURE = 10**9  # the largest amount of any box
MAX_SUPPLY = 10**6  # the most houses or hotels a Bank holds


class _Required:
    """The default of a parameter a complete document must give."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


def is_whole(value: Any, low: int, high: int) -> bool:
    """Whether ``value`` is a whole number (a JSON one: not true) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@dataclass(frozen=True)
class Parameter:
    """One rule-set parameter: what it holds, its default, what it means."""

    name: str
    kind: str
    description: str  # one sentence
    default: Any = REQUIRED
    low: int = 0
    high: int = MAX_FIGURE
    choices: tuple[str, ...] = ()
    variants: frozenset[str] = EVERY_VARIANT  # the variants whose rules read it
    # The sentence says "from low" only: ``high`` is the ledger's bound, not the box's.
    open_ended: bool = False
    null_means: str = ""  # WHOLE_OR_NULL: what null stands for, where the sentence says it
    at_most: str = ""  # another parameter this one may not exceed (a second check)
    of: str = ""  # KEYS: the parameter whose keys it lists
    legacy: tuple[str, ...] = ()  # KEYS: the keys a null (or left out) stands for
    unit: str = ""  # NUMERIC: what its whole numbers count (AMOUNT, PERCENT or NUMBER)

    @property
    def required(self) -> bool:
        """Whether a document must give this parameter: it has no default."""
        return self.default is REQUIRED

    @property
    def expected(self) -> str:
        """What the value must be, as the refusal of a document says it."""
        return expected(self, self.low, self.high)

    def accepts(self, value: Any, params: Mapping[str, Any]) -> bool:
        """Whether ``value`` is one this parameter takes, the others being ``params``."""
        if self.kind == WHOLE:
            return is_whole(value, self.low, self.high)
        if self.kind == WHOLE_OR_NULL:
            return value is None or is_whole(value, self.low, self.high)
        if self.kind == BOOLEAN:
            return isinstance(value, bool)
        if self.kind in (CHOICE, VARIANT):
            return isinstance(value, str) and value in self.choices
        if self.kind == WHOLES:
            return isinstance(value, list) and all(is_whole(v, self.low, self.high) for v in value)
        if self.kind == PRICES:
            return isinstance(value, dict) and all(
                is_whole(v, self.low, self.high) for v in value.values()
            )
        keys = self.keys_of(params)
        return value is None or (
            isinstance(value, list) and all(isinstance(k, str) and k in keys for k in value)
        )

    def keys_of(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        """KEYS: the object whose keys this lists, or none where that one is refused."""
        other = PARAMETERS[self.of]
        value = params.get(self.of)
        return value if isinstance(value, dict) and other.accepts(value, params) else {}

    def resolved(self, value: Any, params: Mapping[str, Any]) -> Any:
        """The value the ledger reads: a KEYS left null stands for its legacy keys."""
        if self.kind == KEYS and value is None:
            return [k for k in self.legacy if k in self.keys_of(params)]
        return value


def expected(p: Parameter, low: Any, high: Any) -> str:
    """What a value of ``p`` must be, with ``low`` and ``high`` for its bounds (the numbers,
    or placeholders for a sentence that several parameters share)."""
    if p.kind == WHOLE:
        return f"a whole number from {low}" + ("" if p.open_ended else f" to {high}")
    if p.kind == WHOLE_OR_NULL:
        null = f"null ({p.null_means})" if p.null_means else "null"
        return f"{null} or a whole number " + (f"from {low} to {high}" if p.low else f"to {high}")
    if p.kind == BOOLEAN:
        return "true or false"
    if p.kind == VARIANT:
        return f"one of {', '.join(p.choices)}"
    if p.kind == CHOICE:
        if len(p.choices) == 1:
            return f"only {p.choices[0]!r} is supported"
        return " or ".join(map(repr, p.choices))
    if p.kind == WHOLES:
        return "a list of whole numbers"
    if p.kind == PRICES:
        return "colour -> price"
    return f"a list of the {p.of}' colours"


def at_most_expected(p: Parameter) -> str:
    """The sentence of the second check of a parameter bounded by another."""
    return f"from {p.low} to {p.at_most}"


def registry(*parameters: Parameter) -> dict[str, Parameter]:
    """The parameters by name, in the order given."""
    return {p.name: p for p in parameters}


_FAIRPLAY = "The fair-play audit: "

# In the order a document's parameters are checked (and their problems listed).
PARAMETERS: dict[str, Parameter] = registry(
    # -- the classic game's figures, which a complete document gives ---------------------------
    Parameter(
        "starting_cash", WHOLE, "What each player gets from the Bank at set-up.", low=1, unit=AMOUNT
    ),
    Parameter(
        "salary",
        WHOLE,
        "What the Bank pays a player passing or landing on GO (in Millionaire Elite, the base "
        "of the round income).",
        unit=AMOUNT,
    ),
    Parameter("jail_fine", WHOLE, "The fine to leave jail.", unit=AMOUNT),
    Parameter(
        "luxury_tax",
        WHOLE,
        "The luxury tax: the default of the `luxury_tax` option, which a game may change.",
        variants=frozenset({CLASSIC}),
        unit=AMOUNT,
    ),
    Parameter(
        "income_tax_flat", WHOLE, "The flat income tax.", variants=frozenset({CLASSIC}), unit=AMOUNT
    ),
    Parameter(
        "income_tax_percent",
        WHOLE,
        "The income tax as a percentage of total worth, rounded half up.",
        high=100,
        variants=frozenset({CLASSIC}),
        unit=PERCENT,
    ),
    Parameter(
        "max_houses",
        WHOLE,
        "The most houses on one street; a street has `max_houses` + 2 rents.",
        low=1,
        high=10,
        unit=NUMBER,
    ),
    Parameter(
        "houses_before_hotel",
        WHOLE,
        "The houses a street must carry before a hotel.",
        low=1,
        high=10,
        at_most="max_houses",
        unit=NUMBER,
    ),
    Parameter(
        "mortgage_interest_percent",
        WHOLE,
        "The interest on lifting a mortgage, and the fee on receiving a mortgaged deed, "
        "rounded half up.",
        high=100,
        unit=PERCENT,
    ),
    # -- the supply of buildings ----------------------------------------------------------------
    Parameter(
        "houses",
        WHOLE_OR_NULL,
        "The houses in the Bank (null: no limit).",
        default=None,
        high=MAX_SUPPLY,
        null_means="no limit",
        unit=NUMBER,
    ),
    Parameter(
        "hotels",
        WHOLE_OR_NULL,
        "The hotels in the Bank (null: no limit).",
        default=None,
        high=MAX_SUPPLY,
        null_means="no limit",
        unit=NUMBER,
    ),
    # -- what a document may leave out ----------------------------------------------------------
    Parameter(
        "variant",
        VARIANT,
        "Which transaction types and money rules the game uses.",
        default=CLASSIC,
        choices=tuple(KNOWN_VARIANTS),
    ),
    Parameter(
        "bankruptcy",
        CHOICE,
        "`bank_covers`: the Bank pays the creditor what the bankrupt could not.",
        default="classic",
        choices=("classic", "bank_covers"),
    ),
    Parameter(
        "mortgaged_tradeable",
        BOOLEAN,
        "`false`: a mortgaged deed never changes hands in a trade.",
        default=True,
    ),
    Parameter(
        "pot_only_with_option",
        BOOLEAN,
        "`true`: the pot is an account only in a game with the `free_parking_pot` option; "
        "without it a payment into or out of the pot is refused.",
        default=False,
        variants=frozenset({CLASSIC}),
    ),
    Parameter(
        "jackpot_stake_returned",
        BOOLEAN,
        "A won jackpot stake comes back with the Bank's payout; only a lost one stays in the "
        "kitty.",
        default=False,
        variants=ONLY_ELITE,
    ),
    Parameter(
        "unpriced_plot_counts_bid",
        BOOLEAN,
        "A plot won at an auction while its price is not known counts at the winning bid in "
        "net worth and the standings.",
        default=False,
        variants=ONLY_ELITE,
    ),
    Parameter(
        "fairplay_dumping_percent",
        WHOLE,
        _FAIRPLAY + "a handover whose return is under this percentage of its value is "
        '"far below value".',
        default=50,
        high=100,
        unit=PERCENT,
    ),
    Parameter(
        "fairplay_shift_percent",
        WHOLE,
        _FAIRPLAY + "a net handover of at least this percentage of the receiver's net worth "
        "shifts the balance of power.",
        default=10,
        high=100,
        unit=PERCENT,
    ),
    Parameter(
        "fairplay_distress_percent",
        WHOLE,
        _FAIRPLAY + "a receiver who could raise less than this percentage of `starting_cash` "
        "is about to go bankrupt.",
        default=10,
        high=100,
        unit=PERCENT,
    ),
    Parameter(
        "pot_seed",
        WHOLE,
        "What the Bank puts in the pot at set-up (the Jackpot kitty).",
        default=0,
        open_ended=True,
        variants=ONLY_ELITE,
        unit=AMOUNT,
    ),
    Parameter(
        "share_price",
        WHOLE,
        "The shares' starting price.",
        default=100,
        open_ended=True,
        variants=ONLY_ELITE,
        unit=AMOUNT,
    ),
    Parameter(
        "share_tax",
        WHOLE,
        "Round tax per share held.",
        default=10,
        open_ended=True,
        variants=ONLY_ELITE,
        unit=AMOUNT,
    ),
    Parameter(
        "share_point",
        WHOLE,
        "One point on the exchange.",
        default=10,
        open_ended=True,
        variants=ONLY_ELITE,
        unit=AMOUNT,
    ),
    Parameter(
        "share_income_percent",
        WHOLE,
        "Round income = `salary` + this percentage of the player's shares' value.",
        default=20,
        high=100,
        variants=ONLY_ELITE,
        unit=PERCENT,
    ),
    Parameter(
        "policies",
        PRICES,
        "The insurance policies the Bank sells: colour -> price.",
        default={},
        low=1,
        variants=ONLY_ELITE,
        unit=AMOUNT,
    ),
    Parameter(
        "policies_ending_at_start",
        KEYS,
        "The policies that go back when their holder next passes START; the others last "
        "until used.",
        default=None,
        of="policies",
        # Left out, as in rule sets written before it existed: the green and blue ones.
        legacy=("green", "blue"),
        variants=ONLY_ELITE,
    ),
    # -- the classic game's figures, which a complete document gives (continued) ---------------
    Parameter(
        "mortgage_interest_base",
        CHOICE,
        "What the mortgage interest is a percentage of: the mortgage value or the printed price.",
        choices=("mortgage_value", "price"),
    ),
    Parameter(
        "railroad_rents",
        WHOLES,
        "Rent by the number of railroads of the group the owner holds: entry 1 for one, "
        "entry 2 for two, and so on.",
        unit=AMOUNT,
    ),
    Parameter(
        "utility_multipliers",
        WHOLES,
        "Utility rent: the dice times the multiplier of the number of utilities of the group held.",
        unit=NUMBER,
    ),
    # -- what a document may leave out (continued) ----------------------------------------------
    Parameter(
        "deal_deeds",
        WHOLE,
        "How many deeds each player is dealt at set-up and pays for at the printed price.",
        default=0,
        high=10,
        unit=NUMBER,
    ),
    Parameter(
        "ends_after_bankruptcies",
        WHOLE_OR_NULL,
        "The game finishes at this bankruptcy (null: at none).",
        default=None,
        low=1,
        high=7,
        unit=NUMBER,
    ),
    Parameter(
        "bankrupt_buildings_to_creditor",
        BOOLEAN,
        "A bankrupt's buildings go to a player creditor with the deeds instead of being sold "
        "to the Bank.",
        default=False,
    ),
    Parameter(
        "rounding",
        CHOICE,
        "How percentages round.",
        default="half_up",
        choices=("half_up",),
    ),
)


def published_kind(p: Parameter) -> str:
    """The parameter's ``kind`` as ``GET /api/v1/parameters`` publishes it (docs/api.md,
    "Parameters"): a whole number is its unit (``amount``, ``percent``, ``number``); a list of
    them ``list`` and an object of them ``object`` (their unit in ``entries``); a list of another
    parameter's keys ``list`` too; a yes-or-no ``boolean``; a variant or a choice ``choice``."""
    if p.kind in (WHOLE, WHOLE_OR_NULL):
        return p.unit
    if p.kind in (WHOLES, KEYS):
        return "list"
    if p.kind == PRICES:
        return "object"
    if p.kind == BOOLEAN:
        return "boolean"
    return "choice"


def defaults() -> dict[str, Any]:
    """Every parameter a document may leave out, at its default (a copy of its own)."""
    return {n: copy.deepcopy(p.default) for n, p in PARAMETERS.items() if not p.required}


def check_parameters(raw: Any, problems: list[str]) -> dict[str, Any]:
    """The parameters the ledger reads: ``raw`` over the defaults, each checked; a problem is
    appended to ``problems`` for every value a parameter does not take."""
    if not isinstance(raw, dict):
        problems.append("parameters: an object is required")
        return defaults()
    params = {**defaults(), **raw}
    for name, p in PARAMETERS.items():
        value = params.get(name)
        if not p.accepts(value, params):
            problems.append(f"parameters.{name}: {p.expected}")
        else:
            params[name] = p.resolved(value, params)
        bound = PARAMETERS.get(p.at_most)
        if (
            bound is not None
            and bound.accepts(params.get(bound.name), params)
            and not is_whole(value, p.low, params[bound.name])
        ):
            problems.append(f"parameters.{name}: {at_most_expected(p)}")
    unknown = sorted(set(raw) - set(PARAMETERS))
    if unknown:
        problems.append(f"parameters: unknown {', '.join(map(str, unknown))}")
    return params


def check_registry() -> None:
    """Every declaration is whole: a known kind, a default it takes itself, variants that
    exist, a parameter it refers to."""
    for name, p in PARAMETERS.items():
        if not re.fullmatch(r"[a-z][a-z_]*", name) or p.kind not in KINDS:
            raise TypeError(f"parameter {name}: a name of a-z and _, a kind of {sorted(KINDS)}")
        if not p.variants or not p.variants <= EVERY_VARIANT:
            raise TypeError(f"parameter {name}: variants {sorted(p.variants)}")
        if (p.kind in (CHOICE, VARIANT)) != bool(p.choices):
            raise TypeError(f"parameter {name}: choices only, and always, for a choice")
        # The parameter it refers to is checked before it.
        before = list(PARAMETERS)[: list(PARAMETERS).index(name)]
        if p.kind == KEYS and not (p.of in before and PARAMETERS[p.of].kind == PRICES):
            raise TypeError(f"parameter {name}: lists the keys of an object parameter before it")
        if p.at_most and not (p.at_most in before and PARAMETERS[p.at_most].kind == WHOLE):
            raise TypeError(f"parameter {name}: at most a whole parameter before it")
        if (p.unit in UNITS) != (p.kind in NUMERIC) or (p.unit == PERCENT and p.high > 100):
            raise TypeError(f"parameter {name}: a unit of {sorted(UNITS)}, only and always numeric")
        if not (p.description.endswith(".") and "\n" not in p.description):
            raise TypeError(f"parameter {name}: a description of one sentence")
        if not p.required and not p.accepts(p.default, defaults()):
            raise TypeError(f"parameter {name}: a default it does not take")


check_registry()
