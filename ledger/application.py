"""``TableBank``: the application service. Games, tokens, transactions and their views.

Every write loads one ``Game`` (from the cache, or a snapshot plus the events after it),
runs one command, and saves the one event it triggered. A conflict with a concurrent writer
is retried against the fresh state, so no update is lost; a retry that the rules now refuse
returns that refusal.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application, EventSourcedLog
from eventsourcing.domain import Aggregate, DomainEvent, event
from eventsourcing.persistence import IntegrityError

from ledger import rules
from ledger.commands import HANDLERS, SETUP_TYPES
from ledger.errors import Forbidden, InvalidField, LedgerError, NotFound, Unauthorized
from ledger.game import Game, now_rfc3339
from ledger.ruleset import BUILT_IN, RuleSet, built_in

NAMESPACE = uuid5(NAMESPACE_URL, "https://tablebank.invalid/")
GAMES_LOG_ID = uuid5(NAMESPACE, "games")
WRITE_ATTEMPTS = 20

# Which transaction types a player token may record, and the field naming its payer.
PLAYER_MAY_RECORD = {"payment": "from", "rent": "payer"}


class Access(Aggregate):
    """What one token may do, found by the token's hash (the token itself is never kept)."""

    @staticmethod
    def create_id(token_hash: str) -> UUID:
        return uuid5(NAMESPACE, "token:" + token_hash)

    @event("Issued")
    def __init__(self, token_hash: str, game_id: UUID, role: str) -> None:
        self.game_id = game_id
        self.role = role


class GameListed(DomainEvent):
    """A line in the list of games this server holds."""

    game_id: UUID
    name: str
    ruleset: str
    created: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TableBank(Application[UUID]):
    """The bank of every table this server holds."""

    snapshotting_intervals = {Game: 100}  # noqa: RUF012 - the library's own class attribute
    env = {"AGGREGATE_CACHE_MAXSIZE": "1000"}  # noqa: RUF012

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.games_log: EventSourcedLog[GameListed] = EventSourcedLog(
            self.events, GAMES_LOG_ID, GameListed
        )
        self._access_cache: dict[str, tuple[UUID, str]] = {}

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
    ) -> dict[str, Any]:
        """Seat the players, pay their starting cash, and issue the tokens (shown once)."""
        rs = built_in(ruleset)
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
        tokens = {"banker": secrets.token_urlsafe(32)}
        tokens.update({pid: secrets.token_urlsafe(32) for pid in game.state["players"]})
        grants = [Access(hash_token(t), game.id, role) for role, t in tokens.items()]
        listed = self.games_log.trigger_event(
            game_id=game.id, name=name, ruleset=rs.name, created=created
        )
        self._save_retrying_log(game, grants, listed)
        view = game_view(game)
        view["banker_token"] = tokens.pop("banker")
        view["tokens"] = tokens
        return view

    def _save_retrying_log(self, game: Game, grants: list[Access], listed: GameListed) -> None:
        for _ in range(WRITE_ATTEMPTS):
            try:
                self.save(game, *grants, listed)
                return
            except IntegrityError:
                # Another game was listed at the same log position; take the next one.
                listed = self.games_log.trigger_event(
                    game_id=listed.game_id,
                    name=listed.name,
                    ruleset=listed.ruleset,
                    created=listed.created,
                )
        raise RuntimeError("could not list the new game")  # pragma: no cover

    def list_games(self) -> list[dict[str, Any]]:
        """Every game this server holds: id, name, rule set, status, created."""
        out = []
        for listed in self.games_log.get():
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
            game = self.repository.get(uid, version=version)
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

    def version(self, game_id: UUID | str) -> int:
        """The game's version (for ETags)."""
        return self._load(game_id).version

    # -- tokens ---------------------------------------------------------------------------
    def authenticate(self, game_id: UUID | str, token: str | None) -> str:
        """The role a token has on a game: 'banker' or a player id."""
        if not token:
            raise Unauthorized("a bearer token is required")
        digest = hash_token(token)
        grant = self._access_cache.get(digest)
        if grant is None:
            try:
                access = self.repository.get(Access.create_id(digest))
            except AggregateNotFoundError:
                raise Unauthorized("unknown token") from None
            assert isinstance(access, Access)
            grant = (access.game_id, access.role)
            self._access_cache[digest] = grant
        if str(grant[0]) != str(game_id):
            raise Forbidden("this token belongs to another game")
        return grant[1]

    # -- transactions ---------------------------------------------------------------------
    def record(
        self, game_id: UUID | str, body: dict[str, Any], by: str = "banker"
    ) -> dict[str, Any]:
        """Record one transaction; return it as the API shows it."""
        kind = body.get("type")
        if kind not in HANDLERS or kind in SETUP_TYPES:
            raise InvalidField("type", f"unknown transaction type {kind!r}")
        check_may_record(body, by)
        for _ in range(WRITE_ATTEMPTS):
            game = self._load(game_id)
            txn = game.record(body, by=by)
            try:
                self.save(game)
            except IntegrityError:
                continue  # a concurrent writer won; try again on the fresh state
            return transaction_view(txn)
        raise LedgerError("the game is too busy; try again", "busy")  # pragma: no cover

    def transactions(self, game_id: UUID | str) -> Iterator[dict[str, Any]]:
        """Every transaction of a game in order."""
        game = self._load(game_id)
        for ev in self.events.get(game.id, gt=Game.INITIAL_VERSION):
            if isinstance(ev, Game.TransactionRecorded):
                yield transaction_view(ev.txn)

    def transaction(self, game_id: UUID | str, seq: int) -> dict[str, Any]:
        """One transaction by its seq."""
        game = self._load(game_id)
        version = seq + Game.INITIAL_VERSION
        for ev in self.events.get(game.id, gt=version - 1, lte=version):
            if isinstance(ev, Game.TransactionRecorded):
                return transaction_view(ev.txn)
        raise NotFound(f"no transaction {seq} in game {game_id}")

    def liquidation(self, game_id: UUID | str, player: str) -> dict[str, Any]:
        """What a player could raise by selling every building and mortgaging every deed."""
        game = self._load(game_id)
        if player not in game.state["players"]:
            raise NotFound(f"no player {player!r}")
        return rules.liquidation(game.ruleset, game.state, player)


def check_may_record(body: dict[str, Any], by: str) -> None:
    """A player token records only payments out of its own account."""
    if by == "banker":
        return
    field = PLAYER_MAY_RECORD.get(str(body.get("type")))
    if field is None or body.get(field) != by:
        raise Forbidden(
            f"a player may record only a payment or rent out of his own account ({by})"
        )


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
            or (kind == "amount" and isinstance(value, int) and not isinstance(value, bool)
                and value >= 0)
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
UNSUPPORTED_OPTIONS = frozenset({"player_loans", "keep_bankrupt_players", "one_house_per_turn"})


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
    view: dict[str, Any] = {
        "id": str(game.id),
        "name": game.name,
        "ruleset": rs.name,
        "status": state["status"],
        "version": state["head"][:16],
        "created": game.created_at,
        "options": dict(game.options),
        "balances": dict(state["balances"]),
        "players": players,
        "properties": {k: dict(v) for k, v in state["properties"].items()},
        "bank": dict(state["supply"]),
        "jail_cards": dict(state["jail_cards"]),
        "turn": state["turn"],
        "ious": [],
        "last_seq": state["last_seq"],
        "head": state["head"],
    }
    if state["standings"] is not None:
        view["standings"] = [
            {"player": s["player"], "score": s["score"], "rank": s["rank"]}
            for s in state["standings"]
        ]
    return view


def transaction_view(txn: dict[str, Any]) -> dict[str, Any]:
    """A transaction as the API shows it."""
    return {**txn, "voided_by": None}


def ruleset_view(rs: RuleSet) -> dict[str, Any]:
    """A rule set's document with each deed's slug and mortgage value."""
    doc = dict(rs.document)
    doc["options"] = rs.options
    doc["deeds"] = [
        {**raw, "id": deed.slug, "mortgage_value": deed.mortgage_value}
        for raw, deed in zip(rs.document["deeds"], rs.deeds.values(), strict=True)
    ]
    return doc
