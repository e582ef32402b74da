"""A SQLite database is private to its owner: new files 0600 whatever the umask, and a check of
who else could reach an existing one (``tablebank serve`` refuses to start on it)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.application import TableBank
from ledger.store import match_companions, persistence_env, shared_access


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o022, 0o002, 0o000, 0o277], ids=lambda m: f"umask {m:03o}")
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """A umask for the test, the process's own one back after it."""
    before = os.umask(request.param)
    yield request.param
    os.umask(before)


def test_a_new_database_and_its_wal_and_shm_are_0600(tmp_path: Path, umask: int) -> None:
    db = tmp_path / "games.sqlite"

    bank = TableBank(env=persistence_env(str(db)))
    try:
        bank.create_game("Friday night", "classic", ["Ann", "Bob"])
        # While a connection is open in WAL mode, SQLite keeps both files beside the database.
        companions = [Path(f"{db}-wal"), Path(f"{db}-shm")]
        modes = {path.name: mode_of(path) for path in [db, *companions]}
    finally:
        bank.close()

    assert modes == {"games.sqlite": 0o600, "games.sqlite-wal": 0o600, "games.sqlite-shm": 0o600}


def test_an_existing_database_keeps_its_mode(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite"
    db.touch()
    os.chmod(db, 0o640)

    persistence_env(str(db))

    assert mode_of(db) == 0o640


def test_a_wider_wal_and_shm_left_beside_a_database_are_narrowed_to_its_mode(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite"
    db.touch()
    os.chmod(db, 0o600)
    # As a crash under an older release, or a careless copy, may have left them (not empty:
    # SQLite itself narrows only the files it finds empty).
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").write_bytes(b"left over")
        os.chmod(f"{db}{suffix}", 0o644)

    match_companions(db)

    assert [mode_of(Path(f"{db}{suffix}")) for suffix in ("-wal", "-shm")] == [0o600, 0o600]


def test_a_connection_narrows_the_companions_of_its_database(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    bank = TableBank(env=persistence_env(str(db)))
    try:
        bank.create_game("Friday night", "classic", ["Ann", "Bob"])
        os.chmod(f"{db}-shm", 0o644)
        connection = bank.storage.factory.datastore.pool._create_connection()  # type: ignore[attr-defined]
        connection.close()
        shm = mode_of(Path(f"{db}-shm"))
    finally:
        bank.close()

    assert shm == 0o600


def test_a_private_database_is_shared_with_nobody(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    db.touch()
    os.chmod(db, 0o600)

    assert shared_access(str(db)) is None


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o602])
def test_a_database_group_or_others_can_reach_says_so(tmp_path: Path, mode: int) -> None:
    db = tmp_path / "games.sqlite"
    db.touch()
    os.chmod(db, mode)

    assert shared_access(str(db)) == f"{db} has mode {mode:04o}"


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_shared_wal_or_shm_counts_as_shared(tmp_path: Path, suffix: str) -> None:
    db = tmp_path / "games.sqlite"
    db.touch()
    os.chmod(db, 0o600)
    companion = Path(f"{db}{suffix}")
    companion.touch()
    os.chmod(companion, 0o644)

    assert shared_access(str(db)) == f"{companion} has mode 0644"


def test_no_file_yet_and_no_file_at_all_are_shared_with_nobody(tmp_path: Path) -> None:
    assert shared_access(str(tmp_path / "not-yet.sqlite")) is None
    assert shared_access(":memory:") is None
    assert shared_access("postgresql://tablebank@db.internal/tablebank") is None
