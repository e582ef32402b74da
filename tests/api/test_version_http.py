"""What release a server runs (API.md v1.3, "Operating a server"): ``GET /api/v1/version``
with no token, and ``tablebank --version``, which an admin compares before and after an
upgrade."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest
from flask import Flask

from api.cli import main

# The release as the installed package says it (pyproject.toml reads api/version.py).
RELEASE = importlib.metadata.version("tablebank")


def test_the_version_names_the_release_the_store_and_its_layout(stored_app: Flask) -> None:
    db = str(stored_app.config["TABLEBANK_DB"])
    # What keeps the games: the contract's two for a server; an app in memory says so.
    store = (
        "postgresql" if db.startswith("postgresql") else "memory" if db == ":memory:" else "sqlite"
    )

    answer = stored_app.test_client().get("/api/v1/version")

    assert answer.status_code == 200
    assert answer.json == {"version": RELEASE, "store": store, "schema": 1}


def test_the_command_prints_the_same_release(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["--version"])

    assert ended.value.code == 0
    assert capsys.readouterr().out == f"tablebank {RELEASE}\n"


def test_python_m_tablebank_is_the_command_too() -> None:
    # Where the script is not on the PATH (a virtualenv not activated, Windows).
    done = subprocess.run(
        [sys.executable, "-m", "tablebank", "--version"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )

    assert (done.returncode, done.stdout) == (0, f"tablebank {RELEASE}\n")
