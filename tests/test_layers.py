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


# -- the test suite's own modules ------------------------------------------------------------

TESTS = ROOT / "tests"


def test_no_test_module_imports_a_conftest() -> None:
    """Several folders have a ``conftest``: which one ``import conftest`` finds depends on which
    files the run collected, so helpers live in modules of their own (docs/testing.md)."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted(TESTS.rglob("*.py"))
        if "conftest" in imported_modules(path) or _imports_conftest_lazily(path)
    ]
    assert offenders == []


def _imports_conftest_lazily(path: Path) -> bool:
    """An import of conftest anywhere in the module, a function's or ``TYPE_CHECKING``'s too."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    return any(
        isinstance(node, ast.ImportFrom) and node.module == "conftest" for node in ast.walk(tree)
    )


def test_helper_modules_of_the_tests_have_names_of_their_own() -> None:
    """pytest puts each test folder on the path: two helpers of one name would shadow each
    other, whichever folder's tests ran first."""
    helpers = [p for p in TESTS.rglob("*.py") if not p.name.startswith(("test_", "conftest"))]
    helpers = [p for p in helpers if p.parent.name != "toys" and p.name != "__init__.py"]
    names = [p.stem for p in helpers]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_the_conftest_scan_sees_such_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from conftest import T\n"
    )
    assert _imports_conftest_lazily(sample)
    sample.write_text("from conftest import T\n")
    assert "conftest" in imported_modules(sample)
