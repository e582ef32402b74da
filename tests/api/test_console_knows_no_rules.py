"""The console keeps no list of types, card effects, decks or variants of its own (issue 21):
it builds its forms from ``GET .../moves`` (moves.js). Its scripts, dictionaries aside, name no
variant, no card effect and no deck, and hold no table of transaction types (a list of three or
more, as the old lists of the types that cannot be voided were). A dialog may still name the
type it records, and the disputes' screen the two types it draws.

Nor does it write a request by hand (issue 32): every move's body comes from its declaration
through one builder (moves.js ``bodyOf``, ``moveBody``), which refuses a field the declaration
does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.transactions import RECORDABLE, REGISTRY, SETUP_TYPES
from ledger.variants import VARIANTS

SCRIPTS = sorted(
    p
    for p in (Path(__file__).parents[2] / "api/static/console/js").glob("*.js")
    if not p.name.startswith("i18n")
)
# A string literal of a word, in any of JavaScript's three quotes ('a', "a", `a`).
STRING = re.compile(r"""(['"`])([a-z_-]+)\1""")
# A text looked up in the dictionaries, t('key', ...), and a test id: words of the page, not of
# the rules.
LOOKUP = re.compile(r"\bt\('[^']*'|testid: '[^']*'")
TYPES = RECORDABLE | SETUP_TYPES
# An object literal opening with a type, as a request written by hand would: {type: 'salary', ...}.
REQUEST = re.compile(r"""\{\s*type:\s*(['"`])([a-z_]+)\1""")
# A query of the history by type (GET .../transactions?type=turn): not a request to record.
QUERY = re.compile(r"\.transactions\([^()]*\)")


def choices(field_name: str) -> set[str]:
    return {
        choice
        for declared in REGISTRY.values()
        for f in declared.fields
        if f.name == field_name
        for choice in f.choices
    }


# The card effects and the decks, as the declarations give them.
EFFECTS_AND_DECKS = choices("effect") | choices("deck")


def strings_of(text: str) -> set[str]:
    return {word for _, word in STRING.findall(LOOKUP.sub("", text))}


def type_lists(text: str) -> list[str]:
    """The array literals of three or more transaction types."""
    return [
        literal
        for literal in re.findall(r"\[([^\[\]]*)\]", LOOKUP.sub("", text))
        if len([s for _, s in STRING.findall(literal) if s in TYPES]) >= 3
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_script_names_a_variant_a_card_effect_or_a_deck(script: Path) -> None:
    strings = strings_of(script.read_text(encoding="utf-8"))

    assert strings & set(VARIANTS) == set()
    assert strings & EFFECTS_AND_DECKS == set()


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_script_holds_a_table_of_types(script: Path) -> None:
    assert type_lists(script.read_text(encoding="utf-8")) == []


def requests_by_hand(text: str) -> list[str]:
    """The types of the requests written out as object literals."""
    return [kind for _, kind in REQUEST.findall(QUERY.sub("", text)) if kind in TYPES]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_script_writes_a_request_by_hand(script: Path) -> None:
    assert requests_by_hand(script.read_text(encoding="utf-8")) == []


def test_the_checks_find_what_they_look_for() -> None:
    # The old console's list of the types that cannot be voided, its card effects and decks,
    # and its test of the variant.
    old = (
        "const NOT_VOIDABLE = new Set(['starting_cash', 'deal', 'pot_seed', 'void']);\n"
        "const EFFECTS = ['collect', 'pay', 'repairs'];\n"
        "for (const deck of ['chance', 'community_chest']) {}\n"
        "this.elite = this.params.variant === 'millionaire-elite';\n"
        "h('p', {}, t('chance'));\n"
        'const classic = rules.variant === "classic";\n'
        "const TYPES = [`salary`, `rent`, `tax`];\n"
    )

    assert strings_of(old) & set(VARIANTS) == {"millionaire-elite", "classic"}
    assert strings_of(old) & EFFECTS_AND_DECKS == {
        "collect", "pay", "repairs", "chance", "community_chest"
    }  # fmt: skip
    assert len(type_lists(old)) == 2
    # Stop 42's jail dialog and salary button, and a query of the turns (not a request).
    by_hand = (
        "row.append(form.button(t('go_to_jail'), () => ({type: 'go_to_jail', player})));\n"
        "const salary = {type: `salary`, player: p.id};\n"
        "const turns = await ctx.api.transactions(ctx.id, {type: 'turn'});\n"
        "h('input', {type: 'text', name: 'memo'});\n"
    )
    assert requests_by_hand(by_hand) == ["go_to_jail", "salary"]
