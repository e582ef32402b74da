"""Every refusal the ledger can give, each with a stable machine ``code``.

The tree, with what each takes (the code first where it takes one)::

    LedgerError(code, detail, **extra)      ``params`` {} but for rules
    ├── InvalidField(field, message)        validation_error: a field the rules require or
    │                                           reject (``errors`` by field)
    ├── IdempotencyKeyReused(detail)        idempotency_key_reused: same key, another body
    ├── IdempotencyInProgress(detail)       idempotency_in_progress: a dry run of a key whose
    │                                           first request is still being recorded
    ├── LogInvalid(detail, seq=)            log_invalid: an import that fails its checks
    ├── VersionConflict(detail, current=)   version_conflict: If-Match names an older one
    ├── NotFound(detail)                    not_found: no such game or transaction
    │   └── NoLiveFeed(detail)                  no event stream where no thread can follow
    ├── Unauthorized(detail)                unauthorized: missing or unknown token
    ├── Forbidden(detail)                   forbidden: a token acting beyond its rights
    └── RuleViolation(code, **params)       a well-formed request the game's rules refuse;
        │                                       ``code`` from ``ledger.refusals.REFUSALS``,
        │                                       ``detail`` built from ``params``
        ├── InsufficientFunds(payer=, amount=, cash=, can_raise=, creditor=)
        │                                   insufficient_funds, its shortfall worked out
        └── DisputesOpen(disputes)          disputes_open: a finish while disputes are open,
                                            with their ``count`` and the first one's ``seq``

The classes with a code of their own (``_OwnCode``) take none. An error says what was refused,
never how a protocol answers it: the API layer maps each ``code`` to its HTTP status and title
in one table (``api.errors.PROBLEMS``) and turns the error into one problem+json response from
its ``code``, ``detail``, ``params`` and ``extra``.
"""

from __future__ import annotations

from typing import Any

from ledger.refusals import refusal


class LedgerError(Exception):
    """Base of every refusal: nothing was recorded."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.params: dict[str, Any] = {}
        self.extra: dict[str, Any] = extra


def ledger_codes() -> set[str]:
    """The codes of the ledger's own errors (its refusals of the rules are
    ``ledger.refusals``'), for the OpenAPI document's enum of problem codes."""
    codes = {BUSY}
    pending: list[type[LedgerError]] = [LedgerError]
    while pending:
        kind = pending.pop()
        pending.extend(kind.__subclasses__())
        code = kind.__dict__.get("code")
        if isinstance(code, str):
            codes.add(code)
    return codes


# A game whose lock stayed taken past the write's wait (ledger/writing.py).
BUSY = "busy"


class _OwnCode(LedgerError):
    """A refusal of one kind, whose class says its code (each subclass sets it)."""

    code: str

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(type(self).code, detail, **extra)


class RuleViolation(LedgerError):
    """A well-formed request that the game's rules refuse: a registered code and its params."""

    def __init__(self, code: str, **params: Any) -> None:
        known = refusal(code)
        params = known.params_of(params)
        super().__init__(code, known.detail(params), **known.members(params))
        self.params = params


class InsufficientFunds(RuleViolation):
    """A payer lacks the cash; says how much is missing and what could still be raised."""

    def __init__(
        self, *, payer: str, amount: int, cash: int, can_raise: int, creditor: str | None = None
    ) -> None:
        owed_to = {} if creditor is None else {"creditor": creditor}
        super().__init__(
            "insufficient_funds",
            payer=payer,
            amount=amount,
            cash=cash,
            shortfall=amount - cash,
            can_raise=can_raise,
            **owed_to,
        )


class DisputesOpen(RuleViolation):
    """The game cannot end while a dispute is open: says how many are, and the first one."""

    def __init__(self, disputes: list[int]) -> None:
        super().__init__("disputes_open", count=len(disputes), seq=min(disputes))


class InvalidField(_OwnCode):
    """A field the rules make required (or forbid) in this case."""

    code = "validation_error"

    def __init__(self, field: str, message: str | list[str]) -> None:
        messages = [message] if isinstance(message, str) else list(message)
        super().__init__(f"{field}: {'; '.join(messages)}", errors={field: messages})


class NotFound(_OwnCode):
    """No such game, transaction or rule set."""

    code = "not_found"


class NoLiveFeed(NotFound):
    """No live event stream here: the process cannot start the thread that follows the store
    (the pocket bank, in a browser's Web Worker, has none). The console asks again after each
    move instead."""


class Unauthorized(_OwnCode):
    """A missing or unknown token."""

    code = "unauthorized"


class Forbidden(_OwnCode):
    """A token of another game, or a player acting beyond its rights."""

    code = "forbidden"


class VersionConflict(_OwnCode):
    """``If-Match`` named a version of the game that is no longer the latest."""

    code = "version_conflict"


class IdempotencyKeyReused(_OwnCode):
    """An ``Idempotency-Key`` already used with a different body."""

    code = "idempotency_key_reused"


class IdempotencyInProgress(_OwnCode):
    """A dry run naming an ``Idempotency-Key`` whose first request is still being recorded: what
    the real repeat answers (that request's transaction, or ``idempotency_key_reused``) is not
    known yet. Nothing refused: ask again. (A real repeat waits for the first and replays it.)"""

    code = "idempotency_in_progress"


class LogInvalid(_OwnCode):
    """An imported log that is tampered with or breaks the rules, from transaction ``seq``."""

    code = "log_invalid"
