"""A description of the machine a run was taken on, for the results file and the doc."""

from __future__ import annotations

import contextlib
import os
import platform
import sqlite3
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def memory_gib() -> float:
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    return 0.0


def filesystem(path: str) -> str:
    """The file system type of the mount ``path`` is on (ext4, tmpfs, ...)."""
    best, kind = "", "unknown"
    with contextlib.suppress(OSError):
        real = os.path.realpath(path)
        for line in Path("/proc/mounts").read_text().splitlines():
            _, mount, fstype, *_ = line.split()
            inside = real == mount or real.startswith(mount.rstrip("/") + "/")
            if inside and len(mount) > len(best):
                best, kind = mount, fstype
    return kind


def fsyncs_per_second(folder: str, seconds: float = 1.0) -> float:
    """How many small write-and-fdatasync rounds the disk of ``folder`` takes per second: the
    ceiling of durable commits one after another (SQLite's and PostgreSQL's, if on one disk)."""
    fd, path = tempfile.mkstemp(prefix="fsync-", dir=folder)
    try:
        count = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            os.pwrite(fd, b"x" * 4096, (count % 16) * 4096)
            os.fdatasync(fd)
            count += 1
        return count / (time.perf_counter() - started)
    finally:
        os.close(fd)
        os.unlink(path)


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def postgres_version(url: str) -> str | None:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=5) as conn:
            row = conn.execute("SHOW server_version").fetchone()
            return str(row[0]) if row else None
    except Exception:  # any failure means: not reachable; the report says n/a
        return None


def describe(fsync_seconds: float, sqlite_dir: str, postgres_url: str | None) -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "memory_gib": memory_gib(),
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "sqlite": sqlite3.sqlite_version,
        "sqlite_dir_filesystem": filesystem(sqlite_dir),
        "fsyncs_per_s": round(fsyncs_per_second(sqlite_dir, fsync_seconds)),
        "postgresql": postgres_version(postgres_url) if postgres_url else None,
        "eventsourcing": metadata.version("eventsourcing"),
        "gunicorn": metadata.version("gunicorn"),
        "load_average_at_start": load_average(),
    }
