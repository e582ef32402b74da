"""Every refusal the ledger can give, each with a stable machine ``code``.

The tree::

    LedgerError                      code, detail, extra fields (status 409 unless noted)
    ├── InvalidField                 422 validation_error: a field the rules require or reject
    ├── IdempotencyKeyReused         422 idempotency_key_reused: same key, another body
    ├── LogInvalid                   422 log_invalid: an import that fails its checks (seq)
    ├── VersionConflict              412 version_conflict: If-Match names an older version
    ├── NotFound                     404 not_found: no such game or transaction
    ├── Unauthorized                 401 unauthorized: missing or unknown token
    ├── Forbidden                    403 forbidden: a token acting beyond its rights
    └── RuleViolation                409: a well-formed request the game's rules refuse
        ├── InsufficientFunds        insufficient_funds (shortfall, can_raise)
        └── (plain RuleViolation)    not_owner, already_owned, mortgaged, ... by ``code``

The API layer turns each into one problem+json response: it reads ``status``, ``code``,
``detail`` and ``extra`` and knows nothing else about the rules.
"""

from __future__ import annotations

from typing import Any


class LedgerError(Exception):
    """Base of every refusal: nothing was recorded."""

    status = 409
    code = "ledger_error"
    title = "Refused"

    def __init__(self, detail: str, code: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        self.extra: dict[str, Any] = extra


class RuleViolation(LedgerError):
    """A well-formed request that the game's rules refuse."""

    title = "Refused by the rules"

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail, code, **extra)


class InsufficientFunds(RuleViolation):
    """A payer lacks the cash; says how much is missing and what could still be raised."""

    def __init__(self, account: str, amount: int, cash: int, can_raise: int) -> None:
        shortfall = amount - cash
        super().__init__(
            "insufficient_funds",
            f"{account} must pay {amount} but holds {cash} (short by {shortfall}; "
            f"could raise {can_raise} more by selling buildings and mortgaging)",
            account=account,
            amount=amount,
            shortfall=shortfall,
            can_raise=can_raise,
        )


class InvalidField(LedgerError):
    """A field the rules make required (or forbid) in this case."""

    status = 422
    code = "validation_error"
    title = "Invalid request"

    def __init__(self, field: str, message: str | list[str]) -> None:
        messages = [message] if isinstance(message, str) else list(message)
        super().__init__(f"{field}: {'; '.join(messages)}", errors={field: messages})


class NotFound(LedgerError):
    """No such game, transaction or rule set."""

    status = 404
    code = "not_found"
    title = "Not found"


class Unauthorized(LedgerError):
    """A missing or unknown token."""

    status = 401
    code = "unauthorized"
    title = "Unauthorized"


class Forbidden(LedgerError):
    """A token of another game, or a player acting beyond its rights."""

    status = 403
    code = "forbidden"
    title = "Forbidden"


class VersionConflict(LedgerError):
    """``If-Match`` named a version of the game that is no longer the latest."""

    status = 412
    code = "version_conflict"
    title = "Precondition failed"


class IdempotencyKeyReused(LedgerError):
    """An ``Idempotency-Key`` already used with a different body."""

    status = 422
    code = "idempotency_key_reused"
    title = "Idempotency key reused"


class LogInvalid(LedgerError):
    """An imported log that is tampered with or breaks the rules, from transaction ``seq``."""

    status = 422
    code = "log_invalid"
    title = "Invalid log"
