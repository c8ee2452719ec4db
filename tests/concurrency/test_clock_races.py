"""Races on the clock, on PostgreSQL with threads: nothing is lost or done twice."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tdsystem.events.services import clock as services
from tests.concurrency import threads
from tests.concurrency.threads import errors_of
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(*jobs, count: int = 1):
    return errors_of(threads.run_together(*[job for job in jobs for _ in range(count)]))


def test_many_ticks_and_tasks_settling_one_level_end_apply_it_once():
    event = make_event(60, 600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    Clock.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    errors = run_together(lambda: services.clock_settle(event_id=event.pk), count=8)
    assert errors == []
    assert Clock.objects.get(pk=event.pk).level_index == 1
    assert LogEntry.objects.filter(event=event, action="clock.level").count() == 1


def test_a_pause_racing_a_level_change_keeps_both():
    event = make_event(60, 600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    Clock.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    errors = run_together(
        lambda: services.clock_settle(event_id=event.pk),
        lambda: services.clock_action(event_id=event.pk, action="pause", actor=Actor()),
    )
    assert errors == []
    clock = Clock.objects.get(pk=event.pk)
    assert clock.level_index == 1 and clock.status == "paused"
    assert LogEntry.objects.filter(event=event, action="clock.level").count() == 1
    assert LogEntry.objects.filter(event=event, action="clock.pause").count() == 1


def test_without_the_row_lock_the_compare_and_set_still_applies_a_change_once(monkeypatch):
    """The race is real (both read the same version, then both write); the version check
    lets only one write through, so a task and a tick without the lock cannot double up."""
    event = make_event(60, 600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    Clock.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))

    gate = threading.Barrier(2)
    original_write = services._write

    def unlocked(event_id):
        clock = Clock.objects.select_related("event__structure").get(pk=event_id)
        return clock.event, clock

    def slow_write(clock, new, expected):
        gate.wait(5)  # both have read the same version before either writes
        return original_write(clock, new, expected)

    monkeypatch.setattr(services, "_locked_clock", unlocked)
    monkeypatch.setattr(services, "_write", slow_write)
    run_together(lambda: services.clock_settle(event_id=event.pk), count=2)
    assert Clock.objects.get(pk=event.pk).level_index == 1
    assert LogEntry.objects.filter(event=event, action="clock.level").count() == 1
