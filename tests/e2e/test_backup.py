"""``tablebank backup`` and ``restore`` on a SQLite store (API.md v1.3, "Operating a server";
docs/deploy.md, "Backups"): a copy taken while a server writes holds a consistent moment, every
game in it verified, readable by its owner alone; a restore refuses a store a server has open,
and once it is stopped puts the copy in place, keeping the store it replaced. Classic figures:
each player starts with 1,500 and a salary is 200 (docs/rules.md)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

import pytest
from server import Server
from stores import PostgresStore

from ledger.application import TableBank
from ledger.store import persistence_env

pytestmark = pytest.mark.e2e

NEW_GAME = {"name": "Club night", "ruleset": "classic", "players": ["Ann", "Bob"]}


def tablebank(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablebank", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_backup_taken_while_a_server_writes_restores_a_store_that_verifies(
    tmp_path: Path, local_db: str
) -> None:
    copy = tmp_path / "backups" / "club.sqlite"
    copy.parent.mkdir()
    with Server(local_db, tmp_path / "server.log") as server:
        games = [server.call("POST", "/api/v1/games", NEW_GAME).body for _ in range(3)]
        busy = games[0]
        stop = threading.Event()
        statuses: list[int] = []

        def salary(key: str) -> None:
            statuses.append(server.salary(busy, key).status)

        def write() -> None:  # a table playing on while the admin takes the backup
            while not stop.is_set():
                salary(f"k{len(statuses)}")

        writer = threading.Thread(target=write)
        writer.start()
        try:
            backed = tablebank("backup", copy, "--db", local_db)
        finally:
            stop.set()
            writer.join()
        salary("after")  # one more once the backup ended: the restored store cannot hold it
        written = server.call("GET", f"/api/v1/games/{busy['id']}", token=busy["banker_token"])
        in_use = tablebank("restore", copy, "--db", local_db)
        again = tablebank("backup", copy, "--db", local_db)

    assert backed.returncode == 0, backed.stderr
    assert backed.stdout == f"backup: {copy}, 3 games, each verified\n"
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert not (copy.parent / "club.sqlite-wal").exists()
    assert statuses and set(statuses) == {201}
    assert (in_use.returncode, "is in use" in in_use.stderr) == (1, True)
    assert (again.returncode, "exists" in again.stderr) == (1, True)

    restored = tablebank("restore", copy, "--db", local_db)
    assert restored.returncode == 0, restored.stderr
    assert "the store it replaced is" in restored.stdout
    (aside,) = (
        found
        for found in Path(local_db).parent.glob(Path(local_db).name + ".replaced-*")
        if not found.name.endswith(("-wal", "-shm"))
    )
    assert aside.stat().st_size > 0

    with Server(local_db, tmp_path / "server.log") as server:
        state = server.call("GET", f"/api/v1/games/{busy['id']}", token=busy["banker_token"])
        check = server.call("GET", f"/api/v1/games/{busy['id']}/verify", token=busy["banker_token"])
        others = [
            server.call("GET", f"/api/v1/games/{g['id']}", token=g["banker_token"]).body
            for g in games[1:]
        ]
    # The copy is one moment of the game: some of the salaries, each whole, none after the end.
    salaries = state.body["last_seq"] - games[1]["last_seq"]
    assert 0 <= salaries < written.body["last_seq"] - games[1]["last_seq"]
    assert [p["cash"] for p in state.body["players"]] == [1500 + 200 * salaries, 1500]
    assert check.body["ok"] is True
    assert [[p["cash"] for p in g["players"]] for g in others] == [[1500, 1500]] * 2


def test_a_backup_of_a_postgresql_store_says_to_use_pg_dump() -> None:
    done = tablebank("backup", "x.sqlite", "--db", "postgresql://u@127.0.0.1/tablebank")

    assert done.returncode == 1
    assert "pg_dump" in done.stderr and not Path("x.sqlite").exists()


def documented_pg_commands() -> list[str]:
    """The lines of docs/deploy.md's PostgreSQL backup, as an admin would paste them."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    block = page.split("**PostgreSQL.** `pg_dump`", 1)[1].split("```sh\n", 1)[1]
    return [line for line in block.split("```", 1)[0].splitlines() if line.strip()]


def test_the_documented_pg_dump_and_pg_restore_give_a_store_that_verifies(
    tmp_path: Path, postgres: PostgresStore
) -> None:
    # docs/deploy.md, "Backups": pg_dump while a server writes, createdb, pg_restore; the
    # restored database holds every game, each verified, with its balances (docs/rules.md:
    # each player starts with 1,500; a salary is 200).
    db = postgres.new()
    parts = urlsplit(db)
    schema = dict(parse_qsl(parts.query))["schema"]
    restored_name = f"tablebank_restored_{schema}"
    try:
        with Server(db, tmp_path / "server.log") as server:
            game = server.call("POST", "/api/v1/games", NEW_GAME).body
            for n in range(3):
                assert server.salary(game, f"s{n}").status == 201
            commands = documented_pg_commands()
            assert [line.split()[0] for line in commands] == ["pg_dump", "createdb", "pg_restore"]
            env = {
                **os.environ,
                "PGHOST": parts.hostname or "127.0.0.1",
                "PGPORT": str(parts.port or 5432),
                "PGUSER": unquote(parts.username or ""),
                "PGPASSWORD": unquote(parts.password or ""),
            }
            dbname = parts.path.lstrip("/")
            for line in commands:
                line = line.replace("/backup/", f"{tmp_path}/").replace("$(date +%F)", "today")
                line = line.replace("--schema=public", f"--schema={schema}")
                line = line.replace("--owner=tablebank", f"--owner={env['PGUSER']}")
                line = line.replace("tablebank_restored", restored_name)
                line = re.sub(r" tablebank$", f" {dbname}", line)
                done = subprocess.run(line, shell=True, env=env, capture_output=True, text=True)
                assert done.returncode == 0, (line, done.stderr)

        restored_url = urlunsplit(parts._replace(path=f"/{restored_name}"))
        with TableBank(env=persistence_env(restored_url)) as bank:
            games = bank.list_games()
            assert [g["id"] for g in games] == [game["id"]]
            assert bank.verify(game["id"])["ok"] is True
            state = bank.game(game["id"])
        assert [p["cash"] for p in state["players"]] == [1500 + 3 * 200, 1500]
    finally:
        postgres.admin.execute(f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)')
        postgres.drop(db)
