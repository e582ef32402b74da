"""The tamper-evident chain: each transaction's hash covers the previous hash and itself."""

from __future__ import annotations

import hashlib
import json
from typing import Any

# Fields of a transaction record that are not part of its hash.
UNHASHED = ("hash", "voided_by")


# One encoder for every call: ``json.dumps`` with these options builds a new one each time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> str:
    """The canonical serialization hashed into the chain: sorted keys, no whitespace.

    The same text as ``json.dumps(value, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``: every hash ever recorded depends on it.
    """
    return _CANONICAL.encode(value)


def sha256(text: str) -> str:
    """Hex SHA-256 of a text's UTF-8 bytes.

    ``surrogatepass``: a lone surrogate (which JSON can carry, ``"\\ud800"``) is hashed as the
    three bytes of its code point instead of raising. Every text without one, so every text a
    store could ever have kept, hashes to the same bytes as before.
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chain_hash(previous: str, txn: dict[str, Any]) -> str:
    """The hash of a transaction: over the previous hash and the transaction itself."""
    body = {k: v for k, v in txn.items() if k not in UNHASHED}
    return sha256(previous + canonical(body))


def genesis(header: dict[str, Any]) -> str:
    """Where a game's chain starts: the hash of its header (name, rule set, options, players,
    created)."""
    return sha256(canonical(header))
