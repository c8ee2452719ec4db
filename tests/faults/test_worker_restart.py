"""kill -9 of the Celery worker in the middle of a level, while the clock runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.models import Clock
from tests.fixtures import make_event
from tests.worker import wait_for

from . import watch_clock
from .servers import RedisServer, private_worker

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

DURATIONS = [3, 3, 3, 600]  # seconds: room to kill the worker mid-level on a busy machine


def test_it_keeps_the_clock_right_and_catches_up_after_a_worker_is_killed(
    tmp_path, client, settings
):
    # This process sends no tasks (its broker is not the worker's): the worker's own tick
    # schedules the exact level changes on the private broker.
    settings.CLOCK_SCHEDULE_AHEAD_SECONDS = 0
    with RedisServer() as broker:
        worker = private_worker(tmp_path, broker.url)
        try:
            worker.start()
            event = make_event(*DURATIONS)
            services.clock_action(event_id=event.pk, action="start", actor=Actor())
            first_end = Clock.objects.get(pk=event.pk).ends_at
            start = first_end - timedelta(seconds=DURATIONS[0])
            assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 1, timeout=10)
            wait_for(lambda: timezone.now() > start + timedelta(seconds=3.8), timeout=5)

            worker.kill()  # mid-level 1, holding the exact task of the change to level 2
            assert Clock.objects.get(pk=event.pk).level_index == 1

            def fetch() -> dict:
                return client.get(f"/api/events/{event.pk}/clock").json()

            seen = watch_clock(
                fetch,
                anchor=(0, first_end),
                durations=DURATIONS,
                until=start + timedelta(seconds=9.6),
            )
            assert {level for _, level in seen} == {1, 2, 3}
            # The screens showed levels 2 and 3 from the timestamps; nobody wrote them.
            assert Clock.objects.get(pk=event.pk).level_index == 1

            worker.start()
            assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 3, timeout=20)
        finally:
            worker.kill()
    changes = list(LogEntry.objects.filter(event=event, action="clock.level").order_by("at", "id"))
    assert [c.data["to"] for c in changes] == [1, 2, 3]
    assert [c.at for c in changes] == [start + timedelta(seconds=s) for s in (3, 6, 9)]
    assert all(c.data["late_ms"] > 1000 for c in changes[1:])  # caught up, not on time
