"""Games stored by earlier code keep loading, verifying and importing (issues 10, 14 and 29).

``fixtures/v1`` holds a SQLite database of five games written by the code before issue 10
moved the event classes (``fixtures/make_v1_fixture.py`` wrote it; never regenerate it to
make these tests pass): together they use every transaction type the ledger had. Beside it,
each game's export document and ``answers.json``, what that code answered when reading the
database: each game's state, its verify result, its last transactions, a statement, the list
of games.

``fixtures/v2`` (``fixtures/make_v2_fixture.py``) holds two games written after issue 14, in
the same form, with what it added: disputes (a player's and the banker's, kept, voided by a
void naming the dispute, disputed again, one left open), the house rule
``buy_after_first_lap``, a Millionaire Elite jackpot whose winning stake comes back and a trade
per plot, a fair-play flag (its answers hold each game's flags), and a snapshot taken with
disputes in the state. Its events are under the topics of the classes' own modules.

``fixtures/v3`` (``fixtures/make_v3_fixture.py``) holds two games written after issue 29, in
the same form, with what it added: ``rename_player`` (a name change kept, an idempotent write,
and one voided: the late part ``first_names``), a Millionaire Elite plot of no known price won
at an auction and kept, counting at the bid (a ``paid`` change, the late part ``paid``; another
such auction voided), the rule sets of the day (classic's ``pot_only_with_option``, played with
the Free Parking pot; Elite's ``unpriced_plot_counts_bid``), and a snapshot of each game taken
with these in its state.

The events are stored under their class's topic (``ledger.game:Game.RentPaid``, ...). A class
that moves or is renamed must keep its old topic resolvable (eventsourcing's
``register_topic``), or every game stored before the move stops loading: the topic tests below
name the one that was lost. Every test of a stored game runs on each fixture's games.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, get_type_hints
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import resolve_topic

from ledger import transactions
from ledger.application import TableBank
from ledger.exchange import verify_document
from ledger.store import persistence_env
from ledger.transactions import (  # where the ledger declares its transaction types
    REGISTRY,
    TransactionRecorded,
)

FIXTURES = Path(__file__).parent / "fixtures"
VERSIONS = ("v1", "v2", "v3")
DB_NAME = "tablebank.sqlite"
ANSWERS_OF: dict[str, dict[str, Any]] = {
    version: json.loads((FIXTURES / version / "answers.json").read_text(encoding="utf-8"))
    for version in VERSIONS
}
FIXTURE = FIXTURES / "v1"
ANSWERS = ANSWERS_OF["v1"]
# (version, game): v1's classic, short, timed, elite, custom; v2's and v3's classic, elite.
GAMES = tuple((version, name) for version in VERSIONS for name in ANSWERS_OF[version]["games"])

# Every transaction type of the ledger when the fixture was written.
V1_TYPES = frozenset(
    {
        "starting_cash",
        "deal",
        "pot_seed",
        "salary",
        "payment",
        "card",
        "buy",
        "auction",
        "rent",
        "tax",
        "jail_fine",
        "jail_card",
        "go_to_jail",
        "leave_jail",
        "build",
        "sell_buildings",
        "mortgage",
        "unmortgage",
        "trade",
        "iou",
        "iou_repay",
        "iou_transfer",
        "iou_forgive",
        "bankruptcy",
        "pot_collect",
        "turn",
        "void",
        "finish",
        "shares",
        "share_price",
        "round_tax",
        "tax_exemption",
        "insurance",
        "jackpot",
    }
)

# Every topic the fixture's events are stored under.
V1_TOPICS = frozenset(
    {
        "ledger.application:Access.Issued",
        "ledger.application:GameListed",
        "ledger.application:GameStatusLogged",
        "ledger.application:IdempotentWrite.Recorded",
        "ledger.game:Game.Created",
        "ledger.game:Game.AuctionWon",
        "ledger.game:Game.BuildingsBought",
        "ledger.game:Game.BuildingsSold",
        "ledger.game:Game.CardApplied",
        "ledger.game:Game.DeedBought",
        "ledger.game:Game.DeedMortgaged",
        "ledger.game:Game.DeedsDealt",
        "ledger.game:Game.GameFinished",
        "ledger.game:Game.InsuranceMoved",
        "ledger.game:Game.IouForgiven",
        "ledger.game:Game.IouIssued",
        "ledger.game:Game.IouRepaid",
        "ledger.game:Game.IouTransferred",
        "ledger.game:Game.JackpotPlayed",
        "ledger.game:Game.JailCardMoved",
        "ledger.game:Game.JailFinePaid",
        "ledger.game:Game.LeftJail",
        "ledger.game:Game.MortgageLifted",
        "ledger.game:Game.PaymentMade",
        "ledger.game:Game.PlayerWentBankrupt",
        "ledger.game:Game.PotCollected",
        "ledger.game:Game.PotSeeded",
        "ledger.game:Game.RentPaid",
        "ledger.game:Game.RoundTaxPaid",
        "ledger.game:Game.SalaryPaid",
        "ledger.game:Game.SentToJail",
        "ledger.game:Game.SharePriceMoved",
        "ledger.game:Game.SharesTraded",
        "ledger.game:Game.StartingCashPaid",
        "ledger.game:Game.TaxExemptionGranted",
        "ledger.game:Game.TaxPaid",
        "ledger.game:Game.TradeMade",
        "ledger.game:Game.TransactionVoided",
        "ledger.game:Game.TurnStarted",
    }
)
# The snapshot of the classic game at version 100, and the aggregate it is a snapshot of.
V1_SNAPSHOT_TOPICS = frozenset({"eventsourcing.domain:Snapshot"})
V1_SNAPSHOT_OF = frozenset({"ledger.game:Game"})

# The types the v2 games use: the two added since v1, and what they rest on.
ADDED_SINCE_V1 = frozenset({"dispute", "dispute_resolve"})
V2_TYPES = ADDED_SINCE_V1 | {
    "starting_cash",
    "pot_seed",
    "salary",
    "payment",
    "buy",
    "rent",
    "build",
    "sell_buildings",
    "trade",
    "turn",
    "void",
    "shares",
    "jackpot",
}

# Every topic the v2 fixture's events are stored under: each class in its own module (issue
# 10), the disputes' among them.
V2_TOPICS = frozenset(
    {
        "ledger.access:Access.Issued",
        "ledger.game:Game.Created",
        "ledger.setup:GameListed",
        "ledger.transactions.buildings:BuildingsBought",
        "ledger.transactions.buildings:BuildingsSold",
        "ledger.transactions.corrections:TransactionVoided",
        "ledger.transactions.deeds:DeedBought",
        "ledger.transactions.deeds:RentPaid",
        "ledger.transactions.disputes:DisputeResolved",
        "ledger.transactions.disputes:TransactionDisputed",
        "ledger.transactions.elite:JackpotPlayed",
        "ledger.transactions.elite:PotSeeded",
        "ledger.transactions.elite:SharesTraded",
        "ledger.transactions.money:PaymentMade",
        "ledger.transactions.money:SalaryPaid",
        "ledger.transactions.money:StartingCashPaid",
        "ledger.transactions.trades:TradeMade",
        "ledger.transactions.turns:TurnStarted",
        "ledger.writing:IdempotentWrite.Recorded",
    }
)

# The types the v3 games use: the one added since v2, and what they rest on.
ADDED_SINCE_V2 = frozenset({"rename_player"})
V3_TYPES = ADDED_SINCE_V2 | {
    "starting_cash",
    "pot_seed",
    "salary",
    "payment",
    "tax",
    "pot_collect",
    "buy",
    "auction",
    "rent",
    "turn",
    "void",
}

# Every topic the v3 fixture's events are stored under: the rename's among them.
V3_TOPICS = frozenset(
    {
        "ledger.access:Access.Issued",
        "ledger.game:Game.Created",
        "ledger.setup:GameListed",
        "ledger.transactions.corrections:TransactionVoided",
        "ledger.transactions.deeds:AuctionWon",
        "ledger.transactions.deeds:DeedBought",
        "ledger.transactions.deeds:RentPaid",
        "ledger.transactions.elite:PotSeeded",
        "ledger.transactions.money:PaymentMade",
        "ledger.transactions.money:PotCollected",
        "ledger.transactions.money:SalaryPaid",
        "ledger.transactions.money:StartingCashPaid",
        "ledger.transactions.money:TaxPaid",
        "ledger.transactions.players:PlayerRenamed",
        "ledger.transactions.turns:TurnStarted",
        "ledger.writing:IdempotentWrite.Recorded",
    }
)


def answers_of(version: str, name: str) -> dict[str, Any]:
    """What the code of ``version`` answered about one of its games."""
    return ANSWERS_OF[version]["games"][name]  # type: ignore[no-any-return]


def export_of(version: str, name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (FIXTURES / version / answers_of(version, name)["export"]).read_text(encoding="utf-8")
    )
    return document


def as_stored(value: Any) -> Any:
    """``value`` as JSON gives it back: what the answers file can hold."""
    return json.loads(json.dumps(value))


def rows(db: Path, table: str) -> list[tuple[str, int, str, bytes]]:
    """A stored table's records in the order they were written (read-only)."""
    # Events in the order of their notifications (the rowid); snapshots have no rowid.
    order = "rowid" if table == "stored_events" else "originator_id, originator_version"
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return [
            (str(oid), int(version), str(topic), bytes(state))
            for oid, version, topic, state in conn.execute(
                f"SELECT originator_id, originator_version, topic, state FROM {table} "
                f"ORDER BY {order}"
            )
        ]


def stored_txns(db: Path) -> list[dict[str, Any]]:
    return [
        json.loads(state)["txn"]
        for _, _, _, state in rows(db, "stored_events")
        if "txn" in json.loads(state)
    ]


@pytest.fixture
def old_bank_of(tmp_path: Path) -> Iterator[Callable[[str], TableBank]]:
    """Today's code opening a fixture's database, copied (opening a SQLite file writes to it)."""
    opened: list[TableBank] = []

    def open_version(version: str) -> TableBank:
        copy = tmp_path / version / DB_NAME
        copy.parent.mkdir()
        shutil.copyfile(FIXTURES / version / DB_NAME, copy)
        opened.append(TableBank(env=persistence_env(str(copy))))
        return opened[-1]

    yield open_version
    for app in opened:
        app.close()


@pytest.fixture
def moved_bank_of(store_env: dict[str, str]) -> Iterator[Callable[[str], TableBank]]:
    """The run's store holding a fixture database's records, copied as they are (one fixture
    per test: the store is the test's own)."""
    opened: list[TableBank] = []

    def move(version: str) -> TableBank:
        assert not opened, "one fixture's records per store"
        db = FIXTURES / version / DB_NAME
        app = TableBank(env=store_env)
        opened.append(app)
        app.storage.recorder.insert_events(
            [
                StoredEvent(originator_id=UUID(oid), originator_version=v, topic=t, state=s)
                for oid, v, t, s in rows(db, "stored_events")
            ]
        )
        assert app.storage.snapshots is not None
        app.storage.snapshots.recorder.insert_events(
            [
                StoredEvent(originator_id=UUID(oid), originator_version=v, topic=t, state=s)
                for oid, v, t, s in rows(db, "stored_snapshots")
            ]
        )
        return app

    yield move
    for app in opened:
        app.close()


def game_id(version: str, name: str) -> str:
    return str(answers_of(version, name)["id"])


# -- what the fixtures hold ------------------------------------------------------------------


def test_the_fixture_uses_every_v1_transaction_type() -> None:
    assert {txn["type"] for txn in stored_txns(FIXTURE / DB_NAME)} == V1_TYPES
    assert set(ANSWERS["transaction_types"]) == V1_TYPES


def test_the_v2_fixture_uses_the_types_added_since_v1() -> None:
    assert {txn["type"] for txn in stored_txns(FIXTURES / "v2" / DB_NAME)} == V2_TYPES
    assert set(ANSWERS_OF["v2"]["transaction_types"]) == V2_TYPES


def test_the_v3_fixture_uses_the_type_added_since_v2() -> None:
    assert {txn["type"] for txn in stored_txns(FIXTURES / "v3" / DB_NAME)} == V3_TYPES
    assert set(ANSWERS_OF["v3"]["transaction_types"]) == V3_TYPES


def test_todays_ledger_drops_no_type_a_stored_game_uses() -> None:
    # A type dropped leaves the games that used it unable to load, replay or import.
    assert set(REGISTRY) >= V1_TYPES | V2_TYPES | V3_TYPES
    assert set(REGISTRY) - V1_TYPES >= ADDED_SINCE_V1
    assert set(REGISTRY) - V1_TYPES - V2_TYPES >= ADDED_SINCE_V2


def test_a_type_added_since_the_fixtures_stores_its_events_as_theirs_are_stored() -> None:
    """A type added since v3 is stored as every type of the fixtures is: an event of its own
    topic that carries the transaction's record alone (``txn``), applied as theirs are. Such a
    type needs no stored game of its own; one whose event carries more, or applies itself
    otherwise, changes the stored format and needs a fixture that uses it (v4, played by a
    ``fixtures/make_v4_fixture.py`` as ``make_v3_fixture.py`` plays v3: one command)."""
    for name in sorted(set(REGISTRY) - V1_TYPES - V2_TYPES - V3_TYPES):
        event = REGISTRY[name].event
        assert issubclass(event, TransactionRecorded), name
        assert get_type_hints(event) == get_type_hints(TransactionRecorded), name
        assert event.apply is TransactionRecorded.apply, name


def test_the_stored_shape_check_sees_an_event_that_carries_more() -> None:
    class Carried(TransactionRecorded):
        extra: int

    assert get_type_hints(Carried) != get_type_hints(TransactionRecorded)


def test_the_v2_fixture_holds_what_issue_14_added() -> None:
    txns = stored_txns(FIXTURES / "v2" / DB_NAME)
    classic, elite = export_of("v2", "classic"), export_of("v2", "elite")
    # Disputes: a player's and the banker's; kept, voided by a void naming it, left open.
    assert {t["by"] for t in txns if t["type"] == "dispute"} == {"banker", "p2", "p3"}
    assert any(t["type"] == "void" and "dispute" in t["request"] for t in txns)
    statuses = {d["status"] for d in answers_of("v2", "classic")["state"]["disputes"]}
    assert statuses == {"open", "upheld", "voided"}
    # Deeds only after the first lap.
    assert classic["game"]["options"]["buy_after_first_lap"] is True
    # Millionaire Elite: a stake won comes back, one lost stays; a bare plot traded while its
    # branch's other plot carries a house.
    jackpots = [t for t in elite["transactions"] if t["type"] == "jackpot"]
    assert [(t["basis"]["won"], t["basis"]["stake_returned"]) for t in jackpots] == [
        (True, True),
        (False, False),
    ]
    [trade] = [t for t in elite["transactions"] if t["type"] == "trade"]
    assert trade["basis"]["legs"][0]["properties"] == ["b1-2"]
    after = answers_of("v2", "elite")["states_at"]["11"]["properties"]  # right after it
    assert (after["b1-2"]["owner"], after["b1-1"]["owner"], after["b1-1"]["houses"]) == (
        "p2",
        "p1",
        1,
    )
    # A fair-play flag among its answers.
    assert [f["rule"] for f in answers_of("v2", "classic")["fairplay"]["flags"]] == [
        "asset_dumping"
    ]


def test_the_v3_fixture_holds_what_issue_29_added() -> None:
    classic, elite = export_of("v3", "classic"), export_of("v3", "elite")
    # A rename kept (Bob is Robert), one voided (Cy was Cyrus for one seq): the header keeps the
    # names of creation, the state the names of the day, first_names the one renamed.
    renames = [t for t in classic["transactions"] if t["type"] == "rename_player"]
    assert [(t["seq"], t["changes"], t["voided_by"]) for t in renames] == [
        (4, [{"kind": "name", "player": "p2", "from": "Bob", "to": "Robert"}], None),
        (5, [{"kind": "name", "player": "p3", "from": "Cy", "to": "Cyrus"}], 6),
    ]
    assert classic["game"]["players"] == ["Ann", "Bob", "Cy"]
    names = [p["name"] for p in answers_of("v3", "classic")["state"]["players"]]
    assert names == ["Ann", "Robert", "Cy"]
    assert [p["name"] for p in answers_of("v3", "classic")["states_at"]["5"]["players"]] == [
        "Ann",
        "Robert",
        "Cyrus",
    ]
    kept = answers_of("v3", "classic")["idempotent_write"]
    assert (kept["by"], kept["body"]["type"]) == ("banker", "rename_player")
    # The classic rule set of the day says the pot is open only with its option; the game has
    # it, and money went into the pot and out of it.
    assert classic["game"]["ruleset"]["parameters"]["pot_only_with_option"] is True
    assert classic["game"]["options"]["free_parking_pot"] is True
    assert {"tax", "pot_collect"} <= {t["type"] for t in classic["transactions"]}
    assert any(
        t["type"] == "payment" and t["request"]["to"] == "pot" for t in classic["transactions"]
    )
    # Millionaire Elite: b2-1, of no known price, won for 150 and kept, counts at the bid;
    # b2-2's auction voided takes its paid back.
    assert elite["game"]["ruleset"]["parameters"]["unpriced_plot_counts_bid"] is True
    auctions = [t for t in elite["transactions"] if t["type"] == "auction"]
    assert [(t["basis"]["printed_price"], t["voided_by"]) for t in auctions] == [
        (None, None),
        (None, 7),
    ]
    assert {"kind": "paid", "property": "b2-1", "from": None, "to": 150} in auctions[0]["changes"]
    state = answers_of("v3", "elite")["state"]
    assert (state["properties"]["b2-1"]["owner"], state["paid_at_auction"]) == ("p1", {"b2-1": 150})
    [ann] = [p for p in state["players"] if p["id"] == "p1"]
    assert ann["net_worth"] == ann["cash"] + 150
    assert answers_of("v3", "elite")["states_at"]["6"]["paid_at_auction"] == {
        "b2-1": 150,
        "b2-2": 120,
    }
    # The next transaction, the finish, ranks Ann's 5090 in cash and b2-1 at its bid.
    finished = ANSWERS_OF["v3"]["next"]["elite"]["answer"]
    assert finished["balances"]["p1"] == 5090
    assert finished["basis"]["standings"][0] == {
        "player": "p1",
        "score": 5090 + 150,
        "rank": 1,
        "bankrupt": False,
    }


def test_the_fixture_stores_events_under_the_v1_topics() -> None:
    stored = {topic for _, _, topic, _ in rows(FIXTURE / DB_NAME, "stored_events")}
    assert stored == V1_TOPICS
    assert set(ANSWERS["topics"]["events"]) == V1_TOPICS


def test_the_v2_fixture_stores_events_under_the_v2_topics() -> None:
    stored = {topic for _, _, topic, _ in rows(FIXTURES / "v2" / DB_NAME, "stored_events")}
    assert stored == V2_TOPICS
    assert set(ANSWERS_OF["v2"]["topics"]["events"]) == V2_TOPICS


def test_the_v3_fixture_stores_events_under_the_v3_topics() -> None:
    stored = {topic for _, _, topic, _ in rows(FIXTURES / "v3" / DB_NAME, "stored_events")}
    assert stored == V3_TOPICS
    assert set(ANSWERS_OF["v3"]["topics"]["events"]) == V3_TOPICS


@pytest.mark.parametrize("version", VERSIONS)
def test_the_fixture_stores_a_snapshot_of_a_game(version: str) -> None:
    snapshots = rows(FIXTURES / version / DB_NAME, "stored_snapshots")
    assert {topic for _, _, topic, _ in snapshots} == V1_SNAPSHOT_TOPICS
    assert {json.loads(state)["topic"] for _, _, _, state in snapshots} == V1_SNAPSHOT_OF
    assert set(ANSWERS_OF[version]["topics"]["snapshots"]) == V1_SNAPSHOT_TOPICS


def test_the_v2_snapshot_holds_disputes_and_first_laps() -> None:
    [(_, version, _, state)] = rows(FIXTURES / "v2" / DB_NAME, "stored_snapshots")
    assert version == 100
    kept = json.loads(state)["state"]["state"]
    assert set(kept["disputes"]) == {"12", "14", "17"}
    assert kept["first_lap"] == {"p1": True, "p2": True, "p3": True}


def test_the_v3_snapshots_hold_first_names_and_paid() -> None:
    snapshots = {
        str(UUID(oid)): (version, json.loads(state)["state"]["state"])
        for oid, version, _, state in rows(FIXTURES / "v3" / DB_NAME, "stored_snapshots")
    }
    assert set(snapshots) == {game_id("v3", "classic"), game_id("v3", "elite")}
    version, classic = snapshots[game_id("v3", "classic")]
    assert version == 100
    assert classic["first_names"] == {"p2": "Bob"}
    assert [p["name"] for p in classic["players"].values()] == ["Ann", "Robert", "Cy"]
    version, elite = snapshots[game_id("v3", "elite")]
    assert version == 100
    assert elite["paid"] == {"b2-1": 150}
    assert elite["properties"]["b2-1"]["owner"] == "p1"


@pytest.mark.parametrize(
    "topic", sorted(V1_TOPICS | V2_TOPICS | V3_TOPICS | V1_SNAPSHOT_TOPICS | V1_SNAPSHOT_OF)
)
def test_every_stored_topic_still_resolves(topic: str) -> None:
    assert isinstance(resolve_topic(topic), type)


@pytest.mark.parametrize("version", VERSIONS)
def test_every_stored_event_decodes(old_bank_of: Callable[[str], TableBank], version: str) -> None:
    stored = rows(FIXTURES / version / DB_NAME, "stored_events")
    ids = {UUID(oid) for oid, _, _, _ in stored}
    bank = old_bank_of(version)
    decoded = sum(len(list(bank.storage.events.get(oid))) for oid in ids)
    assert decoded == len(stored)


# -- a fixture's database, opened by today's code -----------------------------------------------


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_game_loads_with_its_stored_state(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    bank = old_bank_of(version)
    assert as_stored(bank.game(game_id(version, name))) == answers_of(version, name)["state"]


@pytest.mark.parametrize(
    ("version", "name", "seq"),
    [
        (version, name, seq)
        for version, name in GAMES
        for seq in answers_of(version, name)["states_at"]
    ],
)
def test_an_old_game_stands_as_it_did_after_an_earlier_seq(
    old_bank_of: Callable[[str], TableBank], version: str, name: str, seq: str
) -> None:
    # The classic games' seq 99 is their snapshot's own version (100).
    view = old_bank_of(version).game(game_id(version, name), int(seq))
    assert as_stored(view) == answers_of(version, name)["states_at"][seq]


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_game_verifies_to_its_stored_head(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    answers = answers_of(version, name)
    verified = old_bank_of(version).verify(game_id(version, name))
    assert verified == answers["verify"]
    assert verified["ok"] is True
    assert verified["head"] == answers["state"]["head"]


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_game_lists_its_stored_transactions(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    txns = as_stored(list(old_bank_of(version).transactions(game_id(version, name))))
    assert txns == export_of(version, name)["transactions"]
    assert txns[-5:] == answers_of(version, name)["last_transactions"]


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_game_exports_its_stored_document(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    exported = old_bank_of(version).export(game_id(version, name))
    assert as_stored(exported) == export_of(version, name)


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_games_statement_is_as_stored(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    statement = old_bank_of(version).statement(game_id(version, name), "p1")
    assert as_stored(statement) == answers_of(version, name)["statement_p1"]


@pytest.mark.parametrize(
    ("version", "name"), [(v, n) for v, n in GAMES if "fairplay" in answers_of(v, n)]
)
def test_an_old_game_raises_its_stored_fair_play_flags(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    flags = old_bank_of(version).fairplay(game_id(version, name))
    assert as_stored(flags) == answers_of(version, name)["fairplay"]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_old_games_are_listed_as_stored(
    old_bank_of: Callable[[str], TableBank], version: str
) -> None:
    assert old_bank_of(version).list_games() == ANSWERS_OF[version]["list_games"]


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_old_tokens_still_open_their_games(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    answers = answers_of(version, name)
    bank = old_bank_of(version)
    assert bank.authenticate(game_id(version, name), answers["banker_token"]) == "banker"
    for pid, token in answers["player_tokens"].items():
        assert bank.authenticate(game_id(version, name), token) == pid


@pytest.mark.parametrize("version", VERSIONS)
def test_an_old_idempotency_key_returns_its_stored_answer(
    old_bank_of: Callable[[str], TableBank], version: str
) -> None:
    # v1's was the banker's payment; v2's is a player's dispute; v3's the banker's rename.
    kept = answers_of(version, "classic")["idempotent_write"]
    answer, repeated = old_bank_of(version).record_request(
        game_id(version, "classic"), kept["body"], kept.get("by", "banker"), key=kept["key"]
    )
    assert repeated is True
    assert as_stored(answer) == kept["answer"]


@pytest.mark.parametrize(
    ("version", "name"),
    [(version, name) for version in VERSIONS for name in ANSWERS_OF[version]["next"]],
)
def test_an_old_active_game_records_the_next_transaction_as_stored(
    old_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    # v2's classic game resolves its open dispute; v3's renames Robert Bob again and its Elite
    # game finishes, each read off its snapshot.
    expected = ANSWERS_OF[version]["next"][name]
    bank = old_bank_of(version)
    txn = bank.record(game_id(version, name), expected["body"])
    assert {k: v for k, v in as_stored(txn).items() if k not in ("at", "hash")} == expected[
        "answer"
    ]
    assert bank.verify(game_id(version, name)) == {
        "ok": True,
        "transactions": expected["answer"]["seq"],
        "head": txn["hash"],
    }


# -- a fixture's records on the run's store -----------------------------------------------------


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_old_records_load_on_the_runs_store(
    moved_bank_of: Callable[[str], TableBank], version: str, name: str
) -> None:
    answers = answers_of(version, name)
    bank = moved_bank_of(version)
    gid = game_id(version, name)
    assert as_stored(bank.game(gid)) == answers["state"]
    assert bank.verify(gid) == answers["verify"]
    for seq, state in answers["states_at"].items():
        assert as_stored(bank.game(gid, int(seq))) == state
    if "fairplay" in answers:
        assert as_stored(bank.fairplay(gid)) == answers["fairplay"]


@pytest.mark.parametrize("version", VERSIONS)
def test_old_records_list_their_games_on_the_runs_store(
    moved_bank_of: Callable[[str], TableBank], version: str
) -> None:
    assert moved_bank_of(version).list_games() == ANSWERS_OF[version]["list_games"]


# -- a fixture's export documents ---------------------------------------------------------------


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_export_verifies_offline(version: str, name: str) -> None:
    answers = answers_of(version, name)
    assert verify_document(export_of(version, name)) == {
        "ok": True,
        "transactions": answers["state"]["last_seq"],
        "head": answers["state"]["head"],
    }


@pytest.mark.parametrize(("version", "name"), GAMES)
def test_an_old_export_imports_with_its_stored_state(
    store_env: dict[str, str], version: str, name: str
) -> None:
    bank = TableBank(env=store_env)
    try:
        imported = bank.import_game(export_of(version, name))
        state = as_stored(bank.game(imported["id"]))
        assert bank.verify(imported["id"]) == answers_of(version, name)["verify"]
        if "fairplay" in answers_of(version, name):
            flags = as_stored(bank.fairplay(imported["id"]))
            assert flags == answers_of(version, name)["fairplay"]
    finally:
        bank.close()
    expected = answers_of(version, name)["state"]
    assert {k: v for k, v in state.items() if k != "id"} == {
        k: v for k, v in expected.items() if k != "id"
    }


def test_two_built_in_events_of_one_v1_name_are_refused_naming_both_modules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class RentPaid(TransactionRecorded):
        """A second RentPaid, as if a built-in family declared one again."""

    RentPaid.__module__ = "ledger.transactions.money"
    again = dataclasses.replace(REGISTRY["salary"], name="rent_again", event=RentPaid)
    monkeypatch.setitem(REGISTRY, "rent_again", again)

    named = (
        r"two events named RentPaid in ledger\.transactions\.deeds and ledger\.transactions\.money"
    )
    with pytest.raises(ValueError, match=named):
        transactions._v1_events()
