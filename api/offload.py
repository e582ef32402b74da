"""CPU work off the event loop: an import's parsing, checks and rebuild, one import at a time.

``tablebank serve`` runs gunicorn's gevent worker: every request of a worker process runs on
one thread, switching between greenlets only when one waits. A large import is seconds of
pure computation (every transaction checked and recorded again) and held that thread the
whole time: every other request of the worker waited behind it (a payment 5.7 s behind three
3 MB imports). Now:

- ``CpuPool.run`` hands such work to gevent's pool of native threads, and the greenlet waits
  for it while the event loop serves the others. CPython's GIL still lets one thread compute
  at a time, but hands it to a thread that asks within a few milliseconds
  (``sys.getswitchinterval``), so an honest request waits milliseconds, not the whole import.
- While a job computes there, the interpreter hands the GIL over every ``TURN_SECONDS`` (half
  a millisecond) instead of every 5 ms: the loop gives the GIL up at each of a write's store
  calls and socket waits, and waited up to 5 ms each time to get it back: a write on another
  game took 66 ms (p50) beside an import of 30,000 transactions, 12 ms now, the import 8 %
  longer.
- An import holds one of ``slots`` (``TABLEBANK_IMPORT_SLOTS``, ``--import-slots``, 1 by
  default) from the moment its body has arrived until its answer: the parsing of its body
  and its check by the schema (``api.framework``: a body over 256 KiB), the checks and
  rebuild, each a job on the pool's thread, then the save, which runs in the loop 250
  events at a time (``ledger.setup.SAVED_AT_ONCE``). One slot, because a save of
  thousands of events makes one SQLite call per event, each giving up the GIL and asking for
  it again: with another import computing on a thread meanwhile, each call waited out that
  thread's turn and the save, which holds the loop, took seconds instead of a fraction of one.
  Another import waits for the slot up to ``wait`` seconds (its body read, nothing parsed),
  then is refused with 503 ``busy`` and ``Retry-After``: nothing was done.

Outside a gevent worker (the Flask test client, ``tablebank import``) the work runs in the
caller's thread and no slot is taken.

A job's exception comes back to the request's greenlet and is raised there, as outside gevent:
gevent's hub prints the traceback of any exception a pool's job raises, and a refused import
(a 422, no defect) wrote twenty lines of one to the log. The app's error handlers see it as they
see any other: a refusal's one line (``api.audit``), a defect's traceback (``api.errors``).

A job on the pool's thread must not wait on a lock made after gevent patched ``threading``
(gevent's locks deadlock when two native threads contend for one): what an import runs there
(``schemas.audit.transaction_errors``, ``Exchange.rebuild_import``) takes none but
``ledger.caches``'s own native ones.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app
from werkzeug.exceptions import ServiceUnavailable

from ledger.reading import gc_paused

POOL = "tablebank.cpu_pool"
DEFAULT_SLOTS = 1
WAIT_SECONDS = 30.0  # how long an import waits for a slot before it is refused

# How often the GIL changes hands while a job computes on a native thread (CPython's default:
# 5 ms, ``sys.getswitchinterval``).
TURN_SECONDS = 0.0005

# The jobs computing now, in every pool of the process, and the interval they found.
_TURNS: dict[str, Any] = {"computing": 0, "switch": sys.getswitchinterval()}

# The longest a group commit's leader waits for other writes to join (``gather_writes``).
GATHER_SECONDS = 0.01

T = TypeVar("T")


class Busy(ServiceUnavailable):
    """Every slot stayed taken: 503 ``busy`` with ``Retry-After``; nothing was done."""

    problem_code = "busy"


def under_gevent() -> bool:
    """Whether this process runs gevent's event loop (a worker of ``tablebank serve``). gevent
    is a dependency of serving only: a process that never imported it (a test, a command, the
    pocket bank in a browser) has not patched anything."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def gather_writes() -> None:
    """What a group commit's leader waits for before it commits (``GroupCommit.gather``):
    under gevent, until the event loop has nothing else to run, so that every request whose
    bytes have arrived reaches its save and joins the commit, but never more than
    ``GATHER_SECONDS`` (requests that never stop arriving do not hold the commit back);
    outside gevent, nothing. An import's save waits for it too between two of its store
    transactions (``SetUp.save_new_game``), so that other tables' writes are served."""
    if under_gevent():
        import gevent

        with gevent.Timeout(GATHER_SECONDS, False):
            gevent.idle()


def busy(wait: float, doing: str) -> Busy:
    """The refusal of a request that waited ``wait`` seconds for a slot in vain: 503 ``busy``,
    saying what the server is busy ``doing``, to be asked again in half that wait."""
    seconds = max(1, math.ceil(wait / 2))
    return Busy(f"The server is busy {doing}; try again in {seconds} s.", retry_after=seconds)


class Slots:
    """``count`` places that requests take in turns under gevent, each waiting up to ``wait``
    seconds for one (then refused as ``busy`` ``doing`` something else)."""

    def __init__(self, count: int, wait: float, doing: str) -> None:
        self.count = count
        self.wait = wait
        self.doing = doing
        self._free: Any = None  # gevent's semaphore, made in the worker that uses it

    def take(self) -> None:
        """Take a place, waiting up to ``wait`` seconds for one (else ``Busy``); give it back
        with ``give_back``."""
        import gevent.lock

        if self._free is None:
            self._free = gevent.lock.BoundedSemaphore(self.count)
        if not self._free.acquire(timeout=self.wait):
            raise busy(self.wait, self.doing)

    def give_back(self) -> None:
        """Free the place ``take`` took."""
        self._free.release()


class CpuPool:
    """Slots for CPU-bound requests, and gevent's native threads to run their work on."""

    def __init__(self, slots: int = DEFAULT_SLOTS, wait: float = WAIT_SECONDS) -> None:
        if slots < 1:
            raise ValueError(f"TABLEBANK_IMPORT_SLOTS must be 1 or more, not {slots}")
        self._places = Slots(slots, wait, "with other imports")

    def start(self) -> None:
        """Under gevent, start gevent's pool of native threads now, as the worker starts:
        made at the first import, it held the loop 70 ms (its modules imported)."""
        if under_gevent():
            import gevent

            gevent.get_hub().threadpool  # noqa: B018 - made on first use

    def hold(self) -> bool:
        """Take a slot under gevent (``Busy`` if none frees up in time); whether one was taken:
        give it back with ``let_go``."""
        if not under_gevent():
            return False
        self._places.take()
        return True

    def let_go(self) -> None:
        """Give back a slot ``hold`` took."""
        self._places.give_back()

    def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)``: on a native thread of gevent's pool under gevent, the greenlet
        waiting for it, its exception raised in the greenlet; in the caller's thread otherwise."""
        if not under_gevent():
            return job(*args)
        import gevent

        with self._quick_turns():
            outcome = gevent.get_hub().threadpool.apply(carried, (job, args))
        if not isinstance(outcome, Raised):
            return outcome
        error, outcome = outcome.error, None
        try:
            raise error
        finally:
            # The traceback holds this frame: no cycle through it keeps the job's arguments
            # (a whole imported log) until the collector runs.
            del error

    @staticmethod
    @contextlib.contextmanager
    def _quick_turns() -> Iterator[None]:
        """The GIL handed over every ``TURN_SECONDS`` while any job of any pool computes (the
        interval is the process's), as before once none does."""
        if not _TURNS["computing"]:
            _TURNS["switch"] = sys.getswitchinterval()
            sys.setswitchinterval(TURN_SECONDS)
        _TURNS["computing"] += 1
        try:
            yield
        finally:
            _TURNS["computing"] -= 1
            if not _TURNS["computing"]:
                sys.setswitchinterval(_TURNS["switch"])


def cpu_pool() -> CpuPool:
    """The app's pool for CPU-bound work."""
    pool: CpuPool = current_app.extensions[POOL]
    return pool


@dataclass(frozen=True)
class Raised:
    """The exception a job raised on the pool's thread, carried back to the greenlet."""

    error: Exception


def carried(job: Callable[..., T], args: tuple[Any, ...]) -> T | Raised:
    """``job(*args)``, or the exception it raised: never raised on the pool's thread, where
    gevent's hub would print its traceback.

    The collector of reference cycles is paused meanwhile (``gc_paused``): a job builds
    millions of objects that stay alive (a parsed log), and each of the collector's passes
    over all of them, made while holding the GIL, held the event loop too, longer as they
    grew (a write beside the parse of a 31 MB log: 52, then 78, 99, ... 180 ms)."""
    with gc_paused():
        try:
            return job(*args)
        except Exception as error:
            return Raised(error)
