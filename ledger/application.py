"""``TableBank``: the application service. Games, tokens, transactions and their views.

Every write loads one ``Game`` (from the cache, or a snapshot plus the events after it),
runs one command, and saves the one event it triggered. A conflict with a concurrent writer
is retried against the fresh state, so no update is lost; a retry that the rules now refuse
returns that refusal.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application, EventSourcedLog
from eventsourcing.domain import Aggregate, DomainEvent, event
from eventsourcing.persistence import IntegrityError, JSONTranscoder

from ledger import audit, rules
from ledger.chain import canonical, chain_hash, sha256
from ledger.transactions import PLAYER_FIELDS, RECORDABLE, SETUP_TYPES
from ledger.errors import (
    Forbidden,
    IdempotencyKeyReused,
    InvalidField,
    LedgerError,
    LogInvalid,
    NotFound,
    Unauthorized,
    VersionConflict,
)
from ledger.game import Game, now_rfc3339
from ledger.live import Feed, Follower
from ledger.ruleset import (
    BUILT_IN,
    MAX_MINUTES,
    RuleSet,
    RuleSetInvalid,
    built_in,
    parse_ruleset,
    resolve_extends,
)
from ledger.state import State, apply_transaction, copy_state

NAMESPACE = uuid5(NAMESPACE_URL, "https://tablebank.invalid/")
GAMES_LOG_ID = uuid5(NAMESPACE, "games")
STATUS_LOG_ID = uuid5(NAMESPACE, "game statuses")
WRITE_ATTEMPTS = 60
SNAPSHOT_INTERVAL = 100
# After a lost race with another process, wait a random moment (up to this many seconds per
# attempt so far) so that two writers do not keep colliding in step.
BACKOFF_SECONDS = 0.002

# Decodes stored events when a game's transaction records are read (``TableBank._records``).
_RECORD_DECODER = json.JSONDecoder()

# Which transaction types a player token may record, and the field naming its payer.


class Access(Aggregate):
    """What one token may do, found by the token's hash (the token itself is never kept)."""

    @staticmethod
    def create_id(token_hash: str) -> UUID:
        return uuid5(NAMESPACE, "token:" + token_hash)

    @event("Issued")
    def __init__(self, token_hash: str, game_id: UUID, role: str) -> None:
        self.game_id = game_id
        self.role = role


class IdempotentWrite(Aggregate):
    """The answer recorded under one Idempotency-Key of one game, saved with the transaction."""

    @staticmethod
    def create_id(game_id: UUID, key: str) -> UUID:
        return uuid5(NAMESPACE, f"idempotency:{game_id}:{key}")

    @event("Recorded")
    def __init__(self, game_id: UUID, key: str, body_digest: str, response: dict[str, Any]) -> None:
        self.body_digest = body_digest
        self.response = response


class GameListed(DomainEvent):
    """A line in the list of games this server holds."""

    game_id: UUID
    name: str
    ruleset: str
    created: str
    # Whether a change of this game's status is logged in the status log (every game listed
    # since that log exists); an older line lacks the field, and its game is read instead.
    statuses_logged: bool = False


class GameStatusLogged(DomainEvent):
    """A game's new status (``finished``), saved in the write of the transaction that set it,
    so that the list of games need not load every game to show its status."""

    game_id: UUID
    status: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TableBank(Application[UUID]):
    """The bank of every table this server holds."""

    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}  # noqa: RUF012 - the library's own class attribute
    env = {"AGGREGATE_CACHE_MAXSIZE": "1000"}  # noqa: RUF012

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.games_log: EventSourcedLog[GameListed] = EventSourcedLog(
            self.events, GAMES_LOG_ID, GameListed
        )
        self.status_log: EventSourcedLog[GameStatusLogged] = EventSourcedLog(
            self.events, STATUS_LOG_ID, GameStatusLogged
        )
        self._access_cache: dict[str, tuple[UUID, str]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        # Whether stored events are plain JSON text (the default): no cipher, no compressor,
        # the library's JSON transcoder. Then records are read without the mapper.
        self._plain_json = (
            self.mapper.cipher is None
            and self.mapper.compressor is None
            and type(self.mapper.transcoder) is JSONTranscoder
        )

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

    # -- games ----------------------------------------------------------------------------
    def create_game(
        self,
        name: str,
        ruleset: str,
        players: list[str],
        options: dict[str, Any] | None = None,
        dealt: dict[str, list[str]] | None = None,
        ruleset_document: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Seat the players, pay their starting cash, deal deeds where the rule set says so,
        and issue the tokens (shown once).

        ``ruleset`` names a built-in rule set, or the ``ruleset_document`` of the banker's
        own box (which may ``extend`` a built-in one with other names and figures).
        """
        rs = custom_ruleset(ruleset, ruleset_document) if ruleset_document else built_in(ruleset)
        if rs is None:
            raise InvalidField("ruleset", f"unknown rule set {ruleset!r}; try {list(BUILT_IN)}")
        if not rs.min_players <= len(players) <= rs.max_players:
            raise InvalidField(
                "players", f"{rs.name} is played by {rs.min_players} to {rs.max_players}"
            )
        game_options = check_options(rs, options or {})
        created = now_rfc3339()
        game = Game(
            name=name,
            ruleset=rs.document,
            options=game_options,
            players=list(players),
            created_at=created,
        )
        for pid in game.state["players"]:
            game.record({"type": "starting_cash", "player": pid}, by="banker", at=created)
        for pid, deeds in deal_deeds(rs, list(game.state["players"]), dealt).items():
            body = {"type": "deal", "player": pid, "properties": deeds}
            game.record(body, by="banker", at=created)
        if rs.params["pot_seed"]:
            game.record({"type": "pot_seed"}, by="banker", at=created)
        return self._save_new_game(game, created)

    def _save_new_game(
        self, game: Game, created: str, snapshots: list[Any] | None = None
    ) -> dict[str, Any]:
        """Save a new game with its tokens and its line in the list, in one write; then the
        ``snapshots`` taken of it on the way (an imported log), if any."""
        tokens = {"banker": secrets.token_urlsafe(32)}
        tokens.update({pid: secrets.token_urlsafe(32) for pid in game.state["players"]})
        grants = [Access(hash_token(t), game.id, role) for role, t in tokens.items()]
        self._save_retrying_log(game, grants, created)
        if snapshots and self.snapshots is not None:
            self.snapshots.put(snapshots)
        view = game_view(game)
        view["banker_token"] = tokens.pop("banker")
        view["tokens"] = tokens
        return view

    def _save_retrying_log(self, game: Game, grants: list[Access], created: str) -> None:
        # Take the events once: a failed save has already taken them off the aggregates, and
        # a retry must save the game and its tokens again, not just its line in the list.
        pending: list[Any] = list(game.collect_events())
        for grant in grants:
            pending += grant.collect_events()
        for _ in range(WRITE_ATTEMPTS):
            # At the next free positions of the logs (another game may have just taken one).
            logged: list[Any] = [
                self.games_log.trigger_event(
                    game_id=game.id,
                    name=game.name,
                    ruleset=game.ruleset.name,
                    created=created,
                    statuses_logged=True,
                )
            ]
            if game.state["status"] != "active":  # an imported game that had finished
                logged.append(
                    self.status_log.trigger_event(game_id=game.id, status=game.state["status"])
                )
            try:
                self.save(*pending, *logged)
                break
            except IntegrityError:
                continue
        else:  # pragma: no cover
            raise RuntimeError("could not list the new game")

    def list_games(self) -> list[dict[str, Any]]:
        """Every game this server holds: id, name, rule set, status, created."""
        logged = {e.game_id: e.status for e in self.status_log.get()}  # the last one wins
        out = []
        for listed in self.games_log.get():
            if getattr(listed, "statuses_logged", False):
                status = logged.get(listed.game_id, "active")
            else:  # listed before statuses were logged: read the game itself
                status = self._load(listed.game_id).state["status"]
            out.append(
                {
                    "id": str(listed.game_id),
                    "name": listed.name,
                    "ruleset": listed.ruleset,
                    "status": status,
                    "created": listed.created,
                }
            )
        return out

    def _load(self, game_id: UUID | str, version: int | None = None) -> Game:
        try:
            uid = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
            game: Any = self.repository.get(uid, version=version)
        except (ValueError, AggregateNotFoundError):
            raise NotFound(f"no game {game_id}") from None
        if not isinstance(game, Game):
            raise NotFound(f"no game {game_id}")
        return game

    def game(self, game_id: UUID | str, seq: int | None = None) -> dict[str, Any]:
        """The game's state now, or as it stood right after transaction ``seq``."""
        if seq is None:
            return game_view(self._load(game_id))
        latest = self._load(game_id)
        if not 0 <= seq <= latest.last_seq:
            raise NotFound(f"no transaction {seq}; the last is {latest.last_seq}")
        return game_view(self._load(game_id, version=seq + Game.INITIAL_VERSION))

    def game_ruleset(self, game_id: UUID | str) -> dict[str, Any]:
        """The rule set a game was created with, built in or its own, as ``ruleset`` shows one."""
        return ruleset_view(self._load(game_id).ruleset)

    def version(self, game_id: UUID | str) -> str:
        """The game's version (its ETag); refuses a game this server does not hold."""
        return game_view_version(self._load(game_id))

    # -- live -----------------------------------------------------------------------------
    @cached_property
    def feed(self) -> Feed:
        """This process's watcher of the store, for readers following games."""
        return Feed(self.recorder, self._records, lambda game_id: self._load(game_id).last_seq)

    def follow(self, game_id: UUID | str, after: int | None = None) -> Follower:
        """A reader of the game's transactions after seq ``after`` (default: from now on)."""
        game = self._load(game_id)
        return self.feed.follow(game.id, game.last_seq if after is None else after)

    def close(self) -> None:
        if "feed" in self.__dict__:
            self.feed.close()
        super().close()

    # -- tokens ---------------------------------------------------------------------------
    def authenticate(self, game_id: UUID | str, token: str | None) -> str:
        """The role a token has on a game: 'banker' or a player id."""
        if not token:
            raise Unauthorized("a bearer token is required")
        digest = hash_token(token)
        grant = self._access_cache.get(digest)
        if grant is None:
            try:
                access: Any = self.repository.get(Access.create_id(digest))
            except AggregateNotFoundError:
                raise Unauthorized("unknown token") from None
            assert isinstance(access, Access)
            grant = (access.game_id, access.role)
            self._access_cache[digest] = grant
        if str(grant[0]) != str(game_id).lower():
            raise Forbidden("this token belongs to another game")
        return grant[1]

    # -- transactions ---------------------------------------------------------------------
    def record(
        self, game_id: UUID | str, body: dict[str, Any], by: str = "banker"
    ) -> dict[str, Any]:
        """Record one transaction; return it as the API shows it."""
        return self.record_request(game_id, body, by)[0]

    def record_request(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str = "banker",
        *,
        key: str | None = None,
        if_match: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Record one transaction at most once per idempotency ``key``.

        Returns the transaction and whether it is the stored answer to an earlier request
        with the same key (then nothing new is recorded). ``if_match`` is the version the
        client last saw; a game that has moved on since refuses with ``version_conflict``.
        """
        check_request(body, by)
        body_digest = sha256(canonical(body))
        # Threads of this process take turns on one game; only other processes can race.
        with self._game_lock(game_id):
            return self._record_retrying(game_id, body, by, key, if_match, body_digest)

    def dry_run(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str = "banker",
        *,
        if_match: str | None = None,
    ) -> dict[str, Any]:
        """What ``record_request`` would record now, refused as it would be; records nothing.

        The same checks and the same ``Game.record`` as a real write, on a copy of the game
        the repository hands out: only the save is left out. ``at`` and ``hash`` are ``None``
        (the real write stamps its own time, and the hash covers it).
        """
        check_request(body, by)
        game = self._load(game_id)
        txn = self._draft(game, body, by, if_match)
        return {**transaction_view(txn), "at": None, "hash": None}

    def _draft(
        self, game: Game, body: dict[str, Any], by: str, if_match: str | None
    ) -> dict[str, Any]:
        """The checks of a write on the loaded ``game`` and its one new event, not yet saved."""
        if if_match is not None and if_match != game_view_version(game):
            raise VersionConflict(
                f"the game is at version {game_view_version(game)}, not {if_match}",
                current=game_view_version(game),
            )
        return game.record(body, by=by, history=self._history(game))

    def _game_lock(self, game_id: UUID | str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(str(game_id).lower(), threading.Lock())

    def _record_retrying(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str,
        key: str | None,
        if_match: str | None,
        body_digest: str,
    ) -> tuple[dict[str, Any], bool]:
        for attempt in range(WRITE_ATTEMPTS):
            if attempt:
                time.sleep(random.uniform(0, BACKOFF_SECONDS * attempt))
            game = self._load(game_id)
            if key is not None:
                earlier = self._idempotent_answer(game.id, key, body_digest)
                if earlier is not None:
                    return earlier, True
            status = game.state["status"]
            txn = self._draft(game, body, by, if_match)
            view = transaction_view(txn)
            saving: list[Any] = [game]
            if key is not None:
                saving.append(IdempotentWrite(game.id, key, body_digest, view))
            if game.state["status"] != status:  # in the same write, or not at all
                saving.append(
                    self.status_log.trigger_event(game_id=game.id, status=game.state["status"])
                )
            try:
                self.save(*saving)
            except IntegrityError:
                continue  # a concurrent writer won (maybe with this key); try on the fresh state
            return view, False
        raise LedgerError("busy", "the game is too busy; try again")  # pragma: no cover

    def _idempotent_answer(
        self, game_id: UUID, key: str, body_digest: str
    ) -> dict[str, Any] | None:
        try:
            earlier: Any = self.repository.get(IdempotentWrite.create_id(game_id, key))
        except AggregateNotFoundError:
            return None
        assert isinstance(earlier, IdempotentWrite)
        if earlier.body_digest != body_digest:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was used with another body", seq=earlier.response["seq"]
            )
        return dict(earlier.response)

    def _history(self, game: Game) -> audit.History:
        """Reads a live game's earlier transactions from the store (for voids)."""

        def history(seq: int) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
            before = self._load(game.id, version=seq)  # the game right after seq - 1
            txns = list(self._records(game.id, after=seq - 1))
            return txns[0], copy_state(before.state), txns[1:]

        return history

    def _records(self, game_id: UUID, after: int = 0) -> Iterator[dict[str, Any]]:
        """The transaction records of a game after seq ``after``, in order.

        Read from the recorder and decoded as plain JSON: a record is plain JSON data, and
        building an event object around each one (its class, id and timestamp, through the
        transcoder's hook for every dict) cost more than reading it; audit, replay and
        export read every transaction of a game.
        """
        if not self._plain_json:
            for ev in self.events.get(game_id, gt=after + Game.INITIAL_VERSION):
                if isinstance(ev, Game.TransactionRecorded):
                    yield ev.txn
            return
        for stored in self.recorder.select_events(game_id, gt=after + Game.INITIAL_VERSION):
            # The library wrote this text: one JSON object and nothing around it, so the
            # decoder's checks for whitespace and trailing text (a third of json.loads's time
            # on a record) are skipped.
            txn = _RECORD_DECODER.raw_decode(stored.state.decode("utf-8"))[0].get("txn")
            if txn is not None:
                yield txn

    def transactions(self, game_id: UUID | str) -> Iterator[dict[str, Any]]:
        """Every transaction of a game in order."""
        game = self._load(game_id)
        voided = game.state["voided"]
        for txn in self._records(game.id):
            yield transaction_view(txn, voided)

    def transaction(self, game_id: UUID | str, seq: int) -> dict[str, Any]:
        """One transaction by its seq."""
        game = self._load(game_id)
        if 1 <= seq <= game.last_seq:
            for txn in self._records(game.id, after=seq - 1):
                return transaction_view(txn, game.state["voided"])
        raise NotFound(f"no transaction {seq} in game {game_id}")

    def liquidation(self, game_id: UUID | str, player: str) -> dict[str, Any]:
        """What a player could raise by selling every building and mortgaging every deed."""
        game = self._load(game_id)
        if player not in game.state["players"]:
            raise NotFound(f"no player {player!r}")
        return rules.liquidation(game.ruleset, game.state, player)

    # -- audit ------------------------------------------------------------------------------
    def statement(self, game_id: UUID | str, account: str) -> dict[str, Any]:
        """Every posting of one account, signed, with the running balance."""
        game = self._load(game_id)
        if account not in game.state["balances"]:
            raise NotFound(f"no account {account!r}")
        return audit.statement(account, self._records(game.id))

    def replay(self, game_id: UUID | str) -> dict[str, Any]:
        """One step per transaction, with every balance and net worth after it."""
        game = self._load(game_id)
        initial = self._load(game.id, version=Game.INITIAL_VERSION)
        voided = game.state["voided"]
        steps = list(audit.replay_steps(game.ruleset, initial.state, self._records(game.id)))
        for step in steps:  # each step is a new dict: shown with its void, if any
            step["transaction"] = transaction_view(step["transaction"], voided)
        return {"steps": steps}

    def verify(self, game_id: UUID | str) -> dict[str, Any]:
        """Recompute the hash chain from the game's header to its head."""
        game = self._load(game_id)
        initial = self._load(game.id, version=Game.INITIAL_VERSION)
        return audit.verify_chain(initial.state["head"], self._records(game.id))

    # -- export and import -------------------------------------------------------------------
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


def custom_ruleset(name: str, document: dict[str, Any]) -> RuleSet:
    """A banker's own rule set, validated whole; its name must not hide a built-in one."""
    if name in BUILT_IN:
        raise InvalidField("ruleset", f"{name!r} is built in: give your own rule set a new name")
    if not isinstance(document, dict) or document.get("name") != name:
        raise InvalidField("ruleset_document", f"the document's name must be {name!r}")
    try:
        return parse_ruleset(resolve_extends(document))
    except RuleSetInvalid as err:
        raise InvalidField("ruleset_document", err.problems) from None


def deal_deeds(
    rs: RuleSet, players: list[str], dealt: dict[str, list[str]] | None
) -> dict[str, list[str]]:
    """The deeds each player is dealt at set-up: as the banker dealt them, or at random."""
    per_player = int(rs.params["deal_deeds"])
    if not per_player:
        if dealt:
            raise InvalidField("dealt", f"the {rs.name} rule set deals no deeds")
        return {}
    if dealt is None:
        deck = list(rs.deeds)
        secrets.SystemRandom().shuffle(deck)
        return {p: deck[i * per_player : (i + 1) * per_player] for i, p in enumerate(players)}
    if set(dealt) != set(players):
        raise InvalidField("dealt", f"deal to every player: {', '.join(players)}")
    seen: set[str] = set()
    for pid, deeds in dealt.items():
        if len(deeds) != per_player:
            raise InvalidField(f"dealt.{pid}", f"{per_player} deeds each")
        for slug in deeds:
            if slug not in rs.deeds:
                raise InvalidField(f"dealt.{pid}", f"no property {slug!r}")
            if slug in seen:
                raise InvalidField(f"dealt.{pid}", f"{slug} is dealt twice")
            seen.add(slug)
    return {p: list(dealt[p]) for p in players}


def check_request(body: Any, by: str) -> None:
    """A transaction body of a type one may record after set-up, by someone who may."""
    kind = body.get("type") if isinstance(body, dict) else None
    if not isinstance(kind, str) or kind not in RECORDABLE:
        raise InvalidField("type", f"unknown transaction type {kind!r}")
    check_may_record(body, by)


def check_may_record(body: dict[str, Any], by: str) -> None:
    """A player token records only payments out of its own account."""
    if by == "banker":
        return
    field = PLAYER_FIELDS.get(str(body.get("type")))
    if field is None or body.get(field) != by:
        raise Forbidden(f"a player may record only a payment or rent out of his own account ({by})")


def check_options(rs: RuleSet, options: dict[str, Any]) -> dict[str, Any]:
    """The game's options: the rule set's defaults with the banker's choices on top."""
    merged = rs.option_defaults()
    for name, value in options.items():
        spec = rs.options.get(name)
        if spec is None:
            raise InvalidField(f"options.{name}", f"{rs.name} has no option {name!r}")
        kind = spec["type"]
        ok = (
            (kind == "boolean" and isinstance(value, bool))
            or (kind == "choice" and value in spec["choices"])
            or (
                kind == "amount"
                and isinstance(value, int)
                and not isinstance(value, bool)
                and value >= 0
            )
            or (
                kind == "minutes"
                and isinstance(value, int)
                and not isinstance(value, bool)
                and 1 <= value <= MAX_MINUTES
            )
        )
        if not ok:
            raise InvalidField(f"options.{name}", f"not a valid {kind}: {value!r}")
        if name in UNSUPPORTED_OPTIONS and value != spec["default"]:
            raise InvalidField(
                f"options.{name}", "this house rule is not supported yet by this server"
            )
        merged[name] = value
    return merged


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
    initial = copy_state(game.state)

    def history(seq: int) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
        state = copy_state(initial)
        for txn in txns[: seq - 1]:
            apply_transaction(state, txn)
        return txns[seq - 1], state, txns[seq : game.last_seq]

    params = game.ruleset.params
    setup = len(players) * (2 if params["deal_deeds"] else 1) + (1 if params["pot_seed"] else 0)
    if len(txns) < setup:
        raise LogInvalid("the log ends before the game's set-up does", seq=len(txns) + 1)
    for seq, txn in enumerate(txns, start=1):
        _replay_imported(game, seq, txn, setup, history)
        if keep is not None:
            keep(game)
    if document.get("head") not in (None, game.state["head"]):
        raise LogInvalid("the log does not end at its head", seq=len(txns) + 1)
    return game


def _replay_imported(game: Game, seq: int, txn: Any, setup: int, history: audit.History) -> None:
    if not isinstance(txn, dict) or txn.get("seq") != seq:
        raise LogInvalid(f"transaction {seq} is missing or out of order", seq=seq)
    if chain_hash(game.state["head"], txn) != txn.get("hash"):
        raise LogInvalid(f"transaction {seq} does not match its hash", seq=seq)
    players = len(game.state["players"])
    dealing = 2 * players if game.ruleset.params["deal_deeds"] else players
    expected = (
        "starting_cash"
        if seq <= players
        else "deal"
        if seq <= dealing
        else "pot_seed"
        if seq <= setup
        else None
    )
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


# House rules of the rule set that this server does not enforce yet: refused rather than
# silently ignored.
UNSUPPORTED_OPTIONS: frozenset[str] = frozenset()


def game_view(game: Game) -> dict[str, Any]:
    """The game as the API shows it."""
    rs, state = game.ruleset, game.state
    players = []
    for pid, p in state["players"].items():
        players.append(
            {
                "id": pid,
                "name": p["name"],
                "cash": state["balances"][pid],
                "net_worth": rules.net_worth(rs, state, pid),
                "bankrupt": p["bankrupt_seq"] is not None,
                "jail_cards": [d for d, h in state["jail_cards"].items() if h == pid],
                "in_jail": p["in_jail"],
            }
        )
        if state["shares"] is not None:
            players[-1].update(
                shares=state["shares"]["held"].get(pid, 0),
                policies=sorted(state["policies"].get(pid, [])),
                tax_exempt=bool(state["exempt"].get(pid)),
            )
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
    if game.options.get("minutes"):
        view["ends_at"] = ends_at(game.created_at, int(game.options["minutes"]))
    if state["shares"] is not None:
        view["share_price"] = state["shares"]["price"]
    if state["figures"]:
        view["entered_figures"] = {k: dict(v) for k, v in state["figures"].items()}
    if state["standings"] is not None:
        view["standings"] = [
            {"player": s["player"], "score": s["score"], "rank": s["rank"]}
            for s in state["standings"]
        ]
    return view


def transaction_view(txn: dict[str, Any], voided: dict[str, int] | None = None) -> dict[str, Any]:
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


def ruleset_view(rs: RuleSet) -> dict[str, Any]:
    """A rule set's document with each deed's slug and mortgage value."""
    doc = dict(rs.document)
    doc["options"] = rs.options
    doc["deeds"] = [
        {**raw, "id": deed.slug, "mortgage_value": deed.mortgage_value}
        for raw, deed in zip(rs.document["deeds"], rs.deeds.values(), strict=True)
    ]
    return doc
