"""Reading what the store holds: a game now or at any seq, its rule set, its transaction
records (read as plain JSON), statements, replay, the chain check, the fair-play flags, the
statistics, and the live feed of new transactions for the event stream. The writing and
exchange parts of ``TableBank`` read a game's records through it.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property, partial
from typing import Any, NamedTuple
from uuid import UUID

from ledger import audit, rules
from ledger.errors import NotFound
from ledger.fairplay import fairplay_flags
from ledger.game import Game
from ledger.live import Feed, Follower, Watch
from ledger.moves import NOT_VOIDABLE, moves_of
from ledger.parameters import CLASSIC
from ledger.ruleset import BUILT_IN, RuleSet, built_in
from ledger.state import State
from ledger.stats import game_stats
from ledger.storage import Storage
from ledger.store import select_states
from ledger.transactions import TransactionRecorded
from ledger.views import (
    game_view,
    game_view_version,
    parameters_view,
    ruleset_view,
    transaction_view,
    version_after,
)

# Decodes stored events when a game's transaction records are read (``Reading.records``).
_RECORD_DECODER = json.JSONDecoder()
# What a read of a whole log leaves to do once the store has been read: touches no store.
Job = Callable[[], dict[str, Any]]
# Stored events decoded in one call (``decode_states``) for a reader that keeps them all
# (replay): many, so that the call is paid once for all of them.
DECODE_CHUNK = 500


def decode_states(states: Sequence[bytes]) -> list[dict[str, Any]]:
    """The stored events' states (the library's JSON text of each), decoded: one JSON array
    of them all, parsed in one call.

    The library wrote each text: one JSON object and nothing around it, so the array of them
    joined by commas holds the same values, and the decoder's checks for whitespace and
    trailing text are skipped (``raw_decode``). Its reader (replay) holds ``gc_paused`` around
    it: decoding creates thousands of dicts and lists, none of them garbage, and the
    collections they would set off (each walking every object of the process, the records
    decoded so far too) cost more than the decoding.
    """
    text = (b"[" + b",".join(states) + b"]").decode("utf-8")
    decoded: list[dict[str, Any]] = _RECORD_DECODER.raw_decode(text)[0]
    return decoded


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused, while building many objects that all stay alive.

    Only the collector of reference cycles: memory is freed as always. If it was off already
    (another thread's pause, or the process's choice), it is left as it is.
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Stored(NamedTuple):
    """A game's records as read from the store: their stored states (JSON text), or the
    records themselves (``records``: a store whose events were read as objects)."""

    items: list[Any]
    records: bool


def decoded(stored: Stored, *, kept: bool = False) -> Iterator[dict[str, Any]]:
    """The records of ``stored``, in order; touches no store.

    ``kept``: the reader keeps every record (replay), so they are decoded many at once
    (``decode_states``); else one at a time, each let go before the next is decoded (a batch
    held decoded only gives the collector more to walk).
    """
    if stored.records:
        yield from stored.items
        return
    states = stored.items
    if kept:
        for start in range(0, len(states), DECODE_CHUNK):
            for event in decode_states(states[start : start + DECODE_CHUNK]):
                txn = event.get("txn")
                if txn is not None:
                    yield txn
        return
    for state in states:
        # The library wrote this text: one JSON object and nothing around it, so the decoder's
        # checks for whitespace and trailing text (a third of json.loads's time on a record)
        # are skipped.
        txn = _RECORD_DECODER.raw_decode(state.decode("utf-8"))[0].get("txn")
        if txn is not None:
            yield txn


class Reading:
    """The read side of the bank: games, their rule sets and records, the audits, the feed."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        # Whether records are read as plain JSON (``stored_records``): the store's choice.
        self.plain_json = storage.plain_json

    # -- rule sets ------------------------------------------------------------------------
    def rulesets(self) -> list[dict[str, Any]]:
        """Every built-in rule set, whole."""
        return [self.ruleset(name) for name in BUILT_IN]

    def ruleset(self, name: str) -> dict[str, Any]:
        """One built-in rule set's document, with deed slugs."""
        rs = built_in(name)
        if rs is None:
            raise NotFound(f"no rule set {name!r}")
        return ruleset_view(rs)

    def parameters(self) -> list[dict[str, Any]]:
        """Every parameter a rule set may give, as the ledger checks them (``PARAMETERS``)."""
        classic = built_in(CLASSIC)
        assert classic is not None
        return parameters_view(classic)

    def game(self, game_id: UUID | str, seq: int | None = None) -> dict[str, Any]:
        """The game's state now, or as it stood right after transaction ``seq``."""
        if seq is None:
            return game_view(self._storage.load_game(game_id))
        latest = self._storage.load_game(game_id)
        if not 0 <= seq <= latest.last_seq:
            raise NotFound(f"no transaction {seq}; the last is {latest.last_seq}")
        return game_view(self._storage.load_game(game_id, version=seq + Game.INITIAL_VERSION))

    def game_ruleset(self, game_id: UUID | str) -> dict[str, Any]:
        """The rule set a game was created with, built in or its own, as ``ruleset`` shows one."""
        return ruleset_view(self._storage.load_game(game_id).ruleset)

    def moves(self, game_id: UUID | str, by: str = "banker") -> dict[str, Any]:
        """The moves ``by`` ("banker" or a player id) may record in the game now, and the
        types whose transactions are never voided."""
        game = self._storage.load_game(game_id)
        return {
            "moves": moves_of(game.ruleset, game.options, game.state, by),
            "not_voidable": list(NOT_VOIDABLE),
        }

    def version(self, game_id: UUID | str, seq: int | None = None) -> str:
        """The game's version (its ETag) now, or right after transaction ``seq``; refuses a
        game this server does not hold, or a seq it does not have."""
        game = self._storage.load_game(game_id)
        if seq is None or seq == game.last_seq:
            return game_view_version(game)
        if not 0 <= seq <= game.last_seq:
            raise NotFound(f"no transaction {seq}; the last is {game.last_seq}")
        if seq == 0:
            return version_after(
                self._storage.load_game(game.id, version=Game.INITIAL_VERSION).state["head"]
            )
        (txn,) = self.records(game.id, after=seq - 1, limit=1)
        return version_after(txn["hash"])

    def last_seq(self, game_id: UUID | str) -> int:
        """The seq of the game's last transaction."""
        return self._storage.load_game(game_id).last_seq

    # -- live -----------------------------------------------------------------------------
    @cached_property
    def feed(self) -> Feed:
        """This process's watcher of the store, for readers following games."""
        return Feed(self._storage.recorder, self.records, self.last_seq)

    def follow(
        self, game_id: UUID | str, after: int | None = None, watch: Watch | None = None
    ) -> Follower:
        """A reader of the game's transactions after seq ``after`` (default: from now on). A
        seq beyond the game's last is taken as its last: every later transaction reaches the
        reader (API.md, v1.2, "Event streams are bounded"). With a ``watch`` (``Tokens.watch``),
        the reader is closed once its token is replaced."""
        game = self._storage.load_game(game_id)
        last = game.last_seq
        return self.feed.follow(game.id, last if after is None else min(after, last), watch)

    def close(self) -> None:
        """Stop the feed's watcher, if it was started."""
        if "feed" in self.__dict__:
            self.feed.close()

    def records(
        self, game_id: UUID, after: int = 0, limit: int | None = None, *, kept: bool = False
    ) -> Iterator[dict[str, Any]]:
        """The transaction records of a game after seq ``after``, in order (at most ``limit``):
        ``stored_records`` read from the store and decoded (``decoded``)."""
        return decoded(self.stored_records(game_id, after, limit), kept=kept)

    def stored_records(self, game_id: UUID, after: int = 0, limit: int | None = None) -> Stored:
        """The transaction records of a game after seq ``after`` (at most ``limit``) as the store
        holds them, read now; ``decoded`` turns them into records, on any thread (a job of
        ``Heavy`` reads the store in the caller's thread and decodes on another).

        Read from the recorder (its stored states only: ``select_states``), to be decoded as
        plain JSON: a record is plain JSON data, and building an event object around each one
        (its class, id and timestamp, through the transcoder's hook for every dict) cost more
        than reading it; audit, replay and export read every transaction of a game.
        """
        if limit is not None and limit <= 0:
            # Nothing asked for (the statistics as of seq 0): eventsourcing's store in memory
            # would take a limit of 0 for none and answer every record.
            return Stored([], True)
        gt = after + Game.INITIAL_VERSION
        if not self.plain_json:
            events = self._storage.events.get(game_id, gt=gt, limit=limit)
            # The classes' own base: ``Game.TransactionRecorded`` is the aggregate's copy of
            # it, which no stored event is an instance of.
            return Stored([ev.txn for ev in events if isinstance(ev, TransactionRecorded)], True)
        states = select_states(self._storage.recorder, game_id, gt=gt, limit=limit)
        if states is None:  # a store without SQL of ours (in memory)
            states = [
                stored.state
                for stored in self._storage.recorder.select_events(game_id, gt=gt, limit=limit)
            ]
        return Stored(states, False)

    def transactions(
        self, game_id: UUID | str, after: int = 0, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every transaction of a game after seq ``after`` in order (at most ``limit``)."""
        return self.transactions_job(game_id, after, limit)()

    def transactions_job(
        self, game_id: UUID | str, after: int = 0, limit: int | None = None
    ) -> Callable[[], Iterator[dict[str, Any]]]:
        """``transactions``: the store read now, the records decoded by the job returned."""
        game = self._storage.load_game(game_id)
        voided = dict(game.state["voided"])  # the game in hand may take a write meanwhile
        # Those of this version only: a write that comes meanwhile is not half in.
        until = max(0, game.last_seq - after)
        stored = self.stored_records(game.id, after, until if limit is None else min(limit, until))
        return partial(transactions_of, stored, voided)

    def transaction(self, game_id: UUID | str, seq: int) -> dict[str, Any]:
        """One transaction by its seq."""
        game = self._storage.load_game(game_id)
        if 1 <= seq <= game.last_seq:
            for txn in self.records(game.id, after=seq - 1, limit=1):
                return transaction_view(txn, game.state["voided"])
        raise NotFound(f"no transaction {seq} in game {game_id}")

    def liquidation(self, game_id: UUID | str, player: str) -> dict[str, Any]:
        """What a player could raise by selling every building and mortgaging every deed."""
        game = self._storage.load_game(game_id)
        if player not in game.state["players"]:
            raise NotFound(f"no player {player!r}")
        return rules.liquidation(game.ruleset, game.state, player)

    # -- audit ------------------------------------------------------------------------------
    # Each read of a whole log comes in two parts: ``<read>_job`` reads the store now and
    # returns the rest, CPU work that touches no store and may run on any thread (the server
    # runs it off the event loop: ``api.heavy``); ``<read>`` does both.
    def statement(self, game_id: UUID | str, account: str) -> dict[str, Any]:
        """Every posting of one account, signed, with the running balance."""
        return self.statement_job(game_id, account)()

    def statement_job(self, game_id: UUID | str, account: str) -> Job:
        """``statement``: the store read now, the statement made by the job returned."""
        game = self._storage.load_game(game_id)
        if account not in game.state["balances"]:
            raise NotFound(f"no account {account!r}")
        stored = self.stored_records(game.id, 0, game.last_seq)  # this version's
        return partial(statement_of, account, stored)

    def replay(self, game_id: UUID | str) -> dict[str, Any]:
        """One step per transaction, with every balance and net worth after it."""
        return self.replay_job(game_id)()

    def replay_job(self, game_id: UUID | str) -> Job:
        """``replay``: the store read now, the steps replayed by the job returned."""
        game = self._storage.load_game(game_id)
        initial = self._storage.load_game(game.id, version=Game.INITIAL_VERSION)
        voided = dict(game.state["voided"])  # the game in hand may take a write meanwhile
        stored = self.stored_records(game.id, 0, game.last_seq)  # this version's
        return partial(replay_of, game.ruleset, initial.state, stored, voided)

    def fairplay(self, game_id: UUID | str) -> dict[str, Any]:
        """The transactions that look like asset dumping or propping up (seed 002), flagged
        for the table to judge."""
        return self.fairplay_job(game_id)()

    def fairplay_job(self, game_id: UUID | str) -> Job:
        """``fairplay``: the store read now, the flags found by the job returned."""
        game = self._storage.load_game(game_id)
        initial = self._storage.load_game(game.id, version=Game.INITIAL_VERSION)
        voided = dict(game.state["voided"])
        stored = self.stored_records(game.id, 0, game.last_seq)  # this version's
        return partial(fairplay_of, game.ruleset, initial.state, stored, voided)

    def stats(self, game_id: UUID | str, seq: int | None = None) -> dict[str, Any]:
        """The game's statistics over the transactions not voided, now or as of ``seq``."""
        return self.stats_job(game_id, seq)()

    def stats_job(self, game_id: UUID | str, seq: int | None = None) -> Job:
        """``stats``: the store read now, the figures counted by the job returned."""
        game = self._storage.load_game(game_id)
        last = game.last_seq if seq is None else seq
        if not 0 <= last <= game.last_seq:
            raise NotFound(f"no transaction {seq}; the last is {game.last_seq}")
        initial = self._storage.load_game(game.id, version=Game.INITIAL_VERSION)
        # The voids recorded by then: one recorded later had not yet reversed its target.
        voided = {s: by for s, by in game.state["voided"].items() if by <= last}
        stored = self.stored_records(game.id, 0, last)
        return partial(stats_of, game.ruleset, initial.state, stored, voided, last)

    def verify(self, game_id: UUID | str) -> dict[str, Any]:
        """Recompute the hash chain from the game's header to its head."""
        return self.verify_job(game_id)()

    def verify_job(self, game_id: UUID | str) -> Job:
        """``verify``: the store read now, the hash chain checked by the job returned."""
        game = self._storage.load_game(game_id)
        genesis = self._storage.load_game(game.id, version=Game.INITIAL_VERSION).state["head"]
        stored = self.stored_records(game.id, 0, game.last_seq)  # this version's
        return partial(verify_of, genesis, stored)


# The jobs of the reads above: functions of what was read from the store, touching no store, so
# that they may run on another thread or in another process (their arguments pickle).
def statement_of(account: str, stored: Stored) -> dict[str, Any]:
    """A statement of ``account`` from a game's records."""
    return audit.statement(account, decoded(stored))


def replay_of(
    rs: RuleSet, initial: State, stored: Stored, voided: dict[str, int]
) -> dict[str, Any]:
    """The replay of a game's records from its initial state."""
    with gc_paused():  # 10,000 steps of new dicts, all kept: the answer
        steps = list(audit.replay_steps(rs, initial, decoded(stored, kept=True)))
        for step in steps:  # each step is a new dict: shown with its void, if any
            step["transaction"] = transaction_view(step["transaction"], voided)
    return {"steps": steps}


def fairplay_of(
    rs: RuleSet, initial: State, stored: Stored, voided: dict[str, int]
) -> dict[str, Any]:
    """The fair-play flags of a game's records."""
    return {"flags": fairplay_flags(rs, initial, decoded(stored), voided)}


def stats_of(
    rs: RuleSet, initial: State, stored: Stored, voided: dict[str, int], seq: int
) -> dict[str, Any]:
    """The statistics of a game's records up to ``seq``."""
    return game_stats(rs, initial, decoded(stored), voided, seq)


def verify_of(genesis: str, stored: Stored) -> dict[str, Any]:
    """The hash chain of a game's records checked from its header's hash."""
    return audit.verify_chain(genesis, decoded(stored))


def transactions_of(stored: Stored, voided: dict[str, int]) -> Iterator[dict[str, Any]]:
    """A game's records as the API shows its transactions."""
    return (transaction_view(txn, voided) for txn in decoded(stored))
