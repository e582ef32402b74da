"""The fields of a transaction type's request, declared with the type (``@transaction(...,
fields=...)``): what a client sends, as plain data the ledger knows without a schema library.

``schemas.transactions`` builds each type's request schema from them (the shapes a body must
have: kinds, bounds, required fields) and ``ledger.moves`` tells a client, per game, which
types it may record now and what each field may hold (``GET /api/v1/games/{game}/moves``).

A field's ``kind`` is one of ``KINDS`` (API.md v1.2, "What a game can record now: moves"):
``player`` a player id, ``account`` ``bank``, ``pot`` or a player id, ``deed`` a deed id,
``deeds`` a list of them, ``amount`` whole currency units, ``whole`` another whole number,
``choice`` one of ``choices``, ``text``, ``seq`` a transaction of the game, ``boolean``, and
``list`` a list of objects with their own ``fields``. A choice whose words are the game's (its
rule set's policy colours, its open IOUs) names their ``source`` instead of fixed ``choices``.
Where the rules narrow what a field may hold in a game now (the Bank's deeds for a purchase,
the mortgaged ones for a lifted mortgage), its ``offer`` says so (``ledger.transactions.
offers``). A field that applies only beside another field's values says so in ``when``: the
card's ``amount`` is for every effect but repairs, which takes ``per_house`` and
``per_hotel``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KINDS = frozenset(
    {"player", "account", "deed", "deeds", "amount", "whole", "choice", "text", "seq", "boolean"}
    | {"list"}
)
# Where a choice's words come from when they are the game's, not the type's.
SOURCES = frozenset({"policies", "ious"})
# The most deeds a list names: more than any board holds.
MAX_DEEDS = 40


@dataclass(frozen=True)
class Field:
    """One field of a request, as the ledger declares it."""

    name: str
    kind: str
    required: bool = False
    choices: tuple[str, ...] = ()
    source: str | None = None
    min: int | None = None
    max: int | None = None
    fields: tuple[Field, ...] = ()  # a list's objects
    many: bool = False  # a list of such values (``jail_cards``: decks)
    description: str | None = None
    # The field applies (and, if required, is required) only when another field has one of
    # these values: {"effect": ("repairs",)}.
    when: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # What the field may hold in a game now, where the rules narrow it (the Bank's deeds for a
    # purchase): ``offer(rule_set, options, state) -> [choice, ...]`` (ledger.transactions.offers).
    offer: Callable[..., list[str]] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind {self.kind!r} is not one of {sorted(KINDS)}")
        if self.kind == "choice" and not (self.choices or self.source):
            raise ValueError(f"{self.name}: a choice needs its choices or their source")
        if self.source is not None and self.source not in SOURCES:
            raise ValueError(f"{self.name}: source {self.source!r} is not one of {SOURCES}")
        if (self.kind == "list") != bool(self.fields):
            raise ValueError(f"{self.name}: a list, and only a list, has fields of its own")

    def spec(
        self, choices: list[str] | None = None, bounds: dict[str, int] | None = None
    ) -> dict[str, Any]:
        """How the field is shown: with a game's ``choices`` and ``bounds`` (``max``) where
        the game fills them in, else the declared ones (its list's fields as declared)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "required": self.required}
        if choices is None and self.choices and self.kind != "account":
            choices = list(self.choices)
        if choices is not None:
            out["choices"] = choices
        for bound in ("min", "max"):
            value = (bounds or {}).get(bound, getattr(self, bound))
            if value is not None:
                out[bound] = value
        if self.many:
            out["many"] = True
        if self.description:
            out["description"] = self.description
        if self.when:
            out["when"] = {name: list(values) for name, values in self.when.items()}
        if self.fields:
            out["fields"] = [f.spec() for f in self.fields]
        return out


def player(name: str = "player", *, required: bool = True, **more: Any) -> Field:
    """A player of the game."""
    return Field(name, "player", required, **more)


def account(
    name: str, *, required: bool = True, choices: tuple[str, ...] = ("bank", "pot"), **more: Any
) -> Field:
    """A player, or one of the accounts ``choices`` (``bank`` and ``pot`` unless told)."""
    return Field(name, "account", required, choices=choices, **more)


def deed(name: str = "property", *, required: bool = True, **more: Any) -> Field:
    """A deed of the board."""
    return Field(name, "deed", required, **more)


def deeds(name: str, **more: Any) -> Field:
    """A list of deeds of the board."""
    return Field(name, "deeds", False, max=MAX_DEEDS, **more)


def amount(name: str = "amount", *, required: bool = False, min: int = 1, **more: Any) -> Field:
    """Whole currency units, ``min`` at least (1 unless told)."""
    return Field(name, "amount", required, min=min, **more)


def whole(name: str, *, min: int, max: int, required: bool = False, **more: Any) -> Field:
    """A whole number from ``min`` to ``max`` (dice, points, a count)."""
    return Field(name, "whole", required, min=min, max=max, **more)


def choice(name: str, *choices: str, required: bool = True, **more: Any) -> Field:
    """One of a few fixed words (or, with ``source=...``, of the game's)."""
    return Field(name, "choice", required, choices=tuple(choices), **more)


def text(name: str, *, required: bool = True, max: int = 500, **more: Any) -> Field:
    """Free text, 1 to ``max`` characters."""
    return Field(name, "text", required, min=1, max=max, **more)


def seq(name: str = "seq", *, required: bool = True, **more: Any) -> Field:
    """A transaction of this game, by its seq."""
    return Field(name, "seq", required, min=1, **more)


def boolean(name: str, **more: Any) -> Field:
    """True or false."""
    return Field(name, "boolean", False, **more)


def listing(name: str, *of: Field, required: bool = True, max: int, **more: Any) -> Field:
    """A list of 1 to ``max`` objects with the fields ``of``."""
    return Field(name, "list", required, min=1, max=max, fields=of, **more)
