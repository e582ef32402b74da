"""The log itself: money conserved, refusals leave no trace, a reload rebuilds the same table."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from ledger_helpers import Table

from ledger.application import TableBank
from ledger.store import persistence_env


@pytest.fixture
def bank(stored_bank: TableBank) -> TableBank:
    """The log as each store keeps it, on every store of the matrix."""
    return stored_bank


def play_a_little(table: Table) -> None:
    """A bit of every kind of transaction."""
    table.record("salary", player="p1")
    table.give_group("p1", "dark-blue")
    table.record("auction", property="reading-railroad", winner="p2", bid=150)
    table.buy("p2", "short-line")
    table.buy("p3", "electric-company")
    table.record("build", orders=[{"property": "boardwalk"}, {"property": "park-place"}])
    table.record("rent", payer="p3", property="boardwalk")
    table.record("rent", payer="p1", property="short-line")
    table.record("rent", payer="p1", property="electric-company", dice=9)
    table.record("tax", player="p2", tax="income", choice="percent")
    table.record("tax", player="p3", tax="luxury")
    table.record("card", player="p3", effect="collect_from_each", amount=10)
    table.record("card", player="p1", effect="repairs", per_house=25, per_hotel=100)
    table.record("jail_card", player="p2", action="draw", deck="chance")
    table.record("go_to_jail", player="p3")
    table.record("jail_fine", player="p3")
    table.record("mortgage", property="short-line")
    table.record(
        "trade",
        legs=[
            {"from": "p2", "to": "p3", "properties": ["short-line"], "jail_cards": ["chance"]},
            {"from": "p3", "to": "p2", "cash": 60},
        ],
    )
    table.record("sell_buildings", property="park-place", houses=1)
    table.record("turn", player="p1")


def test_balances_sum_to_zero_after_every_transaction(table: Table) -> None:
    play_a_little(table)
    txns = list(table.bank.transactions(table.id))
    assert len(txns) == 3 + 21
    for txn in txns:
        assert sum(txn["balances"].values()) == 0, txn["seq"]
        assert sum(table.bank.game(table.id, seq=txn["seq"])["balances"].values()) == 0


def test_each_transaction_gets_the_next_seq(table: Table) -> None:
    assert table.record("salary", player="p2")["seq"] == 4
    assert table.record("salary", player="p3")["seq"] == 5
    assert table.state()["last_seq"] == 5


def test_a_refused_transaction_takes_no_seq(table: Table) -> None:
    table.refused("payment", **{"from": "p1", "to": "p2", "amount": 5000})
    assert table.record("salary", player="p1")["seq"] == 4


def test_a_refused_trade_leaves_every_leg_undone(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.buy("p2", "park-place")
    before = table.state()
    # The first leg alone would be fine; the second gives a deed p3 does not hold.
    table.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"], "cash": 100},
            {"from": "p3", "to": "p1", "properties": ["park-place"]},
        ],
    )
    assert table.state() == before
    assert table.prop("boardwalk")["owner"] == "p1"


def test_a_refused_build_leaves_the_supply_untouched(table: Table) -> None:
    table.give_group("p1", "light-blue")
    table.refused(
        "build",
        orders=[{"property": "oriental-avenue"}, {"property": "oriental-avenue"}],
    )
    assert table.supply() == {"houses": 32, "hotels": 12}


def test_the_state_at_an_earlier_seq_is_as_it_stood_then(table: Table) -> None:
    table.buy("p1", "boardwalk")  # seq 4
    table.record("mortgage", property="boardwalk")  # seq 5
    then = table.bank.game(table.id, seq=4)
    assert then["balances"]["p1"] == 1100
    assert then["properties"]["boardwalk"]["mortgaged"] is False


def test_a_second_bank_on_the_same_store_reloads_the_same_state(db_url: str) -> None:
    first = TableBank(env=persistence_env(db_url))
    table = Table(first)
    play_a_little(table)
    live = table.state()
    history = [first.game(table.id, seq=n) for n in range(0, live["last_seq"] + 1)]
    first.close()

    second = TableBank(env=persistence_env(db_url))
    try:
        assert second.game(table.id) == live
        assert [second.game(table.id, seq=n) for n in range(live["last_seq"] + 1)] == history
    finally:
        second.close()


def test_a_reloaded_game_goes_on_where_it_stopped(db_url: str) -> None:
    first = TableBank(env=persistence_env(db_url))
    table = Table(first)
    table.give_group("p1", "dark-blue")
    first.close()

    second = TableBank(env=persistence_env(db_url))
    try:
        txn = second.record(table.id, {"type": "rent", "payer": "p2", "property": "boardwalk"})
        assert txn["seq"] == 6
        assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]
    finally:
        second.close()


def test_a_game_whose_place_in_the_list_another_bank_took_is_stored(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = TableBank(env=persistence_env(db_url))
    second = TableBank(env=persistence_env(db_url))
    other: list[dict[str, Any]] = []
    list_game = first.setup.games_log.trigger_event

    def overtaken(**line: Any) -> Any:
        listed = list_game(**line)
        if not other:  # another server lists its game at the same place first
            other.append(second.create_game("other", "classic", ["Cy", "Dee"]))
        return listed

    monkeypatch.setattr(first.setup.games_log, "trigger_event", overtaken)
    try:
        created = first.create_game("late", "classic", ["Ann", "Bob"])

        assert first.game(created["id"])["balances"]["p1"] == 1500
        assert first.authenticate(created["id"], created["banker_token"]) == "banker"
        listed = [game["id"] for game in first.list_games()]
        assert listed == [other[0]["id"], created["id"]]
    finally:
        first.close()
        second.close()


def test_the_list_shows_a_finished_game_without_loading_any_game(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The status comes from the status log, written with the transaction that set it."""
    other = table.bank.create_game("still playing", "classic", ["Cy", "Dee"])
    table.record("finish")

    def no_loading(*_: Any, **__: Any) -> Any:
        raise AssertionError("list_games loaded a game")

    monkeypatch.setattr(table.bank.storage, "load_game", no_loading)
    statuses = {game["id"]: game["status"] for game in table.bank.list_games()}
    assert statuses == {table.id: "finished", other["id"]: "active"}


def test_an_imported_finished_game_is_listed_as_finished(table: Table) -> None:
    table.record("finish")
    copy_ = table.bank.import_game(table.bank.export(table.id))

    statuses = {game["id"]: game["status"] for game in table.bank.list_games()}
    assert statuses == {table.id: "finished", copy_["id"]: "finished"}


def test_a_game_listed_before_statuses_were_logged_is_read_for_its_status(
    table: Table,
) -> None:
    """A line of the list written by an earlier version has no ``statuses_logged``: its game
    finished without a line in the status log, so the list reads the game itself."""
    gid = UUID(table.id)
    old = table.bank.create_game("listed long ago", "classic", ["Cy", "Dee"])
    old_id = UUID(old["id"])
    finished = table.bank.storage.repository.get(old_id)
    finished.record({"type": "finish"})
    table.bank.storage.save(finished)  # as an earlier version saved it: no status line
    legacy = table.bank.setup.games_log.trigger_event(
        game_id=old_id, name="listed long ago", ruleset="classic", created=old["created"]
    )
    del legacy.__dict__["statuses_logged"]  # as it was stored before the field existed
    table.bank.storage.save(legacy)

    listed = [(game["id"], game["status"]) for game in table.bank.list_games()]
    assert listed == [(str(gid), "active"), (old["id"], "active"), (old["id"], "finished")]
