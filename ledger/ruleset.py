"""Rule sets: the board and the money parameters of a box, loaded from data files.

A rule set is a JSON document (see ``rulesets/classic.json``). It is validated once when it
is loaded; the ``Game`` aggregate keeps the document it was created with, so a game is always
replayed with the rules it was played by.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

BUILT_IN = ("classic", "short", "timed")

# Parameters a rule-set document may leave out, with the classic game's values.
OPTIONAL_PARAMS: dict[str, Any] = {
    "deal_deeds": 0,  # deeds dealt to each player at set-up, paid at their printed price
    "ends_after_bankruptcies": None,  # the short game ends at the second bankruptcy
    "bankrupt_buildings_to_creditor": False,  # short game: buildings go with the deeds
    "rounding": "half_up",
}


class RuleSetInvalid(ValueError):
    """A rule-set document that does not describe a playable board."""

    def __init__(self, name: str, problems: list[str]) -> None:
        super().__init__(f"rule set {name!r} is invalid: " + "; ".join(problems))
        self.problems = problems


def slugify(name: str) -> str:
    """The deed's identifier: lower case, each run of other characters one '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass(frozen=True)
class Deed:
    """One title deed: a street, railroad or utility."""

    slug: str
    name: str
    position: int
    kind: str  # street | railroad | utility
    group: str
    price: int
    rents: tuple[int, ...] = ()  # streets: bare, 1-4 houses, hotel
    house_price: int = 0
    hotel_price: int = 0

    @property
    def mortgage_value(self) -> int:
        """Half the printed price."""
        return self.price // 2

    @property
    def buildable(self) -> bool:
        """Only streets carry houses and hotels."""
        return self.kind == "street"


@dataclass(frozen=True)
class RuleSet:
    """A validated rule set, with its deeds indexed by slug and grouped by colour."""

    name: str
    title: str
    document: dict[str, Any]
    params: dict[str, Any]
    options: dict[str, dict[str, Any]]
    deeds: dict[str, Deed]
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def min_players(self) -> int:
        return int(self.document["players"]["min"])

    @property
    def max_players(self) -> int:
        return int(self.document["players"]["max"])

    def option_defaults(self) -> dict[str, Any]:
        """Each option at its default value."""
        return {name: spec["default"] for name, spec in self.options.items()}

    def group_of(self, slug: str) -> tuple[str, ...]:
        """The slugs of every deed in the same group as ``slug``."""
        return self.groups[self.deeds[slug].group]


_REQUIRED_PARAMS = {
    "starting_cash": int,
    "salary": int,
    "jail_fine": int,
    "luxury_tax": int,
    "income_tax_flat": int,
    "income_tax_percent": int,
    "houses": int,
    "hotels": int,
    "max_houses": int,
    "houses_before_hotel": int,
    "mortgage_interest_percent": int,
    "mortgage_interest_base": str,
    "railroad_rents": list,
    "utility_multipliers": list,
}


def parse_ruleset(document: dict[str, Any]) -> RuleSet:
    """Validate a rule-set document and build its ``RuleSet``; raise ``RuleSetInvalid``."""
    name = str(document.get("name", "?"))
    problems: list[str] = []
    params = document.get("parameters")
    if not isinstance(params, dict):
        raise RuleSetInvalid(name, ["parameters: missing"])
    params = dict(params)
    for key, kind in _REQUIRED_PARAMS.items():
        if not isinstance(params.get(key), kind) or isinstance(params.get(key), bool):
            problems.append(f"parameters.{key}: a {kind.__name__} is required")
    for key, default in OPTIONAL_PARAMS.items():
        params.setdefault(key, default)
    if params["rounding"] != "half_up":
        problems.append("parameters.rounding: only 'half_up' is supported")
    if not isinstance(params["deal_deeds"], int) or params["deal_deeds"] < 0:
        problems.append("parameters.deal_deeds: a whole number, 0 or more")
    if params.get("mortgage_interest_base") not in ("mortgage_value", "price"):
        problems.append("parameters.mortgage_interest_base: 'mortgage_value' or 'price'")
    players = document.get("players", {})
    if not (isinstance(players, dict) and 2 <= players.get("min", 0) <= players.get("max", 0)):
        problems.append("players: min and max, 2 <= min <= max")

    deeds: dict[str, Deed] = {}
    for i, raw in enumerate(document.get("deeds", [])):
        try:
            deed = Deed(
                slug=slugify(raw["name"]),
                name=raw["name"],
                position=int(raw["position"]),
                kind=raw["kind"],
                group=raw["group"],
                price=int(raw["price"]),
                rents=tuple(int(r) for r in raw.get("rents", ())),
                house_price=int(raw.get("house_price", 0)),
                hotel_price=int(raw.get("hotel_price", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"deeds[{i}]: {exc!r}")
            continue
        if deed.kind not in ("street", "railroad", "utility"):
            problems.append(f"deeds[{i}].kind: street, railroad or utility")
        if deed.kind == "street" and (len(deed.rents) != 6 or deed.house_price <= 0):
            problems.append(f"deeds[{i}]: a street needs 6 rents and a house price")
        if deed.price <= 0 or deed.price % 2:
            problems.append(f"deeds[{i}].price: a positive even amount")
        if deed.slug in deeds:
            problems.append(f"deeds[{i}].name: {deed.slug!r} twice")
        deeds[deed.slug] = deed
    if not deeds:
        problems.append("deeds: none")

    groups: dict[str, list[str]] = {}
    for deed in deeds.values():
        groups.setdefault(deed.group, []).append(deed.slug)
    for group, members in groups.items():
        kinds = {deeds[m].kind for m in members}
        if len(kinds) != 1:
            problems.append(f"group {group!r} mixes kinds {sorted(kinds)}")

    options: dict[str, dict[str, Any]] = {}
    for opt, spec in document.get("options", {}).items():
        spec = dict(spec)
        if spec.get("type") not in ("boolean", "choice", "amount"):
            problems.append(f"options.{opt}.type: boolean, choice or amount")
            continue
        if "default" not in spec:
            if opt in params:
                spec["default"] = params[opt]
            else:
                problems.append(f"options.{opt}.default: missing")
        options[opt] = spec

    if problems:
        raise RuleSetInvalid(name, problems)
    return RuleSet(
        name=name,
        title=str(document.get("title", name)),
        document=document,
        params=dict(params),
        options=options,
        deeds=deeds,
        groups={g: tuple(m) for g, m in groups.items()},
    )


def _read_built_in(name: str) -> dict[str, Any]:
    text = resources.files("ledger.rulesets").joinpath(f"{name}.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def resolve_extends(document: dict[str, Any]) -> dict[str, Any]:
    """A whole document from one that ``extends`` a built-in rule set with some changes.

    Parameters and options are taken key by key; ``deeds``, ``spaces`` and ``players`` are
    replaced whole when given. The result names no base: a game keeps every figure it uses.
    """
    base_name = document.get("extends")
    if base_name is None:
        return document
    if base_name not in BUILT_IN:
        raise RuleSetInvalid(
            str(document.get("name", "?")), [f"extends: no rule set {base_name!r}"]
        )
    base = resolve_extends(_read_built_in(base_name))
    merged = {**base, **{k: v for k, v in document.items() if k != "extends"}}
    for section in ("parameters", "options"):
        merged[section] = {**base.get(section, {}), **document.get(section, {})}
    return merged


@cache
def _load_built_in(name: str) -> RuleSet:
    return parse_ruleset(resolve_extends(_read_built_in(name)))


def built_in(name: str) -> RuleSet | None:
    """The built-in rule set called ``name``, or None."""
    return _load_built_in(name) if name in BUILT_IN else None
