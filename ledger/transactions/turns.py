"""The table's rhythm: whose turn it is, and the end of the game (asked for, or by its rules).

docs/rules.md: "Claim window" (turns), "Finish". A game asked to end while a dispute is open is
refused (API.md v1.2, Corrections): once finished, nothing more is recorded, so the dispute
could never be upheld or voided.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ledger import rules
from ledger.draft import Body, Draft, option
from ledger.errors import DisputesOpen
from ledger.state import Standing
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction


class TurnStarted(TransactionRecorded):
    """A player's turn begins."""


class GameFinished(TransactionRecorded):
    """The game ends; the standings are in its basis."""


class TurnBasis(TypedDict):
    """Whose turn it was, and whose it is now."""

    previous: str | None
    player: str


class FinishBasis(TypedDict):
    """How the game was scored, and the standings."""

    scoring: str
    standings: NotRequired[list[Standing]]


@transaction("turn", TurnStarted, fields=[f.player()], basis=TurnBasis)
def start_turn(d: Draft[TurnBasis], body: Body) -> None:
    """Start the player's turn: rent is charged to them only, builders start afresh."""
    player = d.player(body["player"])
    d.basis = {"previous": d.state["turn"], "player": player}
    d.change("turn", player)
    for builder in sorted(d.state["built_this_turn"]):
        d.change("built_this_turn", 0, player=builder)


def end_game(d: Draft) -> None:
    """Rank the players as the rule set scores them and end the game."""
    ranked = rules.standings(d.rs, d.state, d.options)
    d.change("status", "finished", standings=ranked)
    d.basis["standings"] = ranked


def open_disputes(d: Draft) -> list[int]:
    """The seqs of the game's open disputes, oldest first."""
    return sorted(e["seq"] for e in d.state["disputes"].values() if e["status"] == "open")


@transaction(
    "finish",
    GameFinished,
    voidable=False,
    refusals=["disputes_open"],
    admin=True,
    basis=FinishBasis,
)
def finish_game(d: Draft[FinishBasis], body: Body) -> None:
    """End the game now and rank the players, once no dispute is open."""
    pending = open_disputes(d)
    if pending:
        raise DisputesOpen(pending)
    d.basis = {"scoring": "cash + deeds at price (mortgaged at half) + buildings at cost"}
    end_game(d)


def finish_if_over(d: Draft) -> None:
    """A game ends by its own rules: at the short game's second bankruptcy, or when one
    player is left (unless bankrupt players stay at the table, house rule)."""
    bankrupt = sum(1 for p in d.state["players"].values() if p["bankrupt_seq"] is not None)
    limit = d.rs.params["ends_after_bankruptcies"]
    ended = limit is not None and bankrupt >= limit
    last_one = len(rules.active_players(d.state)) <= 1  # bankrupt seats kept don't count
    if ended or (last_one and not option(d, "keep_bankrupt_players")):
        end_game(d)
