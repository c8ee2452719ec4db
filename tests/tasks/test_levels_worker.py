"""A running level lengthened in the editor: the real worker changes the level at the new
end, and the task sent for the old end does nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.models import Clock
from tdsystem.events.services import event_levels_edit
from tdsystem.structures.editing import stored_rows
from tests.fixtures import make_event
from tests.worker import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_changes_the_level_at_the_new_end(worker):
    event = make_event(3, 600, 600)
    clock = services.clock_action(event_id=event.pk, action="start", actor=Actor())
    old_end = clock.ends_at
    rows = stored_rows(event.structure)
    rows[0]["duration_seconds"] = 6
    event_levels_edit(event_id=event.pk, rows=rows, actor=Actor(label="dora"))
    new_end = Clock.objects.get(pk=event.pk).ends_at
    assert new_end == old_end + timedelta(seconds=3)
    wait_for(lambda: False, timeout=4)  # past the old end: the old task must not advance
    assert Clock.objects.get(pk=event.pk).level_index == 0
    assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 1, timeout=15)
    (change,) = LogEntry.objects.filter(event=event, action="clock.level")
    assert change.at == new_end and change.data["late_ms"] < 1500, change.data
