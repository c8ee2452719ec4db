"""Putting a backup back (`manage.py restore`): on another laptop after a fresh install, or
over an installation's own database when asked to (`force`).

The backup must be of this kind of database (an SQLite file here on SQLite, a pg_dump
file on PostgreSQL) and of this tdsystem or an older one: after the copy, the
migrations bring an older schema up to date. The copy is all or nothing (SQLite's
backup API in one step; on PostgreSQL one transaction drops this database's tables and
loads the dump's). What the backup knew of its own machine goes: the worker's
heartbeat and the records of backups there (the files are on the other machine). The
apps then get `restored`: the clock re-arms the exact level changes on this machine's
broker.
"""

from __future__ import annotations

import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connections, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.models import Max
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_noop

from .actors import Actor
from .backup import (
    POSTGRESQL,
    SQLITE,
    BackupError,
    backup_take,
    database_kind,
    pg_environment,
    pg_program,
)
from .log import Text, log_record
from .models import Backup, Heartbeat, LogEntry

# Sent once a backup is back and migrated, in the restore's transaction: apps put right
# what belonged to the machine the backup came from.
restored = Signal()

MAGIC = {b"SQLite format 3\x00": SQLITE, b"PGDMP": POSTGRESQL}
RUNNING_WITHIN = timedelta(seconds=30)
ACTOR = Actor(label="manage.py restore")


@dataclass(frozen=True)
class Restored:
    path: Path
    events: int
    users: int
    newest_change: datetime | None  # the log's newest entry: what happened after is not in it
    replaced: Path | None  # the copy of the database the restore replaced


def backup_kind(path: Path) -> str:
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror}") from None
    for magic, kind in MAGIC.items():
        if head.startswith(magic):
            return kind
    raise BackupError(f"{path} is not a tdsystem backup (neither SQLite nor pg_dump's format)")


def backup_restore(*, path: Path, force: bool = False, using: str = "default") -> Restored:
    """Replace this database with the backup at `path`, then migrate it.

    Refused (BackupError, nothing changed) when the file is not a backup of this kind of
    database or comes from a newer tdsystem, and without `force` when this database holds
    events or staff accounts already or its worker reported lately (the system runs). What
    it replaces is first backed up into BACKUP_DIR.
    """
    path = Path(path).expanduser().resolve()
    kind, here = backup_kind(path), database_kind(using)
    if kind != here:
        raise BackupError(
            f"{path.name} is a backup of {_named(kind)} database and this installation uses "
            f"{_named(here)}: move events between them with event_export and event_import"
        )
    _refuse_newer(_migrations_of(path, kind, using), using)
    held = _holdings(using)
    if held and not force:
        raise BackupError(
            f"this database already holds {held}: restoring replaces all of it. "
            "Run again with --force to replace it (it is backed up first)"
        )
    seen = _worker_seen(using)
    if seen is not None and not force:
        raise BackupError(
            f"tdsystem is running on this database (its worker reported {seen} s ago): stop "
            "it first (Ctrl-C where make run runs), or run again with --force"
        )
    replaced = Path(backup_take(using=using).path) if held else None
    connections[using].close()
    if kind == SQLITE:
        _sqlite_restore(path, Path(connections[using].settings_dict["NAME"]))
    else:
        _pg_restore(path, using)
    connections[using].close()
    call_command("migrate", database=using, interactive=False, verbosity=0)
    with transaction.atomic(using=using):
        Heartbeat.objects.using(using).all().delete()
        Backup.objects.using(using).all().delete()
        restored.send(sender=Backup, using=using)
        newest = LogEntry.objects.using(using).aggregate(at=Max("at"))["at"]
        log_record(
            event=None,
            actor=ACTOR,
            action="backup.restore",
            summary=Text(
                gettext_noop("Database restored from the backup %(name)s"), name=path.name
            ),
            data={"file": path.name, "newest_change": newest.isoformat() if newest else None},
        )
    return Restored(
        path=path,
        events=apps.get_model("events", "Event")._default_manager.using(using).count(),
        users=get_user_model()._default_manager.using(using).count(),
        newest_change=newest,
        replaced=replaced,
    )


def _named(kind: str) -> str:
    return {SQLITE: "an SQLite", POSTGRESQL: "a PostgreSQL"}[kind]


def _migrations_of(path: Path, kind: str, using: str) -> set[tuple[str, str]]:
    """The migrations the backup's database had run."""
    if kind == SQLITE:
        try:
            db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
            try:
                checked = db.execute("PRAGMA quick_check").fetchone()[0]
                if checked != "ok":
                    raise BackupError(f"{path.name} is damaged: {checked}")
                rows = db.execute("SELECT app, name FROM django_migrations").fetchall()
            finally:
                db.close()
        except sqlite3.Error as exc:
            raise BackupError(f"{path.name} is not a tdsystem backup: {exc}") from None
        return {(app, name) for app, name in rows}
    done = subprocess.run(
        [pg_program("pg_restore", using), "--data-only", "--table=django_migrations", "--file=-",
         str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip
    if done.returncode:
        raise BackupError(f"{path.name} cannot be read: {done.stderr.strip()[:250]}")
    found, copying = set(), False
    for line in done.stdout.splitlines():
        if line.startswith("COPY ") and "django_migrations" in line:
            copying = True
        elif line == "\\.":
            copying = False
        elif copying:
            columns = line.split("\t")
            found.add((columns[1], columns[2]))
    return found


def _refuse_newer(theirs: set[tuple[str, str]], using: str) -> None:
    if ("events", "0001_initial") not in theirs:
        raise BackupError("the file is not a backup of tdsystem (no events in its migrations)")
    known = set(MigrationLoader(connections[using], ignore_no_migrations=True).disk_migrations)
    unknown = sorted(theirs - known)
    if unknown:
        app, name = unknown[-1]
        raise BackupError(
            f"this backup comes from a newer tdsystem (its migration {app}.{name} is unknown "
            "here): update this copy of tdsystem first (git pull), then restore"
        )


def _holdings(using: str) -> str:
    """What this database holds that a restore would lose ("2 events, 3 staff accounts"),
    or "" when it is empty or not set up yet."""
    if "events_event" not in connections[using].introspection.table_names():
        return ""
    events = apps.get_model("events", "Event")._default_manager.using(using).count()
    users = get_user_model()._default_manager.using(using).count()
    parts = [counted(events, "event")] if events else []
    parts += [counted(users, "staff account")] if users else []
    return " and ".join(parts)


def counted(number: int, thing: str) -> str:
    """The command line's English: "1 event", "3 events"."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _worker_seen(using: str) -> int | None:
    """Seconds since this database's worker reported, when lately (the system runs)."""
    if "core_heartbeat" not in connections[using].introspection.table_names():
        return None
    beat = Heartbeat.objects.using(using).filter(name="worker").first()
    if beat is None:
        return None
    age = timezone.now() - beat.seen_at
    return int(age.total_seconds()) if age < RUNNING_WITHIN else None


def _sqlite_restore(path: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        copy = sqlite3.connect(target, timeout=20)
        try:
            # One step, one write transaction on the target: all of it or nothing, and
            # the target keeps its WAL mode (its other connections see the new pages).
            source.backup(copy, pages=-1)
        finally:
            copy.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the restore failed, nothing changed: {exc}") from exc
    finally:
        source.close()


def _pg_restore(path: Path, using: str) -> None:
    """One psql transaction: drop this database's tables, views, sequences and functions,
    then run the dump's script. A failure rolls all of it back."""
    db = connections[using].settings_dict
    env = pg_environment(db)
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as drops:
        drops.write(_pg_drops(using))
        drops.flush()
        script = subprocess.Popen(
            [pg_program("pg_restore", using), "--no-owner", "--no-privileges", "--file=-",
             str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )  # fmt: skip
        try:
            done = subprocess.run(
                [pg_program("psql", using), "--no-psqlrc", "--quiet", "--single-transaction",
                 "--set=ON_ERROR_STOP=1", "--no-password", f"--file={drops.name}",
                 "--file=-"],
                stdin=script.stdout,
                capture_output=True,
                text=True,
                env=env,
                timeout=3600,
                check=False,
            )  # fmt: skip
        finally:
            assert script.stdout is not None
            script.stdout.close()
            script.wait(60)
    if script.returncode:
        error = script.stderr.read().decode() if script.stderr else ""
        raise BackupError(f"pg_restore failed, nothing changed: {error.strip()[:250]}")
    if done.returncode:
        raise BackupError(f"the restore failed, nothing changed: {done.stderr.strip()[:250]}")


def _pg_drops(using: str) -> str:
    """DROP statements for what this database's schema holds (what migrations made)."""
    queries = [
        "SELECT format('DROP TABLE IF EXISTS %I.%I CASCADE;', schemaname, tablename) "
        "FROM pg_tables WHERE schemaname = current_schema()",
        "SELECT format('DROP VIEW IF EXISTS %I.%I CASCADE;', schemaname, viewname) "
        "FROM pg_views WHERE schemaname = current_schema()",
        "SELECT format('DROP SEQUENCE IF EXISTS %I.%I CASCADE;', sequence_schema, "
        "sequence_name) FROM information_schema.sequences "
        "WHERE sequence_schema = current_schema()",
        "SELECT format('DROP FUNCTION IF EXISTS %I.%I(%s) CASCADE;', n.nspname, p.proname, "
        "pg_get_function_identity_arguments(p.oid)) FROM pg_proc p "
        "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() "
        "AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')",
    ]
    statements = []
    with connections[using].cursor() as cursor:
        for query in queries:
            cursor.execute(query)
            statements += [row[0] for row in cursor.fetchall()]
    return "\n".join(statements) + "\n"


def restore_target(using: str = "default") -> str:
    """Where a restore writes, for the command to say."""
    db = connections[using].settings_dict
    if connections[using].vendor == SQLITE:
        return str(db["NAME"])
    return f"PostgreSQL database {db['NAME']} on {db.get('HOST') or 'localhost'}"
