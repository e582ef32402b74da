"""The tamper-evident chain: each transaction's hash covers the previous hash and itself."""

from __future__ import annotations

import hashlib
import json
import json.encoder
from collections.abc import Callable
from typing import Any

# Fields of a transaction record that are not part of its hash.
UNHASHED = ("hash", "voided_by")


# One encoder for every call: ``json.dumps`` with these options builds a new one each time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# The json module's C encoder (None where it has no C speed-ups).
_C_MAKE_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)


def json_encoding(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """A function giving ``encoder.encode(value)``'s text, without the Python around the call
    of the C encoder in it (a tenth of the time on a transaction record).

    ``JSONEncoder.encode`` of anything but a string makes a C encoder with these arguments
    (``JSONEncoder.iterencode``, one-shot: new markers for the check of circular values each
    time) and joins what it gives. An encoder with an indent, a subclass (which may encode
    otherwise) or a json module without its C part: its own ``encode``. The encoder's options
    are read now; they are not changed later.
    """
    if _C_MAKE_ENCODER is None or type(encoder) is not json.JSONEncoder or encoder.indent:
        return encoder.encode
    make, check_circular, encode = _C_MAKE_ENCODER, encoder.check_circular, encoder.encode
    string = (
        json.encoder.encode_basestring_ascii
        if encoder.ensure_ascii
        else json.encoder.encode_basestring
    )
    args = (
        encoder.default,
        string,
        None,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )

    def encoding(value: Any) -> str:
        if isinstance(value, str):
            return encode(value)
        return "".join(make({} if check_circular else None, *args)(value, 0))

    return encoding


_CANONICAL_TEXT = json_encoding(_CANONICAL)


def canonical(value: Any) -> str:
    """The canonical serialization hashed into the chain: sorted keys, no whitespace.

    The same text as ``json.dumps(value, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``: every hash ever recorded depends on it.
    """
    return _CANONICAL_TEXT(value)


def sha256(text: str) -> str:
    """Hex SHA-256 of a text's UTF-8 bytes.

    ``surrogatepass``: a lone surrogate (which JSON can carry, ``"\\ud800"``) is hashed as the
    three bytes of its code point instead of raising. Every text without one, so every text a
    store could ever have kept, hashes to the same bytes as before.
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chain_hash(previous: str, txn: dict[str, Any]) -> str:
    """The hash of a transaction: over the previous hash and the transaction itself."""
    body = dict(txn)  # a copy without the unhashed fields (a fifth the time of a comprehension)
    for key in UNHASHED:
        body.pop(key, None)
    return sha256(previous + canonical(body))


def genesis(header: dict[str, Any]) -> str:
    """Where a game's chain starts: the hash of its header (name, rule set, options, players,
    created)."""
    return sha256(canonical(header))
