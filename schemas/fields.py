"""Strict field types shared by the schemas: JSON integers, JSON booleans, names and texts.

The text rules of API.md ("Server limits") live here and nowhere else:

- ``Name`` (a game's or a player's name): NFC-normalised, trimmed, 1 to 40 characters, not
  only spaces, no control (Cc) or format (Cf: bidirectional overrides, zero-width spaces)
  characters, no invisible ones (U+2800, U+115F, U+034F: ``INVISIBLE``) but a variation
  selector after a visible character, no lone surrogates; ``names`` adds that no two in a list
  are the same ignoring case or look alike (``ledger.names.clash``, which a renamed player's
  name meets too: Unicode's confusable skeletons after NFKC, invisible characters left out).
- ``Text`` (``memo``, ``reason``, ``note``, and the rule set's labels): trimmed, no lone
  surrogates, no control character other than a newline.
- ``StoredName`` and ``stored_names``: the same rules for a name read back from an exported log
  (an import), which must also be as a server keeps it (already NFC and trimmed: the hash chain
  covers it as it is, so it cannot be normalised on the way in).
- ``Timestamp``: an RFC 3339 UTC time as the server writes them (``2026-11-29T20:15:03.120Z``).

A lone surrogate (``"\\ud800"`` in JSON) is a string Python holds but no UTF-8 store can keep:
refused by these fields, and anywhere in a JSON body by ``surrogate_in`` (the API's parser),
it never reaches the ledger.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from marshmallow import ValidationError, fields, validate

from ledger.names import INVISIBLE, MAX_NAME, clash, code_point

# Upper bounds that keep every figure and every string well inside what the ledger and its
# storage handle; no game comes near them.
MAX_AMOUNT = 10**9
MAX_SEQ = 2**31 - 1
MAX_ID = 64

# Control characters (category Cc) but the newline: U+0000-0008, U+000B-001F, U+007F-009F.
# Tab and carriage return count as control characters too.
TEXT_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
# Categories a name never holds: control, format (U+200B, U+202A-202E, U+2066-2069, U+FEFF,
# ...), surrogate.
NAME_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
# Characters that show as nothing are ledger.names's ``INVISIBLE``: a player renamed mid-game
# is held to the same check of look-alikes as the names a game is created with.
# Invisible too, but they choose how the character before them is drawn: U+FE0F after a heart
# draws it as an emoji (a phone's keyboard types them so), U+E0100... a variant of a kanji.
VARIATION_SELECTOR = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


SURROGATE = "Must not contain a lone surrogate ({char})."
KEY_SURROGATE = "Keys must not contain a lone surrogate ({char})."


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate of a text, if it holds one."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return text[error.start]
    return None


def surrogate_in(value: Any, path: str = "") -> tuple[str, str] | None:
    """Where the first lone surrogate of a JSON value is (the dotted path of its string, or of
    the object whose key holds it: "" for the top) and the message saying so."""
    found: tuple[str, str] | None = None
    if isinstance(value, str):
        char = lone_surrogate(value)
        if char is not None:
            found = (path, SURROGATE.format(char=code_point(char)))
    elif isinstance(value, dict):
        for key, item in value.items():
            char = lone_surrogate(key)
            if char is not None:
                return (path, KEY_SURROGATE.format(char=code_point(char)))
            found = surrogate_in(item, f"{path}.{key}" if path else key)
            if found is not None:
                break
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = surrogate_in(item, f"{path}.{index}" if path else str(index))
            if found is not None:
                break
    return found


class Int(fields.Integer):
    """A JSON integer: strings, floats and booleans are refused."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class Bool(fields.Boolean):
    """A JSON boolean: 0, 1, "yes" and the like are refused."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        """The value if it is a JSON ``true`` or ``false``; anything else refused."""
        if value is True or value is False:
            return value
        raise self.make_error("invalid", input=value)


class Text(fields.String):
    """Free text: trimmed; no lone surrogate, no control character but the newline."""

    default_error_messages = {  # noqa: RUF012 - marshmallow's own declaration style
        "surrogate": SURROGATE,
        "control": "Must not contain control characters other than newline ({char}).",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        """The text trimmed; a lone surrogate or a control character but the newline refused."""
        text = super()._deserialize(value, attr, data, **kwargs)
        surrogate = lone_surrogate(text)
        if surrogate is not None:
            raise self.make_error("surrogate", char=code_point(surrogate))
        control = TEXT_CONTROLS.search(text)
        if control is not None:
            raise self.make_error("control", char=code_point(control.group()))
        return text.strip()


class Name(fields.String):
    """A game's or a player's name: NFC, trimmed, 1 to 40 characters, not only spaces, and no
    control or format character or lone surrogate (nothing that hides or reorders text)."""

    default_error_messages = {  # noqa: RUF012 - marshmallow's own declaration style
        "surrogate": SURROGATE,
        "hidden": "Must not contain control or format characters ({char}).",
        "blank": "Must not be only spaces.",
        "invisible": "Must not contain invisible characters ({char}).",
        "marks": "Must not be only marks over nothing ({char}).",
    }

    def __init__(self, **kwargs: Any) -> None:
        more = kwargs.pop("validate", None)
        validators: list[Any] = [validate.Length(min=1, max=MAX_NAME)]
        if more is not None:
            validators += list(more) if isinstance(more, Iterable) else [more]
        metadata = {
            "description": f"NFC, 1 to {MAX_NAME} characters, not only spaces; no control, "
            "format or invisible characters",
            **kwargs.pop("metadata", {}),
        }
        super().__init__(validate=validators, metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        """The name in NFC, trimmed; refused if it hides or reorders text, or shows nothing."""
        text = super()._deserialize(value, attr, data, **kwargs)
        surrogate = lone_surrogate(text)
        if surrogate is not None:
            raise self.make_error("surrogate", char=code_point(surrogate))
        for char in text:
            if unicodedata.category(char) in NAME_CATEGORIES:
                raise self.make_error("hidden", char=code_point(char))
        name = unicodedata.normalize("NFC", text).strip()
        # Spaces alone are trimmed to nothing, which the length refuses; fillers are not spaces.
        if name and all(char.isspace() or INVISIBLE.match(char) for char in name):
            raise self.make_error("blank")
        if name and not any(shows(char) and not is_mark(char) for char in name):
            # Accents and other combining marks with no letter under them: nothing to read.
            raise self.make_error("marks", char=code_point(next(c for c in name if is_mark(c))))
        for before, char in zip(" " + name, name, strict=False):  # each and the one before it
            if INVISIBLE.match(char) and not (VARIATION_SELECTOR.match(char) and shows(before)):
                raise self.make_error("invisible", char=code_point(char))
        return name


def is_mark(char: str) -> bool:
    """A combining mark (an accent, a vowel sign): it shows only over another character."""
    return unicodedata.category(char).startswith("M")


def shows(char: str) -> bool:
    """Whether a character of a name shows: neither a space nor invisible."""
    return not char.isspace() and INVISIBLE.match(char) is None


class DistinctNames(validate.Validator):
    """No two names of a list the same ignoring case, nor alike to the eye: "Ann" and "Ann"
    with a Cyrillic A (U+0410), or in full-width letters (U+FF21)."""

    def __call__(self, value: list[str]) -> list[str]:
        """The list, refused if two of its names are the same ignoring case or alike to the eye."""
        message = clash(value)
        if message is not None:
            raise ValidationError(message)
        return value


# The fewest players of any rule set (ledger.ruleset: a rule set's ``players.min`` is 2 to 8).
# The document says it: a game of fewer is refused by its rule set, naming it ("classic is
# played by 2 to 8"), so the list's own length check stays at 1.
MIN_PLAYERS = 2
# What the document says of a list of seats' names: that many, and no two the same (the same
# ignoring case, or alike to the eye, JSON Schema cannot say: ``DistinctNames`` refuses them).
SEATS = {"minItems": MIN_PLAYERS, "uniqueItems": True}


def names(*, max_count: int, **kwargs: Any) -> fields.List:
    """Names of seats, in order: 2 to ``max_count`` of them, no two the same ignoring case or
    alike to the eye."""
    metadata = {**SEATS, **kwargs.pop("metadata", {})}
    return fields.List(
        Name(),
        validate=[validate.Length(min=1, max=max_count), DistinctNames()],
        metadata=metadata,
        **kwargs,
    )


class StoredName(Name):
    """A name read back from an exported log: valid as a ``Name``, and already in the form a
    ``Name`` is kept in (its hash covers it as it is)."""

    default_error_messages = {  # noqa: RUF012 - marshmallow's own declaration style
        "not_stored": "Must be as a server keeps a name: NFC, with no spaces around it.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        """The name, refused unless it is already as a server keeps it (NFC, trimmed)."""
        name = super()._deserialize(value, attr, data, **kwargs)
        if name != value:
            raise self.make_error("not_stored")
        return name


def stored_names(*, max_count: int, **kwargs: Any) -> fields.List:
    """``names`` read back from an exported log, each a ``StoredName``."""
    metadata = {**SEATS, **kwargs.pop("metadata", {})}
    return fields.List(
        StoredName(),
        validate=[validate.Length(min=1, max=max_count), DistinctNames()],
        metadata=metadata,
        **kwargs,
    )


# RFC 3339 with the UTC offset written "Z" (as the server writes it) or "+00:00"; a fraction of
# a second of up to 9 digits. The pattern admits exactly the times that exist, so that a client
# (or a fuzzer) reading the OpenAPI document makes none the server refuses: years 0001-9999
# (Python's), each month's days, 29 February in leap years only (every fourth year, but of the
# centuries only every fourth: 2000, not 1900). ASCII digits: ``\d`` is more in Python.
_YEAR = "(?:000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})"
_LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_DATE = (
    f"(?:{_YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    "|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    f"|{_LEAP_YEAR}-02-29)"
)
RFC3339_UTC = (
    f"^{_DATE}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{{1,9}})?(?:Z|\\+00:00)$"
)
_RFC3339_UTC = re.compile(RFC3339_UTC)


class Timestamp(fields.String):
    """An RFC 3339 UTC time, such as ``2026-11-29T20:15:03.120Z``: a real date and time of day."""

    default_error_messages = {  # noqa: RUF012 - marshmallow's own declaration style
        "not_rfc3339": "Not an RFC 3339 UTC time, such as 2026-11-29T20:15:03.120Z.",
    }

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"description": "RFC 3339 UTC", "pattern": RFC3339_UTC}
        super().__init__(metadata={**metadata, **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        """The text, refused unless it is an RFC 3339 UTC time that exists."""
        text = super()._deserialize(value, attr, data, **kwargs)
        if not _RFC3339_UTC.fullmatch(text) or not _real_time(text):
            raise self.make_error("not_rfc3339")
        return text


def _real_time(text: str) -> bool:
    """Whether an RFC 3339 text names a time that exists (no 30 February, no 25 o'clock).

    Read by hand, not with ``strptime``: an import checks its times on a thread of gevent's
    pool (``api.offload``), where ``_strptime``'s lock, made after gevent patched threading,
    deadlocked two imports checked at once."""
    # The pattern holds: the figures are where it puts them.
    year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
    hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
    try:
        datetime(year, month, day, hour, minute, second)
    except ValueError:
        return False
    return True


class Cursor(fields.Field[int]):
    """Where a page starts: the ``next`` of the page before, passed back as ``after``. One type
    in both places (a string of digits, a position from 0 to ``MAX_SEQ``), so a client generated
    from the OpenAPI document passes the one as the other; read as the number it stands for.
    The OpenAPI document says it as a string (api/framework.py maps it)."""

    PATTERN = "^[0-9]{1,10}$"
    default_error_messages = {  # noqa: RUF012 (marshmallow's own class attribute)
        "cursor": "Not a valid cursor: pass the `next` of the page before (0 starts over)."
    }

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"pattern": self.PATTERN, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        """The position as a string of digits; null stays null."""
        return None if value is None else str(value)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        """The position a cursor stands for, at most ``MAX_SEQ`` (past it: an empty last page)."""
        if not isinstance(value, str) or not re.fullmatch(self.PATTERN, value):
            raise self.make_error("cursor")
        # Past the last position any list can reach is past the end, as the pattern says: an
        # empty last page, not a refusal (and a position the store's integers hold).
        return min(int(value), MAX_SEQ)


def next_cursor() -> Cursor:
    """A page's ``next``: where the page after it starts, null after the last page."""
    return Cursor(
        allow_none=True,
        metadata={"description": "pass as `after` for the next page; null after the last"},
    )


def after_cursor() -> Cursor:
    """A list's ``after`` query parameter: the ``next`` of the page before."""
    return Cursor(metadata={"description": "a cursor: the `next` of the previous page"})


def page_limit() -> fields.Integer:
    """A list's ``limit`` query parameter: how many items a page holds at the most."""
    return fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class IfMatch(fields.String):
    """A write's ``If-Match`` as RFC 9110 (13.1.1) writes it: ``*`` (the game, at any version)
    or a list of entity tags, ``"<version>"`` or weak ``W/"<version>"`` (8.8.3: a quoted run of
    visible ASCII but the quote). Anything else (an unquoted version, a stray quote, ``0``) is
    malformed, a 422, never read as no condition. Spaces and tabs around it are not part of the
    value (5.5): an HTTP server strips them before the app sees it, a test client may not.

    Read as the versions its strong tags name (If-Match compares strongly: a weak tag never
    matches, so a list of weak tags names none), None for ``*``."""

    PATTERN = r'^(\*|(W/)?"[!#-~]*"([ \t]*,[ \t]*(W/)?"[!#-~]*")*)$'
    TAG = re.compile('(W/)?"([!#-~]*)"')
    default_error_messages = {  # noqa: RUF012 (marshmallow's own class attribute)
        "if_match": 'Not * nor entity tags ("<version>", as an ETag gave it).'
    }

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"pattern": self.PATTERN, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        """The versions the strong tags name (None for ``*``); a malformed header refused."""
        text = super()._deserialize(value, attr, data, **kwargs).strip(" \t")
        if not re.fullmatch(self.PATTERN, text):
            raise self.make_error("if_match")
        if text == "*":
            return None
        return tuple(tag for weak, tag in self.TAG.findall(text) if not weak)


def camel(name: str) -> str:
    """``sell_buildings`` -> ``SellBuildings``: how the OpenAPI document names a component."""
    return "".join(part.title() for part in name.split("_"))


def money(*, minimum: int = 1, **kwargs: Any) -> Int:
    """An amount of money: a whole number from ``minimum`` to ``MAX_AMOUNT``."""
    return Int(validate=validate.Range(min=minimum, max=MAX_AMOUNT), **kwargs)


def ident(**kwargs: Any) -> fields.String:
    """An identifier the ledger resolves (a player, an account, a deed): 1 to 64 characters."""
    return fields.String(validate=validate.Length(min=1, max=MAX_ID), **kwargs)


def one_of(*values: str, **kwargs: Any) -> fields.String:
    """One of a few fixed words."""
    return fields.String(validate=validate.OneOf(values), **kwargs)
