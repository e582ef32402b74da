"""How the API shows a game, a transaction and a rule set; the versions (ETags) of a game.

Pure functions of the aggregate and its records: every view of the application is built here,
and nothing here reads the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from ledger import rules
from ledger.game import Game
from ledger.parameters import (
    KEYS,
    KNOWN_VARIANTS,
    NUMERIC,
    PARAMETERS,
    PRICES,
    WHOLE_OR_NULL,
    WHOLES,
    Parameter,
    published_kind,
)
from ledger.ruleset import RuleSet
from ledger.state import State

# A dispute as the game shows it (API.md v1.1, "Disputes").
DISPUTE_FIELDS = ("seq", "about", "by", "reason", "status", "resolved_by", "note")


def game_view(game: Game) -> dict[str, Any]:
    """The game as the API shows it."""
    rs, state = game.ruleset, game.state
    players = [player_view(rs, state, pid) for pid in state["players"]]
    view: dict[str, Any] = {
        "id": str(game.id),
        "name": game.name,
        "ruleset": rs.name,
        "status": state["status"],
        "version": game_view_version(game),
        "created": game.created_at,
        "options": dict(game.options),
        "balances": dict(state["balances"]),
        "players": players,
        "properties": {k: dict(v) for k, v in state["properties"].items()},
        "bank": dict(state["supply"]),
        "jail_cards": dict(state["jail_cards"]),
        "turn": state["turn"],
        "ious": [
            {k: iou[k] for k in ("id", "debtor", "holder", "amount", "outstanding")}
            for iou in state["ious"].values()
        ],
        "last_seq": state["last_seq"],
        "head": state["head"],
    }
    view.update(variant_view(game))
    return view


def player_view(rs: RuleSet, state: State, pid: str) -> dict[str, Any]:
    """One player as the game shows it: cash, net worth, cards; shares where the game has."""
    p = state["players"][pid]
    player = {
        "id": pid,
        "name": p["name"],
        "cash": state["balances"][pid],
        "net_worth": rules.net_worth(rs, state, pid),
        "bankrupt": p["bankrupt_seq"] is not None,
        "jail_cards": [d for d, h in state["jail_cards"].items() if h == pid],
        "in_jail": p["in_jail"],
    }
    if state["shares"] is not None:
        player.update(
            shares=state["shares"]["held"].get(pid, 0),
            policies=sorted(state["policies"].get(pid, [])),
            tax_exempt=bool(state["exempt"].get(pid)),
        )
    return player


def variant_view(game: Game) -> dict[str, Any]:
    """What the game shows only where its rules, options or history have it: the end of a
    timed game, shares, entered figures, plots paid at auction, disputes, standings."""
    state = game.state
    view: dict[str, Any] = {}
    if game.options.get("minutes"):
        view["ends_at"] = ends_at(game.created_at, int(game.options["minutes"]))
    if state["shares"] is not None:
        view["share_price"] = state["shares"]["price"]
    # A Millionaire Elite game carries its entered figures even while there are none, as it
    # carries its shares: a client draws its table from this view alone, never from the log.
    if state["shares"] is not None or state["figures"]:
        view["entered_figures"] = {k: dict(v) for k, v in state["figures"].items()}
    # What the net worths count such a plot at, while a player holds it: a client shows it,
    # never works it out. (A state snapshotted before ``paid`` has none.)
    held = state["properties"]
    paid = {k: v for k, v in state.get("paid", {}).items() if held[k]["owner"] != "bank"}
    if paid:
        view["paid_at_auction"] = paid
    disputes = state.get("disputes")  # (a state snapshotted before disputes has none)
    if disputes:
        view["disputes"] = [
            {k: cast(Mapping[str, Any], entry)[k] for k in DISPUTE_FIELDS}
            for entry in sorted(disputes.values(), key=lambda e: int(e["seq"]))
        ]
    if state["standings"] is not None:
        view["standings"] = [
            {"player": s["player"], "score": s["score"], "rank": s["rank"]}
            for s in state["standings"]
        ]
    return view


def transaction_view(
    txn: dict[str, Any], voided: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """A transaction as the API shows it, with the void that reversed it if any."""
    return {**txn, "voided_by": (voided or {}).get(str(txn["seq"]))}


def ends_at(created: str, minutes: int) -> str:
    """When a game to a clock ends: ``minutes`` after it was created (RFC 3339 UTC)."""
    start = datetime.fromisoformat(created.replace("Z", "+00:00"))
    end = start + timedelta(minutes=minutes)
    return end.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def game_view_version(game: Game) -> str:
    """The game's version as clients see it (ETag): opaque, new after every transaction."""
    return version_after(game.state["head"])


def version_after(head: str) -> str:
    """The version of a game whose head (its last transaction's hash) is ``head``."""
    return head[:16]


def parameters_view(classic: RuleSet) -> list[dict[str, Any]]:
    """Every rule-set parameter as ``GET /api/v1/parameters`` publishes it, in the order a
    document's are checked; ``classic``, the classic rule set, gives the default of those a
    complete document must give (the registry has none for them)."""
    return [parameter_view(p, classic) for p in PARAMETERS.values()]


def parameter_view(p: Parameter, classic: RuleSet) -> dict[str, Any]:
    """One parameter, published: its kind, default, bounds, choices, variants and meaning."""
    numeric = p.kind in NUMERIC
    view: dict[str, Any] = {
        "name": p.name,
        "kind": published_kind(p),
        "default": classic.params[p.name] if p.required else p.default,
        "required": p.required,
        "nullable": p.kind in (WHOLE_OR_NULL, KEYS),
        # The bounds of each whole number it holds (of a list's or an object's too).
        "min": p.low if numeric else None,
        "max": p.high if numeric else None,
        "variants": [v for v in KNOWN_VARIANTS if v in p.variants],
        "description": p.description,
    }
    if p.choices:
        view["choices"] = list(p.choices)
    if p.kind in (WHOLES, PRICES):
        view["entries"] = p.unit
    if p.kind == KEYS:
        view.update(entries="key", of=p.of)
    return view


def ruleset_view(rs: RuleSet) -> dict[str, Any]:
    """A rule set's document with each deed's slug, mortgage value and whether it can carry
    buildings (which a client reads here, never works out)."""
    doc = dict(rs.document)
    doc["options"] = rs.options
    doc["deeds"] = [
        {
            **raw,
            "id": deed.slug,
            "mortgage_value": deed.mortgage_value,
            "buildable": deed.buildable,
        }
        for raw, deed in zip(rs.document["deeds"], rs.deeds.values(), strict=True)
    ]
    return doc
