"""Two staff combining the flights at once, or one adding a flight while another
combines: one wins, the other is told, and Day 2 is made once."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.seating import services as seating
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR
from tests.concurrency.threads import errors_of, run_together
from tests.services.test_flights import played

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_without_the_locks_two_combinations_both_pass_the_checks(monkeypatch):
    """The race the locks close: without them the second reads "not combined" before the
    first commits, waits on the flights' rows, and goes on from that stale read; only a
    later check (the tables, the entries' constraints) stops it, with the wrong reason."""
    from tdsystem.events.models import Event as EventRow
    from tdsystem.seating.services import flights

    main, *_ = played()
    both_read = threading.Barrier(2, timeout=10)
    reads = threading.local()
    preview = flights.day2_preview

    def preview_then_wait(event):
        found = preview(event)
        reads.n = getattr(reads, "n", 0) + 1
        if reads.n == 1:  # both have read the event before either writes
            both_read.wait()
        return found

    monkeypatch.setattr(flights, "locks_take", lambda **names: None)
    monkeypatch.setattr(flights, "event_lock", lambda rows, pk, **_: EventRow.objects.get(pk=pk))
    monkeypatch.setattr(flights, "day2_preview", preview_then_wait)
    results = run_together(
        *[
            lambda seed=seed: flights.day2_combine(
                event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=seed
            )
            for seed in (1, 2)
        ]
    )
    errors = errors_of(results)
    # One Day 2; the other got past "combined already" and fell later, for another reason.
    assert len(errors) == 1 and "combined already" not in str(errors[0]), errors
    assert isinstance(errors[0], SeatingError | DatabaseError)
    assert Entry.objects.filter(event=main).count() == 3


def test_two_combinations_at_once_make_day_2_once():
    main, *_ = played()
    results = run_together(
        *[
            lambda seed=seed: seating.day2_combine(
                event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=seed
            )
            for seed in (1, 2, 3)
        ]
    )
    errors = errors_of(results)
    assert len(errors) == 2 and all(isinstance(e, SeatingError) for e in errors)
    assert all("combined already" in str(e) for e in errors)
    assert Entry.objects.filter(event=main).count() == 3
    assert LogEntry.objects.filter(event=main, action="day2.combine").count() == 1
    assert LogEntry.objects.filter(event=main, action="seats.draw").count() == 1


def test_a_flight_added_while_the_flights_combine_is_never_left_out_silently():
    main, *_ = played()
    results = run_together(
        lambda: seating.day2_combine(
            event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1
        ),
        lambda: seating.flight_add(event_id=main.pk, name="1C", actor=ACTOR),
    )
    combined, added = results
    flights = Event.objects.filter(parent=main).count()
    main.refresh_from_db()
    if isinstance(added, Event):
        # The flight came first: the combination saw it (not played) or the flights change.
        assert isinstance(combined, SeatingError) and main.day == 1 and flights == 3
        assert not Entry.objects.filter(event=main).exists()
    else:
        assert isinstance(added, SeatingError) and "Day 2" in str(added)
        assert main.day == 2 and flights == 2
