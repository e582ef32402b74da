"""How a tablebank server sends the pocket bundle's files (api/pocket_files.py, API.md v1.3):
each file as itself, or the build's brotli or gzip copy beside it (tools/pocket/build.py) to a
browser that accepts that encoding, with ``Vary: Accept-Encoding`` either way. A bundle of
three made-up files stands in for the built one (tests/e2e/test_pocket.py serves the real one).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli  # type: ignore[import-not-found]
import pytest
from flask import Flask
from flask.testing import FlaskClient

WASM = b"\0asm" + bytes(range(256)) * 64


@pytest.fixture
def bundle(app: Flask, tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>tablebank</title>")
    (tmp_path / "pyodide").mkdir()
    wasm = tmp_path / "pyodide" / "pyodide.asm.wasm"
    wasm.write_bytes(WASM)
    wasm.with_name(wasm.name + ".gz").write_bytes(gzip.compress(WASM))
    wasm.with_name(wasm.name + ".br").write_bytes(brotli.compress(WASM))
    app.config["TABLEBANK_POCKET_DIR"] = str(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("accepted", "sent"),
    [
        ("br, gzip", "br"),
        ("gzip, deflate, br, zstd", "br"),  # chromium's order: the smaller copy all the same
        ("gzip", "gzip"),
        ("gzip, br;q=0", "gzip"),  # q=0: "not this one"
        ("identity", None),
        (None, None),
    ],
)
def test_a_bundle_file_goes_in_the_best_encoding_the_browser_takes(
    client: FlaskClient, bundle: Path, accepted: str | None, sent: str | None
) -> None:
    headers = {"Accept-Encoding": accepted} if accepted is not None else {}
    answer = client.get("/pocket/pyodide/pyodide.asm.wasm", headers=headers, buffered=True)
    assert answer.status_code == 200
    assert answer.headers.get("Content-Encoding") == sent
    assert answer.mimetype == "application/wasm"  # the file's own type, whatever the encoding
    assert "Accept-Encoding" in answer.headers["Vary"]
    body = answer.get_data()
    decoded = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[sent](body)
    assert decoded == WASM


def test_a_file_with_no_copy_goes_as_it_is(client: FlaskClient, bundle: Path) -> None:
    answer = client.get("/pocket/", headers={"Accept-Encoding": "br, gzip"}, buffered=True)
    assert answer.status_code == 200
    assert "Content-Encoding" not in answer.headers
    assert answer.get_data() == (bundle / "index.html").read_bytes()
