"""Every cache a server process keeps is bounded (issue 12): the parsed rule sets by the size of
their documents, with the built-in ones pinned; the grants of tokens by count; the per-game
write locks by the writers holding them. An evicted entry is rebuilt from the store, so a game
reads and plays the same as before.

The rule-set cache's budget is made small here (three boxes' worth) so that a dozen imports
overflow it; the server's own is ``RULESET_CACHE_BUDGET``, 4 MiB.
"""

from __future__ import annotations

from typing import Any

import pytest

from api.bank import EXTENSION
from ledger import game as game_module
from ledger.caches import BoundedCache
from ledger.chain import canonical, sha256
from ledger.ruleset import BUILT_IN, built_in

BOXES = 12


def box(n: int) -> dict[str, Any]:
    """The banker's own box number ``n``: classic, with a salary of 200 + n and starting cash
    of 1500 + n."""
    return {
        "name": f"box-{n}",
        "extends": "classic",
        "parameters": {"salary": 200 + n, "starting_cash": 1500 + n},
    }


def import_box(client: Any, n: int) -> dict[str, Any]:
    """Create a game of box ``n``, export it, import it; the imported game."""
    made = client.post(
        "/api/v1/games",
        json={
            "name": f"Box {n}",
            "ruleset": f"box-{n}",
            "players": ["Ann", "Bob"],
            "ruleset_document": box(n),
        },
    )
    assert made.status_code == 201, made.json
    auth = {"Authorization": f"Bearer {made.json['banker_token']}"}
    exported = client.get(f"/api/v1/games/{made.json['id']}/export", headers=auth).json
    imported = client.post("/api/v1/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    return {**imported.json, "document": exported["game"]["ruleset"]}


def digest(document: dict[str, Any]) -> str:
    return sha256(canonical(document))


@pytest.fixture
def small_budget(monkeypatch):
    """The rule-set cache, emptied and given room for three boxes' documents."""
    cache: BoundedCache[str, Any] = BoundedCache(3 * len(canonical(import_document())))
    monkeypatch.setattr(game_module, "_RULESETS", cache)
    return cache


def import_document() -> dict[str, Any]:
    """What box 10's document is once its ``extends`` is resolved (boxes weigh about the same)."""
    from ledger.ruleset import resolve_extends

    return resolve_extends(box(10))


def test_importing_many_custom_rule_sets_keeps_the_cache_within_its_budget(client, small_budget):
    games = [import_box(client, n) for n in range(10, 10 + BOXES)]

    assert small_budget.weight <= small_budget.budget
    kept = [digest(g["document"]) in small_budget for g in games]
    assert kept[:3] == [False, False, False]  # the least recently used went first
    assert kept[-1] is True


def test_a_game_whose_rule_set_was_evicted_plays_by_its_own_rules_again(client, small_budget):
    first, *_ = [import_box(client, n) for n in range(10, 10 + BOXES)]
    assert digest(first["document"]) not in small_budget
    auth = {"Authorization": f"Bearer {first['banker_token']}"}
    url = f"/api/v1/games/{first['id']}"

    ruleset = client.get(f"{url}/ruleset", headers=auth).json
    salary = client.post(
        f"{url}/transactions", json={"type": "salary", "player": "p1"}, headers=auth
    )

    assert ruleset["name"] == "box-10"
    assert ruleset["parameters"]["salary"] == 210
    assert salary.status_code == 201, salary.json
    assert salary.json["postings"] == [{"from": "bank", "to": "p1", "amount": 210}]
    assert salary.json["balances"]["p1"] == 1510 + 210
    assert digest(first["document"]) in small_budget  # parsed again, and kept


def test_a_game_whose_rule_set_was_evicted_reads_the_same_after_a_restart(db_url, small_budget):
    from api import create_app

    app = create_app({"TESTING": True, "TABLEBANK_DB": db_url})
    try:
        client = app.test_client()
        first, *_ = [import_box(client, n) for n in range(10, 10 + BOXES)]
    finally:
        app.extensions[EXTENSION].close()
    again = create_app({"TESTING": True, "TABLEBANK_DB": db_url})  # a cold load of every game
    try:
        auth = {"Authorization": f"Bearer {first['banker_token']}"}
        state = again.test_client().get(f"/api/v1/games/{first['id']}", headers=auth).json
    finally:
        again.extensions[EXTENSION].close()

    assert state["ruleset"] == "box-10"
    assert state["balances"] == {"bank": -3020, "pot": 0, "p1": 1510, "p2": 1510}
    assert state["head"] == first["head"]


def test_the_built_in_rule_sets_stay_whatever_the_custom_ones_take(client, small_budget):
    for name in BUILT_IN:
        players = ["Ann", "Bob", "Cy"]
        made = client.post("/api/v1/games", json={"name": "t", "ruleset": name, "players": players})
        assert made.status_code == 201, made.json
    for n in range(10, 10 + BOXES):
        import_box(client, n)

    for name in BUILT_IN:
        document = built_in(name).document  # type: ignore[union-attr]
        assert digest(document) in small_budget
    assert small_budget.weight <= small_budget.budget  # the pinned ones are outside it


def test_a_token_whose_grant_was_evicted_still_opens_its_game(app, new_game, monkeypatch):
    bank = app.extensions[EXTENSION]
    monkeypatch.setattr(bank.tokens, "_cache", BoundedCache(2))
    tables = [new_game() for _ in range(3)]

    for table in tables:  # four tokens each: far more than the two kept
        for token in [table.banker, *table.tokens.values()]:
            assert table.get(token=token).status_code == 200

    assert len(bank.tokens._cache) == 2
    assert tables[0].get(token=tables[0].banker).status_code == 200
    assert tables[0].get(token=tables[1].banker).status_code == 403


def test_no_write_lock_is_kept_for_a_game_once_its_writes_are_done(app, new_game):
    bank = app.extensions[EXTENSION]
    for table in [new_game() for _ in range(5)]:
        table.record({"type": "salary", "player": "p1"})
        table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 10})

    assert bank.writing._locks == {}
