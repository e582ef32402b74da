"""The layers of STYLE.md: api -> schemas -> ledger, never upwards; the domain is web-free."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "ledger": {"flask", "marshmallow", "werkzeug", "flask_smorest", "apispec", "schemas", "api"},
    "schemas": {"flask", "werkzeug", "flask_smorest", "api"},
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_upper_layers_or_web_libraries(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no Python files found in {package}/"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_modules(f) & FORBIDDEN[package]) for f in files
    }
    assert {f: m for f, m in offenders.items() if m} == {}


def test_import_scan_sees_a_forbidden_import(tmp_path: Path) -> None:
    # The check above must be able to fail: it does see such an import.
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nfrom flask import Flask\n")
    assert "flask" in imported_modules(sample)
