"""Two staff deleting or archiving the same event at once: one wins, the other is told."""

from __future__ import annotations

import threading

import pytest
from django.db import transaction

from tdsystem.core.locking import Busy, locks_take
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.simulation.seatings import ACTOR
from tdsystem.venue import life
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event
from tests.services.test_event_life import finished_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_deletes_at_once_delete_once_and_log_once():
    event = make_event(600, name="Doomed")
    results = run_together(*[lambda: life.event_delete(event_id=event.pk, actor=ACTOR)] * 4)
    errors = errors_of(results)
    assert len(errors) == 3 and all(isinstance(e, life.EventError) for e in errors)
    assert not Event.objects.filter(pk=event.pk).exists()
    assert LogEntry.objects.filter(event=None, action="event.delete").count() == 1


def test_two_archives_at_once_archive_once():
    event = finished_event()
    results = run_together(*[lambda: life.event_archive(event_id=event.pk, actor=ACTOR)] * 3)
    errors = errors_of(results)
    assert len(errors) == 2 and all("archived already" in str(e) for e in errors)
    assert event.log.filter(action="event.archive").count() == 1


def test_an_archive_waits_for_the_events_named_lock_and_is_told_busy_past_it(settings):
    """The life of an event takes the same named lock as seating's and results' changes."""
    settings.LOCK_TIMEOUT_SECONDS = 0.3
    event = finished_event()
    release, taken = threading.Event(), threading.Event()

    def hold():
        with transaction.atomic():
            locks_take(event=event.pk)
            taken.set()
            release.wait(10)
        return "held"

    def archive():
        taken.wait(5)
        try:
            return life.event_archive(event_id=event.pk, actor=ACTOR)
        finally:
            release.set()

    results = run_together(hold, archive)
    assert results[0] == "held" and isinstance(results[1], Busy)
    assert Event.objects.get(pk=event.pk).archived_at is None
    assert not event.log.filter(action="event.archive").exists()
    life.event_archive(event_id=event.pk, actor=ACTOR)  # once the lock is let go
    assert Event.objects.get(pk=event.pk).archived_at is not None
