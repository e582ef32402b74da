"""The ``Game`` aggregate: one table, one append-only log of transactions.

Each accepted transaction is exactly one event. The event carries the whole transaction
record: the request as given, the postings, the ``changes`` to deeds, buildings, cards and
jail, the ``basis`` of every computed amount, the balances after it and its hash. Applying an
event only applies those facts (``ledger.state.apply_transaction``), so a game replays the
same whatever the rules say today.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from eventsourcing.domain import Aggregate, event

from ledger.caches import BoundedCache
from ledger.chain import canonical, chain_hash, genesis, sha256
from ledger.draft import Draft, History, fields
from ledger.errors import InvalidField, RuleViolation
from ledger.parameters import KNOWN_VARIANTS
from ledger.ruleset import BUILT_IN, RuleSet, built_in, parse_ruleset
from ledger.state import State, copy_state, new_state
from ledger.transactions import REGISTRY, TransactionRecorded

# The parsed rule sets a process keeps, weighed by the characters of their documents'
# canonical JSON: some 500 rule sets of a board's size. The built-in ones are pinned beside
# it; an evicted one is parsed again from the document its game carries.
RULESET_CACHE_BUDGET = 4 * 1024 * 1024
# Parsed rule sets by the digest of their document: a document is parsed once while it is kept.
_RULESETS: BoundedCache[str, RuleSet] = BoundedCache(RULESET_CACHE_BUDGET)
_BUILT_IN_BY_DIGEST: dict[str, RuleSet] = {}  # the built-in rule sets, filled on first use


def ruleset_of(digest: str, document: dict[str, Any], text: str | None = None) -> RuleSet:
    """The parsed rule set of a document whose canonical JSON has ``digest`` (and is ``text``,
    if at hand): kept, pinned if built in, or parsed now and kept while the budget allows."""
    rs = _RULESETS.get(digest)
    if rs is not None:
        return rs
    if not _BUILT_IN_BY_DIGEST:
        for name in BUILT_IN:
            each = built_in(name)
            if each is not None:
                _BUILT_IN_BY_DIGEST[sha256(canonical(each.document))] = each
    pinned = _BUILT_IN_BY_DIGEST.get(digest)
    if pinned is not None:
        return _RULESETS.pin(digest, pinned)
    weight = len(text if text is not None else canonical(document))
    return _RULESETS.put(digest, parse_ruleset(document), weight)


def now_rfc3339() -> str:
    """The current UTC time as an RFC 3339 string."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Game(Aggregate):
    """One table: its rule set, options, players and the state its transactions built."""

    @event("Created")
    def __init__(
        self,
        name: str,
        ruleset: dict[str, Any],
        options: dict[str, Any],
        players: list[str],
        created_at: str,
    ) -> None:
        # A document parsed before is not parsed again: each cold load of a game, and each
        # load of it as it stood at a past seq, runs this; hashing the document is cheaper
        # than parsing it. A document that parsed once parses the same again.
        text = canonical(ruleset)
        digest = sha256(text)
        rs = ruleset_of(digest, ruleset, text)
        self.name = name
        self.ruleset_doc = ruleset
        self.ruleset_digest = digest
        self.options = options
        self.created_at = created_at
        shares = KNOWN_VARIANTS[rs.params["variant"]].shares
        self.state: State = new_state(
            players,
            list(rs.deeds),
            rs.params["houses"],
            rs.params["hotels"],
            share_price=rs.params["share_price"] if shares else None,
        )
        # The chain starts from the game's header, so a changed header breaks it too.
        self.state["head"] = genesis(
            {
                "name": name,
                "ruleset": ruleset,
                "options": options,
                "players": players,
                "created": created_at,
            }
        )

    # Every transaction type's event class is declared with its handler
    # (ledger.transactions); this is their common base, kept here for readers of events.
    TransactionRecorded = TransactionRecorded

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """A copy of the game as it is stored (no event pending), made as the library makes
        a game from its snapshot (``Snapshot.mutate``: a new object of the class, given the
        attributes, no event pending) without the snapshot between: a cached game is copied
        before each command (``ledger.writing``), a game being imported for each of its
        snapshots. Only ``state`` is ever written to; the rule-set document and options are
        shared, never mutated."""
        if self.pending_events:
            raise ValueError("a game with events not saved yet is not copied")
        attributes = dict(vars(self))
        attributes["_pending_events"] = []
        attributes["state"] = copy_state(self.state)
        clone = object.__new__(type(self))
        object.__setattr__(clone, "__dict__", attributes)
        return clone

    @property
    def ruleset(self) -> RuleSet:
        """The parsed rule set this game was created with (parsed again if it was evicted)."""
        return ruleset_of(self.ruleset_digest, self.ruleset_doc)

    @property
    def header_players(self) -> list[str]:
        """The players' names as the game was created with them, in seat order: its header's
        (which starts its hash chain), whatever they were renamed to since."""
        first = self.state.get("first_names", {})
        return [first.get(pid, p["name"]) for pid, p in self.state["players"].items()]

    @property
    def last_seq(self) -> int:
        """The seq of the last transaction recorded in the game (0 before the first)."""
        return int(self.state["last_seq"])

    def record(
        self,
        body: dict[str, Any],
        *,
        by: str = "banker",
        at: str | None = None,
        history: History | None = None,
    ) -> dict[str, Any]:
        """Check ``body`` against the rules and record it as one event; return the record.

        ``history`` reads the game's earlier transactions; only a ``void`` needs it.
        """
        kind = body.get("type")
        declared = REGISTRY.get(kind) if isinstance(kind, str) else None
        if declared is None:
            raise InvalidField("type", f"unknown transaction type {kind!r}")
        declared.check_variant(self.ruleset.params["variant"])
        if self.state["status"] == "finished":
            raise RuleViolation("game_finished")
        draft: Draft[Any] = Draft(self.ruleset, self.state, self.options, history=history, by=by)
        request = {k: v for k, v in body.items() if k not in ("type", "memo")}
        declared.handler(draft, fields(request))
        draft.check_funds()
        txn: dict[str, Any] = {
            "seq": draft.seq,
            "type": kind,
            "at": at or now_rfc3339(),
            "by": by,
            "memo": body.get("memo"),
            "request": request,
            "postings": draft.postings,
            "changes": draft.changes,
            "basis": draft.basis,
            "balances": dict(draft.state["balances"]),
        }
        txn["hash"] = chain_hash(self.state["head"], txn)
        self.trigger_event(declared.event, txn=txn)
        return txn
