"""Two desks calling the next alternate at once never call the same player: on
PostgreSQL, in two threads. Without the locks the race is there (both read the same first
waiting player); with them the second call waits and calls the next."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.players import alternates as alt
from tdsystem.players.models import AlternateList
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
DESK = Actor(label="desk")


def two_calls(event) -> list[str]:
    start = threading.Barrier(2, timeout=10)
    called: list[str] = []

    def call() -> None:
        try:
            start.wait()
            called.append(alt.alternate_call_next(event=event, actor=DESK).name)
        finally:
            connection.close()

    threads = [threading.Thread(target=call) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    return sorted(called)


@pytest.fixture
def queued():
    event = make_event(30)
    for name in ("Ann", "Bob", "Cy"):
        alt.alternate_join(event=event, name=name, actor=DESK)
    return event


def test_without_the_locks_both_desks_call_the_same_player(queued, monkeypatch):
    both_read = threading.Barrier(2, timeout=10)
    call = alt._call

    def unlocked(event_id):
        return Event.objects.get(pk=event_id), AlternateList.objects.get(event_id=event_id)

    def call_after_both_read(*args):
        both_read.wait()
        call(*args)

    monkeypatch.setattr(alt, "_locked", unlocked)
    monkeypatch.setattr(alt, "_call", call_after_both_read)
    assert two_calls(queued) == ["Ann", "Ann"]


def test_with_the_locks_two_desks_call_two_players(queued):
    assert two_calls(queued) == ["Ann", "Bob"]
    assert [(a.name, a.status) for a in alt.queue(queued.pk)] == [
        ("Ann", "called"),
        ("Bob", "called"),
        ("Cy", "waiting"),
    ]
