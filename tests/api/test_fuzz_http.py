"""Whatever a client sends, the answer is never a 5xx (a 5xx is a defect)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from api import create_app
from api.bank import EXTENSION
from schemas.transactions import TRANSACTION_SCHEMAS

FIELDS = [
    "player",
    "from",
    "to",
    "amount",
    "effect",
    "per_house",
    "per_hotel",
    "property",
    "price",
    "winner",
    "bid",
    "payer",
    "dice",
    "multiplier",
    "tax",
    "choice",
    "action",
    "deck",
    "houses",
    "hotel",
    "break_down",
    "orders",
    "legs",
    "cash",
    "properties",
    "jail_cards",
    "unmortgage",
    "debtor",
    "creditor",
    "owed",
    "memo",
    "seq",
    "reason",
]
WORDS = [
    "p1",
    "p2",
    "p3",
    "p9",
    "bank",
    "pot",
    "boardwalk",
    "park-place",
    "electric-company",
    "reading-railroad",
    "chance",
    "community_chest",
    "collect",
    "pay",
    "pay_each",
    "collect_from_each",
    "repairs",
    "income",
    "luxury",
    "flat",
    "percent",
    "draw",
    "use",
]

scalars = (
    st.sampled_from(WORDS)
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.integers(min_value=0, max_value=2000)
    | st.booleans()
    | st.none()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)
    ),
    max_leaves=12,
)
bodies = st.fixed_dictionaries(
    {"type": st.sampled_from([*TRANSACTION_SCHEMAS, "starting_cash", "void"])},
    optional={name: values for name in FIELDS},
)


@pytest.fixture(scope="module")
def client(store):
    """One app on the run's store for the module: every example plays its own game in it."""
    db = store.new()
    app = create_app({"TESTING": True, "TABLEBANK_DB": db})
    yield app.test_client()
    app.extensions[EXTENSION].close()
    store.drop(db)


def new_table(client):
    """A new game where p1 holds Park Place: more bodies reach deeper into the rules."""
    game = client.post(
        "/api/v1/games", json={"name": "fuzz", "ruleset": "classic", "players": ["A", "B", "C"]}
    ).json
    url = f"/api/v1/games/{game['id']}"
    headers = {"Authorization": f"Bearer {game['banker_token']}"}
    client.post(
        url + "/transactions",
        json={"type": "buy", "player": "p1", "property": "park-place"},
        headers=headers,
    )
    return url, headers


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies | values)
def test_no_transaction_body_gives_a_5xx(client, body):
    url, headers = new_table(client)

    response = client.post(url + "/transactions", json=body, headers=headers)

    assert response.status_code < 500, (body, response.json)


@settings(max_examples=examples(100), deadline=None)
@given(
    query=st.dictionaries(
        st.sampled_from(["seq", "after", "limit", "account", "type"]), st.text(max_size=25)
    )
)
def test_no_query_gives_a_5xx(client, query):
    url, headers = new_table(client)

    for path in ("", "/transactions"):
        response = client.get(url + path, query_string=query, headers=headers)
        assert response.status_code < 500, (path, query, response.json)
