"""One new member id registered in two events at the same moment, on PostgreSQL with
threads: each event locks only its own row, so only the unique member id stands between
them. The loser is told the member id is taken, and nothing of its registration stays.

The first test widens the window between "no player has this member id" and the insert
and shows the database's constraint is what the loser meets; the second shows that it
gets a clear refusal (an API 409, a console message) rather than an IntegrityError.
"""

from __future__ import annotations

import time

import pytest
from django.db import IntegrityError

from tdsystem.seating import services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, Player
from tdsystem.seating.services import registration
from tdsystem.simulation.seatings import ACTOR
from tests.concurrency.threads import run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PAUSE = 0.3


def slow_checks(monkeypatch) -> None:
    """Both registrations have looked for the member id before either inserts it."""
    same_names = registration.same_names

    def slow(*args, **kwargs):
        result = same_names(*args, **kwargs)
        time.sleep(PAUSE)
        return result

    monkeypatch.setattr(registration, "same_names", slow)


def register(event, name: str):
    return lambda: services.player_register(event=event, name=name, member_id="M-1001", actor=ACTOR)


def two_events():
    return make_event(600, name="Monday"), make_event(600, name="Tuesday")


def test_it_meets_the_unique_member_id_when_two_events_register_it_at_once(monkeypatch):
    monday, tuesday = two_events()
    slow_checks(monkeypatch)
    # Without the answer to the race, the loser's insert is what fails.
    monkeypatch.setattr(registration, "member_id_taken", lambda **kw: None)
    results = run_together(register(monday, "Ann Lee"), register(tuesday, "Ann Leigh"))
    failures = [r for r in results if isinstance(r, BaseException)]
    assert len(failures) == 1
    assert isinstance(failures[0], IntegrityError)  # a 500 for the API and the console
    assert Player.objects.filter(member_id="M-1001").count() == 1
    assert Entry.objects.filter(player__member_id="M-1001").count() == 1


def test_it_tells_the_second_of_two_registrations_at_once_the_member_id_is_taken(
    monkeypatch,
):
    monday, tuesday = two_events()
    slow_checks(monkeypatch)
    results = run_together(register(monday, "Ann Lee"), register(tuesday, "Ann Leigh"))
    failures = [r for r in results if isinstance(r, BaseException)]
    assert len(failures) == 1, results
    refusal = failures[0]
    assert isinstance(refusal, SeatingError) and refusal.field is None  # a 409
    winner = Entry.objects.select_related("event").get(player__member_id="M-1001")
    assert str(refusal) == f"member id M-1001 is already registered ({winner.event.name})"
    assert Player.objects.filter(member_id="M-1001").count() == 1
    assert Entry.objects.count() == 1
