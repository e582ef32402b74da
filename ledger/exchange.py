"""Export and import: a game's whole log as one JSON document, and a new game rebuilt from
one, every transaction checked again against the rules and the hash chain; the same checks
offline (``verify_document``, ``replay_document``) for the command line.

An import obeys the limits creation obeys (API.md, "Server limits"): here, the players' count
for the rule set and the size of the rule set's document (``InvalidField`` on ``game.players``
or ``game.ruleset``), and who recorded each transaction (``by``: the banker, or a player only
where the type's ``PlayerRight`` lets that player record it; ``log_invalid`` with ``seq`` and
``field``). The shape of the header and of each transaction (names, times, requests) is the
schemas' to check, before the ledger sees it.

An import is CPU work first (``rebuild_import``: every transaction recorded again), then one
save (``save_import``); ``import_game`` does both. The API runs the first off its event loop.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from ledger import audit
from ledger.chain import canonical, chain_hash
from ledger.draft import History
from ledger.errors import Forbidden, InvalidField, LedgerError, LogInvalid
from ledger.game import Game, now_rfc3339
from ledger.reading import Job, Reading, gc_paused
from ledger.ruleset import parse_ruleset
from ledger.setup import Encoded, SetUp, check_options, check_player_count, setup_types
from ledger.state import State, apply_transaction, copy_state
from ledger.storage import SNAPSHOT_INTERVAL, Storage
from ledger.transactions import SETUP_TYPES
from ledger.transactions.declare import ADMIN, Records
from ledger.writing import check_may_record

# An import keeps a copy of the state every this many transactions, so that a void's check
# replays from the nearest one instead of from the first transaction.
HISTORY_INTERVAL = 100
# The largest rule-set document an import may carry, in characters of its canonical JSON: a
# rule set created here is at most a 64 KiB body merged into a built-in one (under 9,000), and
# the parsed rule sets a process keeps are counted by this measure (``ledger.game``).
MAX_RULESET_DOCUMENT = 256 * 1024


@dataclass
class RebuiltGame:
    """An imported log played again into a new game, not saved yet: the game, and its events
    and the snapshots taken of it on the way, encoded for the store."""

    game: Game
    encoded: Encoded


class Exchange:
    """Export and import of a game's log."""

    def __init__(self, storage: Storage, reading: Reading, setup: SetUp) -> None:
        self._storage = storage
        self._reading = reading
        self._setup = setup

    def export(self, game_id: UUID | str) -> dict[str, Any]:
        """The whole log: header, rule set, options, players, transactions with hashes."""
        return self.export_job(game_id)()

    def export_job(self, game_id: UUID | str) -> Job:
        """``export``: the store read now, the rest (touching no store) by the job returned."""
        game = self._storage.load_game(game_id)
        header = {
            "name": game.name,
            "ruleset": game.ruleset_doc,
            "options": game.options,
            "players": game.header_players,
            "created": game.created_at,
        }
        head = game.state["head"]
        return partial(export_of, header, self._reading.transactions_job(game.id), head)

    def import_game(self, document: dict[str, Any]) -> dict[str, Any]:
        """A new game from an exported log, every transaction checked again; new tokens."""
        return self.save_import(self.rebuild_import(document))

    def rebuild_import(self, document: dict[str, Any]) -> RebuiltGame:
        """An exported log played again, every transaction checked: the CPU work of an
        import, touching no store (so that it may run on another thread).

        A long log is snapshotted every ``SNAPSHOT_INTERVAL`` transactions, as a game played
        here is, so that its first load and a look at it as it stood at any seq read at most
        that many events. The snapshots are taken of the game in hand as it is rebuilt (a
        copy of its state each time): snapshotting it from the store after the save read
        every event of the log again.
        """
        snapshots: list[Any] = []
        snapshotting = self._storage.snapshots is not None
        events: list[StoredEvent] = []
        encode = self._storage.mapper.to_stored_event

        def keep(game: Game) -> None:
            # Each transaction's events encoded as they come and let go: all of them kept until
            # the end were the largest part of an import's memory (a third of its peak).
            events.extend(encode(event) for event in game.collect_events())
            if snapshotting and game.version % SNAPSHOT_INTERVAL == 0:
                snapshots.append(Game.Snapshot.take(copy.deepcopy(game)))

        # Thousands of events and records are made, all kept: the collector would walk them
        # again and again as they grow (``gc_paused``).
        with gc_paused():
            game = rebuild_game(document, keep)
            if snapshots and game.version % SNAPSHOT_INTERVAL:  # and the head, for the first load
                snapshots.append(Game.Snapshot.take(copy.deepcopy(game)))
            # Encoding thousands of events is CPU work too, done here rather than in the save.
            events.extend(encode(event) for event in game.collect_events())
            stored_snapshots = (
                [self._storage.snapshots.mapper.to_stored_event(each) for each in snapshots]
                if self._storage.snapshots is not None
                else []
            )
        return RebuiltGame(game, Encoded(events, stored_snapshots))

    def save_import(self, rebuilt: RebuiltGame) -> dict[str, Any]:
        """Save a rebuilt log as a new game with new tokens (shown once)."""
        return self._setup.save_new_game(rebuilt.game, now_rfc3339(), rebuilt.encoded)


EXPORT_FORMAT = "tablebank-log/1"


def export_of(
    header: dict[str, Any], transactions: Callable[[], Iterable[dict[str, Any]]], head: str
) -> dict[str, Any]:
    """A game's exported log from its header, its transactions' job and its head (``export``'s
    job: touches no store)."""
    return {
        "format": EXPORT_FORMAT,
        "game": header,
        "transactions": list(transactions()),
        "head": head,
    }


def rebuild_game(document: Any, keep: Callable[[Game], None] | None = None) -> Game:
    """Play an exported log again into a new (unsaved) game; refuse it at its first bad seq.

    ``keep`` is called with the game after each transaction (to snapshot it on the way).
    """
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise LogInvalid(f"not a {EXPORT_FORMAT} document", seq=0)
    header, txns = document.get("game"), document.get("transactions")
    if not isinstance(header, dict) or not isinstance(txns, list):
        raise LogInvalid("the document needs a game header and a list of transactions", seq=0)
    game = _header_game(header)
    # The state after every HISTORY_INTERVAL-th transaction, so that a void's check starts
    # from the nearest one: an import stays linear in the length of its log, voids included.
    states: dict[int, State] = {0: copy_state(game.state)}

    def history(seq: int) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
        start = (seq - 1) // HISTORY_INTERVAL * HISTORY_INTERVAL
        state = copy_state(states[start], share_lazy=True)  # the voids so far: not copied
        for txn in txns[start : seq - 1]:
            apply_transaction(state, txn)
        return txns[seq - 1], state, txns[seq : game.last_seq]

    def records(seq: int) -> dict[str, Any] | None:
        """A transaction of the log before the one being checked, by its seq."""
        return txns[seq - 1] if 1 <= seq <= game.last_seq else None

    expected = setup_types(game.ruleset, len(game.state["players"]))
    if len(txns) < len(expected):
        raise LogInvalid("the log ends before the game's set-up does", seq=len(txns) + 1)
    for seq, txn in enumerate(txns, start=1):
        _replay_imported(game, seq, txn, expected, history, records)
        if seq % HISTORY_INTERVAL == 0:
            states[seq] = copy_state(game.state)
        if keep is not None:
            keep(game)
    if document.get("head") not in (None, game.state["head"]):
        raise LogInvalid("the log does not end at its head", seq=len(txns) + 1)
    return game


def _header_game(header: dict[str, Any]) -> Game:
    """The new game an exported header describes, held to creation's limits on the rule set's
    size and the players' count (``InvalidField``); anything else wrong is ``log_invalid``."""
    try:
        name, players, document = str(header["name"]), list(header["players"]), header["ruleset"]
        too_long = len(canonical(document)) > MAX_RULESET_DOCUMENT
        rs = None if too_long else parse_ruleset(document)
    except (LedgerError, KeyError, TypeError, ValueError) as err:
        raise LogInvalid(f"the game header is invalid: {err}", seq=0) from None
    if rs is None:
        limit = f"a rule set's document is at most {MAX_RULESET_DOCUMENT} characters of JSON"
        raise InvalidField("game.ruleset", limit)
    check_player_count(rs, len(players), "game.players")
    try:
        options = check_options(rs, header["options"])
        if options != header["options"] or not all(isinstance(p, str) for p in players):
            raise ValueError("options or players")
        return Game(
            name=name,
            ruleset=document,
            options=options,
            players=players,
            created_at=str(header["created"]),
        )
    except (LedgerError, KeyError, TypeError, ValueError) as err:
        raise LogInvalid(f"the game header is invalid: {err}", seq=0) from None


def _replay_imported(
    game: Game, seq: int, txn: Any, setup: list[str], history: History, records: Records
) -> None:
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
    by = str(txn.get("by"))
    _check_recorded_by(game, seq, body, by, expected is not None, records)
    try:
        again = game.record(body, by=by, at=str(txn.get("at")), history=history)
    except (LedgerError, KeyError, TypeError, ValueError, AttributeError) as err:
        detail = err.detail if isinstance(err, LedgerError) else repr(err)
        raise LogInvalid(f"transaction {seq} breaks the rules: {detail}", seq=seq) from None
    if again != {k: v for k, v in txn.items() if k != "voided_by"}:
        raise LogInvalid(f"transaction {seq} differs from what the rules give", seq=seq)


def _check_recorded_by(
    game: Game, seq: int, body: dict[str, Any], by: str, setup: bool, records: Records
) -> None:
    """Refuse a transaction recorded by someone who could not have recorded it here: set-up
    by anyone but the banker (the ledger records it for the banker), anything by someone who is
    neither the banker nor a player of the game, or by a player beyond the type's right."""
    if by == "banker":
        return
    if setup:
        why = f"it is set-up, which only the banker records, not {by!r}"
    elif by not in game.state["players"] and by != ADMIN:
        why = f"{by!r} recorded it, who is neither the banker nor a player of this game"
    else:
        try:
            check_may_record(body, by, records)
        except Forbidden as refused:
            why = f"{by} recorded it, who may not: {refused.detail}"
        else:
            return
    raise LogInvalid(f"transaction {seq} cannot be as recorded: {why}", seq=seq, field="by")


def verify_document(document: Any) -> dict[str, Any]:
    """Check an exported log offline: the chain and every transaction against the rules."""
    try:
        game = rebuild_game(document)
    except LogInvalid as err:
        return {"ok": False, "seq": err.extra["seq"], "detail": err.detail}
    except InvalidField as err:  # the header breaks a limit of creation
        return {"ok": False, "seq": 0, "detail": err.detail}
    return {"ok": True, "transactions": game.last_seq, "head": game.state["head"]}


def replay_document(document: Any) -> Iterator[dict[str, Any]]:
    """The replay steps of an exported log, after checking it whole (``LogInvalid``)."""
    game = rebuild_game(document)
    initial = Game(
        name=game.name,
        ruleset=game.ruleset_doc,
        options=game.options,
        players=game.header_players,
        created_at=game.created_at,
    )
    return audit.replay_steps(game.ruleset, initial.state, document["transactions"])
