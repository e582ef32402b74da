"""Reads that cost more than a write, kept off the event loop that answers the writes.

A replay, an export, the chain check, the fair-play flags, a statement, or a filtered page of
the log reads every transaction of a game: on a 10,000-transaction game, seconds of pure
computation. Run in a request's greenlet, that held the worker's one thread: every other game's
writes waited (8 replays at once: a write answered after 13 s, and gunicorn killed the worker
for its timeout). API.md v1.2, "Reads never stall the table". Now each such read is answered
by ``HeavyReads.answer``:

- **Once per version.** An answer is a function of the game's version (its ETag), so it is kept,
  encoded, in a cache of ``cache_bytes`` (least recently used out first) under the request's
  path, query and the version; the same read of the same version is answered from it, and
  reads of it that arrive while it is being computed wait for that one computation rather than
  start their own. A finished game's answers, or a ``?seq=N``'s, never change: computed once.
- **Off the loop, in another process.** The store is read in the request's greenlet (short:
  12 ms for 10,000 records on SQLite; and the store's connections and locks belong to this
  process). The rest, decoding, computing and encoding the answer as JSON, is a job (a
  function of what was read, which pickles) sent to a process of the worker's own (``Child``:
  started at the first such read, ended with the worker) while the greenlet waits on the pipe
  and the loop serves the others. A native thread of this process was tried first: the GIL it
  held made every write wait for it at each of its store calls (a write's p99 280-760 ms
  beside 8 replays, against 100 ms asked). The process runs at a lower priority (``nice``
  10): where the replays and the writes want the same core, the writes get it (beside 8
  replays on 2 workers, a write's p50 4 ms instead of 7.5-8 ms, the replays answered as many).
- **A few at once.** A worker has ``slots`` such processes (``--read-slots``, 1 by default);
  a read waits for a free one up to ``wait`` seconds, then is refused with 503 ``busy`` and
  ``Retry-After``: nothing was done.
- A game's log shorter than ``INLINE_UP_TO`` transactions is read inline, as before: it costs
  about a write, and a table's own screens never wait for a slot.

Outside a gevent worker (the Flask test client) everything runs in the caller's thread; the
cache works the same.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from typing import Any
from uuid import UUID

from flask import Response, current_app, request

from api.bank import tablebank
from api.etags import etag
from api.offload import Slots, busy, under_gevent
from ledger.caches import BoundedCache

HEAVY = "tablebank.heavy_reads"
DEFAULT_SLOTS = 1
WAIT_SECONDS = 10.0  # how long a read waits for a slot before it is refused
CACHE_BYTES = 64 * 1024 * 1024  # the encoded answers kept per worker process
# How much lower the processes computing long reads are scheduled than their worker.
NICENESS = 10
# A log this short is read in the request's greenlet: a few milliseconds.
INLINE_UP_TO = 500
# A long answer goes out this many bytes at a time, every other request served between two.
SEND_CHUNK = 256 * 1024

# The store read now, returning the CPU work left (which touches no store).
Prepare = Callable[[], Callable[[], Any]]


class HeavyReads:
    """Slots, a cache of answers, and the processes of this worker's own (at ``NICENESS``)
    that compute reads of whole logs."""

    def __init__(
        self,
        slots: int = DEFAULT_SLOTS,
        wait: float = WAIT_SECONDS,
        cache_bytes: int = CACHE_BYTES,
        waiting: Callable[[int], None] | None = None,
    ) -> None:
        """``waiting``: told each read that starts (1) and stops (-1) waiting for a slot, for a
        server's metrics."""
        if slots < 1:
            raise ValueError(f"TABLEBANK_READ_SLOTS must be 1 or more, not {slots}")
        self.slots = slots
        self.wait = wait
        self.answers: BoundedCache[Hashable, bytes] | None = (
            BoundedCache(cache_bytes) if cache_bytes > 0 else None
        )
        self._idle: Any = None  # gevent's queue of the idle ``Child``s, made in the worker
        self._sending = Slots(slots, wait, "sending other long answers")  # places to send one
        self._computing: dict[Hashable, Any] = {}  # key -> gevent AsyncResult of its body
        self.computed = 0  # answers computed (not taken from the cache): for the tests
        self.waiting = waiting

    def answer(self, key: Hashable, prepare: Prepare, *, long: bool) -> Response:
        """The JSON answer under ``key`` (which names the game's version): from the cache,
        else computed by ``prepare`` and the job it returns, off the loop when ``long``."""
        body = self.answers.get(key) if self.answers is not None else None
        if body is None:
            body = self._compute(key, prepare, long=long)
        if len(body) <= SEND_CHUNK or not under_gevent():
            return Response(body, mimetype="application/json")
        response = Response(self.in_turns(body), mimetype="application/json")
        response.content_length = len(body)
        return response

    def in_turns(self, body: bytes) -> InTurns:
        """A long answer's bytes, to be sent while it holds one of ``slots`` places to send
        (waiting up to ``wait`` s for one, else 503 ``busy`` now, before any byte of it).

        Computed or kept, a long answer costs the loop the sending of its bytes: 8 clients
        replaying a 10,000-transaction game (5 MB each) from the cache were sent 2 GB a second
        in turns of 8 whole answers, and a write beside them waited 115 ms (p50), 557 ms
        (p99)."""
        self._sending.take()
        return InTurns(body, self._sending.give_back)

    def _compute(self, key: Hashable, prepare: Prepare, *, long: bool) -> bytes:
        """The answer under ``key``, computed and kept: here, or off the loop when ``long`` in a
        gevent worker, once for every read of ``key`` that arrives meanwhile."""
        # As flask's JSON answers are (compact, ASCII), by a function a process can be sent.
        dumps = partial(json.dumps, separators=(",", ":"))
        if not (long and under_gevent()):
            return self._keep(key, encode(dumps, prepare()))
        import gevent.event

        pending = self._computing.get(key)
        if pending is not None:  # the same answer is being computed: wait for it
            result: bytes = pending.get()
            return result
        pending = self._computing[key] = gevent.event.AsyncResult()
        try:
            body = self._keep(key, self._off_the_loop(dumps, prepare))
        except BaseException as error:
            pending.set_exception(error)
            raise
        else:
            pending.set(body)
            return body
        finally:
            del self._computing[key]

    def _off_the_loop(self, dumps: Callable[[Any], str], prepare: Prepare) -> bytes:
        """The store read here by ``prepare``, and its job run and encoded in an idle ``Child``."""
        child = self.take_slot()
        try:
            job = prepare()  # the store, read here in the loop
            return child.run(partial(encode, dumps, job))
        finally:
            self.give_back(child)

    def take_slot(self) -> Child:
        """A process of the worker's own, idle, waiting up to ``wait`` seconds for one (then
        503 ``busy``); give it back with ``give_back``."""
        import gevent.queue

        if self._idle is None:
            self._idle = gevent.queue.Queue()
            for _ in range(self.slots):
                self._idle.put(Child())
        if self.waiting is not None:
            self.waiting(1)
        try:
            child: Child = self._idle.get(timeout=self.wait)
        except gevent.queue.Empty:
            raise busy(self.wait, "with other long reads") from None
        finally:
            if self.waiting is not None:
                self.waiting(-1)
        return child

    def give_back(self, child: Child) -> None:
        """A process ``take_slot`` gave, idle again for the next read."""
        self._idle.put(child)

    def _keep(self, key: Hashable, body: bytes) -> bytes:
        """``body`` counted as computed and kept in the cache under ``key``, where there is one."""
        self.computed += 1
        if self.answers is not None:
            self.answers.put(key, body, len(body))
        return body


class InTurns:
    """The bytes of a long answer a chunk at a time, every other greenlet running between two
    (a chunk that the socket's buffer takes at once never waits: without the turns, an answer
    went out in one go); ``done`` is called once, when the server closes it, sent or not."""

    def __init__(self, body: bytes, done: Callable[[], Any]) -> None:
        self.body = body
        self.done: Callable[[], Any] | None = done

    def __iter__(self) -> Iterator[bytes]:
        import gevent

        for start in range(0, len(self.body), SEND_CHUNK):
            yield self.body[start : start + SEND_CHUNK]  # gunicorn writes bytes, no memoryview
            gevent.sleep(0)

    def close(self) -> None:
        """``done`` called, the first time only: the server closes the answer, sent or not."""
        done, self.done = self.done, None
        if done is not None:
            done()


class Child:
    """A process of the worker's own that runs jobs: each sent pickled down its stdin, its
    answer (the bytes of the JSON, or the error raised) read back from its stdout. Started at
    its first job, started again after it died; it ends when the worker does (its stdin
    closes, however the worker ended)."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None

    def run(self, job: Callable[[], bytes]) -> bytes:
        """``job()``, in the child process."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from api.heavy import serve_jobs; serve_jobs()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        try:
            send(process.stdin, pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL))
            ok, answer = receive(process.stdout)
        except (OSError, EOFError):
            process.kill()
            self.process = None
            raise RuntimeError("the process computing a long read ended") from None
        if ok:
            return answer
        raise pickle.loads(answer)


def send(pipe: Any, data: bytes, ok: bool = True) -> None:
    """One message: whether it is an answer (or an error), its length, its bytes."""
    pipe.write(bytes([ok]) + len(data).to_bytes(8, "big"))
    pipe.write(data)
    pipe.flush()


def receive(pipe: Any) -> tuple[bool, bytes]:
    """One message ``send`` wrote; EOFError when the pipe ends first."""
    head = read_exactly(pipe, 9)
    return bool(head[0]), read_exactly(pipe, int.from_bytes(head[1:], "big"))


def read_exactly(pipe: Any, size: int) -> bytes:
    """``size`` bytes from ``pipe``; EOFError when it ends first."""
    chunks = []
    while size:
        chunk = pipe.read(size)
        if not chunk:
            raise EOFError("the pipe ended")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def serve_jobs() -> None:
    """The child's loop: run each job its worker sends, answer it, until its stdin ends."""
    jobs, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answers
    # A read can wait, the table cannot: where both want a core, the worker answering the
    # writes gets it first.
    # (os.nice is missing where there are no processes: the pocket bank never gets here.)
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not allowed to: the read runs at the same priority
            os.nice(NICENESS)
    while True:
        try:
            _, data = receive(jobs)
        except EOFError:
            return
        try:
            body = pickle.loads(data)()
        except Exception as error:  # the worker raises it again
            try:
                raised = pickle.dumps(error)
            except Exception:  # an error whose arguments do not pickle: its words, then
                raised = pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}"))
            send(answers, raised, ok=False)
        else:
            send(answers, body)


def encode(dumps: Callable[[Any], str], job: Callable[[], Any]) -> bytes:
    """The job's answer as the JSON of an answer (touches no store and needs no request)."""
    return (dumps(job()) + "\n").encode()


def heavy_reads() -> HeavyReads:
    """The app's heavy reads."""
    reads: HeavyReads = current_app.extensions[HEAVY]
    return reads


def heavy(game: UUID, prepare: Prepare, seq: int | None = None) -> Response:
    """A view's answer about ``game`` that reads its whole log (``prepare``: the ledger's
    ``*_job``): computed once per version of the game, off the loop for a long game, with the
    version as its ETag (an answer as of ``seq``: the version the game had then, which no
    later write changes).

    The version is read before the answer is computed: should a write come in between, the
    answer is newer than its ETag, never older, and a client that asks again with
    ``If-None-Match`` gets the newer one."""
    bank = tablebank()
    version = bank.version(game, seq)
    long = bank.last_seq(game) >= INLINE_UP_TO
    response = heavy_reads().answer((request.full_path, version), prepare, long=long)
    response.headers.update(etag(version))
    return response
