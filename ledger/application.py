"""``TableBank``: the application service, composed of one part per job, each handed the few
others it needs, here and nowhere else (as cosmicpython's ``bootstrap`` composes its bus):

- ``ledger.storage``: the event-sourced store under every part, with its settings (the
  aggregate cache, snapshots), and the games it hands out;
- ``ledger.reading``: a game now or at any seq, its records, statements, replay, the chain
  check, the live feed;
- ``ledger.access``: the tokens, kept as hashes, and what each may do (the part ``tokens``);
- ``ledger.writing``: recording a transaction once per Idempotency-Key, with retries, its
  group commit and its per-game locks, and the dry run;
- ``ledger.setup``: creating a game (rule set, options, deal, set-up transactions, tokens)
  and the list of games;
- ``ledger.exchange``: export and import of a game's log, and its offline checks;
- ``ledger.purge``: a finished game removed from the store whole, and what the caches of a
  process learn of it (the part ``purging``).

How a game, a transaction and a rule set are shown (``ledger.views``) is functions the parts
call, not a part.

Each method of ``TableBank`` is the method of the part whose job it is (``PartMethod``): the bank
keeps no state and no logic of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from eventsourcing.application import EventSourcedLog
from eventsourcing.utils import register_topic

from ledger.access import Access, Tokens
from ledger.exchange import Exchange
from ledger.purge import PURGED_LOG_ID, GamePurged, PurgedGames, Purging
from ledger.reading import Reading
from ledger.setup import GAMES_LOG_ID, STATUS_LOG_ID, GameListed, GameStatusLogged, SetUp
from ledger.storage import Storage
from ledger.store import settle_schema
from ledger.writing import IdempotentWrite, Writing

__all__ = ["TableBank"]

# Stores written before the application was split name these classes by this module.
for _name, _cls in (
    ("Access", Access),
    ("Access.Issued", Access.Issued),  # type: ignore[attr-defined]  # made by @event
    ("IdempotentWrite", IdempotentWrite),
    ("IdempotentWrite.Recorded", IdempotentWrite.Recorded),  # type: ignore[attr-defined]
    ("GameListed", GameListed),
    ("GameStatusLogged", GameStatusLogged),
):
    register_topic(f"ledger.application:{_name}", _cls)

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class PartMethod(Generic[T, P, R]):
    """A method of ``TableBank`` that is ``method`` of one of its parts, the bank's attribute
    ``part``: the bank's ``method`` is that part's bound method, its signature and docstring."""

    def __init__(self, part: str, method: Callable[Concatenate[T, P], R]) -> None:
        self.part = part
        self.method = method
        self.name = method.__name__

    @overload
    def __get__(self, bank: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(self, bank: TableBank, owner: type[Any]) -> Callable[P, R]: ...
    def __get__(self, bank: TableBank | None, owner: type[Any]) -> Self | Callable[P, R]:
        if bank is None:
            return self
        method: Callable[P, R] = getattr(getattr(bank, self.part), self.name)
        return method


class TableBank:
    """The bank of every table this server holds."""

    def __init__(
        self,
        env: dict[str, str] | None = None,
        gather: Callable[[], None] | None = None,
        committed: Callable[[int], None] | None = None,
    ) -> None:
        """``env``: the store (``ledger.store.persistence_env``); ``gather``: what a group
        commit's leader waits for before it commits (and an import's save between two of its
        store transactions, ``SetUp.save_new_game``), ``committed``: what it tells the size of
        each commit (``ledger.commit``), none by default."""
        self.storage = Storage(env)
        # The store's layout, as this release reads it (an older one upgraded once; a newer
        # one refused: NewerStore).
        try:
            self.schema_found, self.schema = settle_schema(self.storage.recorder)
        except BaseException:
            self.storage.close()
            raise
        events = self.storage.events
        games_log = EventSourcedLog(events, GAMES_LOG_ID, GameListed)
        status_log = EventSourcedLog(events, STATUS_LOG_ID, GameStatusLogged)
        purged_log = EventSourcedLog(events, PURGED_LOG_ID, GamePurged)
        self.purged = PurgedGames(purged_log)
        self.reading = Reading(self.storage)
        self.tokens = Tokens(self.storage, self.purged.holds)
        self.writing = Writing(self.storage, self.reading, status_log, gather, committed)
        self.setup = SetUp(self.storage, self.tokens, games_log, status_log, gather)
        self.exchange = Exchange(self.storage, self.reading, self.setup)
        self.purging = Purging(self.storage, self.setup, purged_log)

    # -- reading ------------------------------------------------------------------------------
    rulesets = PartMethod("reading", Reading.rulesets)
    ruleset = PartMethod("reading", Reading.ruleset)
    parameters = PartMethod("reading", Reading.parameters)
    game = PartMethod("reading", Reading.game)
    game_ruleset = PartMethod("reading", Reading.game_ruleset)
    moves = PartMethod("reading", Reading.moves)
    version = PartMethod("reading", Reading.version)
    last_seq = PartMethod("reading", Reading.last_seq)
    follow = PartMethod("reading", Reading.follow)
    transactions = PartMethod("reading", Reading.transactions)
    transactions_job = PartMethod("reading", Reading.transactions_job)
    transaction = PartMethod("reading", Reading.transaction)
    liquidation = PartMethod("reading", Reading.liquidation)
    statement = PartMethod("reading", Reading.statement)
    statement_job = PartMethod("reading", Reading.statement_job)
    replay = PartMethod("reading", Reading.replay)
    replay_job = PartMethod("reading", Reading.replay_job)
    fairplay = PartMethod("reading", Reading.fairplay)
    fairplay_job = PartMethod("reading", Reading.fairplay_job)
    stats = PartMethod("reading", Reading.stats)
    stats_job = PartMethod("reading", Reading.stats_job)
    verify = PartMethod("reading", Reading.verify)
    verify_job = PartMethod("reading", Reading.verify_job)
    # -- the store ----------------------------------------------------------------------------
    store_answers = PartMethod("storage", Storage.answers)
    # -- access -------------------------------------------------------------------------------
    authenticate = PartMethod("tokens", Tokens.authenticate)
    token_watch = PartMethod("tokens", Tokens.watch)
    replace_token = PartMethod("tokens", Tokens.replace_token)
    # -- writing ------------------------------------------------------------------------------
    record = PartMethod("writing", Writing.record)
    record_request = PartMethod("writing", Writing.record_request)
    # -- set-up -------------------------------------------------------------------------------
    create_game = PartMethod("setup", SetUp.create_game)
    list_games = PartMethod("setup", SetUp.list_games)
    listed_games = PartMethod("setup", SetUp.listed_games)
    # -- exchange -----------------------------------------------------------------------------
    export = PartMethod("exchange", Exchange.export)
    export_job = PartMethod("exchange", Exchange.export_job)
    import_game = PartMethod("exchange", Exchange.import_game)
    rebuild_import = PartMethod("exchange", Exchange.rebuild_import)
    save_import = PartMethod("exchange", Exchange.save_import)
    # -- purge --------------------------------------------------------------------------------
    purgeable = PartMethod("purging", Purging.purgeable)
    purge = PartMethod("purging", Purging.purge)
    unfinished_imports = PartMethod("purging", Purging.unfinished_imports)
    remove_unfinished = PartMethod("purging", Purging.remove_unfinished)

    def close(self) -> None:
        """Stop following the store, then close it."""
        self.reading.close()
        self.storage.close()

    def __enter__(self) -> Self:
        self.storage.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        self.reading.close()
        self.storage.__exit__(exc_type, exc_val, exc_tb)
