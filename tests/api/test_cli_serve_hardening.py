"""``tablebank serve`` on the internet: the rate limit, the proxies, the admin token file, the
refusal of a database others can read, and logs without query strings. Nothing is bound:
gunicorn's ``run`` is replaced by a recorder."""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest

from api import cli, netaddr
from api.cli import serving

TOKEN = "Zq4vX1m8-Lr2Tk9wPa6Bc3Ne7Hs5Df0G"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options and app configuration of every server ``serve`` would have run."""
    runs: list[dict[str, Any]] = []

    def run(self: serving._Server) -> None:
        runs.append({"options": self.options, "config": self.app_config})

    monkeypatch.setattr(serving._Server, "run", run)
    monkeypatch.setattr(netaddr, "lan_address", lambda: None)
    monkeypatch.delenv("TABLEBANK_PUBLIC_URL", raising=False)
    return runs


def serve(db: Path | str, *args: str) -> int:
    return cli.main(["serve", "--db", str(db), *args])


def file_with(path: Path, text: str, mode: int) -> Path:
    path.write_text(text)
    os.chmod(path, mode)  # whatever the umask
    return path


# -- the rate limit and the proxies -----------------------------------------------------------


def test_serve_limits_games_to_30_a_minute_by_default_and_trusts_no_proxy(started, tmp_path):
    assert serve(tmp_path / "new.sqlite") == 0

    (run,) = started
    assert run["config"]["TABLEBANK_GAMES_PER_MINUTE"] == 30
    assert run["config"]["TABLEBANK_PROXY_HOPS"] == 0
    assert run["config"]["TABLEBANK_ADMIN_TOKEN"] is None


def test_serve_takes_another_limit_or_none_and_a_number_of_proxies(started, tmp_path):
    serve(tmp_path / "a.sqlite", "--games-per-minute", "5", "--proxy-hops", "1")
    serve(tmp_path / "b.sqlite", "--games-per-minute", "0")

    assert started[0]["config"]["TABLEBANK_GAMES_PER_MINUTE"] == 5
    assert started[0]["config"]["TABLEBANK_PROXY_HOPS"] == 1
    assert started[1]["config"]["TABLEBANK_GAMES_PER_MINUTE"] == 0


@pytest.mark.parametrize("option", ["--games-per-minute", "--proxy-hops"])
def test_serve_refuses_a_negative_number(started, tmp_path, option, capsys):
    with pytest.raises(SystemExit) as exited:
        serve(tmp_path / "new.sqlite", option, "-1")

    assert exited.value.code == 2
    assert "-1 is not 0 or more" in capsys.readouterr().err
    assert started == []


# -- import slots -------------------------------------------------------------------------------


def test_serve_checks_one_import_at_a_time_per_worker_unless_told(started, tmp_path):
    serve(tmp_path / "a.sqlite")
    serve(tmp_path / "b.sqlite", "--import-slots", "2")

    assert started[0]["config"]["TABLEBANK_IMPORT_SLOTS"] == 1
    assert started[1]["config"]["TABLEBANK_IMPORT_SLOTS"] == 2


def test_serve_refuses_no_import_slot_at_all(started, tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        serve(tmp_path / "new.sqlite", "--import-slots", "0")

    assert exited.value.code == 2
    assert "0 is not a positive number" in capsys.readouterr().err
    assert started == []


# -- the admin token file -----------------------------------------------------------------------


def test_serve_reads_the_admin_token_from_its_file(started, tmp_path):
    token_file = file_with(tmp_path / "admin-token", TOKEN + "\n", 0o600)

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file)) == 0

    assert started[0]["config"]["TABLEBANK_ADMIN_TOKEN"] == TOKEN


def test_with_an_admin_token_the_workers_count_in_a_private_directory_of_the_run(
    tmp_path, monkeypatch
):
    # api.metrics: prometheus_client's multiprocess mode, in a directory made for this run
    # (0700, empty) before any worker starts, its gauges of a dead worker dropped by
    # child_exit, the directory removed when the server stops.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    monkeypatch.setattr(netaddr, "lan_address", lambda: None)
    seen: dict[str, Any] = {}

    def run(self: serving._Server) -> None:
        directory = Path(self.app_config["TABLEBANK_METRICS_DIR"])
        seen.update(
            directory=directory,
            mode=stat.S_IMODE(directory.stat().st_mode),
            files=list(directory.iterdir()),
            env=os.environ.get("PROMETHEUS_MULTIPROC_DIR"),
            child_exit=self.cfg.child_exit,
        )

    monkeypatch.setattr(serving._Server, "run", run)
    token_file = file_with(tmp_path / "admin-token", TOKEN + "\n", 0o600)

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file)) == 0

    assert seen["directory"].parent == tmp_path
    assert seen["directory"].name.startswith("tablebank-metrics-")
    assert (seen["mode"], seen["files"]) == (0o700, [])
    assert seen["env"] == str(seen["directory"])
    assert seen["child_exit"].__name__ == "forget_worker"
    assert not seen["directory"].exists()
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ


def test_without_an_admin_token_nothing_is_counted_and_no_directory_made(started, tmp_path):
    serve(tmp_path / "new.sqlite")

    assert started[0]["config"]["TABLEBANK_METRICS_DIR"] is None


def test_serve_refuses_a_missing_admin_token_file(started, tmp_path, capsys):
    missing = tmp_path / "nowhere"

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(missing)) == 1

    assert capsys.readouterr().err == f"tablebank: no admin token file at {missing}\n"
    assert started == []


def test_serve_refuses_an_empty_admin_token_file(started, tmp_path, capsys):
    token_file = file_with(tmp_path / "admin-token", "\n", 0o600)

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file)) == 1

    assert capsys.readouterr().err == (
        f"tablebank: {token_file} is empty: write the admin token in it, on one line\n"
    )
    assert started == []


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_serve_refuses_an_admin_token_file_others_may_read(started, tmp_path, capsys, mode):
    token_file = file_with(tmp_path / "admin-token", TOKEN, mode)

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file)) == 1

    assert capsys.readouterr().err == (
        f"tablebank: {token_file} has mode {mode:04o}: group or others can read the admin "
        f"token; chmod 600 {token_file}\n"
    )
    assert started == []


def test_serve_refuses_an_admin_token_of_two_lines(started, tmp_path, capsys):
    token_file = file_with(tmp_path / "admin-token", f"{TOKEN}\n{TOKEN}\n", 0o600)

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file)) == 1

    assert "must hold the token alone on one line" in capsys.readouterr().err
    assert started == []


def test_serve_refuses_an_admin_token_shorter_than_16_characters(started, tmp_path, capsys):
    token_file = file_with(tmp_path / "admin-token", "x" * 15, 0o600)

    assert serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file)) == 1

    assert "shorter than 16 characters" in capsys.readouterr().err
    assert started == []


def test_the_admin_token_is_never_printed(started, tmp_path, capsys):
    token_file = file_with(tmp_path / "admin-token", TOKEN, 0o600)

    serve(tmp_path / "new.sqlite", "--admin-token-file", str(token_file))

    printed = capsys.readouterr()
    assert TOKEN not in printed.out + printed.err


# -- the database's file mode -------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o660, 0o606])
def test_serve_refuses_a_database_group_or_others_can_reach(started, tmp_path, capsys, mode):
    db = file_with(tmp_path / "shared.sqlite", "", mode)

    assert serve(db) == 1

    assert capsys.readouterr().err == (
        f"tablebank: {db} has mode {mode:04o}: group or others can read or write the games; "
        "chmod 600 it (and its -wal and -shm files), or serve with --allow-shared-db\n"
    )
    assert started == []


def test_serve_refuses_a_wal_file_others_can_read(started, tmp_path, capsys):
    db = file_with(tmp_path / "games.sqlite", "", 0o600)
    file_with(tmp_path / "games.sqlite-wal", "", 0o644)

    assert serve(db) == 1

    assert f"{db}-wal has mode 0644" in capsys.readouterr().err
    assert started == []


def test_serve_starts_on_a_shared_database_when_told_to(started, tmp_path):
    db = file_with(tmp_path / "shared.sqlite", "", 0o660)

    assert serve(db, "--allow-shared-db") == 0

    assert len(started) == 1


def test_serve_starts_on_a_private_database_and_on_a_new_one(started, tmp_path):
    private = file_with(tmp_path / "private.sqlite", "", 0o600)

    assert serve(private) == 0
    assert serve(tmp_path / "new.sqlite") == 0

    assert len(started) == 2


def test_a_postgresql_url_has_no_file_mode_to_check(started):
    assert serve("postgresql://tablebank@db.internal/tablebank") == 0


# -- logs without query strings ---------------------------------------------------------------


def test_the_access_log_has_method_path_and_protocol_but_no_query_string(started, tmp_path):
    serve(tmp_path / "new.sqlite")

    log_format = started[0]["options"]["access_log_format"]
    assert log_format == '%(h)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms'
    # %(r)s is the request line with its query string, %(q)s the query string itself.
    assert "%(r)s" not in log_format
    assert "%(q)s" not in log_format


def test_the_error_log_cuts_query_strings_out_of_a_malformed_request_line():
    record = logging.LogRecord(
        "gunicorn.error",
        logging.WARNING,
        __file__,
        1,
        "Invalid request from ip=%s: %s",
        ("127.0.0.1", "Invalid HTTP request line: 'GET /api/v1/games?token=s3cr3t\\x01 HTTP/1.1'"),
        None,
    )

    assert serving.QueryRedaction().filter(record) is True

    assert record.getMessage() == (
        "Invalid request from ip=127.0.0.1: Invalid HTTP request line: "
        "'GET /api/v1/games?<query> HTTP/1.1'"
    )


def test_the_error_log_leaves_a_message_without_a_query_as_it_is():
    record = logging.LogRecord(
        "gunicorn.error", logging.INFO, __file__, 1, "Booting worker with pid: %s", (42,), None
    )

    serving.QueryRedaction().filter(record)

    assert record.getMessage() == "Booting worker with pid: 42"


def test_serve_runs_gunicorn_with_the_redacting_logger(started, tmp_path):
    serve(tmp_path / "new.sqlite")

    assert started[0]["options"]["logger_class"] is serving._Logger


def test_the_access_line_is_the_one_gunicorn_writes_from_all_its_atoms():
    """``_Logger`` builds only the atoms the format names: the line is the same."""
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn import glogging
    from gunicorn.config import Config

    cfg = Config()
    cfg.set("access_log_format", serving.ACCESS_LOG_FORMAT)
    resp = SimpleNamespace(status="201 CREATED", sent=1234, headers=[("ETag", '"v"')])
    req = SimpleNamespace(headers=[("AUTHORIZATION", "Bearer s3cr3t")])
    environ = {
        "REMOTE_ADDR": "192.168.1.20",
        "REQUEST_METHOD": "POST",
        "RAW_URI": "/api/v1/games/g/transactions?dry_run=true",
        "PATH_INFO": "/api/v1/games/g/transactions",
        "QUERY_STRING": "dry_run=true",
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    took = timedelta(microseconds=4_321)
    lines = []
    for logger_class in (glogging.Logger, serving._Logger):
        logger = logger_class(cfg)
        atoms = logger.atoms_wrapper_class(logger.atoms(resp, req, environ, took))
        lines.append(serving.ACCESS_LOG_FORMAT % atoms)
    assert (
        lines[0]
        == lines[1]
        == '192.168.1.20 "POST /api/v1/games/g/transactions HTTP/1.1" 201 1234 4ms'
    )
