"""Every part of a table's state and every kind of change a transaction makes to it.

The state is plain data (dicts, lists, str, int, bool) in parts: ``PARTS`` says what a new table
holds in each and how a copy of it is made, and ``State`` (a ``TypedDict``) what type each
holds, so that mypy checks every read and write of a part the code names; ``check_registry``
holds the two to the same parts, in the same order, the late ones ``NotRequired``. Money moves
by postings (the ``balances`` part); everything else by changes, each ``{"kind", <target
fields>, "from", "to"}``: ``CHANGES`` says, per kind, the parts it writes, the fields naming
what it changes, what ``from`` and ``to`` hold, how the change is applied and how its value now
is read. ``ledger.state`` (``new_state``, ``copy_state``, ``apply_change``) and ``ledger.draft``
(``Draft.change``, which reads ``from`` off the draft) take their dispatch from here, and the
table at the end of this docstring is made from it. A kind nobody declared is a programming
error: ``change_kind`` refuses it, and ``check_registry`` runs when this module is imported.

A part that came after the first stored games (``first_lap``, ``disputes``, ``first_names``,
``paid``) is
``late``: a state snapshotted before it lacks it, so a copy of such a state has it empty and its
kinds set it with ``setdefault``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NotRequired, TypedDict, cast, get_origin, get_type_hints

Change = Mapping[str, Any]


class PlayerEntry(TypedDict):
    """A seat at the table."""

    name: str
    bankrupt_seq: int | None
    in_jail: bool


class PropertyEntry(TypedDict):
    """A deed on the board: who holds it and what stands on it."""

    owner: str  # "bank" or a player id
    mortgaged: bool
    houses: int
    hotel: bool


class Supply(TypedDict):
    """The Bank's buildings; None: no limit (Millionaire Elite)."""

    houses: int | None
    hotels: int | None


class IouEntry(TypedDict):
    """An IOU still open."""

    id: str
    debtor: str
    holder: str
    amount: int
    outstanding: int


class Standing(TypedDict):
    """A player's place once the game is finished."""

    player: str
    score: int
    rank: int
    bankrupt: bool


class Shares(TypedDict):
    """The share price and the shares each player holds (Millionaire Elite)."""

    price: int
    held: dict[str, int]


class DisputeEntry(TypedDict):
    """A dispute of a transaction, open or closed."""

    seq: int
    about: int
    by: str
    reason: str
    status: str
    resolved_by: str | None
    note: str | None


class State(TypedDict):
    """The state of a table, part by part (``PARTS`` says what each holds; a late part may be
    missing from a state snapshotted before it)."""

    status: str
    players: dict[str, PlayerEntry]
    balances: dict[str, int]
    properties: dict[str, PropertyEntry]
    supply: Supply
    jail_cards: dict[str, str]
    turn: str | None
    standings: list[Standing] | None
    voided: MutableMapping[str, int]
    ious: dict[str, IouEntry]
    built_this_turn: dict[str, int]
    figures: dict[str, dict[str, int]]
    shares: Shares | None
    policies: dict[str, list[str]]
    exempt: dict[str, bool]
    first_lap: NotRequired[dict[str, bool]]
    disputes: NotRequired[dict[str, DisputeEntry]]
    first_names: NotRequired[dict[str, str]]
    paid: NotRequired[dict[str, int]]
    last_seq: int
    head: str


def parts_of(state: State) -> dict[str, Any]:
    """The state as parts named at run time (the registries' generic code: a new state, a
    copy, a change of a declared part); code that names its part reads ``state`` itself,
    which mypy checks."""
    return cast(dict[str, Any], state)


def shares_of(state: State) -> Shares:
    """The shares of a Millionaire Elite game; a game without shares has none to give (asking
    is a programming error: only Millionaire Elite's types ask)."""
    shares = state["shares"]
    if shares is None:
        raise LookupError("this game has no shares")
    return shares


JAIL_DECKS = ("chance", "community_chest")


@dataclass(frozen=True)
class NewTable:
    """What a new table is made of: the players' names, the deeds, the Bank's buildings."""

    players: list[str]
    deeds: list[str]
    houses: int | None
    hotels: int | None
    share_price: int | None


@dataclass(frozen=True)
class Part:
    """One part of the state: what a new table holds there and how a copy of it is made
    (``copy`` None: the value is only ever replaced, never changed in place, so a copy shares
    it)."""

    name: str
    new: Callable[[NewTable], Any]
    copy: Callable[[Any], Any] | None
    description: str
    late: bool = False
    # Copied by a transaction's draft only once the draft applies a change of it: a part that
    # grows with the game (a void each), whose copy would make every write cost more as the
    # game goes on.
    lazy: bool = False


@dataclass(frozen=True)
class ChangeKind:
    """One kind of change: where it writes, the fields naming what it changes (``target``),
    what ``from`` and ``to`` hold, how it is applied and how its value now is read."""

    kind: str
    where: str  # a path into the state, "properties[property].owner"; its first names are parts
    target: tuple[str, ...]
    value: str
    current: Callable[[State, Change], Any]
    apply: Callable[[State, Change], None]
    extra: tuple[str, ...] = ()  # other fields the change carries (not part of its target)

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts of the state it writes."""
        return tuple(re.findall(r"(?:^|, )(\w+)", self.where))


# -- copies ------------------------------------------------------------------------------


def _entries(part: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """A copy of a part of entries, each entry copied."""
    return {k: dict(v) for k, v in part.items()}


def _lists(part: Mapping[str, list[Any]]) -> dict[str, list[Any]]:
    """A copy of a part of lists, each list copied."""
    return {k: list(v) for k, v in part.items()}


def _shares(part: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A copy of the shares part (None where the game has no shares)."""
    return None if part is None else {"price": part["price"], "held": dict(part["held"])}


# -- kinds written the same way ----------------------------------------------------------


def field_of(kind: str, part: str, target: str, field: str, value: str) -> ChangeKind:
    """A kind that sets one field of one entry of a part (``properties[property].owner``)."""

    def current(state: State, t: Change) -> Any:
        return parts_of(state)[part][t[target]][field]

    def apply(state: State, change: Change) -> None:
        parts_of(state)[part][change[target]][field] = change["to"]

    return ChangeKind(kind, f"{part}[{target}].{field}", (target,), value, current, apply)


def flag_of(kind: str, part: str, value: str) -> ChangeKind:
    """A kind that marks a player in a part (True) or takes the mark off (False)."""
    late = PARTS[part].late  # declared above the kinds

    def current(state: State, t: Change) -> Any:
        return parts_of(state)[part].get(t["player"], False)

    def apply(state: State, change: Change) -> None:
        named = parts_of(state)
        marked = named.setdefault(part, {}) if late else named[part]
        if change["to"]:
            marked[change["player"]] = True
        else:
            marked.pop(change["player"], None)

    return ChangeKind(kind, f"{part}[player]", ("player",), value, current, apply)


# -- kinds of their own ------------------------------------------------------------------


def _apply_houses(state: State, change: Change) -> None:
    """Set a street's houses; the Bank's supply, where it has a limit, moves the other way."""
    to = change["to"]
    state["properties"][change["property"]]["houses"] = to
    if state["supply"]["houses"] is not None:
        state["supply"]["houses"] -= to - change["from"]


def _apply_hotel(state: State, change: Change) -> None:
    """Set a street's hotel; the Bank's supply, where it has a limit, moves the other way."""
    to = change["to"]
    state["properties"][change["property"]]["hotel"] = to
    if state["supply"]["hotels"] is not None:
        state["supply"]["hotels"] -= int(to) - int(change["from"])


def _apply_jail_card(state: State, change: Change) -> None:
    """Give a deck's jail card to a player, or back to the deck."""
    state["jail_cards"][change["deck"]] = change["to"]


def _apply_turn(state: State, change: Change) -> None:
    """Set whose turn it is."""
    state["turn"] = change["to"]


def _apply_status(state: State, change: Change) -> None:
    """Set the game's status; the standings with ``finished``, None otherwise."""
    to = change["to"]
    state["status"] = to
    state["standings"] = change.get("standings") if to == "finished" else None


def _apply_void(state: State, change: Change) -> None:
    """Mark transaction ``seq`` voided by the void ``to``, or take the mark off (None)."""
    to = change["to"]
    if to is None:
        state["voided"].pop(str(change["seq"]), None)
    else:
        state["voided"][str(change["seq"])] = to


def _apply_iou(state: State, change: Change) -> None:
    """Write an IOU's whole entry, or remove it (None)."""
    to = change["to"]
    if to is None:
        del state["ious"][change["iou"]]
    else:
        state["ious"][change["iou"]] = cast(IouEntry, dict(to))


def _apply_built_this_turn(state: State, change: Change) -> None:
    """Set the houses a player built this turn; 0 takes the player off."""
    to = change["to"]
    if to:
        state["built_this_turn"][change["player"]] = to
    else:
        state["built_this_turn"].pop(change["player"], None)


def _apply_figure(state: State, change: Change) -> None:
    """Set or remove (None) a figure the banker entered for a deed; a deed left with none goes."""
    to = change["to"]
    figures = state["figures"].setdefault(change["property"], {})
    if to is None:
        figures.pop(change["field"], None)
    else:
        figures[change["field"]] = to
    if not figures:
        del state["figures"][change["property"]]


def _apply_paid(state: State, change: Change) -> None:
    """Keep the bid an unpriced deed was won for, or forget it (None)."""
    paid = state.setdefault("paid", {})  # late: a state snapshotted before it lacks it
    if change["to"] is None:
        paid.pop(change["property"], None)
    else:
        paid[change["property"]] = change["to"]


def _apply_share_price(state: State, change: Change) -> None:
    """Set the share price."""
    shares_of(state)["price"] = change["to"]


def _apply_shares(state: State, change: Change) -> None:
    """Set the shares a player holds; 0 takes the player off."""
    to = change["to"]
    if to:
        shares_of(state)["held"][change["player"]] = to
    else:
        shares_of(state)["held"].pop(change["player"], None)


def _apply_policy(state: State, change: Change) -> None:
    """Give a player an insurance policy (True) or take it back (False)."""
    held = state["policies"].setdefault(change["player"], [])
    if change["to"]:
        held.append(change["policy"])
    else:
        held.remove(change["policy"])
    if not held:
        del state["policies"][change["player"]]


def _apply_name(state: State, change: Change) -> None:
    """Rename a player, keeping the name he was created with while he has another."""
    # The name a player was created with is kept while he has another one: the game's header
    # (its export, the start of its hash chain) names the players as they were created. Kept
    # only while needed, so that a void of a rename gives back the very state before it.
    pid, to = change["player"], change["to"]
    first = state.setdefault("first_names", {})
    first.setdefault(pid, change["from"])
    if first[pid] == to:
        del first[pid]
    state["players"][pid]["name"] = to


def _apply_dispute(state: State, change: Change) -> None:
    """Write a dispute's whole entry, or remove it (None)."""
    to = change["to"]
    disputes = state.setdefault("disputes", {})
    if to is None:
        disputes.pop(str(change["dispute"]), None)
    else:
        disputes[str(change["dispute"])] = cast(DisputeEntry, dict(to))


def _apply_dispute_status(state: State, change: Change) -> None:
    """Set a dispute's status, ``resolved_by`` and note."""
    state["disputes"][str(change["dispute"])].update(change["to"])


def _current_dispute_status(state: State, t: Change) -> Any:
    """A dispute's status, ``resolved_by`` and note, as a ``dispute_status`` change holds them."""
    entry = state["disputes"][str(t["dispute"])]
    return {k: entry[k] for k in ("status", "resolved_by", "note")}


# -- the registries ----------------------------------------------------------------------


def parts(*declared: Part) -> dict[str, Part]:
    """The parts by name, in the order a new state lists them."""
    return {p.name: p for p in declared}


def kinds(*declared: ChangeKind) -> dict[str, ChangeKind]:
    """The kinds by name; one declared twice is a programming error."""
    found: dict[str, ChangeKind] = {}
    for k in declared:
        if k.kind in found:
            raise TypeError(f"change kind {k.kind} is declared twice")
        found[k.kind] = k
    return found


PARTS = parts(
    Part("status", lambda t: "active", None, '"active" or "finished"'),
    Part(
        "players",
        lambda t: {
            f"p{i}": {"name": name, "bankrupt_seq": None, "in_jail": False}
            for i, name in enumerate(t.players, start=1)
        },
        _entries,
        "by player id: name, bankrupt_seq, in_jail",
    ),
    Part(
        "balances",
        lambda t: {"bank": 0, "pot": 0, **{f"p{i}": 0 for i in range(1, len(t.players) + 1)}},
        dict,
        "by account: cash (written by postings, never by a change)",
    ),
    Part(
        "properties",
        lambda t: {
            slug: {"owner": "bank", "mortgaged": False, "houses": 0, "hotel": False}
            for slug in t.deeds
        },
        _entries,
        "by deed: owner, mortgaged, houses, hotel",
    ),
    Part(
        "supply",
        lambda t: {"houses": t.houses, "hotels": t.hotels},
        dict,
        "the Bank's houses and hotels; None: no limit (Millionaire Elite)",
    ),
    Part(
        "jail_cards",
        lambda t: dict.fromkeys(JAIL_DECKS, "deck"),
        dict,
        'by deck: "deck" or the player holding its card',
    ),
    Part("turn", lambda t: None, None, "the player whose turn it is, or None"),
    Part("standings", lambda t: None, None, "None, or the ranking once finished"),
    Part("voided", lambda t: {}, dict, "by seq (a string): the void that reversed it", lazy=True),
    Part("ious", lambda t: {}, _entries, "by IOU id: debtor, holder, amount, outstanding"),
    Part("built_this_turn", lambda t: {}, dict, "by player: houses built since the last turn"),
    Part("figures", lambda t: {}, _entries, "by deed: the figures the banker entered"),
    Part(
        "shares",
        lambda t: None if t.share_price is None else {"price": t.share_price, "held": {}},
        _shares,
        "None, or the share price and the shares held by player (Millionaire Elite)",
    ),
    Part("policies", lambda t: {}, _lists, "by player: the insurance policies held"),
    Part("exempt", lambda t: {}, dict, "by player: True while the next round tax is waived"),
    Part(
        "first_lap",
        lambda t: {},
        dict,
        "by player: True once the first salary on GO is recorded",
        late=True,
    ),
    Part("disputes", lambda t: {}, _entries, "by seq (a string): the dispute", late=True),
    Part(
        "first_names",
        lambda t: {},
        dict,
        "by player: the name given at creation, while the player has another one",
        late=True,
    ),
    Part(
        "paid",
        lambda t: {},
        dict,
        "by deed: the bid it was won for at an auction while its price was not known",
        late=True,
    ),
    Part("last_seq", lambda t: 0, None, "the seq of the last transaction applied"),
    Part("head", lambda t: "", None, "the hash of the last transaction applied"),
)

CHANGES = kinds(
    field_of("deed", "properties", "property", "owner", '"bank" or a player id'),
    field_of("mortgage", "properties", "property", "mortgaged", "bool"),
    ChangeKind(
        "houses",
        "properties[property].houses, supply.houses",
        ("property",),
        "house count on the street (the Bank's supply moves the other way)",
        lambda s, t: s["properties"][t["property"]]["houses"],
        _apply_houses,
    ),
    ChangeKind(
        "hotel",
        "properties[property].hotel, supply.hotels",
        ("property",),
        "bool (the Bank's hotel supply moves the other way)",
        lambda s, t: s["properties"][t["property"]]["hotel"],
        _apply_hotel,
    ),
    ChangeKind(
        "jail_card",
        "jail_cards[deck]",
        ("deck",),
        'holder: "deck" or a player id',
        lambda s, t: s["jail_cards"][t["deck"]],
        _apply_jail_card,
    ),
    field_of("jail", "players", "player", "in_jail", "bool"),
    field_of(
        "bankrupt", "players", "player", "bankrupt_seq", "None, then the seq of the bankruptcy"
    ),
    ChangeKind(
        "turn",
        "turn",
        (),
        "the player whose turn it is, or None",
        lambda s, t: s["turn"],
        _apply_turn,
    ),
    ChangeKind(
        "status",
        "status, standings",
        (),
        '"active" or "finished" (with ``standings`` when finished)',
        lambda s, t: s["status"],
        _apply_status,
        extra=("standings",),
    ),
    ChangeKind(
        "void",
        "voided[seq]",
        ("seq",),
        "None, then the seq of the void that reversed transaction ``seq``",
        lambda s, t: s["voided"].get(str(t["seq"])),
        _apply_void,
    ),
    ChangeKind(
        "iou",
        "ious[iou]",
        ("iou",),
        "None, then the IOU's record (debtor, holder, amount, outstanding)",
        lambda s, t: s["ious"].get(t["iou"]),
        _apply_iou,
    ),
    field_of("iou_outstanding", "ious", "iou", "outstanding", "what the debtor still owes on it"),
    field_of("iou_holder", "ious", "iou", "holder", "who holds it"),
    ChangeKind(
        "built_this_turn",
        "built_this_turn[player]",
        ("player",),
        "houses a player has built since the last recorded turn",
        lambda s, t: s["built_this_turn"].get(t["player"], 0),
        _apply_built_this_turn,
    ),
    ChangeKind(
        "figure",
        "figures[property][field]",
        ("property", "field"),
        'a figure the banker entered where the rule set prints none ("field": "price" or '
        '"building_price"), or None',
        lambda s, t: s["figures"].get(t["property"], {}).get(t["field"]),
        _apply_figure,
    ),
    ChangeKind(
        "paid",
        "paid[property]",
        ("property",),
        "the winning bid of a deed whose price is not known, which it counts at in net worth "
        "(Millionaire Elite), or None",
        lambda s, t: s.get("paid", {}).get(t["property"]),
        _apply_paid,
    ),
    ChangeKind(
        "share_price",
        "shares.price",
        (),
        "the price of a share (Millionaire Elite)",
        lambda s, t: shares_of(s)["price"],
        _apply_share_price,
    ),
    ChangeKind(
        "shares",
        "shares.held[player]",
        ("player",),
        "shares a player holds",
        lambda s, t: shares_of(s)["held"].get(t["player"], 0),
        _apply_shares,
    ),
    ChangeKind(
        "policy",
        "policies[player]",
        ("player", "policy"),
        "the policy (a colour) held (True) or not (False)",
        lambda s, t: t["policy"] in s["policies"].get(t["player"], []),
        _apply_policy,
    ),
    flag_of("exempt", "exempt", "the next round tax is waived (True) or not (False)"),
    flag_of(
        "first_lap",
        "first_lap",
        "the player's first salary on GO is recorded (True) or not (False); recorded only "
        "under the house rule buy_after_first_lap",
    ),
    ChangeKind(
        "name",
        "players[player].name, first_names[player]",
        ("player",),
        "the player's name (the first one is kept in ``first_names``)",
        lambda s, t: s["players"][t["player"]]["name"],
        _apply_name,
    ),
    ChangeKind(
        "dispute",
        "disputes[dispute]",
        ("dispute",),
        'None, then the dispute\'s record (seq, about, by, reason, status "open", '
        "resolved_by None, note None)",
        lambda s, t: s["disputes"].get(str(t["dispute"])),
        _apply_dispute,
    ),
    ChangeKind(
        "dispute_status",
        "disputes[dispute]",
        ("dispute",),
        '{"status", "resolved_by", "note"}: open, then upheld (by a dispute_resolve) or voided '
        "(by the void that reversed ``about``)",
        _current_dispute_status,
        _apply_dispute_status,
    ),
)


def change_kind(kind: str) -> ChangeKind:
    """The registered change kind ``kind``; an unregistered one is a programming error."""
    try:
        return CHANGES[kind]
    except KeyError:
        raise LookupError(f"{kind!r} is not a registered change kind") from None


def check_registry(
    parts: Mapping[str, Part] = PARTS,
    changes: Mapping[str, ChangeKind] = CHANGES,
    typed: type = State,
) -> None:
    """Every kind writes declared parts and says what it holds; a late part is copied; the
    type of the state (``typed``) declares the parts in their order, the late ones (and only
    they) ``NotRequired``."""
    for k in changes.values():
        unknown = set(k.parts) - set(parts)
        if not k.parts or unknown:
            raise TypeError(f"change kind {k.kind}: undeclared parts {sorted(unknown)}")
        if not k.value or set(k.target) & {"kind", "from", "to", *k.extra}:
            raise TypeError(f"change kind {k.kind}: says what it holds, in fields of its own")
    for p in parts.values():
        if p.late and p.copy is None:
            raise TypeError(f"part {p.name}: a late part is copied (a state may lack it)")
    hints = get_type_hints(typed, include_extras=True)
    if list(hints) != list(parts):
        raise TypeError(f"{typed.__name__} declares {list(hints)}, the parts are {list(parts)}")
    optional = [name for name, hint in hints.items() if get_origin(hint) is NotRequired]
    if optional != [p.name for p in parts.values() if p.late]:
        raise TypeError(f"{typed.__name__}: NotRequired are {optional}, not the late parts")


def _table(head: tuple[str, str, str], rows: list[tuple[str, str, str]]) -> str:
    """The rows under ``head``, in aligned columns, indented as a literal block of the docstring."""
    rule = ("-" * len(head[0]), "-" * len(head[1]), "-" * len(head[2]))
    rows = [head, rule, *rows]
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(f"    {a:<{width[0]}}  {b:<{width[1]}}  {c}".rstrip() for a, b, c in rows)


def tables(parts: Mapping[str, Part] = PARTS, changes: Mapping[str, ChangeKind] = CHANGES) -> str:
    """The parts and the change kinds as the docstring shows them."""
    part_rows = [(p.name, "late" if p.late else "", p.description) for p in parts.values()]
    kind_rows = [(k.kind, k.where, k.value) for k in changes.values()]
    return (
        "Parts of the state, in a new state's order::\n\n"
        f"{_table(('part', '', 'holds'), part_rows)}\n\n"
        "Change kinds (each also has ``kind``, ``from`` and ``to``)::\n\n"
        f"{_table(('kind', 'where', 'from and to'), kind_rows)}\n"
    )


check_registry()
# A late part a state snapshotted before it lacks is copied from this (an empty part).
EMPTY: Mapping[str, Any] = MappingProxyType({})
__doc__ = f"{__doc__}\n{tables()}"
