"""A client generated from the served OpenAPI document, as a third-party developer would make
one (openapi-python-client), plays a short game, fully typed (API.md v1.2, "The OpenAPI
document"; issue 21): create, a salary, a purchase and its rent, a refused payment read as its
typed refusal, the state, an export and its import. It talks to the app in process
(httpx's WSGI transport): the point is the document, not the network.

Figures from docs/rules.md: every classic player starts with 1,500; the Bank pays 200 at GO;
Boardwalk is printed at 400 and its bare rent is 50 with one deed of its group held.
"""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

PACKAGE = "tablebank_client"  # the generated package's name here


@pytest.fixture
def generated(app: Flask, tmp_path: Path) -> Iterator[ModuleType]:
    """The client openapi-python-client generates from the served document, importable."""
    document = app.test_client().get("/api/v1/openapi.json").json
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(document), encoding="utf-8")
    out = tmp_path / "out"
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator is not None, "openapi-python-client is one of the test extras"
    done = subprocess.run(
        [generator, "generate", "--path", str(spec), "--output-path", str(out), "--meta", "none"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Every schema of the document made a model: nothing "could not be processed".
    assert "Unable to process" not in done.stdout + done.stderr, done.stdout
    (tmp_path / PACKAGE).mkdir()
    out.rename(tmp_path / PACKAGE / "gen")
    (tmp_path / PACKAGE / "__init__.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(f"{PACKAGE}.gen")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def part(client: ModuleType, name: str) -> Any:
    """A module of the generated client: ``part(c, "api.games.create_game")``."""
    return importlib.import_module(f"{client.__name__}.{name}")


def test_a_generated_client_plays_a_short_game_fully_typed(app: Flask, generated: ModuleType):
    import httpx

    models = part(generated, "models")
    transport = httpx.WSGITransport(app=app)
    base = "http://tablebank.test"
    anyone = generated.Client(
        base_url=base, httpx_args={"transport": transport}, raise_on_unexpected_status=True
    )
    create_game = part(generated, "api.games.create_game")
    created = create_game.sync(
        client=anyone, body=models.NewGame(name="Friday", ruleset="classic", players=["Ann", "Bob"])
    )
    assert isinstance(created, models.CreatedGame)
    assert (created.status, created.last_seq) == (models.CreatedGameStatus.ACTIVE, 2)
    banker = generated.AuthenticatedClient(
        base_url=base,
        token=created.banker_token,
        httpx_args={"transport": transport},
        raise_on_unexpected_status=True,
    )
    game = UUID(created.id)
    record = part(generated, "api.transactions.record_transaction").sync

    salary = record(game, client=banker, body=models.Salary(models.SalaryType.SALARY, "p1"))
    assert isinstance(salary, models.Transaction)
    assert [(p.from_, p.to, p.amount) for p in salary.postings] == [("bank", "p1", 200)]
    bought = record(
        game, client=banker, body=models.Buy(models.BuyType.BUY, "p1", property_="boardwalk")
    )
    assert [(p.from_, p.to, p.amount) for p in bought.postings] == [("p1", "bank", 400)]
    rent = record(
        game, client=banker, body=models.Rent(models.RentType.RENT, "p2", property_="boardwalk")
    )
    assert (rent.seq, [(p.from_, p.to, p.amount) for p in rent.postings]) == (
        5,
        [("p2", "p1", 50)],
    )

    refused = record(
        game,
        client=banker,
        body=models.Payment(models.PaymentType.PAYMENT, from_="p2", to="p1", amount=2000),
    )
    assert isinstance(refused, models.RefusalInsufficientFunds)
    # Bob holds 1,500 - 50 = 1,450: short by 550, with nothing to sell or mortgage.
    assert (refused.params.cash, refused.params.shortfall, refused.params.can_raise) == (
        1450,
        550,
        0,
    )
    assert refused.status == 409 and refused.detail

    state = part(generated, "api.game.get_game").sync(game, client=banker)
    assert isinstance(state, models.Game)
    # Ann: 1,500 + 200 - 400 + 50; Bob: 1,500 - 50.
    assert {p.id: p.cash for p in state.players} == {"p1": 1350, "p2": 1450}
    assert state.properties["boardwalk"].owner == "p1"

    # The log two at a time: each page's `next` is the next call's `after`, one type.
    list_transactions = part(generated, "api.transactions.list_transactions").sync
    seqs, after = [], None
    while True:
        kwargs = {} if after is None else {"after": after}
        page = list_transactions(game, client=banker, limit=2, **kwargs)
        assert isinstance(page, models.TransactionPage)
        seqs += [txn.seq for txn in page.items]
        if page.next_ is None:
            break
        after = page.next_
    # Starting cash (1) and the deal (2) at creation, then salary, buy and rent.
    assert seqs == [1, 2, 3, 4, 5]

    exported = part(generated, "api.audit.export_game").sync(game, client=banker)
    assert isinstance(exported, models.Export) and len(exported.transactions) == 5
    imported = part(generated, "api.import_.import_game").sync(
        client=anyone, body=models.Import.from_dict(exported.to_dict())
    )
    assert isinstance(imported, models.CreatedGame)
    assert (imported.last_seq, imported.head) == (5, exported.head)
