"""Unicode's confusable skeletons (UTS #39, section 4): two texts that look alike, such as
"Ann" with a Latin A and "Ann" with a Cyrillic one (U+0410), have the same skeleton.

The data is Unicode's ``confusables.txt`` as the ``confusable-homoglyphs`` package ships it: a
table of look-alike pairs kept both ways round, which no longer says which side of a pair is
Unicode's prototype (the character a class of look-alikes is mapped to). Read as a graph, each
class is a star around its prototype, so a class is the same whichever of its members stands for
it; ``skeleton`` maps every character to the one standing for its class (the sequence where the
class has one: "m" looks like "rn"), and again over the result, until nothing changes.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import cache

# The package keeps a right-to-left character as its table's comment shows it, between two
# LEFT-TO-RIGHT MARKs; the marks are not part of the character.
_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache  # read once, when a name is first compared: the table takes a fifth of a second
def _standing_for() -> dict[str, str]:
    """Each character of a class of look-alikes, and the member that stands for the class."""
    # Imported here: the package reads its tables when it is imported.
    from confusable_homoglyphs.confusables import confusables_data

    linked: defaultdict[str, set[str]] = defaultdict(set)
    for text, alikes in confusables_data.items():
        for alike in alikes:
            one, other = _nfd(text.translate(_MARKS)), _nfd(alike["c"].translate(_MARKS))
            if one != other:
                linked[one].add(other)
                linked[other].add(one)
    standing: dict[str, str] = {}
    seen: set[str] = set()
    for start in linked:
        if start in seen:
            continue
        members, todo = set(), [start]
        while todo:
            member = todo.pop()
            if member not in members:
                members.add(member)
                todo.extend(linked[member] - members)
        seen |= members
        # A sequence stands for its class where there is one: a character of the class is
        # mapped to the sequence ("m" to "rn"), never the other way round.
        sequences = [member for member in members if len(member) > 1]
        stands = min(sequences or members)
        standing.update((member, stands) for member in members if len(member) == 1)
    return standing


def _nfd(text: str) -> str:
    """``text`` in Unicode's NFD: each character decomposed."""
    return unicodedata.normalize("NFD", text)


def skeleton(text: str) -> str:
    """The text as its look-alikes all are: NFD, each character by its class's, NFD again."""
    standing = _standing_for()
    current = _nfd(text)
    while True:
        mapped = _nfd("".join(standing.get(char, char) for char in current))
        if mapped == current:
            return current
        current = mapped
