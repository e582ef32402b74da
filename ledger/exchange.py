"""Export and import: a game's whole log as one JSON document, and a new game rebuilt from
one, every transaction checked again against the rules and the hash chain; the same checks
offline (``verify_document``, ``replay_document``) for the command line.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from ledger import audit
from ledger.chain import chain_hash
from ledger.draft import History
from ledger.errors import LedgerError, LogInvalid
from ledger.game import Game, now_rfc3339
from ledger.ruleset import parse_ruleset
from ledger.setup import SetUp, check_options, setup_types
from ledger.state import State, apply_transaction, copy_state
from ledger.transactions import SETUP_TYPES

SNAPSHOT_INTERVAL = 100
# An import keeps a copy of the state every this many transactions, so that a void's check
# replays from the nearest one instead of from the first transaction.
HISTORY_INTERVAL = 100


class Exchange(SetUp):
    """Export and import of a game's log."""

    def export(self, game_id: UUID | str) -> dict[str, Any]:
        """The whole log: header, rule set, options, players, transactions with hashes."""
        game = self._load(game_id)
        return {
            "format": EXPORT_FORMAT,
            "game": {
                "name": game.name,
                "ruleset": game.ruleset_doc,
                "options": game.options,
                "players": [p["name"] for p in game.state["players"].values()],
                "created": game.created_at,
            },
            "transactions": list(self.transactions(game.id)),
            "head": game.state["head"],
        }

    def import_game(self, document: dict[str, Any]) -> dict[str, Any]:
        """A new game from an exported log, every transaction checked again; new tokens.

        A long log is snapshotted every ``SNAPSHOT_INTERVAL`` transactions, as a game played
        here is, so that its first load and a look at it as it stood at any seq read at most
        that many events. The snapshots are taken of the game in hand as it is rebuilt (a
        copy of its state each time): snapshotting it from the store after the save read
        every event of the log again.
        """
        snapshots: list[Any] = []

        def keep(game: Game) -> None:
            if self.snapshots is not None and game.version % SNAPSHOT_INTERVAL == 0:
                snapshots.append(Game.Snapshot.take(copy.deepcopy(game)))

        game = rebuild_game(document, keep)
        if snapshots and game.version % SNAPSHOT_INTERVAL:  # and the head, for the first load
            snapshots.append(Game.Snapshot.take(copy.deepcopy(game)))
        created = now_rfc3339()
        return self._save_new_game(game, created, snapshots)


EXPORT_FORMAT = "tablebank-log/1"


def rebuild_game(document: Any, keep: Callable[[Game], None] | None = None) -> Game:
    """Play an exported log again into a new (unsaved) game; refuse it at its first bad seq.

    ``keep`` is called with the game after each transaction (to snapshot it on the way).
    """
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise LogInvalid(f"not a {EXPORT_FORMAT} document", seq=0)
    header, txns = document.get("game"), document.get("transactions")
    if not isinstance(header, dict) or not isinstance(txns, list):
        raise LogInvalid("the document needs a game header and a list of transactions", seq=0)
    try:
        name, players = str(header["name"]), list(header["players"])
        rs = parse_ruleset(header["ruleset"])
        options = check_options(rs, header["options"])
        if options != header["options"] or not all(isinstance(p, str) for p in players):
            raise ValueError("options or players")
        game = Game(
            name=name,
            ruleset=header["ruleset"],
            options=options,
            players=players,
            created_at=str(header["created"]),
        )
    except (LedgerError, KeyError, TypeError, ValueError) as err:
        raise LogInvalid(f"the game header is invalid: {err}", seq=0) from None
    # The state after every HISTORY_INTERVAL-th transaction, so that a void's check starts
    # from the nearest one: an import stays linear in the length of its log, voids included.
    states: dict[int, State] = {0: copy_state(game.state)}

    def history(seq: int) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
        start = (seq - 1) // HISTORY_INTERVAL * HISTORY_INTERVAL
        state = copy_state(states[start])
        for txn in txns[start : seq - 1]:
            apply_transaction(state, txn)
        return txns[seq - 1], state, txns[seq : game.last_seq]

    expected = setup_types(game.ruleset, len(players))
    if len(txns) < len(expected):
        raise LogInvalid("the log ends before the game's set-up does", seq=len(txns) + 1)
    for seq, txn in enumerate(txns, start=1):
        _replay_imported(game, seq, txn, expected, history)
        if seq % HISTORY_INTERVAL == 0:
            states[seq] = copy_state(game.state)
        if keep is not None:
            keep(game)
    if document.get("head") not in (None, game.state["head"]):
        raise LogInvalid("the log does not end at its head", seq=len(txns) + 1)
    return game


def _replay_imported(game: Game, seq: int, txn: Any, setup: list[str], history: History) -> None:
    """Record one transaction of the log again, and refuse it unless it comes out the same."""
    if not isinstance(txn, dict) or txn.get("seq") != seq:
        raise LogInvalid(f"transaction {seq} is missing or out of order", seq=seq)
    if chain_hash(game.state["head"], txn) != txn.get("hash"):
        raise LogInvalid(f"transaction {seq} does not match its hash", seq=seq)
    expected = setup[seq - 1] if seq <= len(setup) else None
    request = txn.get("request")
    if not isinstance(request, dict) or (
        txn.get("type") != expected and (expected or txn.get("type") in SETUP_TYPES)
    ):
        raise LogInvalid(f"transaction {seq} is not where set-up belongs", seq=seq)
    body = {**request, "type": txn["type"]}
    if txn.get("memo") is not None:
        body["memo"] = txn["memo"]
    try:
        again = game.record(body, by=str(txn.get("by")), at=str(txn.get("at")), history=history)
    except (LedgerError, KeyError, TypeError, ValueError, AttributeError) as err:
        detail = err.detail if isinstance(err, LedgerError) else repr(err)
        raise LogInvalid(f"transaction {seq} breaks the rules: {detail}", seq=seq) from None
    if again != {k: v for k, v in txn.items() if k != "voided_by"}:
        raise LogInvalid(f"transaction {seq} differs from what the rules give", seq=seq)


def verify_document(document: Any) -> dict[str, Any]:
    """Check an exported log offline: the chain and every transaction against the rules."""
    try:
        game = rebuild_game(document)
    except LogInvalid as err:
        return {"ok": False, "seq": err.extra["seq"], "detail": err.detail}
    return {"ok": True, "transactions": game.last_seq, "head": game.state["head"]}


def replay_document(document: Any) -> Iterator[dict[str, Any]]:
    """The replay steps of an exported log, after checking it whole (``LogInvalid``)."""
    game = rebuild_game(document)
    initial = Game(
        name=game.name,
        ruleset=game.ruleset_doc,
        options=game.options,
        players=[p["name"] for p in game.state["players"].values()],
        created_at=game.created_at,
    )
    return audit.replay_steps(game.ruleset, initial.state, document["transactions"])
