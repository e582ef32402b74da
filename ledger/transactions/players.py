"""The players themselves: a name corrected mid-game (API.md v1.3, "Players and boxes").

A new name is held to what the names a game is created with are held to: 1 to 40 characters
(the API's schema also refuses control, format and invisible characters, as at creation), and
neither the same ignoring case nor alike to the eye as another player's name
(``ledger.names.clash``), refused with creation's code and words (422 ``validation_error``
on ``name``). It moves no money; it changes the player's name (a ``name`` change with the old
and the new one), which a ``void`` takes back. The game's header keeps the names it was created
with (its hash chain starts from them): an export names the players as they were created, and
its log says each rename.
"""

from __future__ import annotations

import unicodedata
from typing import TypedDict

from ledger.draft import Body, Draft
from ledger.errors import InvalidField
from ledger.names import MAX_NAME, clash
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction


class PlayerRenamed(TransactionRecorded):
    """A player's name corrected by the banker; no money moves."""


class RenameBasis(TypedDict):
    """The player renamed, with the old name and the new one."""

    player: str
    old_name: str
    new_name: str


@transaction(
    "rename_player",
    PlayerRenamed,
    fields=[f.player(), f.text("name", max=MAX_NAME, description="the player's new name")],
    basis=RenameBasis,
)
def rename_player(d: Draft[RenameBasis], body: Body) -> None:
    """Give a player the new name, if no other player's name is too like it; no money moves."""
    player = d.player(body["player"])
    name = new_name(body)
    old = d.state["players"][player]["name"]
    if name == old:
        raise InvalidField("name", f'Must differ from the name {player} has: "{name}".')
    others = (p["name"] for pid, p in d.state["players"].items() if pid != player)
    for other in others:
        # The other name first, as a game's list would hold it, for creation's very words.
        why = clash([other, name])
        if why is not None:
            raise InvalidField("name", why)
    d.change("name", name, player=player)
    d.basis = {"player": player, "old_name": old, "new_name": name}


def new_name(body: Body) -> str:
    """The name asked for, as the API keeps a name (NFC, no spaces around it), 1 to 40
    characters; the API's schema made it so, an import or a caller of the ledger must."""
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise InvalidField("name", f"Length must be between 1 and {MAX_NAME}.")
    if unicodedata.normalize("NFC", name).strip() != name:
        raise InvalidField(
            "name", "Must be as a server keeps a name: NFC, with no spaces around it."
        )
    return name
