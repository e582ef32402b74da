"""A type with plain fields is its declaration module and nothing else (issue 21): a toy one,
"donation: a player pays into the pot" (tests/api/toys/donation.py), loaded in a server of its
own through ``TABLEBANK_TRANSACTION_MODULES``, is listed by ``/moves``, loaded by the API's
schema (its fields' shapes refused as any type's are), shown in the OpenAPI document and
recorded, with no other edit anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

# Runs in a fresh interpreter: the types are declared once, when ledger.transactions loads.
SCRIPT = """
import json
from api import create_app

app = create_app({"TESTING": True, "TABLEBANK_DB": ":memory:"})
client = app.test_client()
game = client.post(
    "/api/v1/games", json={"name": "Toy", "ruleset": "classic", "players": ["Ann", "Bob"]}
).json
url, auth = f"/api/v1/games/{game['id']}", {"Authorization": f"Bearer {game['banker_token']}"}
player = {"Authorization": f"Bearer {game['tokens']['p2']}"}
out = {}
moves = client.get(url + "/moves", headers=auth).json["moves"]
out["listed"] = [m for m in moves if m["type"] == "donation"]
out["player_listed"] = [
    m["type"] for m in client.get(url + "/moves", headers=player).json["moves"]
]
shape = client.post(
    url + "/transactions", json={"type": "donation", "player": "p1", "amount": 0}, headers=auth
)
out["shape"] = [shape.status_code, shape.json.get("errors")]
done = client.post(
    url + "/transactions", json={"type": "donation", "player": "p2", "amount": 50}, headers=player
)
out["recorded"] = [done.status_code, done.json.get("postings"), done.json.get("balances")]
document = client.get("/api/v1/openapi.json").json
out["component"] = document["components"]["schemas"].get("Donation")
print(json.dumps(out))
"""


def test_a_toy_type_is_its_declaration_and_nothing_else() -> None:
    env = {
        **os.environ,
        "TABLEBANK_TRANSACTION_MODULES": "toys.donation",
        "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parents[1])]),
    }
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.splitlines()[-1])

    assert out["listed"] == [
        {
            "type": "donation",
            "who": ["banker", "player"],
            "voidable": True,
            "fields": [
                {"name": "player", "kind": "player", "required": True, "choices": ["p1", "p2"]},
                {"name": "amount", "kind": "amount", "required": True, "min": 1},
            ],
        }
    ]
    assert "donation" in out["player_listed"]
    # An amount is a whole number of at least 1, as every type's amount is.
    assert out["shape"] == [
        422,
        {"amount": ["Must be greater than or equal to 1 and less than or equal to 1000000000."]},
    ]
    # Bob (1500 starting cash, docs/rules.md "Set-up and starting cash") gives 50 to the pot.
    status, postings, balances = out["recorded"]
    assert status == 201
    assert postings == [{"from": "p2", "to": "pot", "amount": 50}]
    assert (balances["p2"], balances["pot"]) == (1450, 50)
    assert set(out["component"]["properties"]) == {"type", "player", "amount", "memo"}


# A game with a tip and a payment, stored, then read again: each event under its own class.
SAME_NAME = """
import json
from eventsourcing.utils import resolve_topic
from ledger.application import TableBank
from ledger.store import persistence_env
from ledger.transactions import REGISTRY

bank = TableBank(env=persistence_env(DB))
game = bank.create_game("Toy", "classic", ["Ann", "Bob"], {})["id"]
bank.record(game, {"type": "tip", "player": "p1", "amount": 5})
bank.record(game, {"type": "payment", "from": "p2", "to": "p1", "amount": 7})
bank.close()
state = TableBank(env=persistence_env(DB)).game(game)
print(json.dumps({
    "events": [REGISTRY[t].event.__module__ for t in ("tip", "payment")],
    "v1_topic": resolve_topic("ledger.game:Game.PaymentMade").__module__,
    "balances": state["balances"],
}))
"""


def test_an_event_class_may_take_the_name_of_another_familys(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "TABLEBANK_TRANSACTION_MODULES": "toys.tip",
        "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parents[1])]),
    }
    script = SAME_NAME.replace("DB", repr(str(tmp_path / "toy.sqlite")))
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.splitlines()[-1])

    assert out["events"] == ["toys.tip", "ledger.transactions.money"]
    # Games stored by v1 name money's PaymentMade as Game's: theirs still, the tip's not.
    assert out["v1_topic"] == "ledger.transactions.money"
    # 1500 each (docs/rules.md, "Set-up and starting cash"): Ann tips 5, Bob pays her 7.
    assert (out["balances"]["p1"], out["balances"]["p2"], out["balances"]["pot"]) == (
        1502,
        1493,
        5,
    )
