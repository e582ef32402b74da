"""The OpenAPI document the server serves agrees with the API."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate

from ledger.parameters import PARAMETERS
from ledger.refusals import REFUSALS
from ledger.transactions import RECORDABLE

# Every type a client records, as the ledger declares them (tests/api/test_transaction_types.py
# holds the declarations to the contract and to docs/api.md's table).
TRANSACTION_TYPES = set(RECORDABLE)


@pytest.fixture
def document(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.json


def test_document_is_valid_openapi_3(document):
    assert document["openapi"].startswith("3.")
    validate(document)


def test_document_lists_every_path(document):
    assert set(document["paths"]) == {
        "/api/v1/games",
        "/api/v1/games/{game}",
        "/api/v1/games/{game}/ruleset",
        "/api/v1/games/{game}/events",
        "/api/v1/games/{game}/transactions",
        "/api/v1/games/{game}/transactions/{seq}",
        "/api/v1/games/{game}/players/{player}/liquidation",
        "/api/v1/games/{game}/tokens/{role}",
        "/api/v1/games/{game}/accounts/{account}/statement",
        "/api/v1/games/{game}/replay",
        "/api/v1/games/{game}/verify",
        "/api/v1/games/{game}/export",
        "/api/v1/games/{game}/fairplay",
        "/api/v1/games/{game}/stats",
        "/api/v1/games/{game}/moves",
        "/api/v1/games/import",
        "/api/v1/rulesets",
        "/api/v1/rulesets/{name}",
        "/api/v1/parameters",
        "/api/v1/version",
        "/healthz",
        "/readyz",
        "/metrics",
    }


def test_transaction_body_is_one_of_every_type(document):
    body = document["paths"]["/api/v1/games/{game}/transactions"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    schema = document["components"]["schemas"][ref.rsplit("/", 1)[1]]

    assert schema["discriminator"]["propertyName"] == "type"
    assert set(schema["discriminator"]["mapping"]) == TRANSACTION_TYPES
    assert len(schema["oneOf"]) == len(TRANSACTION_TYPES)


def test_payment_schema_names_its_fields_as_the_api_does(document):
    payment = document["components"]["schemas"]["Payment"]

    assert set(payment["properties"]) == {"type", "from", "to", "amount", "memo"}
    assert set(payment["required"]) == {"type", "from", "to", "amount"}
    assert payment["additionalProperties"] is False


def test_game_and_transaction_answers_are_described(document):
    schemas = document["components"]["schemas"]

    assert {"balances", "players", "properties", "version", "last_seq"} <= set(
        schemas["Game"]["properties"]
    )
    assert {"seq", "postings", "basis", "balances", "hash"} <= set(
        schemas["Transaction"]["properties"]
    )


def test_errors_are_described_as_problems(document):
    post = document["paths"]["/api/v1/games/{game}/transactions"]["post"]
    problem = document["components"]["responses"]["Problem"]
    refusal = document["components"]["responses"]["Refusal"]

    assert post["responses"]["409"] == {"$ref": "#/components/responses/Refusal"}
    assert post["responses"]["422"] == {"$ref": "#/components/responses/Problem"}
    assert set(problem["content"]) == {"application/problem+json"}
    assert set(refusal["content"]) == {"application/problem+json"}


def test_a_refusal_lists_every_code_of_the_registry(document):
    schemas = document["components"]["schemas"]
    conflict = schemas["Conflict"]
    refusals = {
        code: ref
        for code, ref in conflict["discriminator"]["mapping"].items()
        if ref.startswith("#/components/schemas/Refusal")
    }

    assert conflict["discriminator"]["propertyName"] == "code"
    assert set(refusals) == set(REFUSALS)
    assert len(conflict["oneOf"]) == len(REFUSALS) + 2  # and busy, idempotency_in_progress
    # Each variant a whole problem of one code, with its params (issue 29: a generated client
    # narrows by the code without a cast).
    for code, ref in refusals.items():
        variant = schemas[ref.rsplit("/", 1)[-1]]
        assert variant["properties"]["code"] == {"type": "string", "enum": [code]}
        assert {"type", "title", "status", "detail", "code", "params"} <= set(variant["required"])


def test_a_409_is_a_refusal_or_one_to_ask_again(document):
    schemas = document["components"]["schemas"]
    answer = document["components"]["responses"]["Refusal"]["content"]["application/problem+json"]
    conflict = schemas["Conflict"]

    assert answer["schema"] == {"$ref": "#/components/schemas/Conflict"}
    assert conflict["discriminator"]["propertyName"] == "code"
    assert set(conflict["discriminator"]["mapping"]) == set(REFUSALS) | {
        "busy",
        "idempotency_in_progress",
    }


def test_a_problem_is_a_union_discriminated_by_its_code(document):
    schemas = document["components"]["schemas"]
    problem = schemas["Problem"]
    mapping = problem["discriminator"]["mapping"]

    assert problem["discriminator"]["propertyName"] == "code"
    assert {ref["$ref"] for ref in problem["oneOf"]} == set(mapping.values())
    for code, ref in mapping.items():
        variant = schemas[ref.rsplit("/", 1)[-1]]
        assert code in variant["properties"]["code"]["enum"]
        assert {"type", "title", "status", "detail", "code"} <= set(variant["required"])
    # The members of a code, typed: a validation error's messages by field, a conflict's
    # version now, the transaction an Idempotency-Key was recorded with.
    assert mapping["validation_error"] == "#/components/schemas/ProblemValidationError"
    errors = schemas["ProblemValidationError"]["properties"]["errors"]
    assert errors["additionalProperties"] == {"type": "array", "items": {"type": "string"}}
    assert schemas["ProblemVersionConflict"]["properties"]["current"]["type"] == "string"
    assert schemas["ProblemIdempotencyKeyReused"]["properties"]["seq"]["type"] == "integer"
    # Each named code a variant of its own; werkzeug's other HTTP errors share one.
    assert mapping["not_found"] == "#/components/schemas/ProblemNotFound"
    assert mapping["i_m_a_teapot"] == "#/components/schemas/ProblemHttp"


def test_each_refusal_code_documents_its_params(document):
    schemas = document["components"]["schemas"]
    funds = schemas["RefusalInsufficientFunds"]["properties"]
    mortgaged = schemas["RefusalMortgaged"]["properties"]["params"]["oneOf"]

    assert funds["code"] == {"type": "string", "enum": ["insufficient_funds"]}
    assert set(funds["params"]["properties"]) == {
        "payer",
        "amount",
        "cash",
        "shortfall",
        "can_raise",
        "creditor",
    }
    assert set(funds["params"]["required"]) == {"payer", "amount", "cash", "shortfall", "can_raise"}
    assert funds["params"]["properties"]["shortfall"]["type"] == "integer"
    assert funds["params"]["additionalProperties"] is False
    rent = next(case for case in mortgaged if case["properties"]["reason"] == {"const": "rent"})
    assert rent["required"] == ["reason", "property"]
    assert {case["properties"]["reason"]["const"] for case in mortgaged} == set(
        REFUSALS["mortgaged"].reasons
    )


def test_openapi_document_needs_no_token(client):
    assert client.get("/api/v1/openapi.json").status_code == 200


# -- what the fuzzing (tests/api/test_schemathesis.py) found the document did not say ----------


def test_every_post_documents_the_body_size_limit(document):
    # API.md: 413 payload_too_large for bodies over 64 KiB (imports: 32 MiB).
    posts = [ops["post"] for ops in document["paths"].values() if "post" in ops]

    assert len(posts) == 4
    for post in posts:
        assert post["responses"]["413"] == {"$ref": "#/components/responses/Problem"}


def test_every_operation_on_a_game_needs_its_bearer_token_and_no_other_does_but_the_admins(
    document,
):
    scheme = document["components"]["securitySchemes"]["bearer"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")

    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            expected = [{"bearer": []}] if "{game}" in path else None
            if (method, path) == ("get", "/api/v1/games"):  # the admin token, where set
                expected = [{}, {"admin": []}]
            if (method, path) == ("get", "/metrics"):  # the admin token only (404 without one)
                expected = [{"admin": []}]
            assert operation.get("security") == expected, (method, path)


def test_option_names_and_values_are_documented_as_the_server_checks_them(document, client):
    options = document["components"]["schemas"]["NewGame"]["properties"]["options"]
    body = {"name": "x", "ruleset": "classic", "players": ["A", "B"]}

    assert options["propertyNames"] == {"minLength": 1, "maxLength": 64}
    assert {"type": "null"} not in options["additionalProperties"]["anyOf"]
    long_name = client.post("/api/v1/games", json={**body, "options": {"x" * 65: True}})
    null_value = client.post("/api/v1/games", json={**body, "options": {"free_parking_pot": None}})
    assert long_name.status_code == 422
    assert null_value.status_code == 422


def test_a_rule_set_documents_its_parameter_count_and_null_values(document):
    parameters = document["components"]["schemas"]["RuleSetDocument"]["properties"]["parameters"]
    option = document["components"]["schemas"]["OptionInput"]["properties"]["default"]

    # A Length bound on an object is a count of its members, not a string length.
    assert parameters["maxProperties"] == 40
    assert "maxLength" not in parameters
    assert parameters["propertyNames"] == {"maxLength": 64}
    # null is a value of its own: no limit to houses (Millionaire Elite), no clock (minutes).
    assert parameters["properties"]["houses"]["type"] == ["integer", "null"]
    assert parameters["properties"]["ends_after_bankruptcies"]["type"] == ["integer", "null"]
    assert option == {"description": "null: a minutes option with no clock"}


@pytest.mark.parametrize("component", ["RuleSetDocument", "RuleSet"])
def test_a_rule_set_s_parameters_are_those_of_the_registry(document, component):
    """Each parameter the ledger knows (ledger/parameters.py), with its range, default and
    sentence; any other is refused (docs/rulesets.md, "Parameters")."""
    parameters = document["components"]["schemas"][component]["properties"]["parameters"]
    properties = parameters["properties"]

    assert parameters["additionalProperties"] is False
    assert set(properties) == set(PARAMETERS)
    for name, p in PARAMETERS.items():
        assert properties[name]["description"].startswith(p.description), name
        assert ("default" in properties[name]) == (not p.required), name
    # docs/rulesets.md: starting cash from 1 to 10^9; a deal of 0 to 10 deeds, none by default;
    # two variants; the policies by colour, priced from 1; Millionaire Elite's share price.
    assert properties["starting_cash"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 10**9,
        "description": "What each player gets from the Bank at set-up. Required in a complete "
        "document.",
    }
    assert (properties["deal_deeds"]["maximum"], properties["deal_deeds"]["default"]) == (10, 0)
    assert properties["variant"]["enum"] == ["classic", "millionaire-elite"]
    assert properties["policies"]["additionalProperties"]["minimum"] == 1
    assert properties["share_price"]["description"].endswith(
        "Read in millionaire-elite games only."
    )


# API.md v1.2, "The OpenAPI document": a stable operationId on every operation, for clients
# generated from the document (names like post_api_v1_games_game_transactions otherwise).
OPERATION_IDS = {
    ("post", "/api/v1/games"): "create_game",
    ("get", "/api/v1/games"): "list_games",
    ("post", "/api/v1/games/import"): "import_game",
    ("get", "/api/v1/games/{game}"): "get_game",
    ("get", "/api/v1/games/{game}/ruleset"): "get_game_ruleset",
    ("get", "/api/v1/games/{game}/players/{player}/liquidation"): "get_liquidation",
    ("post", "/api/v1/games/{game}/tokens/{role}"): "replace_token",
    ("get", "/api/v1/games/{game}/events"): "stream_events",
    ("post", "/api/v1/games/{game}/transactions"): "record_transaction",
    ("get", "/api/v1/games/{game}/transactions"): "list_transactions",
    ("get", "/api/v1/games/{game}/transactions/{seq}"): "get_transaction",
    ("get", "/api/v1/games/{game}/accounts/{account}/statement"): "get_statement",
    ("get", "/api/v1/games/{game}/replay"): "replay_game",
    ("get", "/api/v1/games/{game}/verify"): "verify_game",
    ("get", "/api/v1/games/{game}/export"): "export_game",
    ("get", "/api/v1/games/{game}/fairplay"): "get_fairplay",
    ("get", "/api/v1/games/{game}/stats"): "get_stats",
    ("get", "/api/v1/games/{game}/moves"): "list_moves",
    ("get", "/api/v1/rulesets"): "list_rulesets",
    ("get", "/api/v1/rulesets/{name}"): "get_ruleset",
    ("get", "/api/v1/parameters"): "list_parameters",
    ("get", "/healthz"): "get_health",
    ("get", "/api/v1/version"): "get_version",
    ("get", "/readyz"): "get_readiness",
    ("get", "/metrics"): "get_metrics",
}


def test_every_operation_has_its_stable_operation_id(document):
    got = {
        (method, path): operation.get("operationId")
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if method in ("get", "post", "put", "patch", "delete")
    }
    assert got == OPERATION_IDS  # the names API.md gives among them: create_game, get_game…


def test_answers_list_the_fields_every_one_of_them_carries_as_required(document):
    # API.md v1.2: "every response schema lists its required fields" (a generated client made
    # every field of Game, Transaction and Player optional). What an answer may leave out:
    # a game's clock, shares, entered figures, disputes and standings; a player's shares,
    # policies and exemption; a verification's failing seq; a problem's own members.
    schemas = document["components"]["schemas"]
    assert set(schemas["Game"]["required"]) == {
        "id", "name", "ruleset", "status", "version", "created", "options", "balances",
        "players", "properties", "bank", "jail_cards", "turn", "ious", "last_seq", "head",
    }  # fmt: skip
    assert set(schemas["Player"]["required"]) == {
        "id", "name", "cash", "net_worth", "bankrupt", "jail_cards", "in_jail",
    }  # fmt: skip
    assert set(schemas["Transaction"]["required"]) == {
        "seq", "type", "at", "by", "memo", "request", "postings", "changes", "basis",
        "balances", "voided_by", "hash",
    }  # fmt: skip
    assert set(schemas["Verification"]["required"]) == {"ok", "transactions", "head"}
    for variant in schemas["Problem"]["oneOf"]:
        required = schemas[variant["$ref"].rsplit("/", 1)[-1]]["required"]
        assert {"type", "title", "status", "detail", "code"} <= set(required)
    assert set(schemas["CreatedGame"]["required"]) == set(schemas["Game"]["required"]) | {
        "banker_token",
        "tokens",
    }


def _reached_schemas(document, part="responses"):
    """The component schemas the operations' ``part`` (their responses, or the whole of
    them) reach, at any depth (through the response components they name, too)."""

    def refs(node, found):
        if isinstance(node, dict):
            if "$ref" in node:
                found.add(node["$ref"])
            for value in node.values():
                refs(value, found)
        elif isinstance(node, list):
            for value in node:
                refs(value, found)
        return found

    components = document["components"]
    schemas = components["schemas"]
    todo = set()
    for operations in document["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict):
                refs(operation if part is None else operation.get(part, {}), todo)
    seen = set()
    while todo:
        kind, name = todo.pop().split("/")[-2:]
        if (kind, name) not in seen and name in components.get(kind, {}):
            seen.add((kind, name))
            todo |= refs(components[kind][name], set())
    return {name: schemas[name] for kind, name in seen if kind == "schemas"}


def test_every_object_an_answer_holds_lists_its_required_fields(document):
    # API.md v1.2: "every response schema lists its required fields", the rule sets' too (a
    # generated client typed every field of RuleSet and Deed optional).
    answers = _reached_schemas(document)
    assert {"Game", "Transaction", "RuleSet", "Deed", "RuleSetList", "Stats"} <= set(answers)

    def bare(schema, where):
        """The object schemas at or below ``schema`` that name their properties but none
        required (its properties, items, maps and alternatives walked as schemas)."""
        if not isinstance(schema, dict):
            return []
        found = [where] if schema.get("properties") and "required" not in schema else []
        for name, sub in schema.get("properties", {}).items():
            found += bare(sub, f"{where}.{name}")
        for key in ("items", "additionalProperties"):
            found += bare(schema.get(key), f"{where}[{key}]")
        for key in ("allOf", "oneOf", "anyOf"):
            for i, sub in enumerate(schema.get(key, [])):
                found += bare(sub, f"{where}[{key}{i}]")
        return found

    assert [w for name, schema in answers.items() for w in bare(schema, name)] == []
    # A rule set's parameters: those without a default are in every rule set the ledger holds.
    parameters = answers["RuleSet"]["properties"]["parameters"]
    assert set(parameters["required"]) == {n for n, p in PARAMETERS.items() if p.required}
    assert {"starting_cash", "salary", "railroad_rents"} <= set(parameters["required"])


def test_every_schema_of_the_document_is_used_by_an_operation(document):
    # A generated client makes a model of every component: one no operation uses (such as
    # flask-smorest's PaginationMetadata, for a header we never send) is a model for nothing.
    used = set(_reached_schemas(document, part=None))
    assert sorted(set(document["components"]["schemas"]) - used) == []


def test_a_banker_s_own_rule_set_answers_every_field_its_schema_requires(document, client):
    # The least a banker's own box may say: no title, currency, spaces or names, and deeds
    # without positions; its answer still carries every field the document calls required.
    classic = client.get("/api/v1/rulesets/classic").json
    street = {"kind": "street", "group": "g", "rents": [2, 10, 30, 90, 160, 250], "house_price": 50}
    own = {
        "name": "kitchen-table",
        "players": {"min": 2, "max": 4},
        "parameters": {**classic["parameters"], "deal_deeds": 0},
        "deeds": [{"name": "Elm", "price": 60, **street}, {"name": "Oak", "price": 80, **street}],
    }
    created = client.post(
        "/api/v1/games",
        json={"name": "t", "ruleset": "kitchen-table", "ruleset_document": own,
              "players": ["Ann", "Bob"]},
    )  # fmt: skip
    assert created.status_code == 201, created.json
    auth = {"Authorization": f"Bearer {created.json['banker_token']}"}
    answer = client.get(f"/api/v1/games/{created.json['id']}/ruleset", headers=auth).json
    schemas = document["components"]["schemas"]
    assert set(schemas["RuleSet"]["required"]) <= set(answer)
    for deed in answer["deeds"]:
        assert set(schemas["Deed"]["required"]) <= set(deed), deed
    for listed in client.get("/api/v1/rulesets").json["items"]:
        assert set(schemas["RuleSet"]["required"]) <= set(listed), listed["name"]
        for deed in listed["deeds"]:
            assert set(schemas["Deed"]["required"]) <= set(deed), deed


def test_transaction_types_and_game_statuses_are_enums(document):
    schemas = document["components"]["schemas"]
    # Every type a client records, and those the ledger records at creation (in every log).
    types = schemas["Transaction"]["properties"]["type"]["enum"]
    assert set(types) == TRANSACTION_TYPES | {"starting_cash", "deal", "pot_seed"}
    for name in ("Game", "GameSummary"):
        assert schemas[name]["properties"]["status"]["enum"] == ["active", "finished"]


def test_the_headers_the_contract_names_are_declared(document):
    paths = document["paths"]
    recorded = paths["/api/v1/games/{game}/transactions"]["post"]["responses"]["201"]["headers"]
    assert {"ETag", "Location", "Idempotent-Replayed", "Cache-Control"} <= set(recorded)
    created = paths["/api/v1/games"]["post"]["responses"]["201"]["headers"]
    assert {"ETag", "Location", "Cache-Control"} <= set(created)
    assert created["Cache-Control"]["schema"]["enum"] == ["no-store"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            if "{game}" in path and method == "get":
                assert "Cache-Control" in operation["responses"]["200"]["headers"], path
    version = document["components"]["headers"]["Version"]
    assert "version" in version["description"]


def test_a_page_s_next_and_the_after_it_feeds_are_one_type(document):
    schemas = document["components"]["schemas"]
    for page, path in (
        ("TransactionPage", "/api/v1/games/{game}/transactions"),
        ("GameList", "/api/v1/games"),
    ):
        nxt = schemas[page]["properties"]["next"]
        [after] = [p for p in document["paths"][path]["get"]["parameters"] if p["name"] == "after"]
        assert nxt["type"] == ["string", "null"] and after["schema"]["type"] == "string", path
        assert nxt["pattern"] == after["schema"]["pattern"] == "^[0-9]{1,10}$", path


def test_refusals_are_problems_whole_and_ious_are_typed(document):
    schemas = document["components"]["schemas"]
    not_owner = schemas["RefusalNotOwner"]
    assert set(not_owner["required"]) == {"type", "title", "status", "detail", "code", "params"}
    assert not_owner["properties"]["code"] == {"type": "string", "enum": ["not_owner"]}
    iou = schemas["Game"]["properties"]["ious"]["items"]
    assert iou == {"$ref": "#/components/schemas/IouEntry"}
    assert set(schemas["IouEntry"]["required"]) == {
        "id",
        "debtor",
        "holder",
        "amount",
        "outstanding",
    }


def test_problem_codes_are_an_enum_of_every_code_the_server_answers(document, client):
    codes = set(document["components"]["schemas"]["Problem"]["discriminator"]["mapping"])
    created = client.post(
        "/api/v1/games", json={"name": "t", "ruleset": "classic", "players": ["Ann", "Bob"]}
    ).json
    game = f"/api/v1/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['banker_token']}"}
    answers = [
        client.get("/api/v1/nowhere"),  # 404 not_found
        client.delete("/api/v1/rulesets"),  # 405 method_not_allowed
        client.get(game),  # 401 unauthorized
        client.post(game + "/transactions", json={"type": "salary"}, headers=auth),  # 422
        # 409: Ann cannot pay 5,000 out of her 1,500 (docs/rules.md, "Money conservation").
        client.post(
            game + "/transactions",
            json={"type": "payment", "from": "p1", "to": "p2", "amount": 5000},
            headers=auth,
        ),
        client.post(game + "/transactions", data="x" * (65 * 1024), headers=auth),  # 413
    ]

    seen = [answer.json["code"] for answer in answers]

    assert seen == [
        "not_found",
        "method_not_allowed",
        "unauthorized",
        "validation_error",
        "insufficient_funds",
        "payload_too_large",
    ]
    assert set(seen) <= codes
    # Every refusal of the rules, and the codes API.md names for the rest.
    assert set(REFUSALS) <= codes
    named = {"rate_limited", "too_many_streams", "busy", "storage_unavailable", "forbidden"}
    assert named | {"version_conflict", "idempotency_key_reused", "internal_error"} <= codes
    assert "idempotency_in_progress" in codes  # API.md: a dry run of a key being recorded
