"""The fair-play audit over HTTP (API.md v1.1, "Fair play"): any token of the game reads the
flags, in exactly the shape the contract gives."""

from __future__ import annotations

from api_helpers import NewGame, Table


def test_a_game_without_handovers_has_no_flags(table: Table) -> None:
    response = table.get("/fairplay", token=table.tokens["p2"])
    assert response.status_code == 200
    assert response.json == {"flags": []}


def test_a_deed_worth_400_sold_for_10_is_flagged_for_every_token(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record(
        {
            "type": "trade",
            "legs": [
                {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
                {"from": "p2", "to": "p1", "cash": 10},
            ],
        }
    )
    for token in (table.banker, *table.tokens.values()):
        response = table.get("/fairplay", token=token)
        assert response.status_code == 200
        [flag] = response.json["flags"]
        assert set(flag) == {"seq", "rule", "players", "given", "received", "basis", "exempt"}
        assert (flag["seq"], flag["rule"], flag["players"]) == (5, "asset_dumping", ["p1", "p2"])
        assert (flag["given"], flag["received"], flag["exempt"]) == (400, 10, None)


def test_the_audit_changes_nothing(table: Table) -> None:
    before = table.state()
    table.get("/fairplay")
    assert table.state() == before


def test_a_loans_cash_handed_over_before_its_iou_is_not_flagged(new_game: NewGame) -> None:
    table = new_game(player_loans=True)
    # The console's IOU dialog, the cash handed over now: Bob pays Cy 200, then Cy owes him 200.
    table.record({"type": "payment", "from": "p2", "to": "p3", "amount": 200})
    table.record({"type": "iou", "debtor": "p3", "creditor": "p2", "amount": 200})
    response = table.get("/fairplay", token=table.banker)
    assert response.status_code == 200
    assert response.json == {"flags": []}
