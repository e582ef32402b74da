"""Schemathesis fuzzes every operation of the served OpenAPI document against the app in process.

Each operation gets requests generated from its documented parameters and bodies, both valid
ones (positive) and ones that break the document (negative). Every answer must be no 5xx, have
a status the document names for that operation (``default`` does not count: see
``status_is_listed``), the documented content type, headers and body schema; invalid input must
be refused and valid input not refused as malformed beyond what the rules refuse.

So that requests reach the handlers rather than 404s, every request carries the banker token of
a game created here, ``{game}`` is that game, and valid requests name its seats, accounts, deeds
and seqs (a few keep what was generated, for the refusals). ``make test`` runs
``DEFAULT_EXAMPLES`` examples per operation; ``TABLEBANK_FUZZ_EXAMPLES`` asks for more
(``make fuzz``).
"""

from __future__ import annotations

import os
import re
import uuid
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from profiles import examples
from schemathesis.core.failures import Failure
from schemathesis.generation.meta import negated_parameters

from api import create_app
from api.bank import EXTENSION
from schemas.fields import IfMatch

DEFAULT_EXAMPLES = 25
ASKED = os.environ.get("TABLEBANK_FUZZ_EXAMPLES")
EXAMPLES = int(ASKED) if ASKED else examples(DEFAULT_EXAMPLES)
# Schemathesis' coverage phase sends every boundary and every broken field of every schema, the
# same requests each time: some 2,300 (1,600 of them transaction bodies), about 30 s more per
# store on this 2-core machine. ``make fuzz`` runs it; ``make test`` keeps to random examples.
COVERAGE = ASKED is not None

PLAYERS = ["p1", "p2", "p3"]
ACCOUNTS = [*PLAYERS, "bank", "pot"]
DEEDS = ["boardwalk", "park-place", "mediterranean-avenue", "reading-railroad", "water-works"]
# Fields of a transaction body that name a seat or an account, and those that name deeds.
ACCOUNT_FIELDS = {"player", "from", "to", "payer", "winner", "debtor", "creditor", "commission_to"}
DEED_FIELDS = {"property", "properties", "unmortgage"}
# Transactions after which the game may no longer take writes: the next request gets a new one.
ENDINGS = {"finish", "bankruptcy"}


def served_document() -> dict[str, Any]:
    """The OpenAPI document as the API serves it (it does not depend on the store)."""
    app = create_app({"TESTING": True, "TABLEBANK_DB": ":memory:"})
    try:
        document: dict[str, Any] = app.test_client().get("/api/v1/openapi.json").json
        return document
    finally:
        app.extensions[EXTENSION].close()


# Valid requests the ledger refuses are not malformed: 409 by the rules, 412 for an If-Match
# naming another version, 404 for a seat, account, deed or seq the game does not have, 422
# where one field decides another (``houses`` or ``orders``; dice for utility rent), a rule set
# or an imported log is not playable, or an Idempotency-Key is reused. One 422 the document
# cannot say: a name of blanks has a length before it is trimmed and none after. A 304 is a
# read whose If-None-Match named the version it would carry (`*` names any). What the document
# does say is never refused as malformed (``not_refused_as_malformed``): a cursor, an If-Match,
# a rule set's ``extends``, a time or a whole number it admits (4.0 is 4).
ACCEPTED_REFUSALS = ["2xx", "304", "401", "403", "404", "409", "412", "422"]
# Malformed requests are refused as schemathesis expects (its default statuses), or with 413:
# a generated body past the 64 KiB every body is read against (a rule set's long lists).
REJECTIONS = ["400", "401", "403", "404", "406", "413", "422", "428"]


class RunApp:
    """The WSGI app the schema sends to: the app of this run's store, set by ``arena``.

    The schema is loaded when the module is collected, before ``--store`` is known; every
    request and every probe the checks send (a request without the token, with a wrong one)
    goes through here to the app on the run's store. (Schemathesis' own way to load a schema
    from a fixture, ``schemathesis.pytest.from_fixture``, sets ``Node._nodeid``, which pytest
    9.2 no longer has.)"""

    def __init__(self) -> None:
        self.app: Flask | None = None

    def __call__(self, environ: Any, start_response: Any) -> Any:
        assert self.app is not None, "the arena fixture sets the app"
        return self.app(environ, start_response)


RUN_APP = RunApp()

schema = schemathesis.openapi.from_dict(
    served_document(),
    config=schemathesis.Config.from_dict(
        {
            "generation": {"mode": "all"},
            "phases": {"coverage": {"enabled": COVERAGE}},
            "checks": {
                "positive_data_acceptance": {"expected-statuses": ACCEPTED_REFUSALS},
                "negative_data_rejection": {"expected-statuses": REJECTIONS},
            },
        }
    ),
)
schema.app = RUN_APP


def status_is_listed(ctx: Any, response: Any, case: Any) -> None:
    """Every status the API answers is listed for its operation.

    Schemathesis' own ``status_code_conformance`` accepts any status where the document has a
    ``default`` response, as every operation here does; this check does not."""
    if case.method.upper() != case.operation.method.upper():
        return  # a probe with a method the path does not have: 405 (``unsupported_method``)
    listed = {str(status) for status in case.operation.responses.status_codes}
    status = str(response.status_code)
    if status not in listed and f"{status[0]}XX" not in listed:
        raise Failure(
            operation=case.operation.label,
            title="Undocumented status",
            message=f"Received {status}; listed: {', '.join(sorted(listed))}",
        )


# What the document says exactly (issue 29): a 422 naming one of these fields, or refusing a
# whole number, answers a request the document admits with something it does not say.
EXACT_FIELDS = ("after", "If-Match", "extends", "created")
NOT_AN_INTEGER = "Not a valid integer."


def not_refused_as_malformed(ctx: Any, response: Any, case: Any) -> None:
    """A valid request is never refused for a field whose every constraint the document says."""
    positive = case.meta is None or case.meta.generation.mode.is_positive
    if not positive or response.status_code != 422:
        return
    body = response.json()
    errors = (body.get("errors") or {}) if isinstance(body, dict) else {}
    exact = [
        f"{field}: {messages}"
        for field, messages in errors.items()
        if (field.split(".")[-1] in EXACT_FIELDS or NOT_AN_INTEGER in messages)
        and not mislabelled_if_match(field, case)
    ]
    if exact:
        raise Failure(
            operation=case.operation.label,
            title="Valid input refused as malformed",
            message="; ".join(exact),
        )


def mislabelled_if_match(field: str, case: Any) -> bool:
    """Whether an If-Match refused was one the document's pattern refuses too: schemathesis'
    coverage phase makes header values of letters and digits only, none of which an If-Match
    (``*`` or quoted tags) is, and then sends ``0`` labelled valid."""
    sent = (case.headers or {}).get("If-Match")
    return field == "If-Match" and isinstance(sent, str) and not re.fullmatch(IfMatch.PATTERN, sent)


class Arena:
    """The app on the run's store and the game every request is about.

    The game is set up so that reads have something to show (deeds owned, houses, rent, an
    IOU) and writes have something to act on; after a transaction that may end it, the next
    request gets a new one."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.game: dict[str, Any] = {}
        self.last_seq = 0
        self.version = ""
        self.new_game()

    def new_game(self) -> None:
        response = self.client.post(
            "/api/v1/games",
            json={
                "name": "fuzz",
                "ruleset": "classic",
                "players": ["Ann", "Bob", "Cy"],
                "options": {"player_loans": True, "free_parking_pot": True},
            },
        )
        assert response.status_code == 201, response.json
        self.game = response.json
        for body in (
            {"type": "buy", "player": "p1", "property": "boardwalk"},
            {"type": "buy", "player": "p1", "property": "park-place"},
            {"type": "build", "orders": [{"property": "boardwalk"}, {"property": "park-place"}]},
            {"type": "rent", "payer": "p2", "property": "boardwalk"},
            {"type": "iou", "debtor": "p2", "creditor": "p3", "amount": 100},
        ):
            recorded = self.client.post(
                f"/api/v1/games/{self.game['id']}/transactions", json=body, headers=self.auth
            )
            assert recorded.status_code == 201, recorded.json
            self.last_seq = recorded.json["seq"]
            self.version = tag_version(recorded.headers["ETag"])

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.game['banker_token']}"}

    def aim(self, case: Any) -> None:
        """Point the case at this game; a valid case also at its seats, deeds and seqs."""
        positive = case.meta is None or case.meta.generation.mode.is_positive
        params = case.path_parameters or {}
        if "game" in params and (positive or is_uuid(params["game"])):
            params["game"] = self.game["id"]
        if not positive:
            return
        if "seq" in params:
            params["seq"] = self.seq(params["seq"])
        if "player" in params:
            params["player"] = pick(params["player"], PLAYERS)
        if "account" in params:
            params["account"] = pick(params["account"], ACCOUNTS)
        if case.query:
            for name, choices in (("account", ACCOUNTS), ("property", DEEDS)):
                if isinstance(case.query.get(name), str):
                    case.query[name] = pick(case.query[name], choices)
            if "seq" in case.query:
                case.query["seq"] = self.seq(case.query["seq"])
        if case.path.endswith("/events"):
            # From a seq of the game, so that the stream sends events, each checked against
            # the document (the stream is cut after a moment: see ``arena``).
            if "after" in (case.query or {}):
                case.query["after"] = self.seq(case.query["after"])
            last = (case.headers or {}).get("Last-Event-ID")
            if isinstance(last, str) and last.isdigit():
                case.headers["Last-Event-ID"] = str(self.seq(int(last)))
        if case.path.endswith("/transactions") and case.method.upper() == "POST":
            case.body = self.aim_body(case.body)
            # Generated keys repeat ("0", ""), and a generated If-Match never names the game's
            # version: most writes would be refused for that alone. A quarter of each are kept
            # as generated, for those refusals and for the replays of a key.
            key = (case.headers or {}).get("Idempotency-Key")
            if isinstance(key, str) and zlib.crc32(key.encode()) % 4:
                case.headers["Idempotency-Key"] = f"{key[:200]}-{uuid.uuid4()}"  # <= 255
            tag = (case.headers or {}).get("If-Match")
            if isinstance(tag, str) and zlib.crc32(tag.encode()) % 4:
                case.headers["If-Match"] = f'"{self.version}"'

    def aim_body(self, value: Any, key: str | None = None) -> Any:
        """A transaction body with the names it gives replaced by ones this game has."""
        if isinstance(value, dict):
            return {k: self.aim_body(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.aim_body(v, key) for v in value]
        if isinstance(value, str) and key in ACCOUNT_FIELDS:
            return pick(value, ACCOUNTS)
        if isinstance(value, str) and key in DEED_FIELDS:
            return pick(value, DEEDS)
        if isinstance(value, int) and not isinstance(value, bool) and key == "seq":
            return self.seq(value)
        return value

    def seq(self, generated: Any) -> Any:
        """A seq of the game, from a generated whole number."""
        if isinstance(generated, int) and generated > 0:
            return 1 + generated % self.last_seq
        return generated

    def after(self, case: Any, response: Any) -> None:
        """Follow the game: its last seq, and whether it still takes writes."""
        recorded = case.method.upper() == "POST" and case.path.endswith("/transactions")
        if recorded and response.status_code == 201:
            self.last_seq = max(self.last_seq, response.json()["seq"])
            if "idempotent-replayed" not in response.headers:  # else the version of then
                self.version = tag_version(response.headers["etag"][0])
            if response.json()["type"] in ENDINGS:
                self.new_game()


def pick(generated: Any, choices: list[str]) -> Any:
    """One of ``choices`` for a generated value, the same each time, or now and then (one time
    in ``len(choices) + 1``) the value itself."""
    index = zlib.crc32(repr(generated).encode()) % (len(choices) + 1)
    return generated if index == len(choices) else choices[index]


def tag_version(etag: str) -> str:
    """The version an ``ETag: "<version>"`` names."""
    return etag.strip('"')


def is_uuid(value: Any) -> bool:
    """Whether a generated game id is a UUID (else it is left to test the route's 404)."""
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def arena(store: Any) -> Iterator[Arena]:
    db = store.new()
    # An event stream is cut after a moment, its backlog sent: the fuzzer reads each answer
    # whole, and checks each event against the document.
    app = create_app({"TESTING": True, "TABLEBANK_DB": db, "TABLEBANK_STREAM_MAX_SECONDS": 0.05})
    RUN_APP.app = app
    yield Arena(app)
    RUN_APP.app = None
    app.extensions[EXTENSION].close()
    store.drop(db)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    # A request is a real write to a real store: slower than Hypothesis expects of a test.
    suppress_health_check=[HealthCheck.too_slow],
)
def test_every_operation_answers_as_documented(case: Any, arena: Arena) -> None:
    arena.aim(case)

    # The token goes with every request, unless the case is about a missing or broken token:
    # then what was generated goes, and must be refused.
    negated = {name.lower() for name, _ in negated_parameters(case.meta)}
    auth = {} if "authorization" in negated else arena.auth

    response = case.call(headers=auth)
    arena.after(case, response)

    case.validate_response(
        response,
        additional_checks=[status_is_listed, not_refused_as_malformed],
        headers=auth,
        transport_kwargs={"headers": auth},
    )
