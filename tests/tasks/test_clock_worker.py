"""The clock with a real Celery worker on the real broker (Redis in CI)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.models import Clock
from tdsystem.events.tasks import clock_advance
from tests.fixtures import make_event
from tests.worker import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def level_changes(event):
    return list(LogEntry.objects.filter(event=event, action="clock.level").order_by("at", "id"))


def test_one_second_levels_advance_on_their_own(worker):
    event = make_event(1, 1, 1, 1, 600)
    clock = services.clock_action(event_id=event.pk, action="start", actor=Actor())
    # From the start's own answer: on a busy machine the worker may have moved on already.
    started = clock.ends_at - timedelta(seconds=1)
    assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 4, timeout=20)
    changes = level_changes(event)
    assert [c.data["to"] for c in changes] == [1, 2, 3, 4]
    assert [c.at for c in changes] == [started + timedelta(seconds=s) for s in (1, 2, 3, 4)]
    # Applied by the exact task, close to the scheduled time (figures in make bench).
    assert all(c.data["late_ms"] < 1500 for c in changes), [c.data for c in changes]


def test_a_worker_down_for_three_levels_catches_all_three_up(worker):
    event = make_event(2, 2, 2, 600)
    worker.kill()
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    start = Clock.objects.get(pk=event.pk).ends_at - timedelta(seconds=2)
    wait_for(lambda: timezone.now() > start + timedelta(seconds=6.5), timeout=10)
    assert Clock.objects.get(pk=event.pk).level_index == 0  # nobody advanced it
    worker.start()
    assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 3, timeout=20)
    changes = level_changes(event)
    assert [c.data["to"] for c in changes] == [1, 2, 3]
    assert [c.at for c in changes] == [start + timedelta(seconds=s) for s in (2, 4, 6)]
    assert all(c.data["late_ms"] > 0 for c in changes)


def test_the_same_transition_delivered_twice_advances_once(worker):
    event = make_event(2, 600, 600)
    clock = services.clock_action(event_id=event.pk, action="start", actor=Actor())
    for _ in range(2):  # on top of the one the start scheduled
        clock_advance.apply_async(args=[event.pk, clock.version], eta=clock.ends_at)
    assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 1, timeout=15)
    wait_for(lambda: False, timeout=2)  # let the duplicates arrive
    assert Clock.objects.get(pk=event.pk).level_index == 1
    assert len(level_changes(event)) == 1


def test_the_clock_json_never_shows_a_level_older_than_the_stored_clock(worker, client):
    # Levels of 2 s: one of a second could pass between two reads of a loaded machine, and
    # the poll would be right never to have shown it.
    event = make_event(2, 2, 2, 600)
    url = f"/api/events/{event.pk}/clock"
    client.get(url)  # the screens' cache warm (event, schedule, figures) before a change
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    shown = set()
    deadline = time.monotonic() + 30
    while Clock.objects.get(pk=event.pk).level_index < 3 and time.monotonic() < deadline:
        before = Clock.objects.get(pk=event.pk)  # what the worker had written by then
        body = client.get(url).json()
        assert body["version"] >= before.version, (body, before.version)
        assert body["level_index"] >= before.level_index, (body, before.level_index)
        shown.add(body["level_index"])
    assert Clock.objects.get(pk=event.pk).level_index == 3
    assert {1, 2} <= shown
    # A director's changes, answered at once by the next read.
    for action, seconds in (("pause", None), ("previous", None), ("set_time", 300)):
        clock = services.clock_action(
            event_id=event.pk, action=action, seconds=seconds, actor=Actor()
        )
        body = client.get(url).json()
        assert (body["status"], body["version"]) == ("paused", clock.version), action
        assert body["level_index"] == clock.level_index
        assert body["remaining_ms"] == clock.remaining_ms
