"""Two floor staff report at the same moment, on PostgreSQL with threads.

The same player twice: one bust-out is recorded, the other answers "already out". Two
players at two tables: they take places N and N-1, never both N. Each race first runs
without the locks to show it is real, and that the database constraints still refuse
the second write; then with them, where the reports simply take turns.
"""

from __future__ import annotations

import time

import pytest

from tdsystem.events.models import Event
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import BustOut, Finish
from tdsystem.results.services import bustouts, snapshot, standings
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange, seating_problems
from tests.concurrency.threads import run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))
PAUSE = 0.3


def widen(monkeypatch) -> list[tuple[float, float]]:
    """Sleep after the field is read (before any write) and record when each did."""
    spans: list[tuple[float, float]] = []
    real = standings.field_read

    def slow(event):
        start = time.monotonic()
        figures = real(event)
        time.sleep(PAUSE)
        spans.append((start, time.monotonic()))
        return figures

    monkeypatch.setattr(standings, "field_read", slow)
    return spans


def overlapped(spans) -> bool:
    return any(a is not b and a[0] < b[1] and b[0] < a[1] for a in spans for b in spans)


def without_locks(monkeypatch) -> None:
    def event_unlocked(rows, event_id: int, **_) -> Event:
        return Event.objects.get(pk=event_id)

    def entries_unlocked(event, ids):
        entries = list(
            Entry.objects.select_related("player", "table").filter(pk__in=ids).order_by("pk")
        )
        for entry in entries:
            if entry.status != Entry.Status.ACTIVE:
                raise ResultsError(f"#{entry.number} {entry.player.name} is already out")
        return entries

    monkeypatch.setattr(bustouts, "event_lock", event_unlocked)
    monkeypatch.setattr(snapshot, "entries_locked", entries_unlocked)


def bust(event, entry):
    def job():
        return bustouts.bustout_record(
            event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR, rng_seed=1
        )

    return job


def places_are_contiguous(event) -> bool:
    left = Entry.objects.filter(event=event, status="active").count()
    total = Entry.objects.filter(event=event).count()
    slots = sorted(
        Finish.objects.filter(event=event, undone_at__isnull=True).values_list("slot", flat=True)
    )
    return slots == list(range(left + 1, total + 1))


@pytest.fixture
def room():
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    return event, people


def test_without_the_locks_the_same_player_races_and_the_constraint_refuses_the_second(
    monkeypatch, room
):
    event, people = room
    without_locks(monkeypatch)
    spans = widen(monkeypatch)
    results = run_together(bust(event, people["T1S5"]), bust(event, people["T1S5"]))
    assert overlapped(spans), "both read the player as still in: the race is real"
    errors = [r for r in results if isinstance(r, ResultsError)]
    assert len(errors) == 1 and "already out" in str(errors[0])
    assert Finish.objects.filter(entry=people["T1S5"]).count() == 1
    assert BustOut.objects.count() == 1
    assert places_are_contiguous(event)


def test_two_staff_busting_the_same_player_record_one_and_hear_already_out(monkeypatch, room):
    event, people = room
    spans = widen(monkeypatch)
    results = run_together(bust(event, people["T1S5"]), bust(event, people["T1S5"]))
    assert not overlapped(spans), "the event's lock makes them take turns"
    done = [r for r in results if isinstance(r, bustouts.Recorded)]
    errors = [r for r in results if isinstance(r, ResultsError)]
    assert len(done) == 1 and len(errors) == 1, results
    assert "already out (place 18)" in str(errors[0]) and errors[0].field is None
    assert Finish.objects.get(entry=people["T1S5"]).place == 18
    assert places_are_contiguous(event)
    assert seating_problems(event) == []


def test_without_the_locks_two_tables_would_give_the_same_place_and_the_constraint_refuses(
    monkeypatch, room
):
    event, people = room
    without_locks(monkeypatch)
    spans = widen(monkeypatch)
    results = run_together(bust(event, people["T1S5"]), bust(event, people["T2S5"]))
    assert overlapped(spans)
    errors = [r for r in results if isinstance(r, ResultsError)]
    assert len(errors) == 1 and "place is taken" in str(errors[0])
    assert list(Finish.objects.values_list("place", flat=True)) == [18]
    assert places_are_contiguous(event)


def test_two_tables_busting_at_once_take_places_18_and_17(monkeypatch, room):
    event, people = room
    spans = widen(monkeypatch)
    results = run_together(bust(event, people["T1S5"]), bust(event, people["T2S5"]))
    assert not overlapped(spans)
    assert all(isinstance(r, bustouts.Recorded) for r in results), results
    assert sorted(Finish.objects.values_list("place", flat=True)) == [17, 18]
    assert places_are_contiguous(event)
    assert seating_problems(event) == []
