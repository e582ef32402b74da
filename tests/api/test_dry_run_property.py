"""Property: a dry run answers exactly what the real POST that follows answers, and changes
nothing (API.md, "Dry run: what a move would record").

Hypothesis draws a game (players, house rules) and a sequence of requests of every classic
type, valid and invalid: unknown players and deeds, amounts beyond anyone's cash, voids of
any seq, builds without the group. Before each real POST the same body is dry-run; the two
answers must agree on status, code, params and every figure, and the dry run must leave the
game's last_seq, ETag and export as they were.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from profiles import examples

PLAYERS = ["p1", "p2", "p3", "p9"]  # p9 never exists
ACCOUNTS = [*PLAYERS, "bank", "pot"]
DEEDS = [
    "mediterranean-avenue",
    "baltic-avenue",
    "boardwalk",
    "park-place",
    "reading-railroad",
    "electric-company",
    "no-such-deed",
]
AMOUNTS = st.sampled_from([1, 50, 200, 1499, 1500, 5000])


def requests() -> st.SearchStrategy[dict[str, Any]]:
    player = st.sampled_from(PLAYERS)
    deed = st.sampled_from(DEEDS)
    return st.one_of(
        st.builds(lambda p: {"type": "salary", "player": p}, player),
        st.builds(
            lambda f, t, a: {"type": "payment", "from": f, "to": t, "amount": a},
            st.sampled_from(ACCOUNTS),
            st.sampled_from(ACCOUNTS),
            AMOUNTS,
        ),
        st.builds(lambda p, d: {"type": "buy", "player": p, "property": d}, player, deed),
        st.builds(
            lambda p, d, dice: {"type": "rent", "payer": p, "property": d, "dice": dice},
            player,
            deed,
            st.integers(2, 12),
        ),
        st.builds(
            lambda p, c: {"type": "tax", "player": p, "tax": "income", "choice": c},
            player,
            st.sampled_from(["flat", "percent"]),
        ),
        st.builds(lambda p: {"type": "tax", "player": p, "tax": "luxury"}, player),
        st.builds(
            lambda d, n: {"type": "build", "property": d, "houses": n}, deed, st.integers(1, 2)
        ),
        st.builds(lambda d: {"type": "mortgage", "property": d}, deed),
        st.builds(lambda d: {"type": "unmortgage", "property": d}, deed),
        st.builds(lambda p: {"type": "jail_fine", "player": p}, player),
        st.builds(lambda p: {"type": "go_to_jail", "player": p}, player),
        st.builds(lambda p: {"type": "turn", "player": p}, player),
        st.builds(
            lambda d, c: {"type": "iou", "debtor": d, "creditor": c, "amount": 100},
            player,
            player,
        ),
        st.builds(lambda s: {"type": "void", "seq": s, "reason": "wrong"}, st.integers(1, 12)),
        st.builds(
            lambda f, t, d, a: {
                "type": "trade",
                "legs": [{"from": f, "to": t, "cash": a, "properties": [d]}],
            },
            player,
            player,
            deed,
            AMOUNTS,
        ),
        st.builds(lambda p: {"type": "pot_collect", "player": p}, player),
        st.just({"type": "finish"}),
    )


OPTIONS = st.fixed_dictionaries(
    {
        "free_parking_pot": st.booleans(),
        "player_loans": st.booleans(),
        "no_rent_in_jail": st.booleans(),
    }
)

ASKED = os.environ.get("TABLEBANK_DRY_RUN_EXAMPLES")
EXAMPLES = int(ASKED) if ASKED else examples(40)


def answer(response: Any) -> tuple[int, dict[str, Any]]:
    """Status and body, less what only a recorded write has (its time and hash)."""
    body = dict(response.json)
    body.pop("at", None)
    body.pop("hash", None)
    return response.status_code, body


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(options=OPTIONS, moves=st.lists(requests(), min_size=1, max_size=12))
def test_dry_run_answers_what_the_real_post_then_does(
    client: FlaskClient, options: dict[str, bool], moves: list[dict[str, Any]]
) -> None:
    created = client.post(
        "/api/v1/games",
        json={"name": "prop", "ruleset": "classic", "players": ["A", "B", "C"], "options": options},
    ).json
    url = f"/api/v1/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['banker_token']}"}

    for body in moves:
        before = client.get(url, headers=auth)
        export = client.get(url + "/export", headers=auth).json
        preview = client.post(url + "/transactions?dry_run=true", json=body, headers=auth)
        after = client.get(url, headers=auth)
        assert after.json["last_seq"] == before.json["last_seq"]
        assert after.headers["ETag"] == before.headers["ETag"]
        assert client.get(url + "/export", headers=auth).json == export

        real = client.post(url + "/transactions", json=body, headers=auth)
        event(f"{body['type']} {real.status_code}")
        want_status = 201 if real.status_code == 201 else real.status_code
        status, shown = answer(preview)
        assert (status if status != 200 else 201) == want_status, (body, preview.json, real.json)
        assert shown == answer(real)[1], body
