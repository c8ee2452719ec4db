"""The embedded run's SQLite "down": its file gone or unreadable, or held by a long write.

A file that cannot be opened answers 503 at once. A write held by another connection does
not hold up the screens' reads (WAL: readers do not wait for the writer), while a write
waits for it as before (busy_timeout, 20 s) instead of failing. PostgreSQL's outage is
tests/faults/test_database_fast_failure.py.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest
from django.db import connection

from tdsystem.core.actors import Actor
from tdsystem.events.services import clock_action
from tests.fixtures import make_event
from tests.personas import make_token, make_user

pytestmark = pytest.mark.skipif(
    "sqlite" not in __import__("django.conf").conf.settings.DATABASES["default"]["ENGINE"],
    reason="the SQLite run's own failures",
)


def public_reads(event_id: int) -> list[str]:
    return [
        f"/api/events/{event_id}/clock",
        f"/api/events/{event_id}/seats",
        "/api/current-event",
        f"/events/{event_id}/clock/",
        f"/events/{event_id}/seats/?q=a",
        f"/events/{event_id}/schedule/",
        "/clock/",
        "/seats/",
        "/schedule/",
    ]


def timed(client, path: str):
    started = time.monotonic()
    response = client.get(path)
    return response, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_the_reads_answer_at_once_while_another_connection_holds_a_write(client):
    event = make_event(3600, 3600, name="Held")
    clock_action(event_id=event.pk, action="start", actor=Actor())
    token = make_token(make_user("dora", "director"))
    for path in public_reads(event.pk):  # each served once: a first answer costs imports
        client.get(path)
    writer = sqlite3.connect(
        connection.settings_dict["NAME"], isolation_level=None, check_same_thread=False
    )
    writer.execute("BEGIN IMMEDIATE")  # the write lock, as a long write holds it
    writer.execute("UPDATE events_clock SET version = version")
    released = threading.Timer(1.5, writer.execute, ["COMMIT"])
    try:
        connection.close()  # the requests open their own, as a web thread does
        for path in public_reads(event.pk):
            response, took = timed(client, path)
            assert response.status_code in (200, 302), (path, response.status_code)
            assert took < 1, (path, took)
        # A write waits for the lock (it is released 1.5 s later) and is then carried out.
        released.start()
        started = time.monotonic()
        response = client.post(
            f"/api/events/{event.pk}/clock",
            json.dumps({"action": "pause"}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200, response.content
        assert 1.2 < time.monotonic() - started < 10
    finally:
        released.cancel()
        if writer.in_transaction:
            writer.execute("ROLLBACK")
        writer.close()


@pytest.mark.django_db(transaction=True)
def test_a_database_file_that_cannot_be_opened_answers_503_at_once(client, tmp_path):
    event = make_event(3600, name="Gone")
    for path in public_reads(event.pk):
        client.get(path)
    name = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = str(tmp_path / "unplugged" / "tdsystem.sqlite3")
    try:
        for path in public_reads(event.pk):
            response, took = timed(client, path)
            assert response.status_code == 503, (path, response.status_code)
            assert response["Retry-After"]
            assert took < 1, (path, took)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name
