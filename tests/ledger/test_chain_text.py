"""Hashing never fails on text: the chain hashes a lone surrogate too, and every other text as
it always has (the UTF-8 of the canonical JSON)."""

from __future__ import annotations

from ledger.chain import canonical, chain_hash, genesis, sha256


def test_a_lone_surrogate_is_hashed_not_refused():
    # The three bytes ED A0 80 that "surrogatepass" gives U+D800.
    assert sha256("\ud800") == "91a681b998555fb475479817b126c94e57e52011fa1842c5d188795a4a05226b"


def test_a_header_with_a_lone_surrogate_has_a_genesis():
    # sha256(b'{"name":"\xed\xa0\x80"}')
    assert genesis({"name": "\ud800"}) == (
        "65f4cc23bd442495b0d576f44934750c1d8f00ae56c699d691d95e4182ef68e6"
    )


def test_a_transaction_with_a_lone_surrogate_in_its_memo_has_a_hash():
    assert len(chain_hash("0" * 64, {"seq": 1, "memo": "\udfff"})) == 64


def test_text_without_a_surrogate_hashes_to_its_utf8_as_before():
    assert sha256("Ann") == "17239b6e250110330eda64a29c610bf146f89883371fab093feda03bec61b646"
    # sha256('{"memo":"café"}'.encode("utf-8")): non-ASCII kept as is (ensure_ascii=False).
    assert sha256(canonical({"memo": "caf\u00e9"})) == (
        "ea8cf60986e90232351ea118c20f5f1dfb8bdfcb40ea2cd05feb6af232d1c7c9"
    )
    assert genesis({"name": "Ann", "players": ["Ann", "Bob"]}) == (
        "fbd113ad7d87923c84a3307bd96c2d2fbc07fd5dacc92ce32cda3ad1a61b13c0"
    )
