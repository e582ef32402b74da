"""The commands that keep games outside a server: ``export``, ``import``, ``verify`` and
``replay`` of a game's log, ``backup`` and ``restore`` of a SQLite store, and ``purge`` of
finished games after their verified export."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.progress import Progress, TaskID
from rich.table import Table
from rich.text import Text

from api.cli.failed import CommandFailed
from api.errors import field_errors
from ledger.application import TableBank
from ledger.errors import LedgerError, LogInvalid
from ledger.exchange import replay_document, verify_document
from ledger.purge import GameChanged, Purgeable
from ledger.store import (
    create_private,
    is_postgres,
    persistence_env,
    redact,
)
from schemas.audit import import_errors


def export(args: argparse.Namespace) -> int:
    """``tablebank export``: a game's whole log as JSON on stdout."""
    if not is_postgres(args.db) and not Path(args.db).is_file():
        raise CommandFailed(f"no database at {redact(args.db)}")
    with TableBank(env=persistence_env(args.db)) as bank:
        document = bank.export(args.game)
    print(json.dumps(document, indent=2))
    return 0


def import_(args: argparse.Namespace) -> int:
    """``tablebank import``: a new game from an exported log, checked as the API checks one;
    prints its id, head and tokens."""
    document = read_log(args.file)
    check_importable(args.file, document)
    with TableBank(env=persistence_env(args.db)) as bank:
        created = bank.import_game(document)
    names = [player["name"] for player in created["players"]]
    print(f"game: {created['id']}")
    print(f"head: {created['head']}")
    print(f"banker token: {created['banker_token']}")
    for (player, token), name in zip(created["tokens"].items(), names, strict=True):
        print(f"{player} ({name}) token: {token}")
    print("The tokens are shown only this once: hand them out now.", file=sys.stderr)
    return 0


def check_importable(path: str | Path, document: Any) -> None:
    """CommandFailed with what ``POST /api/v1/games/import`` would refuse a document for
    (``validation_error``) before the ledger sees it, if anything."""
    errors = import_errors(document)
    if errors is not None:
        found = "; ".join(f"{at}: {' '.join(why)}" for at, why in field_errors(errors).items())
        raise CommandFailed(f"{path} cannot be imported: {found}")


def purge(args: argparse.Namespace) -> int:
    """Each finished game last written before the day exported, verified, then removed, and
    the rows of each import never finished before it: a line for each, then the totals; exit
    status 1 if any game was kept for a fault."""
    if not is_postgres(args.db) and not Path(args.db).is_file():
        raise CommandFailed(f"no database at {redact(args.db)}")
    folder = Path(args.export_to)
    if not folder.is_dir():
        raise CommandFailed(f"no folder {folder}: create it (mode 0700) first")
    purged = kept = unfinished = 0
    with TableBank(env=persistence_env(args.db)) as bank:
        for game in bank.purgeable(args.finished_before):
            try:
                path = exported_verified(bank, game, folder)
                bank.purge(game)
            except (CommandFailed, GameChanged, LedgerError) as why:
                detail = why.detail if isinstance(why, LedgerError) else str(why)
                print(f"kept {game.id}: {detail}", file=sys.stderr, flush=True)
                kept += 1
                continue
            purged += 1
            print(
                f"purged {game.id}: exported to {path} ({game.transactions} transactions, "
                "verified)",
                flush=True,
            )
        # Imports a server stopped in the middle of: their rows, never a game anybody saw.
        for game in bank.unfinished_imports(args.finished_before):
            try:
                bank.remove_unfinished(game)
            except GameChanged as why:  # written to since it was read: under way after all
                print(f"kept {game.id}: {why}", file=sys.stderr, flush=True)
                continue
            unfinished += 1
            print(
                f"removed {game.id}: an import never finished ({game.transactions} "
                f"transactions saved on {game.last_written:%Y-%m-%d})",
                flush=True,
            )
    smaller = ""
    if (purged or unfinished) and not args.no_vacuum and not is_postgres(args.db):
        smaller = vacuum(Path(args.db))
    fault = f", {kept} kept for the faults above" if kept else ""
    games = "1 game" if purged == 1 else f"{purged} games"
    imports = ""
    if unfinished:
        imports = f", {unfinished} unfinished import{'s' if unfinished > 1 else ''} removed"
    print(f"purge: {games} purged{imports}{fault}{smaller}", flush=True)
    return 1 if kept else 0


def exported_verified(bank: TableBank, game: Purgeable, folder: Path) -> Path:
    """The game's export in ``folder`` (written now, or there already with the same log),
    read back and checked as an import checks it, and found to hold the store's transactions
    and head; CommandFailed if it does not, or if a different file has its name."""
    document = bank.export(game.id)
    target = folder / f"{game.id}.tablebank.json"
    if target.exists():
        try:
            same = json.loads(target.read_bytes()) == document
        except (OSError, ValueError):
            same = False
        if not same:
            raise CommandFailed(f"{target} exists and differs from the stored game; move it away")
    else:
        write_new(target, (json.dumps(document, indent=2) + "\n").encode())
    written = read_log(str(target))
    check_importable(target, written)
    result = verify_document(written)
    if not result["ok"]:
        raise CommandFailed(f"{target} does not verify at seq {result['seq']}: {result['detail']}")
    if (result["transactions"], result["head"]) != (game.transactions, game.head):
        raise CommandFailed(f"{target} does not hold the stored game's last transaction")
    return target


def write_new(target: Path, data: bytes) -> None:
    """``data`` as a new file (mode 0600) on the disk whole, or nothing: written under a
    temporary name, fsynced, then linked to its name (never over a file that took it
    meanwhile), and the folder fsynced."""
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.link(temporary, target)
    except FileExistsError:
        raise CommandFailed(f"{target} appeared meanwhile; it is never overwritten") from None
    finally:
        os.unlink(temporary)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def vacuum(db: Path) -> str:
    """SQLite's file rebuilt without the pages the purged games held (``VACUUM``: a write
    that holds the store for the time of a copy of it; a server's writes wait meanwhile),
    and its WAL emptied; what that did, for the total line."""
    before = store_bytes(db)
    started = time.monotonic()
    try:
        with closing(sqlite3.connect(db, timeout=10, isolation_level=None)) as connection:
            connection.execute("VACUUM")
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as error:
        print(f"tablebank: the store was not made smaller: {error}", file=sys.stderr)
        return ""
    took = time.monotonic() - started
    return f"; the store {before:,} → {store_bytes(db):,} bytes (VACUUM {took:.1f} s)"


def store_bytes(db: Path) -> int:
    """A SQLite store's size on disk, its WAL included."""
    return sum(path.stat().st_size for path in (db, *companions(db)) if path.exists())


def finished_before(text: str) -> datetime:
    """``YYYY-MM-DD``: the midnight (UTC) that starts that day."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give it as YYYY-MM-DD (UTC)")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no day of the calendar") from None
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def backup(args: argparse.Namespace) -> int:
    """A consistent copy of a live SQLite store (SQLite's online backup: the pages of one
    moment, while the server goes on writing), readable by its owner alone, then every game in
    the copy verified; the copy is removed if one does not hold."""
    source = sqlite_store(args.db, "pg_dump")
    target = Path(args.file)
    if target.exists():
        raise CommandFailed(f"{target} exists: a backup never overwrites a file")
    create_private(target)
    try:
        sqlite_copy(Path(source), target)
        games = verified_games(target)
        with closing(sqlite3.connect(target)) as copy:
            # One file to keep: the check's WAL folded into it, and none kept beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
    except BaseException:
        for path in (target, *companions(target)):
            path.unlink(missing_ok=True)
        raise
    print(f"backup: {target}, {games} games, each verified")
    return 0


def restore(args: argparse.Namespace) -> int:
    """A backup put in place of a store that no server has open: the backup verified first,
    the store it replaces kept beside it (``<db>.replaced-<time>``), never one in use."""
    target = Path(sqlite_store(args.db, "pg_restore", must_exist=False))
    source = Path(args.file)
    if not source.is_file():
        raise CommandFailed(f"no backup at {source}")
    with held_alone(target):
        pass  # refused now, before any work, if a server has it open (and again below)
    with tempfile.TemporaryDirectory(prefix="tablebank-restore-") as checked:
        copy = Path(checked) / "check.sqlite"  # checked on a copy: the backup stays as it was
        shutil.copyfile(source, copy)
        games = verified_games(copy)
    fresh = target.with_name(target.name + ".restoring")
    fresh.unlink(missing_ok=True)
    create_private(fresh)
    sqlite_copy(source, fresh)
    with held_alone(target) as replaced:
        if replaced is not None:  # moved aside whole, its WAL (emptied into it) too
            for path, kept in zip(companions(target), companions(replaced), strict=True):
                if path.exists():
                    path.rename(kept)
            target.rename(replaced)
        fresh.replace(target)
    aside = f"; the store it replaced is {replaced}" if replaced is not None else ""
    print(f"restore: {target} holds the {games} games of {source}{aside}")
    return 0


def sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target``: its pages as of one moment,
    read while other connections go on writing."""
    with (
        closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as live,
        closing(sqlite3.connect(target)) as copy,
    ):
        live.backup(copy)


def sqlite_store(db: str, instead: str, must_exist: bool = True) -> str:
    """``--db`` for a backup or a restore: a SQLite file (there already, if ``must_exist``);
    CommandFailed for a PostgreSQL store, which ``instead`` backs up or restores."""
    if is_postgres(db):
        raise CommandFailed(
            f"a PostgreSQL store is backed up with {instead} (docs/deploy.md, Backups)"
        )
    if must_exist and not Path(db).is_file():
        raise CommandFailed(f"no database at {db}")
    return db


def companions(path: Path) -> list[Path]:
    """The files SQLite keeps beside a database in WAL mode."""
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def verified_games(path: Path) -> int:
    """How many games a store holds, each one's hash chain verified (else CommandFailed)."""
    with TableBank(env=persistence_env(str(path))) as bank:
        games = bank.list_games()
        for game in games:
            result = bank.verify(game["id"])
            if not result["ok"]:
                raise CommandFailed(
                    f"game {game['id']} does not verify at seq {result['seq']}: "
                    "this backup is not one to keep"
                )
    return len(games)


@contextlib.contextmanager
def held_alone(db: Path) -> Iterator[Path | None]:
    """The store held so that no server can open it meanwhile (SQLite's exclusive locking in
    WAL mode, which a server's open connection refuses), and the name to keep it under; None
    where there is no store yet. CommandFailed if a server has it open."""
    if not db.exists():
        yield None
        return
    with closing(sqlite3.connect(db, timeout=0)) as alone:
        try:
            alone.execute("PRAGMA locking_mode=EXCLUSIVE")
            alone.execute("BEGIN EXCLUSIVE")
            alone.execute("COMMIT")  # the lock stays, in exclusive locking mode
            busy, _, _ = alone.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.OperationalError:
            busy = 1
        if busy:
            raise CommandFailed(f"{db} is in use: stop the server that has it open, then restore")
        yield db.with_name(f"{db.name}.replaced-{time.strftime('%Y%m%dT%H%M%S')}")


def verify(args: argparse.Namespace) -> int:
    """``tablebank verify``: an exported log checked offline; exit status 0 if it holds, else 1."""
    result = verify_document(read_log(args.file))
    if not result["ok"]:
        print(f"invalid at seq {result['seq']}: {result['detail']}")
        return 1
    print(f"ok: {result['transactions']} transactions, head {result['head']}")
    return 0


def replay(args: argparse.Namespace) -> int:
    """``tablebank replay``: every balance and net worth after each transaction of a log (the last
    ``--last`` steps), with progress bars on a terminal; exit status 1 for an invalid log."""
    err = Console(stderr=True)
    bars = Progress(console=err, transient=True, redirect_stdout=False, disable=not err.is_terminal)
    with bars as progress:
        try:
            with progress.open(args.file, "rb", description="Reading") as file:
                document = parse_log(args.file, file.read())
        except OSError as error:
            raise CommandFailed(f"cannot read {args.file}: {error.strerror}") from None
        transactions = document.get("transactions") if isinstance(document, dict) else None
        if isinstance(transactions, list):
            checking = progress.add_task("Checking", total=len(transactions))
            document["transactions"] = CountedLog(transactions, progress, checking)
        try:
            steps = replay_document(document)
        except LogInvalid as error:
            print(f"invalid at seq {error.extra['seq']}: {error.detail}")
            return 1
        total = len(document["transactions"])
        kept = deque(progress.track(steps, total, description="Replaying"), maxlen=args.last)
    # Players are p1, p2, ... in the order the header names them.
    names = {f"p{seat}": name for seat, name in enumerate(document["game"]["players"], 1)}
    out = Console()
    for step in kept:
        out.print(step_table(step, names))
    return 0


class CountedLog(list[dict[str, Any]]):
    """A log's transactions that move a progress bar as a reader goes through them in order:
    the check of a long log reads each transaction once and takes most of the time."""

    def __init__(self, items: list[dict[str, Any]], progress: Progress, task: TaskID) -> None:
        super().__init__(items)
        self.progress = progress
        self.task = task
        self.furthest = 0

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for count, txn in enumerate(super().__iter__(), start=1):
            yield txn
            if count > self.furthest:  # a second reader does not move the bar back
                self.furthest = count
                self.progress.update(self.task, completed=count)


def step_table(step: dict[str, Any], names: dict[str, str]) -> Group:
    """One replay step: what happened, then every balance and each player's net worth."""
    txn = step["transaction"]
    heading = Text(f"seq {step['seq']} · {txn['type']}", style="bold")
    if txn.get("memo"):
        heading.append(f" · {txn['memo']}", style="not bold")
    if txn.get("voided_by") is not None:
        heading.append(f" (voided by {txn['voided_by']})", style="not bold")
    table = Table()
    table.add_column("account")
    table.add_column("balance", justify="right")
    table.add_column("net worth", justify="right")
    for account, balance in step["balances"].items():
        label = f"{account} {names[account]}" if account in names else account
        worth = step["net_worths"].get(account)
        table.add_row(Text(label), str(balance), "" if worth is None else str(worth))
    return Group(heading, table)


def read_log(path: str) -> Any:
    """An exported log read from a file ("-" for stdin)."""
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise CommandFailed(f"cannot read {path}: {error.strerror}") from None
    return parse_log(path, raw)


def parse_log(path: str, raw: bytes) -> Any:
    """An exported log's bytes read as JSON; CommandFailed naming ``path`` if they are not JSON."""
    try:
        return json.loads(raw)
    except ValueError as error:
        raise CommandFailed(f"{path} is not JSON: {error}") from None
