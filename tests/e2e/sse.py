"""A small reader of a game's event stream (``GET /api/v1/games/{game}/events``) for the tests:
one HTTP connection, the events parsed as they arrive, every read bounded by a deadline.

Imported as ``from sse import EventStream`` (pytest puts ``tests/e2e`` on the path).
"""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    id: int | None
    kind: str | None
    data: Any
    comments: list[str] = field(default_factory=list)


class EventStream:
    """An open stream on a raw socket (a buffered reader cannot be read again after a time-out);
    ``next_event`` returns the next event, and comment lines are collected in ``comments``."""

    def __init__(
        self,
        host: str,
        port: int,
        game: str,
        token: str,
        *,
        last_event_id: int | None = None,
        query: str = "",
        timeout: float = 10.0,
    ) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        lines = [
            f"GET /api/v1/games/{game}/events{query} HTTP/1.1",
            f"Host: {host}:{port}",
            f"Authorization: Bearer {token}",
            "Accept: text/event-stream",
        ]
        if last_event_id is not None:
            lines.append(f"Last-Event-ID: {last_event_id}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.raw = b""  # bytes as they came off the socket
        self.text = b""  # the body, chunked transfer coding undone
        head = self._read_until(b"\r\n\r\n", time.monotonic() + timeout)
        if head is None:
            raise TimeoutError("no response head")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        self.comments: list[str] = []

    def _fill(self, deadline: float) -> bool:
        """More bytes from the socket; False when none came before ``deadline``."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            return False
        if not data:
            raise ConnectionError("the server closed the stream")
        self.raw += data
        return True

    def _read_until(self, mark: bytes, deadline: float) -> bytes | None:
        while mark not in self.raw:
            if not self._fill(deadline):
                return None
        head, _, self.raw = self.raw.partition(mark)
        return head

    def _decode(self) -> None:
        """Moves whole chunks from ``raw`` to ``text``."""
        if not self.chunked:
            self.text += self.raw
            self.raw = b""
            return
        while b"\r\n" in self.raw:
            size_line, _, rest = self.raw.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if len(rest) < size + 2:
                return
            self.text += rest[:size]
            self.raw = rest[size + 2 :]

    def _line(self, deadline: float) -> str | None:
        while True:
            self._decode()
            if b"\n" in self.text:
                line, _, self.text = self.text.partition(b"\n")
                return line.decode().rstrip("\r")
            if not self._fill(deadline):
                return None

    def opening(self, deadline: float) -> list[str]:
        """The stream's first block (its retry and opening comment), read alone."""
        while True:
            line = self._line(deadline)
            if line is None:
                raise TimeoutError("the stream sent no opening block")
            if line == "":
                return self.comments
            if line.startswith(":"):
                self.comments.append(line[1:].removeprefix(" "))

    def next_event(self, deadline: float) -> Event | None:
        """The next event, or None if none came before ``deadline`` (time.monotonic)."""
        event_id: int | None = None
        kind: str | None = None
        data: list[str] = []
        while True:
            line = self._line(deadline)
            if line is None:
                return None
            if line == "":
                if data or kind:
                    return Event(event_id, kind, json.loads("\n".join(data)))
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "":
                self.comments.append(value)
            elif name == "id":
                event_id = int(value)
            elif name == "event":
                kind = value
            elif name == "data":
                data.append(value)

    def events(self, count: int, deadline: float) -> list[Event]:
        """The next ``count`` events, or as many as came before ``deadline``."""
        out: list[Event] = []
        while len(out) < count:
            event = self.next_event(deadline)
            if event is None:
                break
            out.append(event)
        return out

    def ended(self, deadline: float) -> bool:
        """Whether the server ends the stream before ``deadline``: its last chunk came, or it
        closed the connection (whatever else it sent meanwhile is dropped)."""
        while True:
            while self.chunked and b"\r\n" in self.raw:
                size_line, _, rest = self.raw.partition(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                if size == 0:
                    return True
                if len(rest) < size + 2:
                    break
                self.raw = rest[size + 2 :]
            if not self.chunked:
                self.raw = b""
            try:
                if not self._fill(deadline):
                    return False
            except ConnectionError:
                return True

    def close(self) -> None:
        self.sock.close()
