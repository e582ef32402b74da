"""The declarations of the transaction types are complete (ledger/transactions): each type a
client may send has a request schema, a row in docs/api.md's table that says what the
declaration says, and a label in the console in English, Russian and Polish; each refusal a
type declares is in the registry of refusals."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from api_helpers import type_rows
from console_languages import dictionaries

from ledger.parameters import EVERY_VARIANT
from ledger.refusals import REFUSALS
from ledger.ruleset import KNOWN_OPTIONS, built_in
from ledger.transactions import COMMON_REFUSALS, RECORDABLE, REGISTRY, SETUP_TYPES, TransactionType
from schemas.transactions import TRANSACTION_SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
API_MD = (ROOT / "docs" / "api.md").read_text()
CONSOLE = ROOT / "api" / "static" / "console" / "js"
TRANSACTIONS = ROOT / "ledger" / "transactions"

# The types of v1, written out: a type dropped breaks the contract's promise (a type added
# extends it: its declaration, its row in docs/api.md's table and its labels, checked below).
TYPES = {
    "starting_cash", "deal", "pot_seed", "salary", "payment", "card", "buy", "auction",
    "rent", "tax", "jail_fine", "jail_card", "go_to_jail", "leave_jail", "build",
    "sell_buildings", "mortgage", "unmortgage", "trade", "bankruptcy", "pot_collect", "iou",
    "iou_repay", "iou_transfer", "iou_forgive", "turn", "shares", "share_price", "round_tax",
    "tax_exemption", "insurance", "jackpot", "void", "finish",
}  # fmt: skip
# The additions of v1.1 (API.md, "Disputes").
TYPES |= {"dispute", "dispute_resolve"}


def offered_by(declared: TransactionType) -> str | None:
    """The house rule a classic game needs for the type (None: none), as the declaration
    answers: offered in Millionaire Elite and in a classic game with that option only."""
    classic, elite = built_in("classic"), built_in("millionaire-elite")
    assert classic is not None and elite is not None
    if declared.offered is None:
        return None
    (option,) = (o for o in KNOWN_OPTIONS if declared.offered_in(classic, {o: True}))
    assert declared.offered_in(elite, {}), declared.name
    return option


def test_the_ledger_declares_the_types_of_the_contract():
    assert set(REGISTRY) >= TYPES
    assert {"starting_cash", "deal", "pot_seed"} == SETUP_TYPES
    assert set(REGISTRY) - SETUP_TYPES == RECORDABLE


def test_every_type_a_client_may_send_has_a_request_schema():
    assert set(TRANSACTION_SCHEMAS) == RECORDABLE


def test_docs_table_says_what_each_declaration_says():
    rows = type_rows()
    assert set(rows) == set(REGISTRY)
    for name, declared in REGISTRY.items():
        _, fields, variants, who, voidable, family = rows[name]
        assert family == f"`{declared.handler.__module__.rsplit('.', 1)[1]}`", name
        assert voidable == ("yes" if declared.voidable else "no"), name
        house_rule = re.fullmatch(r"all \(classic: with `(\w+)`\)", variants)
        want = set(EVERY_VARIANT) if variants == "all" or house_rule else {variants}
        assert set(declared.variants) == want, name
        # A type some games leave out says which house rule a classic game needs for it
        # (Millionaire Elite has its kitty and its loans always); the others say none.
        assert house_rule is None or house_rule[1] in KNOWN_OPTIONS, name
        assert offered_by(declared) == (house_rule[1] if house_rule else None), name
        assert who == declared.who, name
        if declared.setup:
            assert who == "the ledger", name
        elif declared.player_field:
            assert who == f"banker, or the player in `{declared.player_field}`", name
        elif declared.players is None:
            assert who == "banker", name
        if not declared.setup:
            schema = TRANSACTION_SCHEMAS[name]()
            shown = set(re.findall(r"`([a-z_]+)`", fields))
            named = {f.data_key or n for n, f in schema.fields.items()} - {"type", "memo"}
            assert shown == named, name


@pytest.mark.parametrize("language", dictionaries())
def test_every_type_has_a_label_in_the_console(language):
    text = (CONSOLE / language).read_text()
    labels = set(re.findall(r"\bty_([a-z_]+):", text))
    assert labels >= set(REGISTRY), sorted(set(REGISTRY) - labels)


def test_declared_refusals_are_registered():
    for name, declared in REGISTRY.items():
        assert set(declared.refusals) <= set(REFUSALS), name
    assert set(COMMON_REFUSALS) <= set(REFUSALS)


def raised_in(function: ast.FunctionDef) -> set[str]:
    """The refusal codes a function raises itself (``RuleViolation("code", ...)``)."""
    return {
        node.args[0].value
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "RuleViolation"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_each_handler_declares_the_refusals_it_raises_itself():
    for path in sorted(TRANSACTIONS.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            declared = next((t for t in REGISTRY.values() if t.handler.__name__ == node.name), None)
            if declared is None or declared.handler.__module__.rsplit(".", 1)[1] != path.stem:
                continue
            raised = raised_in(node)
            assert raised <= set(declared.refusals) | set(COMMON_REFUSALS), (node.name, raised)


def test_every_handler_has_a_one_line_docstring():
    for name, declared in REGISTRY.items():
        doc = declared.handler.__doc__ or ""
        assert doc.strip() and "\n" not in doc.strip(), name
        assert declared.event.__doc__, name
