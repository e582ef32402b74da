"""Every refusal code of the registry (ledger/refusals.py) is documented in docs/api.md with its
params, and has a sentence in each of the console's languages that uses only its params."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from console_languages import dictionaries

from ledger.refusals import REFUSALS

ROOT = Path(__file__).parents[2]
DICTIONARIES = dictionaries()  # English first
ENTRY = re.compile(r"^\s*(r_\w+): '([^']*)',?$", re.M)


def dictionary(name: str) -> dict[str, str]:
    """The ``r_`` entries of one of the console's dictionaries, read as text."""
    text = (ROOT / "api/static/console/js" / name).read_text(encoding="utf-8")
    return dict(ENTRY.findall(text))


def expected_keys() -> dict[str, set[str]]:
    """Each key the console needs, with the params its sentence may use."""
    keys: dict[str, set[str]] = {}
    for code, refusal in REFUSALS.items():
        common = set.intersection(*(set(c.params) for c in refusal.cases.values()))
        keys[f"r_{code}"] = common
        for reason, case in refusal.cases.items():
            if reason is not None:
                keys[f"r_{code}_{reason}"] = set(case.params)
    return keys


@pytest.mark.parametrize("name", DICTIONARIES)
def test_every_code_and_reason_has_a_sentence_in_each_language(name):
    assert set(dictionary(name)) == set(expected_keys())


@pytest.mark.parametrize("name", DICTIONARIES)
def test_each_sentence_uses_only_the_params_of_its_code(name):
    allowed = expected_keys()

    for key, sentence in dictionary(name).items():
        used = set(re.findall(r"\{(\w+)\}", sentence))
        assert used <= allowed[key], (name, key, used - allowed[key])


def test_the_other_languages_sentences_are_translated():
    english = dictionary(DICTIONARIES[0])

    for name in DICTIONARIES[1:]:
        same = {k for k, v in dictionary(name).items() if v == english[k]}
        assert not same, (name, same)


def test_docs_list_every_code_with_its_params():
    page = (ROOT / "docs/api.md").read_text(encoding="utf-8")

    for code, refusal in REFUSALS.items():
        for reason, case in refusal.cases.items():
            names = [f"`{p}`" for p in case.params] + [f"`{p}`?" for p in case.optional]
            row = f"| `{code}` | {f'`{reason}`' if reason else ''} | {', '.join(names) or '—'} |"
            assert row in page, row
