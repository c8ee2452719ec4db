"""PostgreSQL down (a crash) across two level changes of a running clock.

A private cluster holds the event; a real worker with beat and gunicorn run on it, with a
Redis broker of the test's own. The database is stopped with `-m immediate` in the middle
of level 1 and started again after levels 1 and 2 should have ended. The worker must live
through it and catch both changes up, each logged once at the moment the level really
ended; the clock JSON must be right from the first answer after the restart.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta

import psycopg
import pytest

from tests.worker import wait_for

from . import watch_clock
from .servers import (
    RedisServer,
    WebServer,
    http,
    manage,
    private_postgres,
    private_worker,
)

pytestmark = [pytest.mark.postgres, pytest.mark.worker]

# Level 1 long enough that a machine slow to start the scene (its clock is started by a
# `manage.py shell` that must end first) still stops the database before level 1 ends.
DURATIONS = [15, 5, 600]  # seconds
DOWN_AT = 1.5  # seconds into level 1 (index 0)
UP_AT = 21.5  # after levels 1 and 2 should have ended (at 15 s and 20 s)
ENDS = (DURATIONS[0], DURATIONS[0] + DURATIONS[1])

SETUP = f"""
from tdsystem.core.actors import Actor
from tdsystem.events.services import clock_action
from tests.fixtures import make_event

event = make_event(*{DURATIONS!r})
clock = clock_action(event_id=event.pk, action="start", actor=Actor(label="fault test"))
print(event.pk, clock.ends_at.isoformat())
"""


def _sql(url: str, query: str, *args):
    with psycopg.connect(url.replace("postgres://", "postgresql://"), connect_timeout=3) as db:
        return db.execute(query, args).fetchall()


def test_a_running_clock_catches_up_the_levels_it_missed_while_postgresql_was_down(tmp_path):
    with (
        RedisServer() as broker,
        private_postgres(tmp_path, "tdsystem_clock_fault", CELERY_BROKER_URL=broker.url) as (
            cluster,
            env,
        ),
    ):
        url = env["DATABASE_URL"]
        worker = private_worker(tmp_path, broker.url, DATABASE_URL=url, DB_POOL_TIMEOUT="3")
        try:
            worker.start()
            with WebServer(env, tmp_path / "web.log") as web:
                event_id, first_end = manage(env, "shell", "-c", SETUP).split()[-2:]
                first_end = datetime.fromisoformat(first_end)
                start = first_end - timedelta(seconds=DURATIONS[0])

                def clock() -> tuple[int | None, dict]:
                    try:
                        status, body = http("GET", web.url(f"/api/events/{event_id}/clock"))
                    except OSError:
                        return None, {}
                    return status, json.loads(body) if body else {}

                def sleep_until(offset: float) -> None:
                    moment = start + timedelta(seconds=offset)
                    now = datetime.now(start.tzinfo)
                    time.sleep(max(0.0, (moment - now).total_seconds()))

                sleep_until(DOWN_AT)
                assert clock()[0] == 200
                down = datetime.now(start.tzinfo)
                assert down < start + timedelta(seconds=ENDS[0]), "level 1 ended before the stop"
                cluster.stop("immediate")
                assert clock()[0] == 503  # no answer from the database: said so, no 500
                sleep_until(UP_AT)
                cluster.start()

                # Right from the first answer after the restart: the screens show the third level
                # from the stored start, whatever the worker has written so far.
                assert wait_for(lambda: clock()[0] == 200, timeout=20), clock()
                watch_clock(
                    lambda: clock()[1],
                    anchor=(0, first_end),
                    durations=DURATIONS,
                    until=start + timedelta(seconds=UP_AT + 1),
                )

                def level_index() -> int:
                    try:
                        return _sql(url, "SELECT level_index FROM events_clock")[0][0]
                    except psycopg.OperationalError:
                        return -1

                assert wait_for(lambda: level_index() == 2, timeout=30), level_index()
            assert worker.proc.poll() is None, "the worker died while the database was down"
        finally:
            worker.kill()
        changes = _sql(
            url,
            "SELECT at, data FROM events_logentry WHERE action = 'clock.level' ORDER BY at, id",
        )
    assert [data["to"] for _, data in changes] == [1, 2]  # each once
    assert [at for at, _ in changes] == [start + timedelta(seconds=s) for s in ENDS]
    assert all(data["late_ms"] > 1000 for _, data in changes)  # caught up, not on time
