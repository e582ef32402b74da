"""A real ``tablebank serve`` says where to open it and tells its console the same address.

Every server here binds loopback only: the network address is given with ``--public-url`` (as
a proxy's would be), and ``tests/api/test_cli_serve.py`` covers ``--host 0.0.0.0`` without
binding anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from server import Server

pytestmark = pytest.mark.e2e

LAN_URL = "http://192.168.1.20:8000"
BLOCKS = set("\u2580\u2584\u2588 ")


def qr_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and set(line) <= BLOCKS]


def test_serve_on_loopback_says_only_this_machine_reaches_it(tmp_path: Path, local_db: str) -> None:
    with Server(local_db, tmp_path / "server.log") as server:
        assert server.call("GET", "/console/address").body == {"lan": None}
        text = server.log_text()
    assert f"tablebank: serving http://127.0.0.1:{server.port} with " in text
    assert f"Open http://127.0.0.1:{server.port} in a browser on this machine;" in text
    assert qr_lines(text) == []


def test_serve_prints_the_public_url_and_its_qr_code_and_tells_the_console(
    tmp_path: Path, local_db: str
) -> None:
    with Server(local_db, tmp_path / "server.log", "--public-url", LAN_URL) as server:
        assert server.call("GET", "/console/address").body == {"lan": LAN_URL}
        text = server.log_text()
    assert "Open http://192.168.1.20:8000 on the banker's device" in text
    qr = qr_lines(text)
    assert len(qr) == 17  # version 2: 25 modules and a quiet zone of 4, two rows a line
    assert {len(line) for line in qr} == {33}
