"""The registry of rule-set parameters (ledger/parameters.py): every parameter the ledger reads
is declared once, with the default a stored game replays with, and a document's figure out of
its range is refused with the sentence docs/rulesets.md gives ("When a document is refused").

The variants are the registry's too: the names a rule set may give, their values, and one class
of checks for each (ledger/variants.py)."""

from __future__ import annotations

import copy
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ledger.parameters import (
    BOOLEAN,
    CHOICE,
    CLASSIC,
    ELITE,
    EVERY_VARIANT,
    KNOWN_VARIANTS,
    PARAMETERS,
    PRICES,
    VARIANT,
    WHOLE,
    WHOLE_OR_NULL,
    WHOLES,
    Parameter,
    at_most_expected,
    defaults,
    expected,
)
from ledger.ruleset import BUILT_IN, RuleSetInvalid, parse_ruleset, resolve_extends
from ledger.variants import VARIANTS

LEDGER = Path(__file__).parents[2] / "ledger"

# What a document may leave out, and what the ledger then reads (docs/rulesets.md, "Parameters a
# document may leave out"). A stored game replays with these: a default is never changed.
DEFAULTS = {
    "houses": None,
    "hotels": None,
    "variant": "classic",
    "bankruptcy": "classic",
    "mortgaged_tradeable": True,
    "pot_only_with_option": False,
    "jackpot_stake_returned": False,
    "unpriced_plot_counts_bid": False,
    "fairplay_dumping_percent": 50,
    "fairplay_shift_percent": 10,
    "fairplay_distress_percent": 10,
    "pot_seed": 0,
    "share_price": 100,
    "share_tax": 10,
    "share_point": 10,
    "share_income_percent": 20,
    "policies": {},
    "policies_ending_at_start": None,  # the green and blue ones of ``policies``
    "deal_deeds": 0,
    "ends_after_bankruptcies": None,
    "bankrupt_buildings_to_creditor": False,
    "rounding": "half_up",
}
# What a complete document must give (docs/rulesets.md, "The classic game's figures").
REQUIRED = {
    "starting_cash",
    "salary",
    "jail_fine",
    "luxury_tax",
    "income_tax_flat",
    "income_tax_percent",
    "max_houses",
    "houses_before_hotel",
    "mortgage_interest_percent",
    "mortgage_interest_base",
    "railroad_rents",
    "utility_multipliers",
}


def built_in_document(name: str) -> dict[str, Any]:
    text = resources.files("ledger.rulesets").joinpath(f"{name}.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


CLASSIC_DOCUMENT = built_in_document("classic")
ELITE_DOCUMENT = built_in_document("millionaire-elite")


def problems_of(document: dict[str, Any], **parameters: Any) -> list[str]:
    """The parameters' problems of ``document`` with ``parameters`` changed (None: left out)."""
    doc = copy.deepcopy(document)
    doc["name"] = "mine"
    doc["parameters"].update(parameters)
    doc["parameters"] = {k: v for k, v in doc["parameters"].items() if v is not None}
    try:
        parse_ruleset(doc)
    except RuleSetInvalid as err:
        return [p for p in err.problems if p.startswith("parameters")]
    return []


def test_a_document_may_leave_out_these_and_they_take_their_defaults():
    assert defaults() == DEFAULTS
    assert {n for n, p in PARAMETERS.items() if p.required} == REQUIRED
    assert set(PARAMETERS) == REQUIRED | set(DEFAULTS)

    params = parse_ruleset(CLASSIC_DOCUMENT).params
    given = CLASSIC_DOCUMENT["parameters"]
    left_out = {n: params[n] for n in DEFAULTS if n not in given}
    # classic sells no policies: none of them goes back at START.
    assert left_out == {
        **{n: v for n, v in DEFAULTS.items() if n not in given},
        "policies_ending_at_start": [],
    }


def test_policies_left_out_of_ending_at_start_are_the_green_and_blue_ones():
    """As in rule sets written before it existed (docs/rules.md, "Insurance policies")."""
    doc = copy.deepcopy(ELITE_DOCUMENT)
    del doc["parameters"]["policies_ending_at_start"]
    assert parse_ruleset(doc).params["policies_ending_at_start"] == ["green", "blue"]

    doc["parameters"]["policies"] = {"red": 500, "green": 100}
    assert parse_ruleset(doc).params["policies_ending_at_start"] == ["green"]


COLOURS = "a list of the policies' colours"


@pytest.mark.parametrize(
    ("name", "value", "sentence"),
    [
        ("variant", "monopoly", "one of classic, millionaire-elite"),
        ("bankruptcy", "forgive", "'classic' or 'bank_covers'"),
        ("mortgaged_tradeable", 0, "true or false"),
        ("jackpot_stake_returned", "yes", "true or false"),
        ("pot_seed", -1, "a whole number from 0"),
        ("share_point", 10**9 + 1, "a whole number from 0"),
        ("share_income_percent", 101, "a whole number from 0 to 100"),
        ("fairplay_shift_percent", True, "a whole number from 0 to 100"),
        ("salary", 2.5, "a whole number from 0 to 1000000000"),
        ("max_houses", 11, "a whole number from 1 to 10"),
        ("hotels", -1, "null (no limit) or a whole number to 1000000"),
        ("policies", {"green": 0}, "colour -> price"),
        ("policies", ["green"], "colour -> price"),
        ("policies_ending_at_start", ["gold"], COLOURS),
        ("policies_ending_at_start", "green", COLOURS),
        ("utility_multipliers", [4, -10], "a list of whole numbers"),
    ],
)
def test_a_figure_out_of_its_range_is_refused_with_its_sentence(
    name: str, value: Any, sentence: str
) -> None:
    # Left out, the policies that go back at START are those of the green and blue ones that
    # there are: none where the policies are refused.
    changes = {"policies_ending_at_start": None, name: value}
    assert problems_of(ELITE_DOCUMENT, **changes) == [f"parameters.{name}: {sentence}"]


def test_a_list_of_policies_holding_a_list_is_a_listed_problem():
    """Not a TypeError from deep in the ledger (a 500 over HTTP): a listed problem."""
    problems = problems_of(ELITE_DOCUMENT, policies_ending_at_start=[["green"]])
    assert problems == [f"parameters.policies_ending_at_start: {COLOURS}"]


def test_a_parameter_s_problems_are_listed_together():
    # 11 is more than any street carries, and more than the 4 of classic's max_houses.
    assert problems_of(CLASSIC_DOCUMENT, houses_before_hotel=11, rounding="down") == [
        "parameters.houses_before_hotel: a whole number from 1 to 10",
        "parameters.houses_before_hotel: from 1 to max_houses",
        "parameters.rounding: only 'half_up' is supported",
    ]


def test_a_complete_document_without_parameters_lists_each_one_it_must_give():
    problems = problems_of(CLASSIC_DOCUMENT, **dict.fromkeys(CLASSIC_DOCUMENT["parameters"]))
    named = {p.split(":")[0].removeprefix("parameters.") for p in problems}
    assert named == REQUIRED


def _reads() -> dict[str, set[str]]:
    """Each parameter the ledger reads as ``params["name"]`` or ``params.get("name")``, and
    the modules that read it (the checks of ledger/parameters.py aside)."""
    out: dict[str, set[str]] = {}
    pattern = re.compile(r"params(?:\[|\.get\()\s*\"([a-z_]+)\"")
    for path in sorted(LEDGER.glob("**/*.py")):
        if path.name in ("parameters.py", "refusals.py"):
            continue
        for name in pattern.findall(path.read_text()):
            out.setdefault(name, set()).add(str(path.relative_to(LEDGER)))
    return out


def test_every_parameter_the_ledger_reads_is_declared_and_every_one_is_read():
    reads = _reads()
    assert set(reads) <= set(PARAMETERS)
    # Only half_up rounding exists (rules.round_half_up): the parameter is checked, not read.
    assert set(PARAMETERS) - set(reads) == {"rounding"}


def test_the_parameters_only_millionaire_elite_reads_are_its_figures():
    """docs/rules.md, "Millionaire Elite": its kitty seed, its shares, its round income and
    tax, its insurance policies, its jackpot and its plots won at auction; every other
    parameter every variant reads."""
    elite = {n for n, p in PARAMETERS.items() if p.variants == {ELITE}}
    assert elite == {
        "pot_seed",
        "share_price",
        "share_tax",
        "share_point",
        "share_income_percent",
        "policies",
        "policies_ending_at_start",
        "jackpot_stake_returned",
        "unpriced_plot_counts_bid",
    }
    # classic's taxes: Millionaire Elite has no tax transaction (its round tax instead); the pot
    # only with the Free Parking option: Millionaire Elite's kitty is always its pot.
    classic = {n for n, p in PARAMETERS.items() if p.variants == {CLASSIC}}
    assert classic == {
        "luxury_tax",
        "income_tax_flat",
        "income_tax_percent",
        "pot_only_with_option",
    }


def test_each_variant_is_its_values_and_one_class_of_checks():
    assert set(KNOWN_VARIANTS) == {CLASSIC, ELITE} == EVERY_VARIANT == set(VARIANTS)
    assert PARAMETERS["variant"].choices == (CLASSIC, ELITE)
    for name, variant in VARIANTS.items():
        values = KNOWN_VARIANTS[name]
        assert variant.name == values.name == name
        assert (variant.kitty, variant.loans, variant.auctioned_buildings) == (
            values.kitty,
            values.loans,
            values.auctioned_buildings,
        )
    # docs/rules.md, "Millionaire Elite": the kitty, loans without the house rule, buildings at
    # the printed price, shares; classic has none of them.
    elite, classic = KNOWN_VARIANTS[ELITE], KNOWN_VARIANTS[CLASSIC]
    assert (elite.kitty, elite.loans, elite.auctioned_buildings, elite.shares) == (
        True,
        True,
        False,
        True,
    )
    assert (classic.kitty, classic.loans, classic.auctioned_buildings, classic.shares) == (
        False,
        False,
        True,
        False,
    )


# -- docs/rulesets.md's tables, from the registry ------------------------------------------------

ROOT = LEDGER.parent
PAGE = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
LARGE = {10**9: "10⁹", 10**6: "10⁶"}
REQUIRED_TABLE = "### The classic game's figures"
OPTIONAL_TABLE = "### Parameters a document may leave out"


def shown(value: Any) -> str:
    """A value as the tables show it: a number as it is, anything else as JSON in code."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def type_cell(p: Parameter) -> str:
    """The "type, range" cell of a parameter."""
    if p.kind == WHOLE:
        if p.at_most:
            return f"whole, {p.low} to `{p.at_most}`"
        if p.open_ended:
            return f"whole, from {p.low}"
        return f"whole, {p.low} to {LARGE.get(p.high, p.high)}"
    if p.kind == WHOLE_OR_NULL:
        return f"`null` or whole, {p.low} to {LARGE.get(p.high, p.high)}"
    if p.kind == BOOLEAN:
        return "boolean"
    if p.kind in (CHOICE, VARIANT):
        return " or ".join(f'`"{c}"`' for c in p.choices)
    if p.kind == WHOLES:
        return "list of whole numbers"
    if p.kind == PRICES:
        return "object: colour → price"
    return f"`null` or a list of colours of `{p.of}`"


def values_cell(p: Parameter) -> str:
    """The default (classic's figure, of a parameter a complete document gives), then what the
    other built-in rule sets give where it differs."""
    documents = {n: resolve_extends(built_in_document(n))["parameters"] for n in BUILT_IN}
    base = documents["classic"][p.name] if p.required else p.default
    others: dict[str, list[str]] = {}
    for name, given in documents.items():
        if p.name in given and given[p.name] != base:
            others.setdefault(shown(given[p.name]), []).append(f"`{name}`")
    differ = "; ".join(f"{', '.join(names)}: {value}" for value, names in others.items())
    return shown(base) + (f" ({differ})" if differ else "")


def variants_cell(p: Parameter) -> str:
    return "all" if p.variants == EVERY_VARIANT else ", ".join(sorted(p.variants))


def table(heading: str) -> dict[str, list[str]]:
    """The rows of the parameters' table under ``heading``: parameter -> its cells."""
    section = PAGE.split(heading, 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells
    return rows


@pytest.mark.parametrize("heading", [REQUIRED_TABLE, OPTIONAL_TABLE])
def test_docs_tables_say_what_the_registry_says(heading: str) -> None:
    rows = table(heading)
    required = heading == REQUIRED_TABLE
    assert set(rows) == {n for n, p in PARAMETERS.items() if p.required == required}
    for name, cells in rows.items():
        p = PARAMETERS[name]
        want = [f"`{name}`", type_cell(p), values_cell(p), variants_cell(p)]
        assert cells[:4] == want, f"| {' | '.join(want)} | {p.description} …"
        assert cells[4] == p.description or cells[4].startswith(p.description + " "), name


def test_docs_list_the_sentence_of_every_parameter_s_problem() -> None:
    """docs/rulesets.md, "When a document is refused": each parameter's sentence, as it is or
    for every parameter of its kind (``<name>``, ``<low>``, ``<high>``)."""
    messages = PAGE.split("| message | cause |", 1)[1].split("\n\n", 1)[0]
    for name, p in PARAMETERS.items():
        literal = f"parameters.{name}: {p.expected}"
        shared = f"parameters.<name>: {expected(p, '<low>', '<high>')}"
        assert f"`{literal}`" in messages or f"`{shared}`" in messages, literal
        if p.at_most:
            assert f"`parameters.{name}: {at_most_expected(p)}`" in messages, name
