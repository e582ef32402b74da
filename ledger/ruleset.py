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

from ledger.parameters import PARAMETERS, check_parameters, is_whole

BUILT_IN = ("classic", "short", "timed", "millionaire-elite")


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
        """The fewest players a game of this rule set seats."""
        return int(self.document["players"]["min"])

    @property
    def max_players(self) -> int:
        """The most players a game of this rule set seats."""
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
    params = check_parameters(document.get("parameters"), problems)
    players: Any = document.get("players")
    if not (
        isinstance(players, dict)
        and is_whole(players.get("min"), 2, 8)
        and is_whole(players.get("max"), 2, 8)
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
    return value is None if expected is None else is_whole(value, expected, expected)


def _length(value: Any) -> int:
    """How many items ``value`` has if it is a list; 0 otherwise."""
    return len(value) if isinstance(value, list) else 0


def _check_deeds(raw: Any, params: dict[str, Any], problems: list[str]) -> dict[str, Deed]:
    """The deeds of a rule set's document by id; what is wrong with each added to ``problems``."""
    deeds: dict[str, Deed] = {}
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_DEEDS:
        problems.append(f"deeds: a list of 1 to {MAX_DEEDS} deeds")
        return deeds
    limit = PARAMETERS["max_houses"]
    max_houses: int = params["max_houses"] if limit.accepts(params.get("max_houses"), params) else 4
    for i, item in enumerate(raw):
        deed = _one_deed(item, i, max_houses)
        if isinstance(deed, str):
            problems.append(f"deeds[{i}]{deed}")
            continue
        if deed.slug in deeds:
            problems.append(f"deeds[{i}].name: {deed.slug!r} twice")
        deeds[deed.slug] = deed
    return deeds


def _one_deed(item: Any, i: int, max_houses: int) -> Deed | str:
    """The ``i``-th deed of a rule set's document, or what is wrong with it (to follow its
    place: ``.field: what it must be``)."""
    if not isinstance(item, dict):
        return ": an object is required"
    named = _deed_names(item)
    if isinstance(named, str):
        return named
    slug, name, kind, group = named
    price: Any = item.get("price")
    position: Any = item.get("position", i)
    if price is None and kind == "plot":
        pass  # the box prints it; the banker enters it on the first purchase
    elif not is_whole(price, 2, 10**9) or price % 2:
        return ".price: a positive even whole number"
    if not is_whole(position, 0, 1000):
        return ".position: a whole number from 0"
    rents: Any = item.get("rents", [])
    house_price: Any = item.get("house_price", 0)
    hotel_price: Any = item.get("hotel_price", house_price)
    wrong = _buildings_wrong(kind, rents, house_price, hotel_price, max_houses)
    if wrong:
        return wrong
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
    # Derived, not given: a rule set's answer shows them, and may be sent back as it is.
    if "mortgage_value" in item and not _same_whole(item["mortgage_value"], deed.mortgage_value):
        return f".mortgage_value: half the price ({deed.mortgage_value})"
    if "buildable" in item and item["buildable"] is not deed.buildable:
        said = "true" if deed.buildable else "false"
        return f".buildable: {said} for a {kind} (streets and plots carry buildings)"
    return deed


def _deed_names(item: dict[str, Any]) -> tuple[str, str, str, str] | str:
    """A deed's id (given, or made of its name), name, kind and group, or what is wrong."""
    name, kind, group = item.get("name"), item.get("kind"), item.get("group")
    if not (isinstance(name, str) and name.strip() and len(name) <= 80):
        return ".name: a name of up to 80 characters"
    slug = item.get("id", slugify(name))
    if not (isinstance(slug, str) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)):
        return f".id: the name {name!r} gives no id of a-z, 0-9 and '-': give an id"
    if kind not in ("street", "railroad", "utility", "plot", "central"):
        return ".kind: street, railroad, utility, plot or central"
    if not (isinstance(group, str) and 0 < len(group) <= 64):
        return ".group: a group name"
    return slug, name, kind, group


def _buildings_wrong(
    kind: str, rents: Any, house_price: Any, hotel_price: Any, max_houses: int
) -> str | None:
    """What is wrong with a deed's rents and building prices for its kind, if anything."""
    if kind == "street":
        if not (
            isinstance(rents, list)
            and len(rents) >= max_houses + 2
            and all(is_whole(r, 0, 10**9) for r in rents)
        ):
            return (
                f".rents: bare, 1 to {max_houses} houses, and hotel "
                f"({max_houses + 2} whole numbers)"
            )
        if not (is_whole(house_price, 1, 10**9) and is_whole(hotel_price, 1, 10**9)):
            return ": a street needs a house_price (and hotel_price)"
    if kind == "plot" and not (house_price == 0 or is_whole(house_price, 1, 10**9)):
        return ".house_price: 0 (entered by the banker) or a price"
    return None


def _check_currency(raw: Any, problems: list[str]) -> None:
    """Add to ``problems`` what is wrong with ``currency``: a label, or one per language."""
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
    """The valid house rules of a document's ``options``, each with its default; what is wrong
    with the others added to ``problems``."""
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
            or (kind == "amount" and is_whole(default, 0, 10**9))
            or (kind == "minutes" and (default is None or is_whole(default, 1, MAX_MINUTES)))
        )
        if not ok:
            problems.append(f"options.{opt}.default: a valid {kind}")
            continue
        options[opt] = spec
    return options


def _read_built_in(name: str) -> dict[str, Any]:
    """The document of the built-in rule set ``name``, as its JSON file holds it."""
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
    """The built-in rule set ``name``, its ``extends`` resolved, parsed once and kept."""
    return parse_ruleset(resolve_extends(_read_built_in(name)))


def built_in(name: str) -> RuleSet | None:
    """The built-in rule set called ``name``, or None."""
    return _load_built_in(name) if name in BUILT_IN else None
