"""``tablebank purge`` beside a running server on the same SQLite store (API.md v1.3, "Operating
a server"; docs/deploy.md, "Purge"), as a club's cron runs it: the server's writes to other
tables go on and are all recorded, and every worker answers 404 for a purged game it had in its
caches, within a second of the purge. Classic figures: a salary is 200 (docs/rules.md)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from server import Server

pytestmark = pytest.mark.e2e

NEW_GAME = {"name": "Club night", "ruleset": "classic", "players": ["Ann", "Bob"]}
PURGE = [sys.executable, "-m", "tablebank", "purge", "--finished-before"]


def tomorrow() -> str:
    """The day after today (UTC), as purge takes it: asked each time, never kept from the
    collection, so that a run going past midnight still finds today's games before it."""
    return (datetime.now(UTC).date() + timedelta(days=1)).isoformat()


def test_purge_beside_a_writing_server_loses_no_write_and_the_purged_games_404(
    tmp_path: Path, local_db: str
) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    with Server(local_db, tmp_path / "server.log", "--workers", "2") as server:
        done = [server.call("POST", "/api/v1/games", NEW_GAME).body for _ in range(20)]
        for game in done:
            url = f"/api/v1/games/{game['id']}"
            server.call("POST", url + "/transactions", {"type": "finish"}, game["banker_token"])
            for _ in range(4):  # into both workers' caches, most likely
                assert server.call("GET", url, token=game["banker_token"]).status == 200
        busy = server.call("POST", "/api/v1/games", NEW_GAME).body
        stop = threading.Event()
        statuses: list[int] = []

        def write() -> None:  # a table playing on while cron purges
            while not stop.is_set():
                statuses.append(server.salary(busy).status)

        writer = threading.Thread(target=write)
        writer.start()
        try:
            purged = subprocess.run(
                [*PURGE, tomorrow(), "--export-to", str(exports), "--db", local_db],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            ended = time.monotonic()
        finally:
            stop.set()
            writer.join()
        answers: set[int] = set()
        while time.monotonic() < ended + 2:  # each worker learns of a purge within a second
            answers = {
                server.call("GET", f"/api/v1/games/{game['id']}", token=game["banker_token"]).status
                for game in done
                for _ in range(4)  # on either worker
            }
            if answers == {404}:
                break
        state = server.call("GET", f"/api/v1/games/{busy['id']}", token=busy["banker_token"])

    assert purged.returncode == 0, purged.stderr
    assert purged.stdout.count(" transactions, verified)\n") == 20
    assert len(list(exports.glob("*.tablebank.json"))) == 20
    assert answers == {404}
    assert statuses and set(statuses) == {201}
    assert state.body["players"][0]["cash"] == 1500 + 200 * len(statuses)
