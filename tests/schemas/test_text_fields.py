"""The text rules of API.md ("Server limits"), field by field: names and free texts."""

from __future__ import annotations

import pytest
from marshmallow import Schema, ValidationError

from schemas.fields import Name, Text, names
from schemas.games import NewGameSchema

GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}


class NameSchema(Schema):
    name = Name(required=True)


class TextSchema(Schema):
    text = Text()


class SeatsSchema(Schema):
    players = names(max_count=8)


def name_errors(value: object) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        NameSchema().load({"name": value})
    return refused.value.messages["name"]  # type: ignore[call-overload,index,no-any-return]


def text_errors(value: object) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        TextSchema().load({"text": value})
    return refused.value.messages["text"]  # type: ignore[call-overload,index,no-any-return]


def test_a_name_is_nfc_normalised():
    # "e" + COMBINING ACUTE ACCENT is stored as the one character U+00E9.
    assert NameSchema().load({"name": "Re\u0301my"}) == {"name": "R\u00e9my"}


def test_a_name_is_trimmed():
    assert NameSchema().load({"name": "  Ann  "}) == {"name": "Ann"}


def test_a_name_of_40_characters_is_kept_and_one_of_41_refused():
    assert NameSchema().load({"name": "x" * 40}) == {"name": "x" * 40}
    assert name_errors("x" * 41) == ["Length must be between 1 and 40."]


def test_forty_characters_are_counted_after_normalisation():
    # 40 letters each with a combining accent: 80 code points sent, 40 characters kept.
    assert NameSchema().load({"name": "e\u0301" * 40}) == {"name": "\u00e9" * 40}


def test_an_empty_name_or_one_of_spaces_is_refused():
    assert name_errors("") == ["Length must be between 1 and 40."]
    assert name_errors("   ") == ["Length must be between 1 and 40."]
    assert name_errors("\u3000") == ["Length must be between 1 and 40."]  # ideographic space


def test_a_name_of_invisible_fillers_is_refused_as_only_spaces():
    assert name_errors("\u3164\u3164") == ["Must not be only spaces."]  # HANGUL FILLER
    assert name_errors("\u2800") == ["Must not be only spaces."]  # BRAILLE PATTERN BLANK


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("Ann\u200b", "U+200B"),  # ZERO WIDTH SPACE
        ("\u202eAnn", "U+202E"),  # RIGHT-TO-LEFT OVERRIDE
        ("A\u202an", "U+202A"),  # LEFT-TO-RIGHT EMBEDDING
        ("A\u2066n", "U+2066"),  # LEFT-TO-RIGHT ISOLATE
        ("A\u2069n", "U+2069"),  # POP DIRECTIONAL ISOLATE
        ("\ufeffAnn", "U+FEFF"),  # ZERO WIDTH NO-BREAK SPACE (a BOM)
        ("Ann\u00ad", "U+00AD"),  # SOFT HYPHEN
        ("A\x00n", "U+0000"),  # NUL
        ("\x1b[31mAnn", "U+001B"),  # ESC: a terminal colour
        ("A\nn", "U+000A"),  # a newline: a name is one line
        ("A\tn", "U+0009"),
        ("A\x85n", "U+0085"),  # NEXT LINE, a C1 control
    ],
)
def test_a_name_with_a_control_or_format_character_is_refused(name, char):
    assert name_errors(name) == [f"Must not contain control or format characters ({char})."]


@pytest.mark.parametrize("surrogate", ["\ud800", "\udfff", "Ann\udc00"])
def test_a_name_with_a_lone_surrogate_is_refused(surrogate):
    assert name_errors(surrogate)[0].startswith("Must not contain a lone surrogate (U+D")


def test_a_name_in_any_script_is_kept():
    for name in ["Аня", "Małgorzata", "李雷", "أحمد", "Zoë", "O'Brien", "Jean-Luc", "🎩 Rich"]:
        assert NameSchema().load({"name": name}) == {"name": name}


def test_player_names_that_differ_only_in_case_are_refused():
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": ["A", "a"]})

    assert refused.value.messages == {
        "players": ['Names must differ, ignoring case: "A" and "a" do not.']
    }


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "ANN"],
        ["Straße", "STRASSE"],  # casefold: ß is ss
        ["R\u00e9my", "re\u0301my"],  # the same once normalised
        ["Ann", "Bob", " ann "],  # the same once trimmed
    ],
)
def test_player_names_the_same_ignoring_case_are_refused(players):
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": players})

    assert list(refused.value.messages) == ["players"]


# Each written with escapes: the point of them is that they look like "Ann".
LOOK_ALIKES = [
    pytest.param("\u0410nn", "U+0410", id="Cyrillic A"),
    pytest.param("\uff21\uff4e\uff4e", "U+FF21, U+FF4E", id="full-width"),
]


@pytest.mark.parametrize(("lookalike", "chars"), LOOK_ALIKES)
def test_a_player_name_that_looks_like_another_is_refused(lookalike, chars):
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": ["Ann", "Bob", lookalike]})

    assert refused.value.messages == {
        "players": [f'Names must not look alike: "Ann" and "{lookalike}" do ({chars}).']
    }


@pytest.mark.parametrize(
    ("hidden", "char"),
    [
        pytest.param("Ann\u2800", "U+2800", id="BRAILLE PATTERN BLANK"),
        pytest.param("A\u034fnn", "U+034F", id="COMBINING GRAPHEME JOINER"),
        pytest.param("\u115fAnn", "U+115F", id="HANGUL CHOSEONG FILLER"),
        pytest.param("An\u3164n", "U+3164", id="HANGUL FILLER"),
        pytest.param("Ann \ufe0f", "U+FE0F", id="a variation selector after a space"),
    ],
)
def test_a_player_name_with_an_invisible_character_is_refused(hidden, char):
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": ["Ann", hidden]})

    assert refused.value.messages == {
        "players": {1: [f"Must not contain invisible characters ({char})."]}
    }


def test_a_look_alike_in_other_case_is_refused():
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": ["ann", "\u0410NN"]})

    assert refused.value.messages == {
        "players": ['Names must not look alike: "ann" and "\u0410NN" do (U+0410).']
    }


@pytest.mark.parametrize(
    ("players", "char"),
    [(["Al", "AI"], "U+0049"), (["Olga", "0lga"], "U+0030")],
    ids=["capital I and small l", "the digit 0 and the letter O"],
)
def test_names_alike_in_a_plain_typeface_are_refused(players, char):
    # One shape in the console's sans-serif.
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": players})

    assert refused.value.messages == {
        "players": [f'Names must not look alike: "{players[0]}" and "{players[1]}" do ({char}).']
    }


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "Anna"],
        ["\u042e\u043b\u044f", "\u042e\u043b\u0438\u044f"],  # Yulya and Yuliya, in Cyrillic
        ["\u042f\u043d", "Jan"],  # Yan in Cyrillic, and Jan
        ["Zo\u00eb", "Zoe"],  # the diaeresis shows
    ],
    ids=["Ann Anna", "Yulya Yuliya", "Yan Jan", "Zoe with and without diaeresis"],
)
def test_names_that_only_resemble_each_other_are_kept(players):
    assert SeatsSchema().load({"players": players}) == {"players": players}


def test_a_variation_selector_after_a_visible_character_is_kept():
    # U+FE0F draws the heart as an emoji: a phone's keyboard types it after the heart.
    assert NameSchema().load({"name": "\u2764\ufe0f Ann"}) == {"name": "\u2764\ufe0f Ann"}


def test_a_name_with_an_emoji_variation_looks_like_the_name_without_it():
    with pytest.raises(ValidationError) as refused:
        SeatsSchema().load({"players": ["\u2764\ufe0f Ann", "\u2764 Ann"]})

    assert refused.value.messages == {
        "players": ['Names must not look alike: "\u2764\ufe0f Ann" and "\u2764 Ann" do.']
    }


def test_a_name_of_invisible_characters_is_refused_as_only_spaces():
    assert name_errors("\u034f") == ["Must not be only spaces."]  # COMBINING GRAPHEME JOINER


def test_names_that_differ_are_kept_in_order():
    assert SeatsSchema().load({"players": ["Ann", "Anna", "Bob"]}) == {
        "players": ["Ann", "Anna", "Bob"]
    }


@pytest.mark.parametrize(
    "players",
    [
        ["A", "a"],
        ["Ann\u200b"],
        ["\u202eAnn"],
        ["A\x00"],
        ["\x1bAnn"],
        ["Ann", "\u0410nn"],
        ["Ann", "\uff21\uff4e\uff4e"],
        ["Ann", "Ann\u2800"],
        ["Ann", "A\u034fnn"],
    ],
    ids=[
        "A and a",
        "U+200B",
        "U+202E",
        "NUL",
        "ESC",
        "Cyrillic A",
        "full-width",
        "U+2800",
        "U+034F",
    ],
)
def test_a_new_game_refuses_look_alike_player_names(players):
    with pytest.raises(ValidationError) as refused:
        NewGameSchema().load({**GAME, "players": ["Bob", *players]})

    assert list(refused.value.messages) == ["players"]


def test_a_new_games_name_follows_the_name_rules():
    with pytest.raises(ValidationError) as refused:
        NewGameSchema().load({**GAME, "name": "Friday\u202e night"})

    assert refused.value.messages == {
        "name": ["Must not contain control or format characters (U+202E)."]
    }


def test_a_new_games_name_is_at_most_40_characters():
    with pytest.raises(ValidationError) as refused:
        NewGameSchema().load({**GAME, "name": "x" * 41})

    assert refused.value.messages == {"name": ["Length must be between 1 and 40."]}


def test_a_text_keeps_newlines_and_is_trimmed():
    assert TextSchema().load({"text": " two\nlines \n"}) == {"text": "two\nlines"}


@pytest.mark.parametrize(
    ("text", "char"),
    [("a\x00b", "U+0000"), ("\x1b[2J", "U+001B"), ("a\tb", "U+0009"), ("a\rb", "U+000D")],
)
def test_a_text_with_a_control_character_other_than_newline_is_refused(text, char):
    assert text_errors(text) == [
        f"Must not contain control characters other than newline ({char})."
    ]


def test_a_text_with_a_lone_surrogate_is_refused():
    assert text_errors("oops \ud800") == ["Must not contain a lone surrogate (U+D800)."]
