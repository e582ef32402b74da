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
