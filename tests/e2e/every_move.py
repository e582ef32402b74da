"""The moves of test_console_every_move.py, which the console's tests of words use too
(tests/e2e/test_console_words.py): a classic game's steps in an order where each is
recordable, with the set-up they need, and Millionaire Elite's own; what the steps read off
the game, and a dialog's fields filled in.

Imported as ``from every_move import ...`` (pytest puts ``tests/e2e`` on the path).
"""

# The players' names are Cyrillic, which RUF001 would take for look-alikes of Latin letters.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from console_steps import record
from every_type import FULL_NAMES
from server import Server

with contextlib.suppress(ImportError):
    from playwright.sync_api import Page

Fill = dict[str, Any]
# A step: the type, and its fields (a callable reads them off the game as it stands).
Step = tuple[str, Fill | Callable[[dict[str, Any]], Fill]]


# The players and the game named in the reader's language: a Russian screen holds no Latin
# letter but the box's own name (console_steps.problems).
NAMES = {
    "en-US": ["Ann", "Bob", "Cy", "Dan"],
    "ru-RU": ["Аня", "Борис", "Вера", "Дима"],
    "pl-PL": ["Ania", "Bartek", "Celina", "Darek"],
}
GAME_NAMES = {"en-US": "Friday", "ru-RU": "Пятница", "pl-PL": "Piątek"}


def neutral(step: Step) -> Step:
    """A step with its reason or note typed in no language's letters (the banker's own words
    are shown as typed)."""
    kind, given = step

    def fields(game: dict[str, Any]) -> dict[str, Any]:
        values = given(game) if callable(given) else given
        return {k: "?" if k in ("reason", "note") else v for k, v in values.items()}

    return kind, fields


def last_seq_of(kind: str) -> Callable[[dict[str, Any]], Fill]:
    """The fields of a void or dispute of the last transaction of ``kind``."""
    return lambda game: {"seq": game["seq_of"][kind]}


# Ann p1, Bob p2, Cy p3, Dan p4, as set_up_classic leaves them: Ann holds the brown group, Bob
# Reading Railroad, Cy Oriental Avenue mortgaged; Bob owes Ann 50; Bob's salary is disputed.
CLASSIC: list[Step] = [
    ("salary", {"player": "p1"}),
    ("payment", {"from": "p1", "to": "pot", "amount": 10}),
    ("card", {"player": "p1", "effect": "collect", "amount": 20}),
    ("tax", {"player": "p1", "tax": "luxury"}),
    ("pot_collect", {"player": "p2"}),
    ("buy", {"player": "p1", "property": "vermont-avenue"}),
    ("auction", {"property": "connecticut-avenue", "winner": "p2", "bid": 50}),
    ("rent", {"payer": "p1", "property": "reading-railroad"}),
    ("mortgage", {"property": "vermont-avenue"}),
    ("unmortgage", {"property": "oriental-avenue"}),
    ("build", {"property": "mediterranean-avenue", "houses": 1}),
    ("sell_buildings", {"property": "mediterranean-avenue", "houses": 1}),
    ("jail_card", {"player": "p2", "action": "draw", "deck": "chance"}),
    ("go_to_jail", {"player": "p3"}),
    ("leave_jail", {"player": "p3"}),
    ("jail_fine", {"player": "p3"}),
    ("iou", {"debtor": "p1", "creditor": "p2", "amount": 30}),
    ("iou_repay", lambda game: {"iou": game["ious"][0], "amount": 10}),
    ("iou_transfer", lambda game: {"iou": game["ious"][0], "to": "p3"}),
    ("iou_forgive", lambda game: {"iou": game["ious"][0]}),
    ("turn", {"player": "p1"}),
    ("void", lambda game: {"seq": game["seq_of"]["turn"], "reason": "x"}),
    ("dispute", lambda game: {"seq": game["seq_of"]["card"], "reason": "x"}),
    ("dispute_resolve", lambda game: {"dispute": game["open_disputes"][0], "note": "x"}),
    ("rename_player", lambda game: {"player": "p4", "name": FULL_NAMES[game["names"]["p4"]]}),
    # Dan owes the Bank more than he could ever raise (docs/rules.md, "Bankruptcy").
    ("bankruptcy", {"debtor": "p4", "creditor": "bank", "owed": 100000}),
]
OWN_DIALOG = {"trade"}
ELITE: list[Step] = [
    ("shares", {"player": "p1", "action": "buy", "count": 1}),
    ("share_price", {"direction": "up", "points": 1}),
    ("round_tax", {"player": "p1", "plot_tax": 0}),  # no plots: nothing from the TAX table
    ("tax_exemption", {"player": "p2"}),
    ("insurance", {"player": "p1", "action": "buy", "policy": "green"}),
    ("jackpot", {"player": "p1", "stake": 10, "payout": 0}),
]


def call(server: Server, game: dict, path: str) -> dict[str, Any]:
    answer = server.call("GET", f"/api/v1/games/{game['id']}{path}", None, game["banker_token"])
    assert answer.status == 200, answer
    return answer.body  # type: ignore[no-any-return]


def facts(server: Server, game: dict) -> dict[str, Any]:
    """What the steps read off the game: the last seq of each type, the open IOUs and
    disputes, the players' names."""
    state = call(server, game, "")
    items = call(server, game, "/transactions?limit=1000")["items"]
    return {
        "seq_of": {txn["type"]: txn["seq"] for txn in items},
        "ious": [i["id"] for i in state["ious"] if i["outstanding"] > 0],
        "open_disputes": [d["seq"] for d in state.get("disputes", []) if d["status"] == "open"],
        "last_seq": state["last_seq"],
        "names": {p["id"]: p["name"] for p in state["players"]},
    }


def fill(page: Page, dialog: Any, fields: Fill) -> None:
    for name, value in fields.items():
        control = dialog.locator(f"[data-field={name}]").first
        tag = control.evaluate("el => el.tagName")
        if tag == "SELECT":
            control.select_option(str(value))
        elif tag == "DIV":  # radios
            control.locator(f"input[value={value}]").check()
        else:
            control.fill(str(value))


def set_up_classic(server: Server, game: dict, reason: str = "twice?") -> None:
    """The set-up CLASSIC's steps need (above), recorded through the API; ``reason``: the
    dispute's."""
    for body in (
        {"type": "buy", "player": "p1", "property": "mediterranean-avenue"},
        {"type": "buy", "player": "p1", "property": "baltic-avenue"},
        {"type": "buy", "player": "p2", "property": "reading-railroad"},
        {"type": "buy", "player": "p3", "property": "oriental-avenue"},
        {"type": "mortgage", "property": "oriental-avenue"},
        {"type": "iou", "debtor": "p2", "creditor": "p1", "amount": 50},
    ):
        record(server, game, body)
    salary = record(server, game, {"type": "salary", "player": "p2"})
    record(server, game, {"type": "dispute", "seq": salary["seq"], "reason": reason})
