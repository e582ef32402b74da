"""A new game's body."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from schemas.games import NewGameSchema

GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}


def errors_of(body):
    with pytest.raises(ValidationError) as info:
        NewGameSchema().load(body)
    return info.value.messages


def test_new_game_is_kept_as_given():
    body = {**GAME, "options": {"free_parking_pot": True, "income_tax": "flat", "luxury_tax": 100}}

    assert NewGameSchema().load(body) == body


def test_names_are_stripped():
    loaded = NewGameSchema().load({**GAME, "name": " Friday ", "players": [" Ann", "Bob "]})

    assert (loaded["name"], loaded["players"]) == ("Friday", ["Ann", "Bob"])


def test_blank_player_name_is_refused():
    assert errors_of({**GAME, "players": ["Ann", " "]}) == {
        "players": {1: ["Length must be between 1 and 40."]}
    }


def test_player_name_over_40_characters_is_refused():
    assert list(errors_of({**GAME, "players": ["A" * 41]})["players"]) == [0]


@pytest.mark.parametrize("players", [[], ["P"] * 9])
def test_one_to_eight_players(players):
    assert list(errors_of({**GAME, "players": players})) == ["players"]


def test_option_value_must_be_a_boolean_a_string_or_an_integer():
    assert errors_of({**GAME, "options": {"free_parking_pot": {"on": True}}}) == {
        "options": {
            "free_parking_pot": [
                "A boolean, a string of up to 64 characters or an integer up to 10**9."
            ]
        }
    }


def test_option_amount_over_10_to_the_9_is_refused():
    assert list(errors_of({**GAME, "options": {"luxury_tax": 10**10}})["options"]) == ["luxury_tax"]


def test_unknown_field_is_refused():
    assert errors_of({**GAME, "banker": "Dee"}) == {"banker": ["Unknown field."]}


def test_name_ruleset_and_players_are_required():
    assert set(errors_of({})) == {"name", "ruleset", "players"}
