"""When two players' names are too alike to tell apart: the same ignoring case, or alike to the
eye. One check for the names a game is created with (``schemas.fields.DistinctNames``, which
also holds each name to its form: length, characters) and for a player renamed mid-game
(``ledger.transactions.players``), so that both refuse the same names in the same words.

Two names look alike when they share a confusable skeleton (``lookalike_keys``: Unicode's UTS
#39 skeletons, ``ledger.skeletons``, of their NFKC forms with the invisible characters left
out and each run of spaces read as one), as written or ignoring case: "Ann" and "Ann" with a
Cyrillic A (U+0410), in full-width letters (U+FF21), or "A nn" and "A  nn".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ledger.skeletons import skeleton

# A game's or a player's name is 1 to this many characters (code points, after NFC).
MAX_NAME = 40

# Characters that show as nothing: Unicode's Default_Ignorable_Code_Point (in its
# DerivedCoreProperties.txt: U+034F COMBINING GRAPHEME JOINER, the Hangul fillers U+115F, U+1160,
# U+3164, U+FFA0, variation selectors, the format characters above) and U+2800 BRAILLE PATTERN
# BLANK. A name of them and spaces is as blank as one of spaces alone; inside a name they make a
# look-alike of another.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


# A run of spaces of any kind, which the eye reads as one.
SPACES = re.compile(r"\s+")


def code_point(char: str) -> str:
    """How a message names a character it refuses, which may well be invisible: U+202E."""
    return f"U+{ord(char):04X}"


def caseless(name: str) -> str:
    """A name as two names that differ only in case compare: ``"Ann"``, ``"ANN"``, ``"ann"``."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def lookalike_keys(name: str) -> set[str]:
    """What a name looks like, as written and ignoring case: the confusable skeletons (UTS #39)
    of its NFKC form with its invisible characters left out and each run of spaces as one.
    Names that share one look alike."""
    visible = INVISIBLE.sub("", unicodedata.normalize("NFKC", name))
    visible = SPACES.sub(" ", visible)  # "A  nn" reads as "A nn"
    return {skeleton(visible), skeleton(visible.casefold())}


def lookalike_message(first: str, second: str) -> str:
    """The refusal of two names that look alike, naming the characters that make them differ."""
    odd = ", ".join(
        code_point(char)
        for char in dict.fromkeys(second)
        if char.casefold() not in first.casefold()
    )
    return f'Names must not look alike: "{first}" and "{second}" do' + (
        f" ({odd})." if odd else "."
    )


def clash(names: Iterable[str]) -> str | None:
    """Why two names of a list, in order, cannot both be players' names (the first pair found:
    the same ignoring case, else alike to the eye), or None where no two are too alike."""
    seen: dict[str, str] = {}
    looks: dict[str, str] = {}
    for name in names:
        key = caseless(name)
        if key in seen:
            return f'Names must differ, ignoring case: "{seen[key]}" and "{name}" do not.'
        seen[key] = name
        for look in lookalike_keys(name):
            if look in looks:
                return lookalike_message(looks[look], name)
            looks[look] = name
    return None
