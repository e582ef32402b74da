"""`tablebank export`, `import`, `verify` and `replay` run as commands on the run's store
(``--store``: a SQLite file, or a PostgreSQL URL)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from ledger.application import TableBank
from ledger.store import persistence_env

pytestmark = pytest.mark.e2e


def tablebank(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def db(db_url: str) -> str:
    return db_url


@pytest.fixture
def game(db: str) -> dict[str, Any]:
    """Seq 4: Ann buys Boardwalk (400); 5: Bob pays its bare rent (50); 6: Cy's GO salary."""
    with TableBank(env=persistence_env(str(db))) as bank:
        created = bank.create_game("CLI night", "classic", ["Ann", "Bob", "Cy"])
        bank.record(created["id"], {"type": "buy", "player": "p1", "property": "boardwalk"})
        bank.record(created["id"], {"type": "rent", "payer": "p2", "property": "boardwalk"})
        last = bank.record(created["id"], {"type": "salary", "player": "p3"})
    return {**created, "head": last["hash"]}


@pytest.fixture
def export_file(db: str, game: dict[str, Any], tmp_path: Path) -> Path:
    out = tablebank("export", game["id"], "--db", db).stdout
    path = tmp_path / "export.json"
    path.write_text(out)
    return path


def tamper(path: Path, seq: int) -> None:
    document = json.loads(path.read_text())
    document["transactions"][seq - 1]["postings"][0]["amount"] += 100
    path.write_text(json.dumps(document))


def test_export_prints_the_whole_log(export_file: Path, game: dict[str, Any]) -> None:
    document = json.loads(export_file.read_text())

    assert [t["seq"] for t in document["transactions"]] == [1, 2, 3, 4, 5, 6]
    assert document["head"] == game["head"]


def test_export_contains_no_token(export_file: Path, game: dict[str, Any]) -> None:
    text = export_file.read_text()

    for token in [game["banker_token"], *game["tokens"].values()]:
        assert token not in text


def test_export_of_an_unknown_game_fails(db: str, game: dict[str, Any]) -> None:
    done = tablebank("export", "00000000-0000-4000-8000-000000000000", "--db", db, check=False)

    assert done.returncode == 1
    assert "no game" in done.stderr
    assert done.stdout == ""


def test_verify_prints_ok_and_the_head(export_file: Path, game: dict[str, Any]) -> None:
    done = tablebank("verify", export_file)

    assert done.stdout.startswith("ok")
    assert "6 transactions" in done.stdout
    assert game["head"] in done.stdout


def test_verify_of_a_tampered_log_fails_naming_the_seq(export_file: Path) -> None:
    tamper(export_file, 5)

    done = tablebank("verify", export_file, check=False)

    assert done.returncode == 1
    assert "seq 5" in done.stdout


def test_import_prints_a_new_game_and_its_tokens(
    export_file: Path, db: str, game: dict[str, Any]
) -> None:
    done = tablebank("import", export_file, "--db", db)

    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    new_id = lines["game"]
    assert UUID(new_id) and new_id != game["id"]
    assert lines["head"] == game["head"]
    assert {"banker token", "p1 (Ann) token", "p2 (Bob) token", "p3 (Cy) token"} <= set(lines)
    with TableBank(env=persistence_env(str(db))) as bank:
        assert bank.authenticate(new_id, lines["banker token"]) == "banker"
        assert bank.game(new_id)["balances"] == bank.game(game["id"])["balances"]


def test_import_of_a_tampered_log_fails_and_records_nothing(export_file: Path, db: str) -> None:
    tamper(export_file, 4)

    done = tablebank("import", export_file, "--db", db, check=False)

    assert done.returncode == 1
    assert "seq 4" in done.stderr
    with TableBank(env=persistence_env(str(db))) as bank:
        assert len(bank.list_games()) == 1


def test_replay_last_two_prints_their_balances_and_net_worths(export_file: Path) -> None:
    done = tablebank("replay", export_file, "--last", "2")

    out = done.stdout
    assert "seq 5" in out and "seq 6" in out
    assert "seq 4" not in out
    assert "rent" in out and "salary" in out
    # After seq 6: Ann 1150 cash (1550 with Boardwalk), Bob 1450, Cy 1700; the Bank -4300.
    last = out[out.index("seq 6") :]
    for figure in ("1150", "1550", "1450", "1700", "-4300"):
        assert figure in last
    assert "Ann" in last


def test_replay_of_a_tampered_log_fails_naming_the_seq(export_file: Path) -> None:
    tamper(export_file, 6)

    done = tablebank("replay", export_file, check=False)

    assert done.returncode == 1
    assert "seq 6" in done.stdout
