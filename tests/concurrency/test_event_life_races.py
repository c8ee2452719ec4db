"""Two staff deleting or archiving the same event at once: one wins, the other is told."""

from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.seating.testing import ACTOR
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
