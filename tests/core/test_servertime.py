"""One time for the installation: the clock reads the PostgreSQL server's, not the process's.

This process's clock is sent an hour ahead (time-machine moves Python's clock, not the
server's): the clock's actions, the clock JSON and the tick still go by the server's
time, and /healthz says the machine is off.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import time_machine

from tdsystem.core.actors import Actor
from tdsystem.core.health import check_time
from tdsystem.core.servertime import clock_offset, server_now
from tdsystem.events import services
from tdsystem.events.models import Clock
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

AHEAD = timedelta(hours=1)


def test_the_clock_goes_by_the_database_servers_time_whatever_this_machines_says(settings, client):
    settings.CLOCK_TIME_SOURCE = "database"
    event = make_event(600, 600)
    real = server_now()
    with time_machine.travel(real + AHEAD, tick=True):
        clock = services.clock_action(event_id=event.pk, action="start", actor=Actor())
        assert abs((clock.ends_at - real).total_seconds() - 600) < 5

        body = client.get(f"/api/events/{event.pk}/clock").json()
        assert abs(datetime.fromisoformat(body["server_time"]) - real) < timedelta(seconds=5)
        assert 595_000 < body["remaining_ms"] <= 600_000 and body["level_index"] == 0

        # The tick by this machine's clock would end the level; by the server's, not yet.
        assert services.clocks_settle_due(schedule=False) == 0
        assert Clock.objects.get(pk=event.pk).level_index == 0

        paused = services.clock_action(event_id=event.pk, action="pause", actor=Actor())
        assert 595_000 < paused.remaining_ms <= 600_000

        offset = clock_offset()
        assert abs(offset.seconds + AHEAD.total_seconds()) < 5 and offset.source == "postgresql"
        ok, detail = check_time()
        assert not ok and detail.startswith("this machine's clock is +3")
    assert check_time()[0]


def test_the_process_clock_is_the_time_when_told(settings):
    settings.CLOCK_TIME_SOURCE = "process"
    with time_machine.travel(datetime(2030, 1, 1, 12, 0, tzinfo=server_now().tzinfo), tick=False):
        assert server_now() == datetime(2030, 1, 1, 12, 0, tzinfo=server_now().tzinfo)
