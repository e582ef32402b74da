"""No function of the product's Python is over 60 lines (issue "Code a newcomer can change"):
each can be read at once. A function is counted from its ``def`` to its last line, its
docstring and comments included, its decorators not.

The console's JavaScript (``api/static``) is held to the same by ``make check-console``
(``tools/console-check/functions.mjs``, with TypeScript's parser), which also fails on a
function, class or method of it without a JSDoc saying what it is for.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ledger", "api", "schemas", "tablebank")
LONGEST = 60


def long_functions(source: str, name: str) -> list[str]:
    """``name:line function (N lines)`` for each function of ``source`` over ``LONGEST``."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > LONGEST:
                found.append(f"{name}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_of_the_product_is_over_60_lines() -> None:
    files = sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))
    assert len(files) > 50  # the packages were found
    found = [
        each
        for path in files
        for each in long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_a_function_of_61_lines_is_found_and_one_of_60_is_not() -> None:
    def function(name: str, lines: int, indent: str = "") -> str:
        body = "".join(f"{indent}    x{n} = {n}\n" for n in range(lines - 1))
        return f"{indent}@decorated\n{indent}def {name}():\n{body}"

    source = function("sixty", 60) + "\n\nclass K:\n" + function("sixty_one", 61, "    ")
    assert long_functions(source, "x.py") == ["x.py:66 sixty_one (61 lines)"]
