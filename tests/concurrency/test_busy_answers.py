"""A second change of an event waiting past the lock timeout is told busy and changes
nothing: on PostgreSQL, with the first change holding the event's lock in a thread."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy, locks_take
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.models import Clock
from tdsystem.seating import services as seating
from tdsystem.seating.models import EventTable
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

MESSAGE = "Someone else is changing this event right now: try again in a moment."


class Holder:
    """Another change holding the event's lock (and the venue's tables 1 to 3) until let go."""

    def __init__(self, event_id: int):
        self.taken, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(event_id,))

    def _hold(self, event_id: int) -> None:
        try:
            with transaction.atomic():
                locks_take(venue_tables=[1, 2, 3], event=event_id)
                self.taken.set()
                self.release.wait(10)
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.taken.wait(5)
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.thread.join(10)


@pytest.fixture
def short_timeout(settings):
    settings.LOCK_TIMEOUT_SECONDS = 0.3


def clock_log(event) -> int:
    return LogEntry.objects.filter(event=event, action__startswith="clock.").count()


def test_a_clock_action_waiting_past_the_timeout_is_busy_and_changes_nothing(short_timeout):
    event = make_event(600, 600)
    with Holder(event.pk), pytest.raises(Busy, match="try again in a moment"):
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
    assert Clock.objects.get(pk=event.pk).status == "not-started"
    assert clock_log(event) == 0
    # Once the other change is done, the same action goes through.
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    assert Clock.objects.get(pk=event.pk).status == "running"


def test_a_table_setup_waiting_on_the_venue_tables_is_busy_and_changes_nothing(short_timeout):
    holder_event, event = make_event(600, name="Monday"), make_event(600, name="Tuesday")
    with Holder(holder_event.pk), pytest.raises(Busy):
        seating.tables_setup(event=event, numbers=[3, 4], seats=9, actor=Actor())
    assert not EventTable.objects.filter(event=event).exists()
    assert not LogEntry.objects.filter(event=event, action="tables.setup").exists()


def test_the_console_says_busy_try_again(client, director, short_timeout):
    event = make_event(600, 600)
    client.force_login(director)
    with Holder(event.pk):
        page = client.post(f"/console/events/{event.pk}/clock", {"action": "start"})
        flash = client.post(
            f"/console/events/{event.pk}/clock", {"action": "start"}, HTTP_HX_REQUEST="true"
        )
    assert page.status_code == 409 and MESSAGE in page.content.decode()
    assert flash.status_code == 409 and flash["X-Busy"] == "1"
    assert MESSAGE in flash.content.decode()
    assert Clock.objects.get(pk=event.pk).status == "not-started" and clock_log(event) == 0


def test_the_api_says_busy_with_retry_after(client, director_token, short_timeout):
    event = make_event(600, 600)
    with Holder(event.pk):
        response = client.post(
            f"/api/events/{event.pk}/clock",
            {"action": "start"},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {director_token}",
        )
    assert response.status_code == 503 and response.json() == {"error": MESSAGE}
    assert response["Retry-After"] == "1"
    assert Clock.objects.get(pk=event.pk).status == "not-started" and clock_log(event) == 0
