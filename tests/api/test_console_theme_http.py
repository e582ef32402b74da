"""The console in a dark room: the pages set the theme before their stylesheet paints anything,
and tell the phone its status bar's colour in each theme."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from flask.testing import FlaskClient

GAME = "/play/6f3248a1-c3bf-4ffa-adf9-bcf865d43b24"


def page_text(client: FlaskClient, url: str) -> str:
    with client.get(url) as response:
        return response.get_data(as_text=True)


class Head(HTMLParser):
    """The elements of a page's head, in order, as (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))


def head_of(client: FlaskClient, page: str) -> list[tuple[str, dict[str, str | None]]]:
    head = Head()
    head.feed(page_text(client, page).split("</head>")[0])
    return head.elements


@pytest.mark.parametrize("page", ["/", GAME])
def test_pages_set_the_theme_before_their_stylesheet(client: FlaskClient, page: str) -> None:
    elements = head_of(client, page)
    # A classic script (no type="module", not deferred) runs while the head is parsed.
    boot = elements.index(("script", {"src": "/console/static/js/theme-boot.js"}))
    sheet = next(
        i
        for i, (tag, attrs) in enumerate(elements)
        if tag == "link" and attrs["rel"] == "stylesheet"
    )
    assert boot < sheet


@pytest.mark.parametrize("page", ["/", GAME])
def test_pages_carry_a_theme_colour_for_light_and_for_dark(client: FlaskClient, page: str) -> None:
    colours = {
        attrs["media"]: attrs["content"]
        for tag, attrs in head_of(client, page)
        if tag == "meta" and attrs.get("name") == "theme-color"
    }
    # The top bar's green of each theme (console.css: --brand), the status bar above it.
    assert colours == {
        "(prefers-color-scheme: light)": "#14532d",
        "(prefers-color-scheme: dark)": "#0f3320",
    }
