"""``tablebank purge`` (API.md v1.3, "Operating a server"; docs/deploy.md, "Purge"): each
finished game the store last wrote before a day is exported to ``DIR/<id>.tablebank.json``,
verified, and only then removed from the store; an active game is never touched. On each store.
Classic figures: each player starts with 1,500, a salary is 200 (docs/rules.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from api_helpers import serving_app
from eventsourcing.application import EventSourcedLog
from eventsourcing.persistence import OperationalError
from long_logs import long_log

from api.cli import main
from ledger import purge as purge_module
from ledger import setup
from ledger.access import Access, Seat, hash_token
from ledger.application import TableBank
from ledger.exchange import verify_document
from ledger.purge import PURGED_LOG_ID, GamePurged
from ledger.setup import GAMES_LOG_ID, STATUS_LOG_ID, GameListed, GameStatusLogged
from ledger.store import is_postgres, persistence_env
from ledger.writing import IdempotentWrite


def tomorrow() -> str:
    """The day after today (UTC), as purge takes it: asked each time, never kept from the
    collection, so that a run going past midnight still finds today's games before it."""
    return (datetime.now(UTC).date() + timedelta(days=1)).isoformat()


PLAYERS = ["Ann", "Bob"]
ADMIN = "the-clubs-admin-token"


@pytest.fixture
def bank(db_url: str) -> Iterator[TableBank]:
    """A bank on a store that outlives it, as the command's and a server's."""
    with TableBank(env=persistence_env(db_url)) as opened:
        yield opened


def finished_game(bank: TableBank, salaries: int = 0) -> dict[str, Any]:
    created = bank.create_game("Club night", "classic", PLAYERS)
    for _ in range(salaries):
        bank.record(created["id"], {"type": "salary", "player": "p1"})
    bank.record(created["id"], {"type": "finish"})
    return created


def purge(
    db: str, folder: Path, capsys: pytest.CaptureFixture[str], before: str = ""
) -> tuple[int, list[str], str]:
    before = before or tomorrow()
    status = main(["purge", "--finished-before", before, "--export-to", str(folder), "--db", db])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def game_ids(db: str) -> set[str]:
    with TableBank(env=persistence_env(db)) as bank:
        return {game["id"] for game in bank.list_games()}


def store_size(db: str) -> int:
    """The store's bytes on disk: the SQLite file and its WAL, or PostgreSQL's tables of the
    test's schema (their rows' bytes: a DELETE leaves the pages to autovacuum)."""
    if not is_postgres(db):
        return sum(p.stat().st_size for p in Path(db).parent.glob(Path(db).name + "*"))
    with TableBank(env=persistence_env(db)) as bank:
        recorder: Any = bank.storage.recorder
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                "SELECT sum(pg_column_size(t.*)) AS n FROM "
                f"{recorder.datastore.schema}.{recorder.events_table_name} t"
            )
            return int(cursor.fetchone()["n"])


def test_purge_of_1000_finished_games_exports_each_verifiably_and_keeps_active_games(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished = {finished_game(bank)["id"] for _ in range(1000)}
    active = bank.create_game("Still playing", "classic", PLAYERS)
    bank.record(active["id"], {"type": "salary", "player": "p1"})
    before = store_size(db_url)

    started = time.monotonic()
    status, lines, err = purge(db_url, tmp_path, capsys)
    took = time.monotonic() - started

    assert (status, err) == (0, "")
    assert len(lines) == 1001
    first = lines[0].split()[1].rstrip(":")
    # Two players' starting cash, then the finish.
    assert lines[0] == (
        f"purged {first}: exported to {tmp_path / first}.tablebank.json (3 transactions, verified)"
    )
    assert lines[-1].startswith("purge: 1000 games purged")
    exports = sorted(tmp_path.glob("*.tablebank.json"))
    assert {path.name.removesuffix(".tablebank.json") for path in exports} == finished
    for path in exports:
        assert verify_document(json.loads(path.read_bytes()))["ok"], path
    assert game_ids(db_url) == {active["id"]}
    assert store_size(db_url) < before / 10
    kept = bank.game(active["id"])
    assert (kept["status"], kept["balances"]["p1"]) == ("active", 1700)
    assert bank.authenticate(active["id"], active["tokens"]["p2"]) == "p2"
    assert took < 120, f"{took:.1f} s"


def test_an_active_game_is_never_purged(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    active = bank.create_game("Still playing", "classic", PLAYERS)

    status, lines, _ = purge(db_url, tmp_path, capsys)

    assert (status, lines) == (0, ["purge: 0 games purged"])
    assert list(tmp_path.iterdir()) == []
    assert bank.game(active["id"])["status"] == "active"


def test_a_game_finished_after_the_day_is_kept(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished_game(bank)
    today = datetime.now(UTC).date().isoformat()

    status, lines, _ = purge(db_url, tmp_path, capsys, before=today)

    assert (status, lines) == (0, ["purge: 0 games purged"])
    assert game_ids(db_url) == {game["id"]}


def test_a_second_purge_purges_nothing(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished_game(bank)
    first, lines, _ = purge(db_url, tmp_path, capsys)

    again, lines_again, err = purge(db_url, tmp_path, capsys)

    assert (first, len(lines)) == (0, 2)
    assert (again, lines_again, err) == (0, ["purge: 0 games purged"], "")
    assert [p.name for p in tmp_path.iterdir()] == [f"{game['id']}.tablebank.json"]


def test_a_differing_file_of_the_exports_name_keeps_the_game(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, other = finished_game(bank), finished_game(bank)
    clash = tmp_path / f"{game['id']}.tablebank.json"
    clash.write_text('{"format": "someone else\'s"}\n')

    status, lines, err = purge(db_url, tmp_path, capsys)

    assert status == 1
    assert f"kept {game['id']}: {clash} exists and differs" in err
    assert lines[0].startswith(f"purged {other['id']}: exported to ")
    assert lines[-1].startswith("purge: 1 game purged, 1 kept for the faults above")
    assert clash.read_text() == '{"format": "someone else\'s"}\n'
    assert game_ids(db_url) == {game["id"]}


def test_an_export_left_by_an_interrupted_purge_is_verified_and_the_game_purged(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished_game(bank)
    left = tmp_path / f"{game['id']}.tablebank.json"
    left.write_text(json.dumps(bank.export(game["id"])))  # written, then the purge stopped

    status, lines, err = purge(db_url, tmp_path, capsys)

    assert (status, err) == (0, "")
    assert lines[0] == f"purged {game['id']}: exported to {left} (3 transactions, verified)"
    assert game_ids(db_url) == set()


def test_purge_removes_every_row_of_the_game_and_logs_it(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = bank.create_game("Club night", "classic", PLAYERS)
    bank.record_request(game["id"], {"type": "salary", "player": "p1"}, key="k1")
    for _ in range(100):  # a snapshot at the 100th event
        bank.record(game["id"], {"type": "salary", "player": "p2"})
    replaced = bank.replace_token(game["id"], "p1", "banker")  # a lost phone's new link
    bank.record(game["id"], {"type": "finish"})
    head = bank.game(game["id"])["head"]
    game_id = UUID(game["id"])
    events = bank.storage.recorder
    tokens = [game["banker_token"], *game["tokens"].values(), replaced["token"]]
    owned = [
        IdempotentWrite.create_id(game_id, "k1"),
        *(Access.create_id(hash_token(token)) for token in tokens),
        Seat.create_id(game_id, "p1"),
    ]
    assert [oid for oid in owned if not events.select_events(oid)] == []  # each there before
    snapshots = bank.storage.snapshots
    assert snapshots is not None
    assert snapshots.recorder.select_events(game_id)  # there is one to remove

    status, _, _ = purge(db_url, tmp_path, capsys)

    assert status == 0
    assert events.select_events(game_id) == []
    assert snapshots.recorder.select_events(game_id) == []
    assert [oid for oid in owned if events.select_events(oid)] == []
    logs = [
        EventSourcedLog(bank.storage.events, GAMES_LOG_ID, GameListed),
        EventSourcedLog(bank.storage.events, STATUS_LOG_ID, GameStatusLogged),
    ]
    assert [each for log in logs for each in log.get() if each.game_id == game_id] == []
    (logged,) = EventSourcedLog(bank.storage.events, PURGED_LOG_ID, GamePurged).get()
    assert (logged.game_id, logged.transactions, logged.head) == (game_id, 104, head)


def test_events_written_after_a_purge_come_later_in_the_notification_log(
    bank: TableBank, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_game(bank)  # the last rows written: the purge removes the notification log's end
    recorder: Any = bank.storage.recorder
    read_past = recorder.max_notification_id()

    purge(db_url, tmp_path, capsys)
    bank.create_game("Next table", "classic", PLAYERS)

    # A follower of the log (ledger.live) that had read up to read_past misses none of them.
    topics = [note.topic for note in recorder.select_notifications(read_past + 1, 100)]
    assert topics[0].endswith(":GamePurged") and topics[-1].endswith(":GameListed")


def test_a_purged_games_export_imports_with_the_same_balances(
    bank: TableBank, db_url: str, store_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished_game(bank, salaries=3)
    balances = bank.game(game["id"])["balances"]
    purge(db_url, tmp_path, capsys)
    export = tmp_path / f"{game['id']}.tablebank.json"

    status = main(["import", str(export), "--db", store_db])
    new_id = capsys.readouterr().out.split()[1]

    assert status == 0
    with TableBank(env=persistence_env(store_db)) as fresh:
        again = fresh.game(new_id)
    assert (again["balances"], again["status"]) == (balances, "finished")
    assert balances["p1"] == 2100


def test_a_purged_game_answers_404_on_a_server_that_had_it_cached(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for app in serving_app(db_url, TABLEBANK_ADMIN_TOKEN=ADMIN):
        client = app.test_client()
        created = client.post(
            "/api/v1/games", json={"name": "Club", "ruleset": "classic", "players": PLAYERS}
        ).json
        assert created is not None
        auth = {"Authorization": f"Bearer {created['banker_token']}"}
        player = {"Authorization": f"Bearer {created['tokens']['p2']}"}
        url = f"/api/v1/games/{created['id']}"
        client.post(url + "/transactions", json={"type": "finish"}, headers=auth)
        assert client.get(url, headers=auth).status_code == 200  # the grant and game cached

        status, _, _ = purge(db_url, tmp_path, capsys)

        deadline = time.monotonic() + 5
        while client.get(url, headers=auth).status_code == 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        admin = {"Authorization": f"Bearer {ADMIN}"}
        answers = [client.get(url, headers=who) for who in (auth, player, admin)]
        listed = client.get("/api/v1/games", headers=admin).json
    assert status == 0
    assert [answer.status_code for answer in answers] == [404, 404, 404]
    assert answers[0].json is not None and answers[0].json["code"] == "not_found"
    assert listed is not None and created["id"] not in json.dumps(listed)


def test_purge_takes_its_options_from_the_environment_as_a_timer_sets_them(
    bank: TableBank,
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = finished_game(bank)
    for name, value in [("FINISHED_BEFORE", tomorrow()), ("EXPORT_TO", tmp_path), ("DB", db_url)]:
        monkeypatch.setenv(f"TABLEBANK_{name}", str(value))

    status = main(["purge"])

    assert status == 0
    assert capsys.readouterr().out.startswith(f"purged {game['id']}: exported to {tmp_path}/")


def test_a_day_that_is_no_date_is_refused_with_exit_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["purge", "--finished-before", "31/12/2025", "--export-to", str(tmp_path)])
    assert exited.value.code == 2
    assert "'31/12/2025' is not a date: give it as YYYY-MM-DD (UTC)" in capsys.readouterr().err
    assert date.fromisoformat("2025-12-31")  # the form it asks for


def test_the_rows_of_an_import_that_never_finished_are_removed_once_before_the_day(
    bank: TableBank,
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server stopped between two store transactions of an import's save left the events of
    the first ones (``ledger.setup.SAVED_AT_ONCE``, 100 here): a game in no list, with no
    token. Purge removes them, never an import that may still be under way (written within
    a day, ``UNFINISHED_GRACE``), nor rows written on or after the day it is given."""
    active = bank.create_game("Still playing", "classic", PLAYERS)
    monkeypatch.setattr(setup, "SAVED_AT_ONCE", 100)
    recorder = bank.storage.recorder
    insert = recorder.insert_events
    inserts: list[int] = []

    def stopped_at_the_third(events: Any, **kwargs: Any) -> Any:
        inserts.append(len(events))
        if len(inserts) == 3:
            raise OperationalError("the server stopped")
        return insert(events, **kwargs)

    monkeypatch.setattr(recorder, "insert_events", stopped_at_the_third)
    with pytest.raises(OperationalError):
        bank.import_game(long_log(450))
    monkeypatch.setattr(recorder, "insert_events", insert)
    monkeypatch.setattr(purge_module, "UNFINISHED_GRACE", timedelta(0))
    (left,) = bank.unfinished_imports(datetime.now(UTC) + timedelta(days=1))
    monkeypatch.setattr(purge_module, "UNFINISHED_GRACE", timedelta(days=1))
    assert len(recorder.select_events(UUID(left.id))) == 200  # two batches of 100 events
    assert left.id not in game_ids(db_url)

    # Written within the day (UNFINISHED_GRACE): it may be under way, whatever day is given.
    status, out, _ = purge(db_url, tmp_path, capsys)
    assert (status, out) == (0, ["purge: 0 games purged"])
    assert len(recorder.select_events(UUID(left.id))) == 200

    monkeypatch.setattr(purge_module, "UNFINISHED_GRACE", timedelta(0))  # a day later
    status, out, _ = purge(db_url, tmp_path, capsys, before=datetime.now(UTC).date().isoformat())
    assert (status, out) == (0, ["purge: 0 games purged"])  # written on or after the day
    assert len(recorder.select_events(UUID(left.id))) == 200

    status, out, _ = purge(db_url, tmp_path, capsys)
    assert status == 0
    assert out[0] == (
        f"removed {left.id}: an import never finished ({left.transactions} transactions "
        f"saved on {left.last_written:%Y-%m-%d})"
    )
    assert out[1].startswith("purge: 0 games purged, 1 unfinished import removed"), out
    assert len(out) == 2
    assert recorder.select_events(UUID(left.id)) == []
    assert list(tmp_path.iterdir()) == []  # nothing exported: it was never a game
    assert bank.game(active["id"])["balances"]["p1"] == 1500  # the active game untouched
    assert game_ids(db_url) == {active["id"]}
    assert bank.unfinished_imports(datetime.now(UTC) + timedelta(days=1)) == []
