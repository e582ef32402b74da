"""A real ``tablebank serve`` on the internet's terms: no token in its log even when one is sent
in a URL, a refused import's one line, the admin token, the rate limit, the database's file
mode, and no control socket that servers would share. None of it depends on the store: these run
once, on SQLite files (a PostgreSQL database has no file mode)."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server import HOST, POLL, Server

pytestmark = pytest.mark.e2e

NEW_GAME = {"name": "e2e", "ruleset": "classic", "players": ["Ann", "Bob"]}
ADMIN_TOKEN = "e2e-admin-token-4b1d9c7e2a"
LOG_DEADLINE = 10.0  # seconds for a request's line to reach the log


def wait_for_line(server: Server, text: str) -> str:
    """The server's log once a line holding ``text`` is in it."""
    deadline = time.monotonic() + LOG_DEADLINE
    while text not in (log := server.log_text()):
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} never reached the log:\n{server.log_tail()}", pytrace=False)
        time.sleep(POLL)
    return log


def raw_request(server: Server, request: bytes) -> bytes:
    """Send bytes as they are (no client would send them) and read the status line back."""
    with socket.create_connection((HOST, server.port), timeout=10) as conn:
        conn.sendall(request)
        return conn.recv(64)


@pytest.fixture
def server(tmp_path: Path, local_db: str) -> Iterator[Server]:
    with Server(local_db, tmp_path / "server.log") as running:
        yield running


def test_a_token_sent_in_a_query_string_never_reaches_the_log(server: Server) -> None:
    game = server.call("POST", "/api/v1/games", NEW_GAME).body
    secrets = [game["banker_token"], *game["tokens"].values()]
    url = f"/api/v1/games/{game['id']}"

    answers = [
        server.call("GET", f"{url}?token={secrets[0]}"),
        server.call("GET", f"{url}/events?token={secrets[1]}"),
        server.call("GET", f"{url}/transactions?access_token={secrets[2]}"),
    ]
    # A request line gunicorn itself refuses, which its error log quotes.
    refused = raw_request(
        server, f"GET {url}?token={secrets[0]}\x01 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    )

    assert [answer.status for answer in answers] == [401, 401, 401]
    assert refused.startswith(b"HTTP/1.1 400")
    wait_for_line(server, f'"GET {url}/transactions HTTP/1.1" 401')
    log = wait_for_line(server, "Invalid HTTP request line")
    assert f'"GET {url} HTTP/1.1" 401' in log
    assert f'"GET {url}/events HTTP/1.1" 401' in log
    assert all(secret not in log for secret in secrets)
    assert "token=" not in log


def test_with_an_admin_token_the_list_answers_that_token_only(
    tmp_path: Path, local_db: str
) -> None:
    token_file = tmp_path / "admin-token"
    token_file.write_text(ADMIN_TOKEN + "\n")
    os.chmod(token_file, 0o600)

    with Server(
        local_db, tmp_path / "server.log", "--admin-token-file", str(token_file)
    ) as running:
        created = running.call("POST", "/api/v1/games", NEW_GAME)
        anonymous = running.call("GET", "/api/v1/games")
        admin = running.call("GET", "/api/v1/games?limit=1", token=ADMIN_TOKEN)
        log = running.log_text()

    assert created.status == 201
    assert anonymous.status == 401
    assert anonymous.body["code"] == "unauthorized"
    assert admin.status == 200
    assert [game["id"] for game in admin.body["items"]] == [created.body["id"]]
    assert admin.body["next"] is None
    assert ADMIN_TOKEN not in log


def test_past_the_limit_a_new_game_is_refused_with_retry_after(
    tmp_path: Path, local_db: str
) -> None:
    with Server(local_db, tmp_path / "server.log", "--games-per-minute", "2") as running:
        statuses = [running.call("POST", "/api/v1/games", NEW_GAME).status for _ in range(2)]
        limited = running.call("POST", "/api/v1/games", NEW_GAME)

    assert statuses == [201, 201]
    assert limited.status == 429
    assert limited.headers["content-type"] == "application/problem+json"
    assert limited.body["code"] == "rate_limited"
    assert limited.headers["retry-after"] == "30"


def test_a_refused_import_writes_one_line_and_no_traceback(server: Server) -> None:
    game = server.call("POST", "/api/v1/games", NEW_GAME).body
    url = f"/api/v1/games/{game['id']}/export"
    log = server.call("GET", url, token=game["banker_token"]).body
    log["transactions"][1]["postings"][0]["amount"] = 1499  # Bob's starting cash (seq 2): 1500

    answer = server.call("POST", "/api/v1/games/import", log)

    assert answer.status == 422
    text = wait_for_line(server, '"POST /api/v1/games/import HTTP/1.1" 422')
    refused = [line for line in text.splitlines() if "import" in line and "HTTP/1.1" not in line]
    assert len(refused) == 1, refused
    assert refused[0].endswith(
        "WARNING in audit: import refused: 422 log_invalid: transaction 2 does not match its hash"
    )
    assert "Traceback" not in text


def test_two_servers_bind_no_control_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where gunicorn's default would put both servers' socket: $HOME/.gunicorn/gunicorn.ctl.
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    one = Server(str(tmp_path / "one.sqlite"), tmp_path / "one.log")
    two = Server(str(tmp_path / "two.sqlite"), tmp_path / "two.log")

    with one, two:
        answers = [one.call("GET", "/healthz").status, two.call("GET", "/healthz").status]

    assert answers == [200, 200]
    assert list(home.iterdir()) == []
    assert "control socket" not in (one.log_text() + two.log_text()).lower()


def test_a_new_sqlite_database_is_created_0600(server: Server) -> None:
    server.call("POST", "/api/v1/games", NEW_GAME)

    modes = {
        name: stat.S_IMODE(os.stat(server.db + name).st_mode)
        for name in ("", "-wal", "-shm")
        if os.path.exists(server.db + name)
    }

    assert modes[""] == 0o600
    assert set(modes.values()) == {0o600}


def test_serve_refuses_to_start_on_a_database_others_can_read(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite"
    db.touch()
    os.chmod(db, 0o644)

    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "serve", "--host", HOST, "--port", "0", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 1
    assert done.stderr == (
        f"tablebank: {db} has mode 0644: group or others can read or write the games; "
        "chmod 600 it (and its -wal and -shm files), or serve with --allow-shared-db\n"
    )


def test_with_json_logs_every_line_is_an_object_and_a_request_is_found_by_its_id(
    tmp_path: Path, local_db: str
) -> None:
    # API.md v1.3: --log-format json, one JSON object a line with time, level, event,
    # request_id, method, route, status, duration_ms and game where there is one; never a
    # token, never a query string.
    with Server(local_db, tmp_path / "server.log", "--log-format", "json") as running:
        created = running.call("POST", "/api/v1/games", NEW_GAME, headers={"X-Request-Id": "t-1"})
        game = created.body
        secrets = [game["banker_token"], *game["tokens"].values()]
        url = f"/api/v1/games/{game['id']}"
        paid = running.call(
            "POST",
            f"{url}/transactions",
            {"type": "salary", "player": "p1"},
            token=secrets[0],
            headers={"Idempotency-Key": "k1"},
        )
        refused = running.call("GET", f"{url}?token={secrets[1]}")
        log = wait_for_line(running, paid.headers["x-request-id"])

    lines = [json.loads(line) for line in log.splitlines() if line.strip()]
    assert all({"time", "level", "event"} <= set(line) for line in lines)
    requests = {line["request_id"]: line for line in lines if line["event"] == "request"}
    assert created.headers["x-request-id"] == "t-1"
    assert requests["t-1"]["route"] == "/api/v1/games"
    assert requests["t-1"]["status"] == 201
    written = requests[paid.headers["x-request-id"]]
    assert (written["method"], written["route"], written["status"], written["game"]) == (
        "POST",
        "/api/v1/games/<uuid:game>/transactions",
        201,
        game["id"],
    )
    assert written["duration_ms"] > 0
    assert requests[refused.headers["x-request-id"]]["status"] == 401
    assert all(secret not in log for secret in secrets)
    assert "token=" not in log and "?" not in "".join(str(line.get("route")) for line in lines)
