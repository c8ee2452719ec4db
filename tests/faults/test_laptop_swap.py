"""The laptop dies at 1 a.m.: a backup taken by `manage.py backup` during a running level
of the real embedded run (`manage.py runsystem`: gunicorn, worker, beat) is restored with
`manage.py restore` into a fresh installation's directory, whose run carries on: the
clock at the level and time of the moment (its ends are stored times), the seats and
the results of the moment, and the level changing on time by the new machine's worker.

Each run has a var dir of its own and a free port on 127.0.0.1.
"""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import datetime
from pathlib import Path

import pytest

from .runs import Run, run_environment
from .servers import _wait, manage

pytestmark = [pytest.mark.worker, pytest.mark.slow]

FIRST, SECOND = 8, 45  # seconds: level 1 changes on the old laptop; level 2 spans the swap
NIGHT = f"""
from tdsystem.events.services import clock_action
from tdsystem.results.services import bustout_record
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

event = make_event({FIRST}, {SECOND}, 600, name="Friday night")
people = arrange(event, {{1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]}})
clock_action(event_id=event.pk, action="start", actor=ACTOR)
bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR, rng_seed=1)
print(event.pk)
"""


def environment(var: Path) -> dict:
    return run_environment(
        var,
        CLOCK_TICK_SECONDS="2",
        BACKUP_EVERY_MINUTES="0",  # the one backup is the test's own
    )


def clock_row(var: Path, event_id: int) -> sqlite3.Row:
    db = sqlite3.connect(f"file:{var / 'tdsystem.sqlite3'}?mode=ro", uri=True, timeout=20)
    db.row_factory = sqlite3.Row
    try:
        return db.execute(
            "SELECT level_index, version, scheduled_version, ends_at FROM events_clock "
            "WHERE event_id = ?",
            (event_id,),
        ).fetchone()
    finally:
        db.close()


def level_changes(var: Path, event_id: int) -> list[dict]:
    db = sqlite3.connect(f"file:{var / 'tdsystem.sqlite3'}?mode=ro", uri=True, timeout=20)
    try:
        rows = db.execute(
            "SELECT data FROM events_logentry WHERE event_id = ? AND action = 'clock.level' "
            "ORDER BY at",
            (event_id,),
        ).fetchall()
    finally:
        db.close()
    return [json.loads(data) for (data,) in rows]


def test_a_night_backed_up_on_one_laptop_carries_on_on_another(tmp_path):
    old_var, new_var, usb = tmp_path / "old", tmp_path / "new", tmp_path / "usb"
    old_env, new_env = environment(old_var), environment(new_var)
    manage(old_env, "migrate", "--noinput", "-v0")
    manage(new_env, "migrate", "--noinput", "-v0")  # the other laptop: a fresh install
    old = Run(old_env, tmp_path / "old.log").start()
    try:
        event_id = int(manage(old_env, "shell", "-c", NIGHT).split()[-1])
        # The old laptop's worker changes level 1 to level 2 on time: the night runs.
        _wait(lambda: old.get(f"/api/events/{event_id}/clock")["level_index"] == 1,
              FIRST + 10, "the first level change")  # fmt: skip
        seats = old.get(f"/api/events/{event_id}/seats")
        standings = old.get(f"/api/events/{event_id}/results")
        printed = manage(old_env, "backup", str(usb))
        backup = Path(printed.split()[-1])
        clock = old.get(f"/api/events/{event_id}/clock")
        ends_at = datetime.fromisoformat(clock["level_ends_at"])
    finally:
        old.kill()  # 1 a.m.: the laptop dies

    restored = manage(new_env, "restore", str(backup))
    assert "Restored tdsystem-" in restored and "1 event" in restored
    assert clock_row(new_var, event_id)["scheduled_version"] == 0  # to be sent again here
    new = Run(new_env, tmp_path / "new.log").start()
    try:
        assert "Showing now: Friday night" in new.log.read_text()
        clock = new.get(f"/api/events/{event_id}/clock")
        assert (clock["status"], clock["level_index"]) == ("running", 1)
        left = (ends_at - datetime.fromisoformat(clock["server_time"])).total_seconds() * 1000
        assert abs(clock["remaining_ms"] - left) < 1500 and clock["remaining_ms"] > 2000
        assert new.get(f"/api/events/{event_id}/seats") == seats
        assert new.get(f"/api/events/{event_id}/results") == standings
        # The new laptop's worker (its clock ticker) changes the level on time, with nobody
        # looking at a screen.
        wait = (ends_at - datetime.fromisoformat(clock["server_time"])).total_seconds()
        time.sleep(max(0.0, wait) + 2.5)
        assert clock_row(new_var, event_id)["level_index"] == 2
        change = level_changes(new_var, event_id)[-1]
        scheduled = datetime.fromisoformat(change["scheduled_at"])
        assert change["to"] == 2 and abs((scheduled - ends_at).total_seconds()) < 0.002
        assert change["late_ms"] < 1500, change
    finally:
        new.kill()
