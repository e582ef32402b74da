"""Rule sets: the board and the money parameters of a box, loaded from data files.

A rule set is a JSON document (see ``rulesets/classic.json``). It is validated once when it
is loaded; the ``Game`` aggregate keeps the document it was created with, so a game is always
replayed with the rules it was played by. Its ``names`` (the deeds' names in other languages)
and a ``currency`` given by language are for people: the ledger checks them and reads neither.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

BUILT_IN = ("classic", "short", "timed", "millionaire-elite")

# Parameters a rule-set document may leave out, with the classic game's values.
VARIANTS = ("classic", "millionaire-elite")
# The policies that last one round in Millionaire Elite (seed 004), for a rule set that does
# not say which of its policies do.
LEGACY_ROUND_POLICIES = ("green", "blue")

OPTIONAL_PARAMS: dict[str, Any] = {
    "variant": "classic",  # which transaction types and money rules the game uses
    "pot_seed": 0,  # what the Bank puts in the pot at set-up (the Jackpot kitty)
    "mortgaged_tradeable": True,  # Millionaire Elite: a mortgaged plot is never traded
    "bankruptcy": "classic",  # or "bank_covers": the Bank pays the creditor the rest
    "share_price": 100,  # Millionaire Elite: the shares' starting price
    "share_income_percent": 20,  # round income: 200 + this % of the shares' value
    "share_tax": 10,  # round tax per share
    "share_point": 10,  # one point on the exchange
    "policies": {},  # insurance policy colour -> price
    # Policies that go back when their holder next passes START (the others when used).
    # Left out, as in rule sets written before it existed: the green and blue ones.
    "policies_ending_at_start": None,
    "deal_deeds": 0,  # deeds dealt to each player at set-up, paid at their printed price
    "ends_after_bankruptcies": None,  # the short game ends at the second bankruptcy
    "bankrupt_buildings_to_creditor": False,  # short game: buildings go with the deeds
    "rounding": "half_up",
    # Millionaire Elite: a won stake comes back (seed 004). Left out, as in rule sets written
    # before it existed, the stake went into the kitty on a win too: their games replay so.
    "jackpot_stake_returned": False,
    # The fair-play audit (docs/audit.md, "Fair play"): what came back below this percent of
    # what was handed over is "far below value"; a net handover of at least this percent of
    # the receiver's net worth shifts the balance of power; a receiver who could raise less
    # than this percent of the starting cash is about to go bankrupt.
    "fairplay_dumping_percent": 50,
    "fairplay_shift_percent": 10,
    "fairplay_distress_percent": 10,
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
    kind: str  # street | railroad | utility | plot (buildable) | central (not buildable)
    group: str
    price: int | None  # None: the box prints it, this rule set does not; the banker enters it
    rents: tuple[int, ...] = ()  # streets: bare, 1-4 houses, hotel
    house_price: int = 0
    hotel_price: int = 0

    @property
    def mortgage_value(self) -> int | None:
        """Half the printed price."""
        return None if self.price is None else self.price // 2

    @property
    def buildable(self) -> bool:
        """Only streets (and Millionaire Elite's branch plots) carry buildings."""
        return self.kind in ("street", "plot")


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
        """Each option at its default value; an option whose default is "none" (a game to
        a clock only if asked) is left out."""
        return {
            name: spec["default"]
            for name, spec in self.options.items()
            if spec.get("default") is not None
        }

    def group_of(self, slug: str) -> tuple[str, ...]:
        """The slugs of every deed in the same group as ``slug``."""
        return self.groups[self.deeds[slug].group]


# name: (smallest, largest) for the whole-number parameters every rule set gives.
_WHOLE_PARAMS: dict[str, tuple[int, int]] = {
    "starting_cash": (1, 10**9),
    "salary": (0, 10**9),
    "jail_fine": (0, 10**9),
    "luxury_tax": (0, 10**9),
    "income_tax_flat": (0, 10**9),
    "income_tax_percent": (0, 100),
    "max_houses": (1, 10),
    "houses_before_hotel": (1, 10),
    "mortgage_interest_percent": (0, 100),
}

# The house rules the ledger knows how to enforce, with the kind of value each takes.
KNOWN_OPTIONS = {
    "free_parking_pot": "boolean",
    "player_loans": "boolean",
    "no_rent_in_jail": "boolean",
    "keep_bankrupt_players": "boolean",
    "one_house_per_turn": "boolean",
    "buy_after_first_lap": "boolean",
    "income_tax": "choice",
    "luxury_tax": "amount",
    "minutes": "minutes",
}
MAX_MINUTES = 24 * 60  # a game to a clock ends the same day

MAX_DEEDS = 60
INCOME_TAX_MODES = ("choice", "flat", "percent")
# A language of ``names`` and of a currency by language: a 2-letter code (ISO 639-1).
LANGUAGE = re.compile(r"[a-z]{2}")
MAX_LOCAL_NAME = 60  # a deed's name in another language
MAX_CURRENCY = 32
# Control characters, none of which a label shows.
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def parse_ruleset(document: Any) -> RuleSet:
    """Validate a rule-set document and build its ``RuleSet``; raise ``RuleSetInvalid``
    listing every problem found (never any other exception, whatever the document)."""
    if not isinstance(document, dict):
        raise RuleSetInvalid("?", ["the rule set must be a JSON object"])
    name = document.get("name")
    problems: list[str] = []
    if not (isinstance(name, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", name)):
        problems.append("name: 1-64 characters of a-z, 0-9 and '-'")
        name = "?"
    params = _check_params(document.get("parameters"), problems)
    players: Any = document.get("players")
    if not (
        isinstance(players, dict)
        and _whole(players.get("min"), 2, 8)
        and _whole(players.get("max"), 2, 8)
        and players["min"] <= players["max"]
    ):
        problems.append("players: {min, max} with 2 <= min <= max <= 8")
    _check_currency(document.get("currency", ""), problems)
    found = len(problems)
    deeds = _check_deeds(document.get("deeds"), params, problems)
    # A deed refused is missing from ``deeds``: its names would look like names of no deed.
    _check_names(document.get("names", {}), deeds if len(problems) == found else None, problems)
    groups: dict[str, list[str]] = {}
    for deed in deeds.values():
        groups.setdefault(deed.group, []).append(deed.slug)
    for group, members in groups.items():
        kinds = {deeds[m].kind for m in members}
        if len(kinds) != 1:
            problems.append(f"group {group!r} mixes kinds {sorted(kinds)}")
        elif "railroad" in kinds and len(members) > _length(params.get("railroad_rents")):
            problems.append(f"group {group!r}: a railroad rent for each railroad held is needed")
        elif "utility" in kinds and len(members) > _length(params.get("utility_multipliers")):
            problems.append(f"group {group!r}: a multiplier for each utility held is needed")
    options = _check_options(document.get("options", {}), params, problems)
    if not problems and params["deal_deeds"] * players["max"] > len(deeds):
        problems.append("parameters.deal_deeds: more deeds dealt than the board holds")
    if problems:
        raise RuleSetInvalid(str(name), problems)
    return RuleSet(
        name=str(name),
        title=str(document.get("title", name)),
        document=document,
        params=params,
        options=options,
        deeds=deeds,
        groups={g: tuple(m) for g, m in groups.items()},
    )


def _same_whole(value: Any, expected: int | None) -> bool:
    """Whether ``value`` is the whole number ``expected`` (a JSON one: not true), or both None."""
    return value is None if expected is None else _whole(value, expected, expected)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def _check_params(raw: Any, problems: list[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        problems.append("parameters: an object is required")
        return dict(OPTIONAL_PARAMS)
    params = {**OPTIONAL_PARAMS, "houses": None, "hotels": None, **raw}
    for key, (low, high) in _WHOLE_PARAMS.items():
        if not _whole(params.get(key), low, high):
            problems.append(f"parameters.{key}: a whole number from {low} to {high}")
    for key in ("houses", "hotels"):
        if params.get(key) is not None and not _whole(params.get(key), 0, 10**6):
            problems.append(f"parameters.{key}: null (no limit) or a whole number to 1000000")
    if params["variant"] not in VARIANTS:
        problems.append(f"parameters.variant: one of {', '.join(VARIANTS)}")
    if params["bankruptcy"] not in ("classic", "bank_covers"):
        problems.append("parameters.bankruptcy: 'classic' or 'bank_covers'")
    if not isinstance(params["mortgaged_tradeable"], bool):
        problems.append("parameters.mortgaged_tradeable: true or false")
    if not isinstance(params["jackpot_stake_returned"], bool):
        problems.append("parameters.jackpot_stake_returned: true or false")
    for key in ("fairplay_dumping_percent", "fairplay_shift_percent", "fairplay_distress_percent"):
        if not _whole(params[key], 0, 100):
            problems.append(f"parameters.{key}: a whole number from 0 to 100")
    for key in ("pot_seed", "share_price", "share_tax", "share_point"):
        if not _whole(params[key], 0, 10**9):
            problems.append(f"parameters.{key}: a whole number from 0")
    if not _whole(params["share_income_percent"], 0, 100):
        problems.append("parameters.share_income_percent: a whole number from 0 to 100")
    policies = params["policies"]
    if not (isinstance(policies, dict) and all(_whole(v, 1, 10**9) for v in policies.values())):
        problems.append("parameters.policies: colour -> price")
        policies = {}
    ending = params["policies_ending_at_start"]
    if ending is None:
        params["policies_ending_at_start"] = [p for p in LEGACY_ROUND_POLICIES if p in policies]
    elif not (isinstance(ending, list) and all(p in policies for p in ending)):
        problems.append("parameters.policies_ending_at_start: a list of the policies' colours")
    if _whole(params.get("max_houses"), 1, 10) and not _whole(
        params.get("houses_before_hotel"), 1, params["max_houses"]
    ):
        problems.append("parameters.houses_before_hotel: from 1 to max_houses")
    if params.get("mortgage_interest_base") not in ("mortgage_value", "price"):
        problems.append("parameters.mortgage_interest_base: 'mortgage_value' or 'price'")
    for key in ("railroad_rents", "utility_multipliers"):
        value = params.get(key)
        if not (isinstance(value, list) and all(_whole(v, 0, 10**9) for v in value)):
            problems.append(f"parameters.{key}: a list of whole numbers")
    if not _whole(params["deal_deeds"], 0, 10):
        problems.append("parameters.deal_deeds: a whole number from 0 to 10")
    ends = params["ends_after_bankruptcies"]
    if ends is not None and not _whole(ends, 1, 7):
        problems.append("parameters.ends_after_bankruptcies: null or a whole number from 1 to 7")
    if not isinstance(params["bankrupt_buildings_to_creditor"], bool):
        problems.append("parameters.bankrupt_buildings_to_creditor: true or false")
    if params["rounding"] != "half_up":
        problems.append("parameters.rounding: only 'half_up' is supported")
    unknown = sorted(set(raw) - set(_WHOLE_PARAMS) - set(OPTIONAL_PARAMS) - _OTHER_PARAMS)
    if unknown:
        problems.append(f"parameters: unknown {', '.join(map(str, unknown))}")
    return params


_OTHER_PARAMS = {
    "railroad_rents",
    "utility_multipliers",
    "mortgage_interest_base",
    "houses",
    "hotels",
}


def _check_deeds(raw: Any, params: dict[str, Any], problems: list[str]) -> dict[str, Deed]:
    deeds: dict[str, Deed] = {}
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_DEEDS:
        problems.append(f"deeds: a list of 1 to {MAX_DEEDS} deeds")
        return deeds
    max_houses: int = params["max_houses"] if _whole(params.get("max_houses"), 1, 10) else 4
    for i, item in enumerate(raw):
        where = f"deeds[{i}]"
        if not isinstance(item, dict):
            problems.append(f"{where}: an object is required")
            continue
        name, kind, group = item.get("name"), item.get("kind"), item.get("group")
        if not (isinstance(name, str) and name.strip() and len(name) <= 80):
            problems.append(f"{where}.name: a name of up to 80 characters")
            continue
        slug = item.get("id", slugify(name))
        if not (isinstance(slug, str) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)):
            problems.append(
                f"{where}.id: the name {name!r} gives no id of a-z, 0-9 and '-': give an id"
            )
            continue
        if kind not in ("street", "railroad", "utility", "plot", "central"):
            problems.append(f"{where}.kind: street, railroad, utility, plot or central")
            continue
        if not (isinstance(group, str) and 0 < len(group) <= 64):
            problems.append(f"{where}.group: a group name")
            continue
        price: Any = item.get("price")
        position: Any = item.get("position", i)
        if price is None and kind == "plot":
            pass  # the box prints it; the banker enters it on the first purchase
        elif not _whole(price, 2, 10**9) or price % 2:
            problems.append(f"{where}.price: a positive even whole number")
            continue
        if not _whole(position, 0, 1000):
            problems.append(f"{where}.position: a whole number from 0")
            continue
        rents: Any = item.get("rents", [])
        house_price: Any = item.get("house_price", 0)
        hotel_price: Any = item.get("hotel_price", house_price)
        if kind == "street":
            if not (
                isinstance(rents, list)
                and len(rents) >= max_houses + 2
                and all(_whole(r, 0, 10**9) for r in rents)
            ):
                problems.append(
                    f"{where}.rents: bare, 1 to {max_houses} houses, and hotel "
                    f"({max_houses + 2} whole numbers)"
                )
                continue
            if not (_whole(house_price, 1, 10**9) and _whole(hotel_price, 1, 10**9)):
                problems.append(f"{where}: a street needs a house_price (and hotel_price)")
                continue
        if kind == "plot" and not (house_price == 0 or _whole(house_price, 1, 10**9)):
            problems.append(f"{where}.house_price: 0 (entered by the banker) or a price")
            continue
        deed = Deed(
            slug=slug,
            name=name,
            position=position,
            kind=kind,
            group=group,
            price=price,
            rents=tuple(rents) if kind == "street" else (),
            house_price=house_price if kind in ("street", "plot") else 0,
            hotel_price=hotel_price if kind in ("street", "plot") else 0,
        )
        # Derived, not given: a rule set's answer shows it, and may be sent back as it is.
        if "mortgage_value" in item and not _same_whole(
            item["mortgage_value"], deed.mortgage_value
        ):
            problems.append(f"{where}.mortgage_value: half the price ({deed.mortgage_value})")
            continue
        if deed.slug in deeds:
            problems.append(f"{where}.name: {deed.slug!r} twice")
        deeds[deed.slug] = deed
    return deeds


def _check_currency(raw: Any, problems: list[str]) -> None:
    if isinstance(raw, str) and len(raw) <= MAX_CURRENCY:
        return
    if not isinstance(raw, dict) or not raw:
        problems.append(
            f"currency: a label of up to {MAX_CURRENCY} characters, or an object of "
            "language -> label"
        )
        return
    for lang, label in raw.items():
        if not (isinstance(lang, str) and LANGUAGE.fullmatch(lang)):
            problems.append(f"currency.{lang}: a language is a 2-letter code such as 'ru'")
        elif not (
            isinstance(label, str)
            and label.strip()
            and len(label) <= MAX_CURRENCY
            and not CONTROLS.search(label)
        ):
            problems.append(f"currency.{lang}: a label of 1 to {MAX_CURRENCY} characters")


def _check_names(raw: Any, deeds: dict[str, Deed] | None, problems: list[str]) -> None:
    """``names``: language -> deed id -> the deed's name in that language; ``deeds`` None
    when the board has problems of its own (the ids are then not checked)."""
    if not isinstance(raw, dict):
        problems.append("names: an object of language -> deed id -> name")
        return
    for lang, local in raw.items():
        if not (isinstance(lang, str) and LANGUAGE.fullmatch(lang)):
            problems.append(f"names.{lang}: a language is a 2-letter code such as 'ru'")
            continue
        if not isinstance(local, dict):
            problems.append(f"names.{lang}: an object of deed id -> name")
            continue
        for slug, name in local.items():
            where = f"names.{lang}.{slug}"
            if deeds is not None and slug not in deeds:
                problems.append(f"{where}: no deed has this id")
            elif not isinstance(name, str):
                problems.append(f"{where}: a name (a string)")
            elif not name.strip():
                problems.append(f"{where}: a name, not only spaces")
            elif len(name) > MAX_LOCAL_NAME:
                problems.append(f"{where}: a name of up to {MAX_LOCAL_NAME} characters")
            elif CONTROLS.search(name):
                problems.append(f"{where}: a name without control characters")


def _check_options(
    raw: Any, params: dict[str, Any], problems: list[str]
) -> dict[str, dict[str, Any]]:
    options: dict[str, dict[str, Any]] = {}
    if not isinstance(raw, dict):
        problems.append("options: an object is required")
        return options
    for opt, spec in raw.items():
        kind = KNOWN_OPTIONS.get(opt)
        if kind is None:
            problems.append(f"options.{opt}: not a house rule this ledger knows")
            continue
        if not isinstance(spec, dict) or spec.get("type") != kind:
            problems.append(f"options.{opt}.type: {kind}")
            continue
        spec = dict(spec)
        if "default" not in spec and opt in params:
            spec["default"] = params[opt]
        default = spec.get("default")
        ok = (
            (kind == "boolean" and isinstance(default, bool))
            or (
                kind == "choice"
                and isinstance(spec.get("choices"), list)
                and spec["choices"]
                and all(c in INCOME_TAX_MODES for c in spec["choices"])
                and default in spec["choices"]
            )
            or (kind == "amount" and _whole(default, 0, 10**9))
            or (kind == "minutes" and (default is None or _whole(default, 1, MAX_MINUTES)))
        )
        if not ok:
            problems.append(f"options.{opt}.default: a valid {kind}")
            continue
        options[opt] = spec
    return options


def _read_built_in(name: str) -> dict[str, Any]:
    text = resources.files("ledger.rulesets").joinpath(f"{name}.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def resolve_extends(document: dict[str, Any]) -> dict[str, Any]:
    """A whole document from one that ``extends`` a built-in rule set with some changes.

    Parameters and options are taken key by key; ``deeds``, ``spaces`` and ``players`` are
    replaced whole when given; ``names`` language by language and deed by deed (see
    ``_merge_names``). The result names no base: a game keeps every figure it uses.
    """
    if not isinstance(document, dict) or document.get("extends") is None:
        return document
    base_name = document["extends"]
    if base_name not in BUILT_IN:
        raise RuleSetInvalid(
            str(document.get("name", "?")), [f"extends: no rule set {base_name!r}"]
        )
    base = resolve_extends(_read_built_in(base_name))
    merged = {**base, **{k: v for k, v in document.items() if k != "extends"}}
    for section in ("parameters", "options"):
        changes = document.get(section, {})
        if not isinstance(changes, dict):
            raise RuleSetInvalid(str(document.get("name", "?")), [f"{section}: an object"])
        merged[section] = {**base.get(section, {}), **changes}
    names = _merge_names(base, merged, document.get("names", {}))
    if names == {}:
        merged.pop("names", None)  # as a board without names was always written
    else:
        merged["names"] = names
    return merged


def _merge_names(base: dict[str, Any], merged: dict[str, Any], changes: Any) -> Any:
    """The base's names of the deeds the result still has, under the same id and printed
    name (a deed renamed or a board replaced keeps no translation of the old name), then the
    document's own on top. A ``changes`` of the wrong shape is kept for the check to refuse."""
    if not isinstance(changes, dict):
        return changes
    kept = _printed_names(base.get("deeds")).items() & _printed_names(merged.get("deeds")).items()
    ids = {slug for slug, _ in kept}
    names: dict[str, Any] = {}
    for lang, local in base.get("names", {}).items():
        inherited = {slug: name for slug, name in local.items() if slug in ids}
        if inherited:
            names[lang] = inherited
    for lang, local in changes.items():
        if isinstance(local, dict) and isinstance(names.get(lang), dict):
            names[lang] = {**names[lang], **local}
        else:
            names[lang] = local
    return names


def _printed_names(deeds: Any) -> dict[str, str]:
    """Each deed's id and printed name, of the deeds that have both."""
    out: dict[str, str] = {}
    for deed in deeds if isinstance(deeds, list) else ():
        name = deed.get("name") if isinstance(deed, dict) else None
        if isinstance(name, str):
            slug = deed.get("id", slugify(name))
            if isinstance(slug, str):
                out[slug] = name
    return out


@cache
def _load_built_in(name: str) -> RuleSet:
    return parse_ruleset(resolve_extends(_read_built_in(name)))


def built_in(name: str) -> RuleSet | None:
    """The built-in rule set called ``name``, or None."""
    return _load_built_in(name) if name in BUILT_IN else None
