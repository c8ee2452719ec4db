"""A clock started through the API or the console page, with a real Celery worker: the
level tasks the start leaves for after its commit (transaction.on_commit) are sent once
the request's transaction commits (tdsystem/core/writes.py), and the worker changes the
levels on time, as after a start outside any request (test_clock_worker.py)."""

from __future__ import annotations

import json

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tests.fixtures import make_event
from tests.worker import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def changed_on_time(event) -> None:
    assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 2, timeout=20)
    changes = LogEntry.objects.filter(event=event, action="clock.level").order_by("at")
    assert [c.data["to"] for c in changes] == [1, 2]
    # Applied by the exact tasks the start sent, not caught up by the beat tick later.
    assert all(c.data["late_ms"] < 1500 for c in changes), [c.data for c in changes]


def test_a_start_through_the_api_sends_its_level_tasks_at_its_commit(
    worker, client, director_token
):
    event = make_event(1, 1, 600)
    response = client.post(
        f"/api/events/{event.pk}/clock",
        json.dumps({"action": "start"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert response.status_code == 200 and response.json()["status"] == "running"
    changed_on_time(event)


def test_a_start_from_the_console_sends_its_level_tasks_at_its_commit(worker, client, director):
    event = make_event(1, 1, 600)
    client.force_login(director)
    response = client.post(
        f"/console/events/{event.pk}/clock",
        {"action": "start", "confirm_empty": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    changed_on_time(event)
