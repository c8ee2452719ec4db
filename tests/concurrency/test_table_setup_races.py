"""Two staff putting one venue table into play for two events at once: one gets it, the
other is told who holds it and which numbers are free (never a database error).

The events' own locks do not serialise two different events, so the race first runs
without the venue tables' lock to show the constraint is what stops it there.
"""

from __future__ import annotations

import time

import pytest
from django.db import IntegrityError

from tdsystem.seating import services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import EventTable, VenueTable
from tdsystem.seating.services import tables
from tdsystem.simulation.seatings import ACTOR
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PAUSE = 0.3


def slow_log(monkeypatch) -> None:
    """Hold each setup open after its writes, before its commit, so the two overlap."""
    log = tables.log_record

    def slow(**kwargs):
        result = log(**kwargs)
        time.sleep(PAUSE)
        return result

    monkeypatch.setattr(tables, "log_record", slow)


def without_venue_lock(monkeypatch) -> None:
    """Each setup takes its event's lock only, not the venue tables' named locks."""
    event_lock = tables.event_lock

    def event_only(rows, event_id, *, venue_tables=(), **named):
        return event_lock(rows, event_id, **named)

    monkeypatch.setattr(tables, "event_lock", event_only)


def two_setups(numbers_a: list[int], numbers_b: list[int]):
    one, two = make_event(600, name="Monday"), make_event(600, name="Tuesday")
    return run_together(
        lambda: services.tables_setup(event=one, numbers=numbers_a, seats=9, actor=ACTOR),
        lambda: services.tables_setup(event=two, numbers=numbers_b, seats=9, actor=ACTOR),
    )


def test_it_meets_the_constraint_without_the_venue_lock(monkeypatch):
    # A table the venue already knows: a new one is created by one of the two, and the
    # other's insert waits for that commit, so only known tables raced.
    VenueTable.objects.create(number=5, seats=9)
    without_venue_lock(monkeypatch)
    slow_log(monkeypatch)
    errors = errors_of(two_setups([5], [5]))
    # The loser checked before the winner committed, so only the database refused it.
    assert len(errors) == 1 and isinstance(errors[0], IntegrityError), errors
    assert EventTable.objects.filter(number=5, in_play=True).count() == 1


@pytest.mark.parametrize("known", [True, False], ids=["venue-table", "new-table"])
def test_the_second_of_two_setups_at_once_is_told_who_holds_the_table(monkeypatch, known):
    if known:
        VenueTable.objects.create(number=5, seats=9)
    slow_log(monkeypatch)
    results = two_setups([5, 6], [4, 5])
    errors = errors_of(results)
    assert len(errors) == 1 and isinstance(errors[0], SeatingError), errors
    holder = EventTable.objects.select_related("event").get(number=5, in_play=True).event
    assert f"table 5 is in use by {holder.name}" in str(errors[0])
    assert "free numbers: " in str(errors[0]) and errors[0].field == "numbers"
    # The loser changed nothing: only the winner's tables are in play.
    assert EventTable.objects.filter(in_play=True).exclude(event=holder).count() == 0


def test_setups_of_different_tables_at_once_both_go_through(monkeypatch):
    slow_log(monkeypatch)
    assert errors_of(two_setups([1, 2], [3, 4])) == []
    assert EventTable.objects.filter(in_play=True).count() == 4
