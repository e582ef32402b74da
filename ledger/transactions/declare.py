"""How a transaction type is declared: once, beside its handler, with everything the rest of
the ledger needs to know about it.

A family module (``money``, ``deeds``, ...) defines each type's event class and decorates its
handler::

    class RentPaid(TransactionRecorded):
        \"\"\"Rent paid to a deed's owner.\"\"\"

    @transaction("rent", RentPaid, player_field="payer", refusals=("own_property", ...))
    def pay_rent(d: Draft, body: Body) -> None:
        \"\"\"Charge the rent the rules give for the deed the payer landed on.\"\"\"

``REGISTRY`` then holds one ``TransactionType`` per type, and every table the ledger and the
API used to keep by hand (handlers, event names, set-up types, types that cannot be voided,
which field names the payer a player may record for, the rule sets a type belongs to, the
refusals it can raise) is read off it.

Who besides the banker may record a type is its ``PlayerRight``: ``player_field="payer"`` is
the common one (a player with his own id in that field); a type whose right depends on the
game's log (a dispute: a player whose money the disputed transaction moved) declares its own
with ``players=PlayerRight(...)``, whose check reads the game's records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

from ledger.draft import Body, Draft
from ledger.errors import InvalidField
from ledger.parameters import EVERY_VARIANT
from ledger.refusals import REFUSALS
from ledger.state import apply_transaction
from ledger.transactions.form import Field

if TYPE_CHECKING:
    from ledger.ruleset import RuleSet

Handler = Callable[[Draft[Any], Body], None]
# A seq -> the game's transaction record with that seq, or None if there is none.
Records = Callable[[int], dict[str, Any] | None]
# Whether a game of this rule set with these options offers a type at all (an option's type).
Offered = Callable[["RuleSet", Mapping[str, Any]], bool]

FORBIDDEN = "a player may record only a payment or rent out of his own account ({by})"
# Who records with the server's admin token (``by``), and what he is told when he records
# anything but a type declared ``admin=True`` (API.md v1.3, "Administration").
ADMIN = "admin"
ADMIN_FORBIDDEN = "the admin token may record only finish, to close an abandoned game"


# What any transaction may meet, through the draft's own checks: a finished game, an unknown
# or bankrupt player, someone who cannot pay.
COMMON_REFUSALS = ("game_finished", "unknown_player", "player_bankrupt", "insufficient_funds")


class TransactionRecorded(Aggregate.Event):
    """A transaction accepted by the rules: the event carries its whole record."""

    txn: dict[str, Any]

    def apply(self, aggregate: Aggregate) -> None:
        """Apply the recorded transaction to the game's state."""
        apply_transaction(aggregate.state, self.txn)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class PlayerRight:
    """Which players besides the banker may record a type: said (docs/api.md's "who") and
    checked (``allows``: the request, the player, the game's records)."""

    who: str
    allows: Callable[[Body, str, Records], bool]
    refused: str = FORBIDDEN  # the 403's sentence, with {by}


def own_field(field: str) -> PlayerRight:
    """A player may record it with his own id in ``field``."""
    return PlayerRight(f"the player in `{field}`", lambda body, by, _records: body.get(field) == by)


@dataclass(frozen=True)
class TransactionType:
    """Everything about one transaction type, declared beside its handler."""

    name: str
    handler: Handler
    event: type[TransactionRecorded]
    variants: frozenset[str]
    setup: bool  # recorded by the ledger itself when a game is created
    voidable: bool
    player_field: str | None  # a player token may record it with itself in this field
    refusals: tuple[str, ...]  # the rule refusal codes it can raise, besides the common ones
    players: PlayerRight | None = None  # who besides the banker may record it
    # Whether its handler reads the table, so that a void of an earlier transaction must run
    # it again on the table without that one; if not (voids, disputes), its facts stand.
    reads_table: bool = True
    # What a client sends (the set-up types: nothing), from which the request schema is built.
    fields: tuple[Field, ...] = ()
    # Whether a game offers the type at all, beyond its variant (None: always).
    offered: Offered | None = None
    # Whether the server's admin token may record it (on any game).
    admin: bool = False
    # What its basis holds: a TypedDict, its NotRequired keys those only some cases give
    # (None: not declared, as a house's own type may leave it).
    basis: type | None = None

    def may_record(self, body: Body, by: str, records: Records) -> bool:
        """Whether ``by`` ("banker", ``ADMIN`` or a player id) may record this request."""
        if by == "banker":
            return True
        if by == ADMIN:
            return self.admin
        return self.players is not None and self.players.allows(body, by, records)

    @property
    def who(self) -> str:
        """Who records it, as docs/api.md's table says."""
        if self.setup:
            return "the ledger"
        return "banker" if self.players is None else f"banker, or {self.players.who}"

    def offered_in(self, rs: RuleSet, options: Mapping[str, Any]) -> bool:
        """Whether a game of ``rs`` with ``options`` records this type at all."""
        if rs.params["variant"] not in self.variants:
            return False
        return self.offered is None or self.offered(rs, options)

    def check_variant(self, variant: str) -> None:
        """Refuse the type in a game whose rule set does not have it."""
        if variant not in self.variants:
            raise InvalidField("type", f"a {variant} game has no {self.name} transactions")


REGISTRY: dict[str, TransactionType] = {}


def transaction(
    name: str,
    event: type[TransactionRecorded],
    *,
    variants: Iterable[str] = EVERY_VARIANT,
    setup: bool = False,
    voidable: bool | None = None,
    player_field: str | None = None,
    players: PlayerRight | None = None,
    refusals: Iterable[str] = (),
    reads_table: bool = True,
    fields: Iterable[Field] = (),
    offered: Offered | None = None,
    admin: bool = False,
    basis: type | None = None,
) -> Callable[[Handler], Handler]:
    """Declare the transaction type ``name``, recorded by the decorated handler as one
    ``event`` from a request of ``fields``. Set-up types are never voidable; others are unless
    told. A player may record it with his own id in ``player_field``, or as ``players`` says.
    ``offered`` says whether a game offers it at all (an option's type); ``admin``, whether
    the server's admin token may record it; ``basis``, the TypedDict of what its basis holds
    (the handler takes a ``Draft`` of it, so that mypy checks what it writes)."""
    fields = tuple(fields)
    names = [f.name for f in fields]
    if len(set(names)) != len(names) or "type" in names or "memo" in names:
        raise ValueError(f"{name}: its fields repeat a name, or take type or memo: {names}")
    if player_field is not None and player_field not in names:
        raise ValueError(f"{name}: player_field {player_field!r} is not one of its fields")
    if setup and fields:
        raise ValueError(f"{name}: a set-up type has no request fields")
    if player_field is not None:
        if players is not None:
            raise ValueError(f"{name}: a player_field or players, not both")
        players = own_field(player_field)

    def register(handler: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"transaction type {name!r} declared twice")
        unknown = [code for code in refusals if code not in REFUSALS]
        if unknown:
            raise ValueError(f"{name}: refusal codes not in ledger/refusals.py: {unknown}")
        REGISTRY[name] = TransactionType(
            name=name,
            handler=handler,
            event=event,
            variants=frozenset(variants),
            setup=setup,
            voidable=(not setup) if voidable is None else voidable,
            player_field=player_field,
            refusals=tuple(refusals),
            players=players,
            reads_table=reads_table,
            fields=fields,
            offered=offered,
            admin=admin,
            basis=basis,
        )
        return handler

    return register
