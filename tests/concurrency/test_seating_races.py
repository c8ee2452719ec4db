"""Two floor staff at once, on PostgreSQL with threads: no seat holds two, nobody is lost.

Each race first runs without the event's row lock to show it is real, then with it. A
pause inside the locked section (after the reads, before the commit) widens the window
so the threads overlap every time; the lock must make them take turns. Two bust-outs at
once without the locks are in test_results_races.py (the service is results').
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from tdsystem.events.models import Clock, Event
from tdsystem.results.models import Finish
from tdsystem.results.services import bustout_record
from tdsystem.seating import balancing, services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, Move
from tdsystem.seating.services import registration
from tdsystem.simulation.seatings import ACTOR, arrange, seating_problems
from tests.concurrency.threads import run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))
PAUSE = 0.3


class Window:
    """Slows each critical section down and records when it ran."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float, int]] = []

    def wrap(self, function):
        def slow(*args, **kwargs):
            start = time.monotonic()
            result = function(*args, **kwargs)
            time.sleep(PAUSE)  # the reads are done; the commit has not happened yet
            self.spans.append((start, time.monotonic(), threading.get_ident()))
            return result

        return slow

    def overlapped(self) -> bool:
        """Whether two threads were inside the slowed section at the same time."""
        return any(
            a[2] != b[2] and a[0] < b[1] and b[0] < a[1] for a in self.spans for b in self.spans
        )


def without_lock(monkeypatch) -> None:
    def unlocked(rows, event_id: int, **_) -> Event:
        return Event.objects.get(pk=event_id)

    monkeypatch.setattr(balancing, "event_lock", unlocked)
    monkeypatch.setattr(registration, "event_lock", unlocked)


def four_tables(event):
    # 8, 8, 7, 7 players: a bust at table 3 or 4 leaves it two short of the largest.
    layout = {1: FULL[:8], 2: FULL[:8], 3: FULL[:7], 4: FULL[:7]}
    positions = {number: (1, 2, 3) for number in layout}
    return arrange(event, layout, positions=positions)


def bust(event, entry):
    """A bust-out as every page and the API record it (results' bustout_record)."""
    return lambda: bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR)


def test_it_loses_nobody_when_two_busts_at_once_need_balancing(monkeypatch):
    event = make_event(600)
    people = four_tables(event)
    window = Window()
    monkeypatch.setattr(balancing, "log_record", window.wrap(balancing.log_record))
    results = run_together(bust(event, people["T3S1"]), bust(event, people["T4S1"]))
    assert not any(isinstance(result, BaseException) for result in results), results
    assert not window.overlapped()  # the event lock made them take turns
    assert sorted(Finish.objects.filter(event=event).values_list("place", flat=True)) == [29, 30]
    assert seating_problems(event) == []
    seats = Counter(Entry.objects.filter(status="active").values_list("table__number", "seat"))
    assert len(seats) == 28 and max(seats.values()) == 1 and (None, None) not in seats
    moves = list(Move.objects.filter(reason="balance"))
    assert len(moves) == 2
    for move in moves:
        entry = Entry.objects.select_related("table").get(pk=move.entry_id)
        assert (entry.table.number, entry.seat) == (move.to_table, move.to_seat)


def late_event():
    event = make_event(600, 600, late_registration_end_level=2)
    arrange(event, {1: FULL[:5], 2: FULL[:5]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=1)
    return event


def register(event, name: str):
    return lambda: services.player_register(event=event, name=name, actor=ACTOR)


def test_it_fails_one_of_two_late_registrations_without_the_lock(monkeypatch):
    event = late_event()
    without_lock(monkeypatch)
    window = Window()
    monkeypatch.setattr(
        registration, "next_entry_number", window.wrap(registration.next_entry_number)
    )
    results = run_together(register(event, "Ann Late"), register(event, "Ben Late"))
    # Both read the same last entry number; the database's unique constraint refuses
    # the second entry, so without the lock one registration fails.
    assert sum(isinstance(result, SeatingError) for result in results) == 1
    assert Entry.objects.filter(player__name__endswith="Late").count() == 1


def test_it_seats_two_late_registrations_at_once(monkeypatch):
    event = late_event()
    window = Window()
    monkeypatch.setattr(
        registration, "next_entry_number", window.wrap(registration.next_entry_number)
    )
    results = run_together(register(event, "Ann Late"), register(event, "Ben Late"))
    assert not any(isinstance(result, BaseException) for result in results), results
    assert not window.overlapped()
    late = Entry.objects.filter(player__name__endswith="Late").select_related("table")
    assert sorted(e.number for e in late) == [11, 12]
    assert len({(e.table.number, e.seat) for e in late}) == 2
    assert seating_problems(event) == []
