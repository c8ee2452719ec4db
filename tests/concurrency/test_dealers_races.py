"""Races on the dealers' rotation, on PostgreSQL with threads: a push is made once, and
clock-ins racing a push and a table change leave one dealer per table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.dealers import services
from tdsystem.dealers.models import Rotation, Shift
from tdsystem.seating import services as seating
from tdsystem.simulation.seatings import arrange
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
ACTOR = Actor(label="test")


def room(dealers: int):
    event = make_event(1800, 1800)
    arrange(event, {1: [1, 2], 2: [1, 2], 3: [1, 2]})
    seating.tables_setup(event=event, numbers=[4], seats=9, actor=ACTOR)
    people = [services.dealer_add(name=f"Dealer {i}", actor=ACTOR) for i in range(dealers)]
    return event, people


def test_eight_deliveries_of_one_scheduled_push_push_once():
    event, people = room(4)
    for dealer in people:
        services.dealer_clock_in(event_id=event.pk, dealer_id=dealer.pk, actor=ACTOR)
    at = timezone.now() + timedelta(minutes=31)
    push = lambda: services.rotation_push(  # noqa: E731
        event_id=event.pk, actor=ACTOR, now=at, expected_version=0
    )
    results = run_together(*[push] * 8)
    assert errors_of(results) == []
    assert sum(r is not None for r in results) == 1
    assert Rotation.objects.get(pk=event.pk).pushes == 1
    assert LogEntry.objects.filter(event=event, action="dealers.push").count() == 1


def test_clock_ins_racing_a_push_and_a_table_release_leave_one_dealer_per_table():
    event, people = room(6)
    for dealer in people[:3]:
        services.dealer_clock_in(event_id=event.pk, dealer_id=dealer.pk, actor=ACTOR)
    jobs = [
        lambda d=d: services.dealer_clock_in(event_id=event.pk, dealer_id=d.pk, actor=ACTOR)
        for d in people[3:]
    ]
    jobs.append(lambda: services.rotation_push(event_id=event.pk, actor=ACTOR))
    jobs.append(lambda: seating.tables_release(event_id=event.pk, numbers=[4], actor=ACTOR))
    assert errors_of(run_together(*jobs)) == []
    services.rotation_sync(event_id=event.pk, actor=ACTOR)
    open_shifts = Shift.objects.filter(event=event, clock_out__isnull=True)
    tables = [s.table for s in open_shifts if s.table is not None]
    assert open_shifts.count() == 6
    assert sorted(tables) == [1, 2, 3]
