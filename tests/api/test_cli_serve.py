"""What ``tablebank serve`` prints and tells the console about where phones reach it, and the
gunicorn settings it runs with, without binding anything: gunicorn's ``run`` is replaced by a
recorder, the LAN address by a fixed one.
"""

from __future__ import annotations

import io
import socket
from pathlib import Path
from typing import Any

import pytest

from api import cli, netaddr
from api.bank import EXTENSION
from api.cli import serving
from ledger import ruleset, skeletons

LAN = "192.168.1.20"
# The compact terminal QR code of http://192.168.1.20:8000: version 2 (25 modules) with a quiet
# zone of 4 on each side is 33 characters wide, two rows of modules a line, so 17 lines.
QR_WIDTH, QR_LINES = 33, 17
BLOCKS = set("\u2580\u2584\u2588 ")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options, gunicorn's settings and the app configuration of every server ``serve``
    would have run."""
    runs: list[dict[str, Any]] = []

    def run(self: serving._Server) -> None:
        runs.append({"options": self.options, "settings": self.cfg, "config": self.app_config})

    monkeypatch.setattr(serving._Server, "run", run)
    monkeypatch.setattr(netaddr, "lan_address", lambda: LAN)
    monkeypatch.delenv("TABLEBANK_PUBLIC_URL", raising=False)
    return runs


def serve(*args: str) -> int:
    return cli.main(["serve", *args, "--db", "var/never-opened.sqlite"])


def qr_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and set(line) <= BLOCKS]


def test_serve_on_every_interface_prints_the_lan_address_and_its_qr_code(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert serve("--host", "0.0.0.0", "--port", "8000") == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:4] == [
        "tablebank: serving http://0.0.0.0:8000 with var/never-opened.sqlite",
        "Open http://192.168.1.20:8000 on the banker's device, or scan this QR code with it;",
        "players scan their own codes on the console's Links page.",
        "(A phone that cannot connect: let port 8000 through this machine's firewall.)",
    ]
    qr = qr_lines(out)
    assert len(qr) == QR_LINES
    assert {len(line) for line in qr} == {QR_WIDTH}
    assert qr == lines[4:]


def test_the_printed_qr_code_is_that_of_the_lan_address(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    import segno

    serve("--host", "0.0.0.0", "--port", "8000")
    expected = io.StringIO()
    segno.make("http://192.168.1.20:8000", error="m").terminal(out=expected, compact=True)
    assert qr_lines(capsys.readouterr().out) == expected.getvalue().splitlines()


def test_serve_on_every_interface_tells_the_console_the_lan_address(
    started: list[dict[str, Any]],
) -> None:
    serve("--host", "0.0.0.0", "--port", "8123")
    (run,) = started
    assert run["options"]["bind"] == "0.0.0.0:8123"
    assert run["config"] == {
        "TABLEBANK_DB": "var/never-opened.sqlite",
        "TABLEBANK_PUBLIC_URL": "http://192.168.1.20:8123",
        "TABLEBANK_GAMES_PER_MINUTE": 30,
        "TABLEBANK_IMPORT_MIB_PER_HOUR": 64,
        "TABLEBANK_PROXY_HOPS": 0,
        "TABLEBANK_ADMIN_TOKEN": None,
        "TABLEBANK_IMPORT_SLOTS": 1,
        "TABLEBANK_STREAMS_PER_ADDRESS": 50,
        "TABLEBANK_BODIES_PER_ADDRESS": 16,
        "TABLEBANK_READ_SLOTS": 1,
        "TABLEBANK_READ_CACHE_BYTES": 64 * 1024 * 1024,
        "TABLEBANK_POCKET_DIR": None,  # dist/pocket of the checkout (api.pocket_files)
        "TABLEBANK_ACCESS_LOG": False,  # gunicorn's access lines, in text
        "TABLEBANK_METRICS_DIR": None,  # no admin token: nothing counted
    }


def test_a_club_behind_one_nat_may_hold_more_streams_from_one_address(
    started: list[dict[str, Any]],
) -> None:
    serve("--streams-per-address", "120")
    (run,) = started
    assert run["config"]["TABLEBANK_STREAMS_PER_ADDRESS"] == 120


def test_serve_on_ipv6_every_interface_binds_in_brackets(started: list[dict[str, Any]]) -> None:
    serve("--host", "::", "--port", "8000")
    (run,) = started
    assert run["options"]["bind"] == "[::]:8000"
    assert run["config"]["TABLEBANK_PUBLIC_URL"] == "http://192.168.1.20:8000"


def test_serve_on_loopback_says_phones_cannot_reach_it_and_prints_no_qr_code(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    serve("--host", "127.0.0.1", "--port", "8000")
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "tablebank: serving http://127.0.0.1:8000 with var/never-opened.sqlite",
        "Open http://127.0.0.1:8000 in a browser on this machine; no phone can reach it:",
        "serve with --host 0.0.0.0 (as `make run` does) for the players' phones.",
    ]
    assert started[0]["config"]["TABLEBANK_PUBLIC_URL"] is None


def test_serve_on_a_specific_address_prints_that_address(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    serve("--host", "10.0.0.5", "--port", "8080")
    out = capsys.readouterr().out
    assert "Open http://10.0.0.5:8080 on the banker's device" in out
    assert len(qr_lines(out)) == QR_LINES  # 21 characters of URL fit version 2 as well
    assert started[0]["config"]["TABLEBANK_PUBLIC_URL"] == "http://10.0.0.5:8080"


def test_serve_without_a_lan_address_sends_the_banker_to_loopback(
    started: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(netaddr, "lan_address", lambda: "127.0.0.1")
    serve("--host", "0.0.0.0", "--port", "8000")
    assert capsys.readouterr().out.splitlines()[1:] == [
        "Open http://127.0.0.1:8000 in a browser on this machine; no phone can reach it:",
        "this machine has no address on a local network.",
    ]
    assert started[0]["config"]["TABLEBANK_PUBLIC_URL"] is None


def test_public_url_option_overrides_the_address_found(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    serve("--host", "127.0.0.1", "--port", "8000", "--public-url", "https://bank.example/")
    assert "Open https://bank.example on the banker's device" in capsys.readouterr().out
    assert started[0]["config"]["TABLEBANK_PUBLIC_URL"] == "https://bank.example"


def test_public_url_comes_from_the_environment_by_default(
    started: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLEBANK_PUBLIC_URL", "http://tablebank.lan:8000")
    serve("--host", "0.0.0.0", "--port", "8000")
    assert started[0]["config"]["TABLEBANK_PUBLIC_URL"] == "http://tablebank.lan:8000"


@pytest.mark.parametrize(
    "bad", ["192.168.1.20:8000", "ftp://bank.lan", "http://bank.lan/tables", "http://"]
)
def test_public_url_must_be_an_http_address_without_a_path(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        serve("--public-url", bad)
    assert exited.value.code == 2
    assert "is not an http(s)://host[:port] address" in capsys.readouterr().err
    assert started == []


def test_no_qr_code_where_the_output_cannot_encode_its_blocks() -> None:
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    serving.announce("http://192.168.1.20:8000", "0.0.0.0", 8000, out)
    out.seek(0)
    text = out.read()
    assert text.startswith("Open http://192.168.1.20:8000 on the banker's device")
    assert qr_lines(text) == []


def test_no_two_servers_share_gunicorns_control_socket(started: list[dict[str, Any]]) -> None:
    # gunicorn's default is one path for every server a user runs (~/.gunicorn/gunicorn.ctl):
    # each server took it from the one before and removed it when it stopped.
    cli.main(["serve", "--port", "8001", "--db", "var/one.sqlite"])
    cli.main(["serve", "--port", "8002", "--db", "var/two.sqlite"])

    assert [run["settings"].control_socket_disable for run in started] == [True, True]


# -- every option by environment (API.md v1.3, "Operating a server") -------------------------


def test_an_option_may_come_from_the_environment_and_the_command_line_wins(
    started: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A container or a systemd unit configures the server by TABLEBANK_<OPTION>.
    monkeypatch.setenv("TABLEBANK_STREAMS_PER_ADDRESS", "120")
    monkeypatch.setenv("TABLEBANK_GAMES_PER_MINUTE", "7")
    monkeypatch.setenv("TABLEBANK_WORKERS", "3")
    serve("--games-per-minute", "5")
    (run,) = started
    assert run["config"]["TABLEBANK_STREAMS_PER_ADDRESS"] == 120
    assert run["config"]["TABLEBANK_GAMES_PER_MINUTE"] == 5  # the option's, not the variable's
    assert run["options"]["workers"] == 3


def test_every_serve_option_names_its_environment_variable() -> None:
    options = [
        action
        for action in cli.serve_parser()._actions
        if action.option_strings and action.dest not in ("help", "threads")
    ]
    assert len(options) >= 15
    for action in options:
        assert f"$TABLEBANK_{action.dest.upper()}" in (action.help or ""), action.option_strings


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TABLEBANK_PORT", "eighty"),
        ("TABLEBANK_READ_SLOTS", "0"),
        ("TABLEBANK_ALLOW_SHARED_DB", "maybe"),
    ],
)
def test_a_bad_value_in_the_environment_is_refused_naming_the_variable(
    started: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    value: str,
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as exited:
        serve()
    assert exited.value.code == 2
    assert f"${name}" in capsys.readouterr().err
    assert started == []


def test_serve_while_its_postgresql_does_not_answer_says_so_in_a_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as closed:  # a port nothing listens on: PostgreSQL away
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    db = f"postgresql://tablebank:secret-password@127.0.0.1:{port}/tablebank"
    status = cli.main(["serve", "--host", "127.0.0.1", "--port", "8003", "--db", db])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("tablebank: the store does not answer: "), err
    assert "Traceback" not in err and "secret-password" not in err


def test_a_worker_builds_the_look_alike_table_and_the_rule_sets_as_it_starts(
    tmp_path: Path,
) -> None:
    """Built at a worker's first name check or game, they held its event loop 0.1-0.2 s."""
    skeletons._standing_for.cache_clear()
    ruleset._load_built_in.cache_clear()
    server = serving._Server({}, {"TABLEBANK_DB": str(tmp_path / "games.sqlite")})

    app = server.load()  # what gunicorn calls in each worker as it starts

    try:
        assert skeletons._standing_for.cache_info().currsize == 1
        assert ruleset._load_built_in.cache_info().currsize == len(ruleset.BUILT_IN)
    finally:
        app.extensions[EXTENSION].close()
