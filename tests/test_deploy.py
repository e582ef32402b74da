"""What an admin installs to run a server (docs/deploy.md): the systemd unit
``deploy/tablebank.service`` starts ``tablebank serve`` with options the command takes, sets
only environment variables that name an option of it, runs as a user of its own that writes its
state directory alone, and is a unit systemd accepts (``systemd-analyze verify``)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from api import cli

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "tablebank.service"


def settings() -> dict[str, list[str]]:
    """The unit's settings, each key with its values in order (systemd allows repeats)."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def serve_options() -> dict[str, str]:
    """``tablebank serve``'s options by their environment variable."""
    return {
        cli.environment_name(action): max(action.option_strings, key=len)
        for action in cli.serve_parser()._actions
        if action.option_strings and action.dest not in ("help", "threads")
    }


def test_the_unit_starts_tablebank_serve_with_options_it_takes() -> None:
    (command,) = settings()["ExecStart"]
    words = shlex.split(command.replace("${CREDENTIALS_DIRECTORY}", "/run/credentials/t"))
    assert Path(words[0]).name == "tablebank" and words[1] == "serve"
    parsed = cli.parser().parse_args(words[1:])
    assert (parsed.host, parsed.port) == ("127.0.0.1", 8000)  # behind a proxy, on loopback
    assert parsed.admin_token_file == "/run/credentials/t/admin-token"


def test_the_units_environment_names_options_of_serve_only() -> None:
    options = serve_options()
    names = [value.split("=", 1)[0] for value in settings()["Environment"]]
    assert names and all(name in options for name in names), names
    assert "TABLEBANK_DB" in names and "TABLEBANK_LOG_FORMAT" in names


def test_the_unit_runs_as_a_user_of_its_own_that_writes_its_state_alone() -> None:
    unit = settings()
    assert unit["DynamicUser"] == ["yes"]
    assert unit["StateDirectory"] == ["tablebank"]
    assert unit["ProtectSystem"] == ["strict"] and unit["NoNewPrivileges"] == ["yes"]
    (db,) = (v.split("=", 1)[1] for v in unit["Environment"] if v.startswith("TABLEBANK_DB="))
    assert db.startswith("/var/lib/tablebank/")  # the state directory, the one it may write
    assert unit["RestartPreventExitStatus"] == ["2"]  # a newer store: restarting cannot help


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        reason = "systemd-analyze is not installed"
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(reason)
    # The command where this checkout's is (systemd checks that it exists).
    here = str(Path(sys.executable).with_name("tablebank"))
    unit = tmp_path / "tablebank.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablebank/bin/tablebank", here))
    done = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
