"""Setting a game up: its rule set (built in or the banker's own), its options, the deal,
the set-up transactions in their one order, its tokens, and its line in the list of games.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import EventSourcedLog
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, StoredEvent

from ledger.access import NAMESPACE, Access, Tokens
from ledger.errors import InvalidField
from ledger.game import Game, now_rfc3339
from ledger.ruleset import (
    BUILT_IN,
    MAX_MINUTES,
    RuleSet,
    RuleSetInvalid,
    built_in,
    parse_ruleset,
    resolve_extends,
)
from ledger.storage import Storage
from ledger.store import store_unavailable
from ledger.transactions import TransactionRecorded
from ledger.views import game_view
from ledger.writing import WRITE_ATTEMPTS

log = logging.getLogger(__name__)

# A player's account (``p1``, ``p2``, …) among a transaction's balances.
PLAYER_ACCOUNT = re.compile(r"p[0-9]+")

GAMES_LOG_ID = uuid5(NAMESPACE, "games")
STATUS_LOG_ID = uuid5(NAMESPACE, "game statuses")


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


# An imported game's events are saved this many (or this many bytes of them) to a store
# transaction, the other requests served between two (``SetUp.save_new_game``): on PostgreSQL
# a thousand took 37 ms, and every other table's write waited for the events' table meanwhile.
SAVED_AT_ONCE = 250
SAVED_BYTES_AT_ONCE = 128 * 1024


@dataclass
class Encoded:
    """A new game's events and snapshots as the store keeps them, encoded ahead of the save."""

    events: list[StoredEvent]
    snapshots: list[StoredEvent]


def batches(events: Sequence[StoredEvent]) -> list[list[StoredEvent]]:
    """``events`` in order, in batches of ``SAVED_AT_ONCE`` events or ``SAVED_BYTES_AT_ONCE`` of
    their state, whichever comes first (a snapshot of a long game is kilobytes: a thousand of
    them held the loop for their commit); one empty batch if there are none."""
    found: list[list[StoredEvent]] = []
    batch: list[StoredEvent] = []
    size = 0
    for event in events:
        if batch and (len(batch) == SAVED_AT_ONCE or size + len(event.state) > SAVED_BYTES_AT_ONCE):
            found.append(batch)
            batch, size = [], 0
        batch.append(event)
        size += len(event.state)
    found.append(batch)
    return found


class SetUp:
    """Creating games and listing them."""

    def __init__(
        self,
        storage: Storage,
        tokens: Tokens,
        games_log: EventSourcedLog[GameListed],
        status_log: EventSourcedLog[GameStatusLogged],
        between: Callable[[], None] | None = None,
    ) -> None:
        """``between``: what an imported game's save waits for between two of its store
        transactions (``save_new_game``): under a server's event loop, the other requests
        served; nothing by default."""
        self._storage = storage
        self._between = between or (lambda: None)
        self._tokens = tokens
        self.games_log = games_log
        self._status_log = status_log

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
        check_player_count(rs, len(players))
        game_options = check_options(rs, options or {})
        created = now_rfc3339()
        game = Game(
            name=name,
            ruleset=rs.document,
            options=game_options,
            players=list(players),
            created_at=created,
        )
        deals = deal_deeds(rs, list(game.state["players"]), dealt)
        for body in setup_bodies(rs, list(game.state["players"]), deals):
            game.record(body, by="banker", at=created)
        return self.save_new_game(game, created)

    def save_new_game(
        self, game: Game, created: str, encoded: Encoded | None = None
    ) -> dict[str, Any]:
        """Save a new game with its tokens and its line in the list, in one write; then the
        snapshots taken of it on the way (an imported log), if any.

        ``encoded``: the game's events and snapshots already encoded for the store (an import
        does it off the event loop, ``Exchange.rebuild_import``); else they are encoded here.

        An imported game's events go to the store ``SAVED_AT_ONCE`` to a transaction, with the
        other requests served between two (``between``), its last ones in the transaction that
        also saves its tokens and its line in the list: one transaction of 76,000 events held
        the event loop, and on SQLite the store's one writer, for every other table's writes
        (up to 4.4 s). Until that last transaction the game is nobody's: no token reaches it,
        no list shows it, nothing follows its id (new, and never answered). A server stopped
        in between leaves those events so: an import not answered, read by nobody until a purge
        removes them (``Purging.unfinished_imports``).
        """
        tokens, grants = self._tokens.issue(game)
        last: list[StoredEvent] | None = None
        if encoded is not None:
            *ahead, last = batches(encoded.events)
            for batch in ahead:
                self._storage.recorder.insert_events(batch)
                self._between()
        self._save_retrying_log(game, grants, created, last)
        if encoded is not None and encoded.snapshots and self._storage.snapshots is not None:
            try:
                for batch in batches(encoded.snapshots):
                    self._between()
                    self._storage.snapshots.recorder.insert_events(batch)
            except Exception as error:  # the game is saved whole: a snapshot only speeds loads
                if not store_unavailable(error):
                    raise
                log.warning("an imported game's snapshots were not saved: %s", error)
        view = game_view(game)
        view["banker_token"] = tokens.pop("banker")
        view["tokens"] = tokens
        return view

    def _save_retrying_log(
        self, game: Game, grants: list[Access], created: str, last: list[StoredEvent] | None
    ) -> None:
        """The game's events (``last``: the last of them, encoded; else all, from the game),
        its tokens and its line in the list, in one store transaction."""
        # Take the events once: a failed save has already taken them off the aggregates, and
        # a retry must save the game and its tokens again, not just its line in the list.
        pending: list[Any] = [] if last is not None else list(game.collect_events())
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
                    self._status_log.trigger_event(game_id=game.id, status=game.state["status"])
                )
            try:
                if last is None:
                    self._storage.save(*pending, *logged)
                else:
                    # What ``save`` does for events (the game is new: nothing is cached, no
                    # snapshot is due), with the game's own events encoded already.
                    more = [
                        self._storage.mapper.to_stored_event(event) for event in (*pending, *logged)
                    ]
                    self._storage.recorder.insert_events([*last, *more])
                break
            except IntegrityError:
                continue
        else:  # pragma: no cover
            raise RuntimeError("could not list the new game")

    def list_games(self) -> list[dict[str, Any]]:
        """Every game this server holds: id, name, rule set, status, created."""
        return [line for _, line in self._lines()]

    def listed_games(
        self,
        after: int = 0,
        *,
        status: str | None = None,
        idle_days: int | None = None,
        now: datetime | None = None,
    ) -> Iterator[tuple[int, dict[str, Any]]]:
        """The games from position ``after`` of the list on, each with its place in the list
        and its activity (``activity``): only those of ``status``, and only those with no
        transaction for ``idle_days`` days, if told. Lazy: a game's activity is read when
        its line is reached, so a page reads the games it shows (and those it skips)."""
        idle_since = None
        if idle_days is not None:
            idle_since = (now or datetime.now(UTC)) - timedelta(days=idle_days)
        for position, line in self._lines(after):
            if status is not None and line["status"] != status:
                continue
            line.update(self.activity(UUID(line["id"])))
            if idle_since is not None and parse_time(line["last_activity"]) > idle_since:
                continue
            yield position, line

    def activity(self, game_id: UUID) -> dict[str, Any]:
        """A game's last activity (the time of its last transaction), how many transactions it
        has and how many players: read from its last event alone (one read by the game's id
        and version, the store's primary key), never by loading the game."""
        last = self._storage.recorder.select_events(game_id, desc=True, limit=1)
        event = self._storage.mapper.to_domain_event(last[0]) if last else None
        if isinstance(event, TransactionRecorded):
            txn = event.txn
            players = [a for a in txn["balances"] if PLAYER_ACCOUNT.fullmatch(a)]
            return {"last_activity": txn["at"], "transactions": txn["seq"], "players": len(players)}
        game = self._storage.load_game(game_id)  # no transaction yet: not made by this server
        return {
            "last_activity": game.created_at,
            "transactions": game.last_seq,
            "players": len(game.state["players"]),
        }

    def _lines(self, after: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
        """The list's lines from position ``after`` on, with their positions."""
        logged = {e.game_id: e.status for e in self._status_log.get()}  # the last one wins
        for position, listed in enumerate(self.games_log.get()):
            if position < after:
                continue
            if getattr(listed, "statuses_logged", False):
                status = logged.get(listed.game_id, "active")
            else:  # listed before statuses were logged: read the game itself
                status = self._storage.load_game(listed.game_id).state["status"]
            yield (
                position,
                {
                    "id": str(listed.game_id),
                    "name": listed.name,
                    "ruleset": listed.ruleset,
                    "status": status,
                    "created": listed.created,
                },
            )


def parse_time(text: str) -> datetime:
    """An RFC 3339 time as the ledger writes it (``now_rfc3339``)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def check_player_count(rs: RuleSet, count: int, field: str = "players") -> None:
    """Refuse a game of more or fewer players than its rule set is played by."""
    if not rs.min_players <= count <= rs.max_players:
        raise InvalidField(field, f"{rs.name} is played by {rs.min_players} to {rs.max_players}")


def setup_types(rs: RuleSet, players: int) -> list[str]:
    """The types of a game's set-up transactions, in their order: each player's starting cash,
    then each player's deal (where the rule set deals deeds), then the kitty's seed (where it
    has one). Creation records them so; an import must find them so."""
    deals = ["deal"] * players if rs.params["deal_deeds"] else []
    return ["starting_cash"] * players + deals + (["pot_seed"] if rs.params["pot_seed"] else [])


def setup_bodies(
    rs: RuleSet, players: list[str], deals: dict[str, list[str]]
) -> list[dict[str, Any]]:
    """The set-up transactions of a new game, in ``setup_types`` order."""
    bodies: list[dict[str, Any]] = [{"type": "starting_cash", "player": p} for p in players]
    bodies += [{"type": "deal", "player": p, "properties": deals[p]} for p in players if p in deals]
    if rs.params["pot_seed"]:
        bodies.append({"type": "pot_seed"})
    assert [b["type"] for b in bodies] == setup_types(rs, len(players))
    return bodies


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


# House rules of the rule set that this server does not enforce yet: refused rather than
# silently ignored.
UNSUPPORTED_OPTIONS: frozenset[str] = frozenset()
