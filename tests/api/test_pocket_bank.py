"""The pocket bank's Python side (api/pocket.py over ledger/journal.py), as the browser's worker
drives it (docs/pocket.md): the server's own app answers each request, every write leaves one
journal line for the device to keep, and a bank made again from the kept lines holds the same
games. Classic figures from docs/rules.md: each player starts with 1,500.

The browser half (IndexedDB, the worker, the console) is tests/e2e/test_pocket.py's.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from api.pocket import PocketBank
from ledger.journal import Journal, PocketRecorder, decode

ROOT = Path(__file__).resolve().parents[2]


class Device:
    """A bank and the lines its device kept, as the worker keeps them after each answer."""

    def __init__(self, lines: list[str] | None = None) -> None:
        self.kept: list[str] = list(lines or [])
        self.bank = PocketBank(self.kept)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        **headers: str,
    ) -> tuple[int, dict[str, str], Any]:
        sent = {"Accept": "application/json", **headers}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if body is not None:
            sent["Content-Type"] = "application/json"
        status, answered, text = self.bank.handle(
            method, path, json.dumps(sent), None if body is None else json.dumps(body)
        )
        self.kept.extend(self.bank.take_writes())
        return status, dict(json.loads(answered)), json.loads(text) if text else None

    def restarted(self) -> Device:
        """The page reloaded: a new bank from what the device kept."""
        return Device(self.kept)


def new_game(device: Device) -> tuple[str, str]:
    status, _, game = device.call(
        "POST", "/api/v1/games", {"name": "Friday", "ruleset": "classic", "players": ["Ann", "Bob"]}
    )
    assert status == 201, game
    return game["id"], game["banker_token"]


def pay(device: Device, game: str, token: str, amount: int, key: str) -> tuple[int, Any]:
    status, _, body = device.call(
        "POST",
        f"/api/v1/games/{game}/transactions",
        {"type": "payment", "from": "p1", "to": "p2", "amount": amount},
        token,
        **{"Idempotency-Key": key},
    )
    return status, body


def cash(device: Device, game: str, token: str) -> dict[str, int]:
    status, _, state = device.call("GET", f"/api/v1/games/{game}", token=token)
    assert status == 200, state
    return {p["name"]: p["cash"] for p in state["players"]}


def test_a_game_comes_back_whole_from_the_lines_its_device_kept() -> None:
    device = Device()
    game, token = new_game(device)
    created = len(device.kept)
    assert created == 1  # the game, its set-up and its tokens: one insert, one line
    assert pay(device, game, token, 200, "k1")[0] == 201
    assert len(device.kept) == created + 1  # one write, one line
    again = device.restarted()
    assert cash(again, game, token) == {"Ann": 1300, "Bob": 1700}
    # The same log: the chain of hashes checks out, and the next write follows on.
    status, _, verified = again.call("GET", f"/api/v1/games/{game}/verify", token=token)
    assert (status, verified["ok"]) == (200, True), verified
    status, txn = pay(again, game, token, 100, "k2")
    assert (status, txn["seq"]) == (201, 4), txn
    assert cash(again.restarted(), game, token) == {"Ann": 1200, "Bob": 1800}


def test_what_records_nothing_leaves_no_line() -> None:
    device = Device()
    game, token = new_game(device)
    before = list(device.kept)
    # Refused by the rules: Ann has 1,500 and cannot pay 2,000.
    status, problem = pay(device, game, token, 2000, "k1")
    assert (status, problem["code"]) == (409, "insufficient_funds")
    # A dry run, a read, and the same Idempotency-Key again.
    status, _, _ = device.call(
        "POST",
        f"/api/v1/games/{game}/transactions?dry_run=true",
        {"type": "payment", "from": "p1", "to": "p2", "amount": 10},
        token,
    )
    assert status == 200
    assert device.kept == before
    assert pay(device, game, token, 10, "k2")[0] == 201
    kept = list(device.kept)
    status, _, _ = device.call(
        "POST",
        f"/api/v1/games/{game}/transactions",
        {"type": "payment", "from": "p1", "to": "p2", "amount": 10},
        token,
        **{"Idempotency-Key": "k2"},
    )
    assert status == 201
    assert device.kept == kept  # answered again from the record, not recorded again


def test_a_bank_answers_as_the_server_does() -> None:
    device = Device()
    game, token = new_game(device)
    status, headers, _ = device.call("GET", f"/api/v1/games/{game}", token=token)
    etag = headers["ETag"]
    status, headers, _ = device.call(
        "GET", f"/api/v1/games/{game}", token=token, **{"If-None-Match": etag}
    )
    assert status == 304
    status, headers, problem = device.call("GET", f"/api/v1/games/{game}")
    assert (status, headers["Content-Type"], problem["code"]) == (
        401,
        "application/problem+json",
        "unauthorized",
    )
    status, _, problem = device.call(
        "POST", f"/api/v1/games/{game}/transactions", {"type": "payment"}, token
    )
    assert (status, problem["code"]) == (422, "validation_error")


def test_a_write_the_device_could_not_keep_is_a_503_to_send_again() -> None:
    # The worker answers this when IndexedDB refuses the lines (a full quota).
    status, headers, text = PocketBank().unkept()
    problem = json.loads(text)
    assert (status, problem["code"], problem["status"]) == (503, "storage_unavailable", 503)
    assert dict(json.loads(headers))["Retry-After"] == "5"
    assert "nothing was recorded" in problem["detail"]


def test_where_no_thread_can_start_a_game_has_no_stream_but_a_404(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As in a browser's Web Worker (Pyodide): threading.Thread.start raises RuntimeError.
    def no_thread(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    device = Device()
    game, token = new_game(device)
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    status, _, text = device.bank.handle(
        "GET",
        f"/api/v1/games/{game}/events",
        json.dumps({"Authorization": f"Bearer {token}"}),
        None,
    )
    problem = json.loads(text)
    assert (status, problem["code"]) == (404, "not_found")
    assert "no live stream" in problem["detail"]
    # The bank goes on: the next write is recorded.
    assert pay(device, game, token, 5, "k1")[0] == 201


def test_the_pocket_store_finds_a_games_events_by_their_versions() -> None:
    recorder = PocketRecorder(Journal())
    device = Device()
    game, token = new_game(device)
    for n in range(5):
        pay(device, game, token, 1, f"k{n}")
    for line in device.kept:
        recorder.insert_events(decode(line))
    everything = recorder.select_events(game)
    assert [e.originator_version for e in everything] == list(range(1, len(everything) + 1))
    library = super(PocketRecorder, recorder)
    for gt, lte, limit in [
        (0, None, None),
        (3, None, None),
        (3, 5, None),
        (2, None, 2),
        (99, None, None),
    ]:
        mine = recorder.select_events(game, gt=gt, lte=lte, limit=limit)
        theirs = library.select_events(game, gt=gt, lte=lte, limit=limit)
        assert mine == theirs, (gt, lte, limit)


def serving_only() -> list[str]:
    """The distributions only serving needs (pyproject.toml's [tool.tablebank])."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(pyproject["tool"]["tablebank"]["serving-only"])


def serving_modules() -> list[str]:
    """The top-level modules those distributions install (python-json-logger's is
    ``pythonjsonlogger``)."""
    found = importlib.metadata.packages_distributions()
    wanted = {name.lower() for name in serving_only()}
    return sorted(
        module
        for module, distributions in found.items()
        if any(d.lower().replace("_", "-") in wanted for d in distributions)
    )


BLOCKED = """
import importlib.abc, sys
SERVING = set(sys.argv[1:])
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in SERVING:
            raise ImportError(f"{name} is only for serving")
sys.meta_path.insert(0, Blocked())
import json
from api.pocket import PocketBank
bank = PocketBank()
status, _, body = bank.handle("POST", "/api/v1/games", json.dumps({"Content-Type":
    "application/json"}), json.dumps({"name": "T", "ruleset": "classic", "players": ["A", "B"]}))
assert status == 201, body
print(sorted(m for m in sys.modules if m.split(".")[0] in SERVING or m.startswith("api.cli")))
"""


def test_the_bank_imports_nothing_only_serving_needs() -> None:
    # What a browser lacks (docs/pocket.md): gevent, gunicorn and rich are for `tablebank
    # serve` alone; the app, the ledger and the schemas import none of them.
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED, *serving_modules()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_bundle_pins_every_dependency_but_the_serving_ones() -> None:
    # tools/pocket/requirements.txt: each within pyproject's range (the bundle's own tests,
    # tests/e2e/test_pocket.py, run what it pins).
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {
        Requirement(r).name.lower(): Requirement(r) for r in pyproject["project"]["dependencies"]
    }
    pins = {}
    for line in (ROOT / "tools" / "pocket" / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, rest = line.partition("==")
            pins[name.lower().replace("_", "-")] = rest.split()[0]
    for name in serving_only():
        assert name in wanted and name not in pins, name
    for name, requirement in wanted.items():
        if name in serving_only():
            continue
        assert name in pins, f"{name} is not pinned for the pocket bundle"
        assert requirement.specifier.contains(pins[name]), (name, pins[name])
