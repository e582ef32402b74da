"""The console on a phone's home screen: the web app manifest the pages link, served with its
type, its icons PNGs of the sizes it declares, and a game's own manifest opening its players'
page."""

from __future__ import annotations

import json
import struct
from html.parser import HTMLParser

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

GAME_ID = "6f3248a1-c3bf-4ffa-adf9-bcf865d43b24"
MANIFEST_TYPE = "application/manifest+json"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def get(client: FlaskClient, url: str) -> TestResponse:
    """A GET whose body is read and whose file is closed (static files are streamed)."""
    with client.get(url) as response:
        response.get_data()
    return response


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its IHDR chunk (always the first)."""
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_is_served_with_its_content_type(client: FlaskClient) -> None:
    response = get(client, "/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == MANIFEST_TYPE
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_manifest_opens_the_bankers_page_as_a_standalone_app(client: FlaskClient) -> None:
    manifest = json.loads(get(client, "/manifest.webmanifest").get_data())
    assert manifest["name"] == "tablebank"
    assert manifest["short_name"] == "tablebank"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    # The light theme's ground and top bar (console.css: --bg, --brand).
    assert manifest["background_color"] == "#f3f4f1"
    assert manifest["theme_color"] == "#14532d"


def test_manifest_has_icons_of_192_and_512_px_and_a_maskable_one(client: FlaskClient) -> None:
    icons = json.loads(get(client, "/manifest.webmanifest").get_data())["icons"]
    assert {(icon["sizes"], icon["purpose"]) for icon in icons} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }


def test_each_icon_is_a_png_of_the_size_it_is_declared(client: FlaskClient) -> None:
    for icon in json.loads(get(client, "/manifest.webmanifest").get_data())["icons"]:
        response = get(client, icon["src"])
        assert response.status_code == 200, icon
        assert response.mimetype == icon["type"] == "image/png"
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert png_size(response.get_data()) == (width, height), icon


def test_a_games_manifest_opens_its_players_page(client: FlaskClient) -> None:
    response = get(client, f"/play/{GAME_ID}/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == MANIFEST_TYPE
    manifest = json.loads(response.get_data())
    assert manifest["id"] == manifest["start_url"] == manifest["scope"] == f"/play/{GAME_ID}"
    assert manifest["display"] == "standalone"
    # The same icons as the banker's.
    assert manifest["icons"] == json.loads(get(client, "/manifest.webmanifest").get_data())["icons"]


def test_a_manifest_of_what_is_no_game_id_is_refused(client: FlaskClient) -> None:
    response = get(client, "/play/not-a-game/manifest.webmanifest")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


class Head(HTMLParser):
    """The elements of a page's head, in order, as (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))


def head_of(client: FlaskClient, page: str) -> list[tuple[str, dict[str, str | None]]]:
    head = Head()
    head.feed(get(client, page).get_data(as_text=True).split("</head>")[0])
    return head.elements


def test_the_bankers_page_links_the_manifest(client: FlaskClient) -> None:
    links = [attrs for tag, attrs in head_of(client, "/") if tag == "link"]
    assert {"rel": "manifest", "href": "/manifest.webmanifest"} in links


def test_a_games_manifest_names_its_app_after_the_game(client: FlaskClient) -> None:
    # Two games' apps on one phone are told apart by their names, not both "tablebank".
    response = get(client, f"/play/{GAME_ID}/manifest.webmanifest?name=Пятница")
    assert response.status_code == 200
    manifest = json.loads(response.get_data())
    assert manifest["name"] == "Пятница · tablebank"
    assert manifest["short_name"] == "Пятница"
    assert manifest["start_url"] == f"/play/{GAME_ID}"


def test_a_games_manifest_refuses_a_name_no_game_could_have(client: FlaskClient) -> None:
    for query in ("name=" + "x" * 41, "name=%20%20", "colour=red"):
        response = get(client, f"/play/{GAME_ID}/manifest.webmanifest?{query}")
        assert response.status_code == 422, query
        assert response.mimetype == "application/problem+json"
        assert response.json is not None and response.json["code"] == "validation_error"
