"""Backups of the whole database: one consistent file, taken while the system runs.

On SQLite (the embedded run) the copy is made with SQLite's online backup API in one
step: one read transaction, so the copy is the database as it stood when the step began,
the changes still in the write-ahead log included, and the writers go on meanwhile. The
file is then made a self-contained database (no `-wal` beside it) and checked. On
PostgreSQL it is `pg_dump`'s custom format, from one snapshot. Either holds every change
committed before the copy began (`Backup.started_at`), and none half-made.

Copying `tdsystem.sqlite3` by hand while the system runs misses what is still in its
`-wal` file: use these. `manage.py restore` puts one back (`tdsystem.core.restore`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.db.models import Count, Max, Sum
from django.utils import timezone

from .models import Backup

log = logging.getLogger(__name__)

SQLITE, POSTGRESQL = "sqlite", "postgresql"
SUFFIXES = {SQLITE: ".sqlite3", POSTGRESQL: ".dump"}
# tdsystem-20250105-003012Z.sqlite3: the time the copy began, in UTC, so the names sort
# in the order the copies were taken, summer time or not; -2 when two share a second.
NAME = re.compile(r"^tdsystem-(\d{8}-\d{6})Z(?:-\d+)?\.(?:sqlite3|dump)$")
# The apps whose rows are the night: a change in them is worth a new copy. Not the
# heartbeats and these records (they change all the time), sessions or login failures.
NIGHT_APPS = ("auth", "core", "structures", "events", "seating", "results")
NOT_NIGHT = ("core.heartbeat", "core.backup")
RECORDS_KEPT = 200
PG_TIMEOUT_SECONDS = 900


class BackupError(Exception):
    """A backup or a restore that could not be made; the message says why."""


def database_kind(using: str = "default") -> str:
    vendor = connections[using].vendor
    if vendor not in SUFFIXES:
        raise BackupError(f"backups of a {vendor} database are not supported")
    return vendor


def backup_name(started_at: datetime, kind: str, counter: int = 1) -> str:
    stamp = started_at.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    again = f"-{counter}" if counter > 1 else ""
    return f"tdsystem-{stamp}Z{again}{SUFFIXES[kind]}"


def backup_take(
    *, into: Path | None = None, fingerprint_: str = "", using: str = "default"
) -> Backup:
    """Copy the whole database into a new file and record it (`Backup`).

    `into` is a directory (BACKUP_DIR when None), where the file is named after the time
    the copy began, or the name of a new file (with an extension). A failure is recorded
    too (the console warns of it) and raised as BackupError; a half-written file is never
    left behind.
    """
    kind = database_kind(using)
    db = connections[using].settings_dict
    started_at = timezone.now()
    try:
        folder, name = _target(into)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".tdsystem-{os.getpid()}-{threading.get_ident()}.part"
        try:
            if kind == SQLITE:
                _sqlite_copy(Path(db["NAME"]), tmp)
            else:
                _pg_dump(using, tmp)
            path = _link(tmp, folder, name, started_at, kind)
        finally:
            tmp.unlink(missing_ok=True)
    except (BackupError, OSError, sqlite3.Error, subprocess.SubprocessError) as exc:
        text = str(exc) if isinstance(exc, BackupError) else f"{type(exc).__name__}: {exc}"
        _record(started_at=started_at, error=text[:300], using=using)
        raise BackupError(text) from exc
    return _record(
        started_at=started_at,
        path=str(path),
        size=path.stat().st_size,
        fingerprint=fingerprint_,
        using=using,
    )


def _target(into: Path | None) -> tuple[Path, str | None]:
    """(the folder, the file's own name or None for a timed one). `into` names a new file
    when it is not a directory and has an extension (`friday.sqlite3`)."""
    if into is None:
        return Path(settings.BACKUP_DIR).expanduser().resolve(), None
    into = Path(into).expanduser()
    if into.is_dir() or into.suffix == "":
        return into.resolve(), None
    if into.exists():
        raise BackupError(f"{into} exists already: name a new file or a directory")
    return into.parent.resolve(), into.name


def _link(tmp: Path, folder: Path, name: str | None, started_at: datetime, kind: str) -> Path:
    """The finished file under its name: linked, so an existing file is never replaced and
    a name only ever shows a whole copy. A USB stick's FAT or exFAT has no links: there
    the file is renamed into place once its name is found free."""
    counter = 1
    while True:
        path = folder / (name or backup_name(started_at, kind, counter))
        try:
            os.link(tmp, path)
            return path
        except FileExistsError:
            pass
        except OSError:
            if not path.exists():
                os.replace(tmp, path)
                return path
        if name is not None:
            raise BackupError(f"{path} exists already: name a new file")
        counter += 1


def _sqlite_copy(source_path: Path, tmp: Path) -> None:
    if not source_path.exists():
        raise BackupError(f"there is no database at {source_path}")
    source = sqlite3.connect(source_path, timeout=20)
    try:
        copy = sqlite3.connect(tmp)
        try:
            # pages=-1 (all at once): one read transaction on the source, so the copy is
            # one moment of it; writers in WAL mode are not held up meanwhile.
            source.backup(copy, pages=-1)
            # The copy took the source's WAL mode: make it one self-contained file.
            copy.execute("PRAGMA journal_mode=DELETE")
            checked = copy.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            copy.close()
    finally:
        source.close()
    if checked != "ok":
        raise BackupError(f"the copy failed its check: {checked}")


def _pg_dump(using: str, tmp: Path) -> None:
    program = pg_program("pg_dump", using)
    done = subprocess.run(
        [program, "--format=custom", "--no-password", f"--file={tmp}"],
        env=pg_environment(connections[using].settings_dict),
        capture_output=True,
        text=True,
        timeout=PG_TIMEOUT_SECONDS,
        check=False,
    )
    if done.returncode:
        raise BackupError(f"pg_dump failed: {done.stderr.strip()[:250]}")


def pg_environment(db: dict) -> dict:
    """The connection for pg_dump, pg_restore and psql: in the environment, where `ps`
    does not show the password."""
    env = dict(os.environ)
    values = {
        "PGHOST": db.get("HOST"),
        "PGPORT": db.get("PORT"),
        "PGUSER": db.get("USER"),
        "PGPASSWORD": db.get("PASSWORD"),
        "PGDATABASE": db.get("NAME"),
    }
    for key, value in values.items():
        if value:
            env[key] = str(value)
    return env


def pg_program(name: str, using: str = "default") -> str:
    """The PostgreSQL client program of the server's own major version (Debian keeps each
    version's in /usr/lib/postgresql/<major>/bin), or the one on the PATH when it is not
    older than the server: an older pg_dump refuses a newer server."""
    with connections[using].cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        server = int(cursor.fetchone()[0]) // 10000
    own = Path(f"/usr/lib/postgresql/{server}/bin/{name}")
    if own.exists():
        return str(own)
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install the PostgreSQL {server} client programs"
        )
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"(\d+)(?:\.\d+)?", version.stdout)
    client = int(match.group(1)) if match else 0
    if client < server:
        raise BackupError(
            f"{found} is version {client}, older than the PostgreSQL {server} server: "
            f"install the PostgreSQL {server} client programs"
        )
    return found


def _record(*, using: str, **fields) -> Backup:
    try:
        return Backup.objects.using(using).create(**fields)
    except Exception:  # the database is what failed: the console warns of an old backup
        log.exception("could not record the backup of %s", fields.get("started_at"))
        return Backup(**fields)


def fingerprint(using: str = "default") -> str:
    """What the night's tables hold, in a few figures a table: its rows' count and highest
    id, the newest of its "changed at" times, the sum of its versions (the clock's). A new,
    changed or deleted row of the night changes it; an edit that leaves none of these
    changed is written to the log, which is one of the tables. Costs a count a table."""
    parts = []
    for model in sorted(apps.get_models(include_auto_created=True), key=lambda m: m._meta.label):
        meta = model._meta
        if meta.app_label not in NIGHT_APPS or meta.label_lower in NOT_NIGHT:
            continue
        figures: dict = {"n": Count("pk"), "top": Max("pk")}
        for field in meta.concrete_fields:
            if getattr(field, "auto_now", False):
                figures[f"at_{field.name}"] = Max(field.name)
            elif field.name == "version":
                figures["versions"] = Sum(field.name)
        found = model._default_manager.using(using).aggregate(**figures)
        parts.append(f"{meta.label_lower}:{sorted(found.items())}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def backup_periodic(*, now: datetime | None = None, using: str = "default") -> Backup | None:
    """Beat's backup: a new copy in BACKUP_DIR when the night changed since the newest one
    there (else that one is marked as still holding everything), then the oldest beyond
    BACKUP_KEEP removed. None when no copy was needed."""
    now = now or timezone.now()
    mark = fingerprint(using)
    folder = Path(settings.BACKUP_DIR)
    last = next(
        (
            b
            for b in Backup.objects.using(using).filter(error="")[:20]
            if Path(b.path).parent == folder and Path(b.path).exists()
        ),
        None,
    )
    if last is not None and last.fingerprint == mark:
        Backup.objects.using(using).filter(pk=last.pk).update(checked_at=now)
        return None
    taken = backup_take(fingerprint_=mark, using=using)
    backups_rotate(folder, keep=settings.BACKUP_KEEP, using=using)
    return taken


def backups_rotate(folder: Path, *, keep: int, using: str = "default") -> list[Path]:
    """Remove the oldest backups in `folder` beyond the newest `keep` (0: keep them all);
    only files named as this module names them. The records beyond RECORDS_KEPT go too."""
    removed: list[Path] = []
    if keep > 0:
        found = []
        for path in folder.iterdir():
            match = NAME.match(path.name)
            if match:  # by the time in the name, then (within its second) by the writing
                found.append(((match.group(1), path.stat().st_mtime_ns), path))
        for _key, path in sorted(found)[:-keep]:
            path.unlink(missing_ok=True)
            removed.append(path)
    old = Backup.objects.using(using).values_list("pk", flat=True)[RECORDS_KEPT:]
    Backup.objects.using(using).filter(pk__in=list(old)).delete()
    return removed


@dataclass(frozen=True)
class BackupStatus:
    """What the console says of the backups: the newest copy and whether to worry."""

    last: Backup | None  # the newest copy made
    failed: Backup | None  # a failure since then
    every_minutes: int
    now: datetime

    @property
    def current_at(self) -> datetime | None:
        """Until when the newest copy is known to hold every change."""
        if self.last is None:
            return None
        return max(self.last.started_at, self.last.checked_at or self.last.started_at)

    @property
    def old(self) -> bool:
        """The periodic backup has not run for two of its periods (the worker is down)."""
        current = self.current_at
        if not self.every_minutes or current is None:
            return False
        return self.now - current > timedelta(minutes=2 * self.every_minutes + 1)

    @property
    def warning(self) -> bool:
        return self.failed is not None or self.old

    @property
    def shown(self) -> bool:
        return bool(self.every_minutes) or self.last is not None or self.failed is not None

    @property
    def name(self) -> str:
        return Path(self.last.path).name if self.last else ""

    def as_json(self) -> dict:
        return {
            "every_minutes": self.every_minutes,
            "last": self.last.started_at.isoformat() if self.last else None,
            "current_at": self.current_at.isoformat() if self.current_at else None,
            "path": self.last.path if self.last else None,
            "size": self.last.size if self.last else None,
            "failed": self.failed.error if self.failed else None,
            "old": self.old,
        }


def backup_status(*, now: datetime | None = None) -> BackupStatus:
    now = now or timezone.now()
    newest = Backup.objects.first()  # one query while the newest worked
    if newest is None or newest.ok:
        last, failed = newest, None
    else:
        last, failed = Backup.objects.filter(error="").first(), newest
    status = BackupStatus(last, failed, settings.BACKUP_EVERY_MINUTES, now)
    if failed is not None and status.current_at and status.current_at >= failed.started_at:
        # Found since to hold everything still: the failure lost nothing.
        status = BackupStatus(last, None, settings.BACKUP_EVERY_MINUTES, now)
    return status
