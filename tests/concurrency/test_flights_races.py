"""Two staff combining the flights at once, or one adding a flight while another
combines: one wins, the other is told, and Day 2 is made once."""

from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.seating import services as seating
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry
from tdsystem.seating.testing import ACTOR
from tests.concurrency.threads import errors_of, run_together
from tests.services.test_flights import played

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_combinations_at_once_make_day_2_once():
    main, *_ = played()
    results = run_together(
        *[
            lambda seed=seed: seating.day2_combine(event_id=main.pk, actor=ACTOR, seed=seed)
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
        lambda: seating.day2_combine(event_id=main.pk, actor=ACTOR, seed=1),
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
