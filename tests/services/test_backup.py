"""Backups of the whole database and their restore, on SQLite and on PostgreSQL.

A backup taken while registrations go on holds every one acknowledged before it began,
and nothing half-made; a restore brings back the same rows; the periodic backup takes a
copy only when something changed and keeps the newest few; a restore refuses what it
should and changes nothing then.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import timedelta
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from tdsystem.core.backup import (
    BackupError,
    backup_periodic,
    backup_status,
    backup_take,
    pg_program,
)
from tdsystem.core.models import ApiToken, Backup, Heartbeat, LogEntry
from tdsystem.core.restore import backup_restore
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action
from tdsystem.results import services as results
from tdsystem.results.models import Finish
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event
from tests.personas import make_token, make_user
from tests.worker import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def backup_dir(tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_EVERY_MINUTES = 5
    settings.BACKUP_KEEP = 3
    return settings.BACKUP_DIR


def rows_in(path: Path, table: str) -> list[dict]:
    """The rows of `table` in a backup file, as {column: text}."""
    if connection.vendor == "sqlite":
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        try:
            found = db.execute(f"SELECT * FROM {table}").fetchall()
            return [{k: str(r[k]) for k in r.keys()} for r in found]  # noqa: SIM118 (a Row)
        finally:
            db.close()
    done = subprocess.run(
        [pg_program("pg_restore"), "--data-only", f"--table={table}", "--file=-", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    found, columns = [], None
    for line in done.stdout.splitlines():
        if line.startswith("COPY "):
            columns = line[line.index("(") + 1 : line.index(")")].split(", ")
        elif line == "\\.":
            columns = None
        elif columns:
            found.append(dict(zip(columns, line.split("\t"), strict=True)))
    return found


def night() -> Event:
    """A running event: players seated, one out, a clock running, a token."""
    event = make_event(600, 600, name="Friday", late_registration_end_level=2)
    people = arrange(event, {1: [1, 2, 3, 4], 2: [1, 2, 3]})
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    results.bustout_record(
        event_id=event.pk, entry_ids=[people["T1S2"].pk], actor=ACTOR, rng_seed=1
    )
    make_token(make_user("dora", "director"))
    return event


def digest() -> dict:
    """The rows a night is made of, as the database holds them."""
    return {
        "events": list(Event.objects.order_by("pk").values_list("pk", "name", "status")),
        "clocks": list(
            Clock.objects.order_by("pk").values_list(
                "pk", "status", "level_index", "ends_at", "remaining_ms", "version"
            )
        ),
        "entries": list(
            Entry.objects.order_by("pk").values_list(
                "pk", "player__name", "status", "table__number", "seat", "chips_removed"
            )
        ),
        "finishes": list(
            Finish.objects.order_by("pk").values_list("pk", "entry_id", "place", "prize")
        ),
        "log": list(
            LogEntry.objects.exclude(action="backup.restore")
            .order_by("pk")
            .values_list("pk", "at", "action", "summary")
        ),
        "tokens": list(
            ApiToken.objects.order_by("pk").values_list("pk", "user__username", "key_hash")
        ),
    }


def test_a_backup_taken_during_registrations_holds_every_one_acknowledged_before_it(
    backup_dir,
):
    event = make_event(600, name="Busy night", reentry_allowed=True)
    acknowledged: list[tuple[float, int]] = []
    stop = threading.Event()
    failures: list[BaseException] = []

    def register() -> None:
        try:
            n = 0
            while not stop.is_set():
                n += 1
                done = seating.player_register(event=event, name=f"Player {n}", actor=ACTOR)
                acknowledged.append((time.monotonic(), done.entry.pk))
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)
        finally:
            connection.close()

    writer = threading.Thread(target=register)
    writer.start()
    try:
        while len(acknowledged) < 20 and writer.is_alive():
            time.sleep(0.01)
        began = time.monotonic()
        record = backup_take()
        while len([1 for at, _ in acknowledged if at > began]) < 5 and writer.is_alive():
            time.sleep(0.01)  # and registrations went on during and after it
    finally:
        stop.set()
        writer.join(30)
    assert not failures, failures
    before = {pk for at, pk in acknowledged if at < began}
    path = Path(record.path)
    entries = {int(r["id"]) for r in rows_in(path, "seating_entry")}
    assert len(before) >= 20 and before <= entries
    assert len(entries) < len(acknowledged)  # it was taken while they went on
    # One moment of the database: no entry without its buy-in, its log line and its count.
    purchases = {int(r["entry_id"]) for r in rows_in(path, "seating_purchase")}
    logged = [r for r in rows_in(path, "events_logentry") if r["action"] == "entry.register"]
    counts = [r for r in rows_in(path, "results_fieldcount") if int(r["event_id"]) == event.pk]
    assert purchases == entries and len(logged) == len(entries)
    assert int(counts[0]["entries"]) == len(entries)
    assert path.parent == backup_dir and path.stat().st_size == record.size > 0
    if connection.vendor == "sqlite":
        assert not Path(f"{path}-wal").exists()  # one self-contained file
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        db.close()


def test_a_restore_brings_back_the_same_rows_and_rearms_the_clock(backup_dir):
    event = night()
    before = digest()
    taken = backup_take()
    # The night goes on after the backup, then is lost.
    seating.player_register(event=event, name="Late Larry", actor=ACTOR)
    ApiToken.objects.all().delete()
    Clock.objects.filter(pk=event.pk).update(scheduled_version=7)
    Heartbeat.objects.create(name="worker", seen_at=timezone.now() - timedelta(minutes=5))
    assert digest() != before

    done = backup_restore(path=Path(taken.path), force=True)

    assert digest() == before
    assert done.events == 1 and done.replaced is not None and done.replaced.exists()
    clock = Clock.objects.get(pk=event.pk)
    assert clock.status == "running" and clock.scheduled_version == 0  # the tick sends anew
    assert not Heartbeat.objects.exists()  # the other machine's worker
    assert list(Backup.objects.all()) == []  # the other machine's files
    note = LogEntry.objects.get(action="backup.restore")
    assert Path(taken.path).name in note.summary and note.event is None


def test_a_restore_refuses_a_database_that_holds_a_night_and_changes_nothing(backup_dir):
    night()
    taken = backup_take()
    seating.player_register(event=Event.objects.get(), name="Late Larry", actor=ACTOR)
    before = digest()
    with pytest.raises(BackupError, match=r"already holds 1 event and 1 staff account.*--force"):
        backup_restore(path=Path(taken.path))
    assert digest() == before


def test_a_restore_refuses_while_the_system_runs_on_the_database(backup_dir):
    taken = backup_take()
    call_command("flush", interactive=False, verbosity=0)
    Heartbeat.objects.create(name="worker", seen_at=timezone.now())
    with pytest.raises(BackupError, match="is running on this database"):
        backup_restore(path=Path(taken.path))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a backup at all", "not a tdsystem backup"),
        (b"SQLite format 3\x00" + b"\x00" * 100, None),
        (b"PGDMP" + b"\x00" * 100, None),
    ],
)
def test_a_restore_refuses_a_file_that_is_not_a_backup_of_this_database(tmp_path, content, message):
    night()
    before = digest()
    path = tmp_path / "night.sqlite3"
    path.write_bytes(content)
    with pytest.raises(BackupError, match=message):
        backup_restore(path=path, force=True)
    assert digest() == before


@pytest.mark.parametrize("kind", ["the other database", "a newer tdsystem"])
def test_a_restore_refuses_a_backup_this_installation_cannot_take(backup_dir, kind):
    night()
    taken = Path(backup_take().path)
    before = digest()
    if kind == "the other database":
        other = taken.with_suffix(".other")
        other.write_bytes(b"PGDMP" if connection.vendor == "sqlite" else b"SQLite format 3\x00")
        match = "this installation uses"
    elif connection.vendor == "sqlite":
        other = taken
        db = sqlite3.connect(other)
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('seating', '9999_from_the_future', '2030-01-01')"
        )
        db.commit()
        db.close()
        match = r"newer tdsystem \(its migration seating.9999_from_the_future"
    else:
        pytest.skip("the newer schema is shown on SQLite's file")
    with pytest.raises(BackupError, match=match):
        backup_restore(path=other, force=True)
    assert digest() == before


def test_a_backup_of_an_older_schema_is_migrated_on_restore(backup_dir, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("an older schema is made here on an SQLite file")
    night()
    old = Path(backup_take().path)
    # The schema as tdsystem had it before the backups' own table: migrated back.
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "core", "0005_staff_language", "-v0"],
        cwd=ROOT,
        env=os.environ | {"DATABASE_URL": f"sqlite:///{old}"},
        check=True,
        capture_output=True,
    )
    db = sqlite3.connect(old)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    assert "core_backup" not in tables
    call_command("flush", interactive=False, verbosity=0)

    backup_restore(path=old)

    assert Event.objects.get().name == "Friday" and Backup.objects.count() == 0
    assert Path(backup_take().path).exists()  # the table is back


def test_the_command_prints_the_size_and_the_path_last(backup_dir, tmp_path):
    out = StringIO()
    call_command("backup", stdout=out)
    line = out.getvalue().strip()
    path = Path(line.split()[-1])
    assert path.parent == backup_dir and path.exists()
    assert "KB" in line or "MB" in line
    assert path.name.startswith("tdsystem-") and path.name.endswith(("Z.sqlite3", "Z.dump"))
    named = tmp_path / "usb" / "friday.bak"
    call_command("backup", str(named), stdout=StringIO())
    assert named.exists()
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(named))


def test_a_backup_goes_onto_a_stick_whose_files_cannot_be_linked(backup_dir, monkeypatch):
    def no_links(source, target):
        raise PermissionError(1, "Operation not permitted")  # vfat, exFAT

    monkeypatch.setattr(os, "link", no_links)
    first, second = backup_take(), backup_take()
    assert Path(first.path).exists() and Path(second.path).exists()
    assert first.path != second.path and len(list(backup_dir.iterdir())) == 2


def test_the_restore_command_says_what_it_brought_back(backup_dir):
    night()
    taken = backup_take()
    out = StringIO()
    call_command("restore", taken.path, "--force", stdout=out)
    text = out.getvalue()
    assert "1 event, 1 staff account" in text and "was backed up first" in text
    assert "newest change was logged at" in text
    with pytest.raises(CommandError, match=r"Nothing restored: .*--force"):
        call_command("restore", taken.path)


def test_the_periodic_backup_takes_a_copy_only_when_something_changed(backup_dir):
    event = make_event(600, name="Quiet", late_registration_end_level=1)
    first = backup_periodic()
    assert first is not None and Path(first.path).exists()
    assert backup_periodic() is None  # nothing changed
    assert Backup.objects.get(pk=first.pk).checked_at is not None
    seating.player_register(event=event, name="Ann", actor=ACTOR)
    assert backup_periodic() is not None
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    assert backup_periodic() is not None
    for name in ("Ben", "Cy", "Di"):
        seating.player_register(event=event, name=name, actor=ACTOR)
        assert backup_periodic() is not None
    kept = sorted(backup_dir.iterdir(), key=lambda p: p.stat().st_mtime_ns)
    assert len(kept) == 3  # BACKUP_KEEP, the newest
    taken = [Path(b.path) for b in Backup.objects.filter(error="")[:3]]
    assert taken == kept[::-1]


def test_a_backup_folder_with_a_dot_in_its_name_is_a_folder(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "tdsystem.backups"
    taken = backup_periodic()
    assert Path(taken.path).parent == settings.BACKUP_DIR


def test_the_periodic_backup_takes_another_when_its_last_file_is_gone(backup_dir):
    first = backup_periodic()
    Path(first.path).unlink()
    assert backup_periodic() is not None


def test_the_status_warns_of_a_failure_and_of_an_old_backup(backup_dir, settings, tmp_path):
    status = backup_status()
    assert status.shown and status.last is None and not status.warning
    taken = backup_take()
    assert backup_status().last == taken and not backup_status().warning
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(BackupError):
        backup_take(into=blocked / "sub")
    status = backup_status()
    assert status.warning and status.failed is not None and status.last == taken
    assert "NotADirectoryError" in status.failed.error or "Errno" in status.failed.error
    backup_periodic()  # a copy again: the failure lost nothing since
    assert not backup_status().warning
    with time_machine.travel(timezone.now() + timedelta(minutes=12)):
        assert backup_status().old and backup_status().warning
    settings.BACKUP_EVERY_MINUTES = 0
    with time_machine.travel(timezone.now() + timedelta(minutes=12)):
        assert not backup_status().warning  # not taken periodically: not late either


def test_the_settings_schedule_the_backup_and_refuse_a_negative_value():
    def settings_with(**env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", "from tdsystem import settings as s; "
             "print(s.CELERY_BEAT_SCHEDULE.get('backup', {}).get('schedule'), s.BACKUP_DIR)"],
            cwd=ROOT,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=False,
        )  # fmt: skip

    assert settings_with(BACKUP_EVERY_MINUTES="5").stdout.split()[0] == "300.0"
    assert settings_with(BACKUP_EVERY_MINUTES="0").stdout.split()[0] == "None"
    embedded = settings_with(TDSYSTEM_EMBEDDED="1", VAR_DIR="/tmp/td-var", SECRET_KEY="x")
    assert embedded.stdout.split() == ["300.0", "/tmp/td-var/backups"]
    refused = settings_with(BACKUP_KEEP="-1")
    assert refused.returncode and "BACKUP_KEEP=-1" in refused.stderr


def test_the_console_shows_the_last_backup_and_the_banner_its_failure(client, backup_dir, tmp_path):
    client.force_login(make_user("dora", "director"))
    page = client.get("/console/").content.decode()
    assert "No backup yet: the first is taken within 5 minutes." in page
    taken = backup_take()
    page = client.get("/console/").content.decode()
    assert "Last backup" in page and taken.path in page
    assert "backup failed" not in client.get("/health/banner").content.decode()
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(BackupError):
        backup_take(into=blocked / "sub")
    assert "The last backup failed at" in client.get("/console/").content.decode()
    assert "The last backup failed at" in client.get("/health/banner").content.decode()
    detail = client.get("/healthz?detail=1").json()
    assert detail["backup"]["path"] == taken.path and detail["backup"]["failed"]
    client.logout()
    assert "backup" not in client.get("/healthz?detail=1").json()


def test_a_restored_night_keeps_its_prizes(backup_dir):
    event = make_event(600, name="Small", buy_in=Decimal("100"))
    people = arrange(event, {1: [1, 2, 3]})
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    for name in ("T1S1", "T1S2"):
        results.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    before = digest()
    taken = backup_take()
    call_command("flush", interactive=False, verbosity=0)
    backup_restore(path=Path(taken.path))
    assert digest() == before
    assert Event.objects.get().status == "finished"


def test_make_run_names_a_restored_accounts_own_password(settings, tmp_path):
    from tdsystem.venue.management.commands.loaddemo import demo_login, demo_password

    settings.VAR_DIR = tmp_path  # this laptop's demo password, made now
    director = make_user("director", "director")  # the other laptop's, restored
    assert demo_login() == (
        "Log in as 'director' with its own password (from before a restore; "
        "python manage.py changepassword director sets a new one)"
    )
    director.set_password(demo_password())
    director.save()
    assert demo_login() == f"Log in as 'director' with the password: {demo_password()}"


def test_the_beat_task_takes_the_copy_and_survives_a_failure(backup_dir, settings, tmp_path):
    from tdsystem.core.tasks import backup

    path = backup()
    assert path and Path(path).parent == backup_dir
    assert backup() == ""  # nothing changed
    blocked = tmp_path / "usb-pulled-out"
    blocked.write_text("")
    settings.BACKUP_DIR = blocked / "backups"
    make_event(600, name="Later")
    assert backup() == ""  # failed: recorded for the console, tried again next time
    assert backup_status().failed is not None
