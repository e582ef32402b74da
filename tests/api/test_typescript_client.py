"""A TypeScript client generated from the served OpenAPI document, as a third-party developer
would make one (openapi-typescript types, an openapi-fetch client, tsc in strict mode), narrows
a refusal by its ``code`` and reads its typed ``params`` without a cast (issue 29, item 18).

``tools/ts-client`` pins the three npm packages (package.json and its lock; ``npm ci`` installs
them there, from the registry or npm's cache: no CDN). ``src/narrow.ts`` reads a refused
payment's ``params.shortfall`` after ``error.code === "insufficient_funds"``, a validation
error's ``errors``, a version conflict's ``current``, and compares ``code`` with
``idempotency_in_progress`` (which strict tsc refuses for a code the operation cannot answer);
it must type-check. ``src/unnarrowed.ts`` reads ``params`` before narrowing; it must not: a
problem of another code has none, so the narrowing is what types it. This is the TypeScript
twin of tests/api/test_generated_client.py.

Without node and npm the test is skipped, unless TABLEBANK_REQUIRE_ALL=1 makes that a failure.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from flask import Flask

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "ts-client"
MODULES = TOOLS / "node_modules"
# tsc's options: strict, and stricter still where a client's reads are concerned.
TSC = [
    "--strict",
    "--noEmit",
    "--noUncheckedIndexedAccess",
    "--exactOptionalPropertyTypes",
    "--target",
    "ES2022",
    "--module",
    "ESNext",
    "--moduleResolution",
    "Bundler",
    "--lib",
    "ES2022,DOM",
    "--skipLibCheck",
]


def run(args: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def node() -> str:
    """node, with the pinned packages installed in tools/ts-client (``npm ci`` when the lock
    changed since they were)."""
    found, npm = shutil.which("node"), shutil.which("npm")
    if found is None or npm is None:
        reason = "node and npm are not installed: no TypeScript client to check"
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(reason)
    # Each test process (and each store) asks: one ``npm ci`` at a time, or two would write
    # node_modules over each other; the others then find it installed.
    with open(Path(tempfile.gettempdir()) / "tablebank-ts-client.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not installed_as_locked():
            done = run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], TOOLS)
            assert done.returncode == 0, done.stdout + done.stderr
    return found


def installed_as_locked() -> bool:
    """Whether node_modules holds every package at the version package-lock.json pins."""
    installed = MODULES / ".package-lock.json"
    if not installed.exists():
        return False
    wanted = json.loads((TOOLS / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    have = json.loads(installed.read_text(encoding="utf-8"))["packages"]
    return all(
        have.get(name, {}).get("version") == package.get("version")
        for name, package in wanted.items()
        if name.startswith("node_modules/")
    )


@pytest.fixture
def client_dir(app: Flask, node: str, tmp_path: Path) -> Path:
    """A folder with the types openapi-typescript generates from the served document
    (``schema.d.ts``), the two client files, and the pinned packages."""
    document = app.test_client().get("/api/v1/openapi.json").json
    (tmp_path / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(MODULES, target_is_directory=True)
    generator = MODULES / "openapi-typescript" / "bin" / "cli.js"
    done = run([node, str(generator), "openapi.json", "-o", "schema.d.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for source in (TOOLS / "src").glob("*.ts"):
        shutil.copy(source, tmp_path / source.name)
    return tmp_path


def tsc(node: str, folder: Path, source: str) -> subprocess.CompletedProcess[str]:
    return run([node, str(MODULES / "typescript" / "bin" / "tsc"), *TSC, source], folder)


def test_a_refusal_narrowed_by_its_code_reads_its_typed_params(node: str, client_dir: Path):
    checked = tsc(node, client_dir, "narrow.ts")

    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_params_are_not_there_before_the_code_is_narrowed(node: str, client_dir: Path):
    checked = tsc(node, client_dir, "unnarrowed.ts")

    assert checked.returncode != 0
    assert "unnarrowed.ts(16," in checked.stdout  # return error.params.shortfall;
    assert "Property 'params' does not exist" in checked.stdout, checked.stdout
