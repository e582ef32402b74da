"""A cable between a server and its PostgreSQL that a test can pull out and freeze.

``Cable(host, port)`` listens on a loopback port of its own and relays every connection made to
it to PostgreSQL, byte for byte, each way. ``unplug()`` is PostgreSQL stopped: every relayed
connection is cut and new ones are refused, until ``plug()`` listens on the same port again.
``freeze()`` is PostgreSQL hung (its machine overloaded, a network that drops answers without
a word): connections stay open and new ones are taken, but not a byte crosses until ``thaw()``.
A test points the server's ``--db`` URL at the cable (``via(url)``) instead of stopping the
session's PostgreSQL, which every other test shares.

Imported as ``from cable import Cable`` (pytest puts ``tests/e2e`` on the path).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit, urlunsplit

CHUNK = 64 * 1024


class Cable:
    """A relay to ``host:port`` on a loopback port of its own (``self.port``), plugged in."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._flowing = threading.Event()
        self._flowing.set()
        self._listening: socket.socket | None = None
        self.plug()

    def via(self, url: str) -> str:
        """``url`` (a PostgreSQL URL) with its host and port those of the cable."""
        parts = urlsplit(url)
        userinfo = parts.netloc.rpartition("@")[0]
        netloc = f"{userinfo}@127.0.0.1:{self.port}" if userinfo else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def plug(self) -> None:
        """Listen (on the same port as before, once there was one) and relay."""
        listening = socket.socket()
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", self.port))
        listening.listen(64)
        self.port = listening.getsockname()[1]
        self._listening = listening
        threading.Thread(target=self._accept, args=(listening,), daemon=True).start()

    def unplug(self) -> None:
        """Cut every relayed connection and refuse new ones, as a stopped PostgreSQL does."""
        listening, self._listening = self._listening, None
        if listening is not None:
            with contextlib.suppress(OSError):
                listening.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
            listening.close()
        with self._lock:
            cut, self._sockets = self._sockets, set()
        for sock in cut:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def freeze(self) -> None:
        """Hold every byte each way, connections open, as a hung PostgreSQL does."""
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        self.thaw()
        self.unplug()

    def _accept(self, listening: socket.socket) -> None:
        while True:
            try:
                client, _ = listening.accept()
            except OSError:
                return  # unplugged
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(CHUNK):
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:  # one side gone: so is the other
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
