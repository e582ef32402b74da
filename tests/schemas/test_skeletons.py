"""Unicode's confusable skeletons (UTS #39) as ``ledger.skeletons`` computes them from the
``confusable-homoglyphs`` package's table. Look-alikes are written with escapes."""

from __future__ import annotations

import pytest
from confusable_homoglyphs.confusables import confusables_data

from ledger.skeletons import skeleton


@pytest.mark.parametrize(
    ("one", "other"),
    [
        pytest.param("Ann", "\u0410nn", id="Latin and Cyrillic A"),
        pytest.param("pop", "\u0440\u043e\u0440", id="Latin and Cyrillic p, o"),
        pytest.param("Ann", "\U0001d400nn", id="mathematical bold A"),
        pytest.param("m", "rn", id="a letter like two letters"),
        pytest.param("-", "\u06d4", id="ARABIC FULL STOP, which the table keeps between marks"),
    ],
)
def test_look_alikes_have_one_skeleton(one, other):
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Ann", "Anna"), ("Zo\u00eb", "Zoe"), ("\u042f\u043d", "Jan"), ("Ann", "ann")],
    ids=["Ann Anna", "Zoe with a diaeresis", "Cyrillic Yan and Jan", "a case apart"],
)
def test_texts_that_differ_to_the_eye_have_skeletons_apart(one, other):
    assert skeleton(one) != skeleton(other)


def test_a_skeleton_is_its_own_skeleton():
    # Every character the table names, and every sequence it maps one to.
    texts = set(confusables_data) | {
        alike["c"] for alikes in confusables_data.values() for alike in alikes
    }

    assert [text for text in sorted(texts) if skeleton(skeleton(text)) != skeleton(text)] == []
