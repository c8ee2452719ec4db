"""The clock ticker's tick, without a worker: what it stores, proves and waits for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tdsystem.core import tasks as core_tasks
from tdsystem.core.actors import Actor
from tdsystem.core.models import Heartbeat, LogEntry
from tdsystem.events import services, ticker
from tdsystem.events.models import Clock
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)


def test_two_tickers_store_a_due_level_once_and_wake_for_the_next_end(settings, monkeypatch):
    settings.CLOCK_TICK_SECONDS = 2
    sent = []
    monkeypatch.setattr(core_tasks.heartbeat, "delay", lambda: sent.append(1))
    event = make_event(60, 60, 600)
    with time_machine.travel(T0, tick=False):
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
    one, two = ticker.Ticker("one@host"), ticker.Ticker("two@host")
    with time_machine.travel(T0 + timedelta(seconds=60.5), tick=False):
        assert one.tick() == 2  # the next end is a minute away: the tick's own interval
        assert two.tick() == 2
    clock = Clock.objects.get(pk=event.pk)
    assert clock.level_index == 1
    (change,) = LogEntry.objects.filter(event=event, action="clock.level")
    assert change.data["late_ms"] == 500
    beats = dict(Heartbeat.objects.values_list("name", "detail"))
    assert beats["ticker:one@host"] == "one@host" and beats["ticker:two@host"] == "two@host"
    one._sender.join(5)
    two._sender.join(5)
    assert sent == [1, 1]  # the workers' heartbeat, through the broker

    with time_machine.travel(T0 + timedelta(seconds=119.25), tick=False):
        # Wakes at the level's end: 0.75 s on, less what the tick itself took.
        assert 0.5 < one.tick() <= 0.75
    with time_machine.travel(T0 + timedelta(seconds=120), tick=False):
        one.tick()
    assert Clock.objects.get(pk=event.pk).level_index == 2
    assert LogEntry.objects.filter(event=event, action="clock.level").count() == 2


def test_a_broker_that_does_not_answer_holds_up_no_tick(settings, monkeypatch):
    import threading

    released = threading.Event()
    monkeypatch.setattr(core_tasks.heartbeat, "delay", lambda: released.wait(10))
    tick = ticker.Ticker("slow@host")
    try:
        assert tick.tick() == settings.CLOCK_TICK_SECONDS  # no clock runs
        tick._heartbeat_at = float("-inf")
        assert tick.tick() == settings.CLOCK_TICK_SECONDS  # the sender still waits: not twice
        assert tick._sender is not None and tick._sender.is_alive()
    finally:
        released.set()
