"""Clock services: compare-and-set, catch-up, logging, with frozen time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.engine.clock import ClockError
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock as services

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


def act(event, action, seconds=None, *, at=T0, user=None):
    return services.clock_action(
        event_id=event.pk, action=action, seconds=seconds, now=at, actor=Actor.of(user)
    )


def test_it_starts_and_logs_who_did_it(event, director):
    clock = act(event, "start", user=director)
    assert clock.status == "running" and clock.ends_at == T0 + timedelta(seconds=600)
    entry = LogEntry.objects.filter(event=event, action="clock.start").get()
    assert entry.actor == director and entry.actor_label == "dora" and entry.at == T0
    assert Event.objects.get(pk=event.pk).status == "running"


def test_a_refused_action_changes_nothing(event):
    version = Clock.objects.get(pk=event.pk).version
    with pytest.raises(ClockError):
        act(event, "pause")
    assert Clock.objects.get(pk=event.pk).version == version
    assert not LogEntry.objects.filter(action="clock.pause").exists()


def test_settle_catches_up_three_levels_each_logged_at_its_time(event):
    act(event, "start")
    applied = services.clock_settle(event_id=event.pk, now=T0 + timedelta(seconds=1550))
    assert applied == 3
    clock = Clock.objects.get(pk=event.pk)
    assert clock.level_index == 3
    changes = LogEntry.objects.filter(event=event, action="clock.level").order_by("at")
    assert [e.at for e in changes] == [
        T0 + timedelta(seconds=600),
        T0 + timedelta(seconds=1200),
        T0 + timedelta(seconds=1500),
    ]
    assert all(e.actor is None and e.actor_label == "clock" for e in changes)


def test_a_stale_compare_and_set_writes_nothing(event):
    clock = act(event, "start")
    stale = Clock.objects.get(pk=event.pk)
    act(event, "pause", at=T0 + timedelta(seconds=5))
    from tdsystem.engine import clock as rules

    new = rules.pause(services._state(stale), [600] * 5, T0)
    assert services._write(stale, new, stale.version) is False
    assert Clock.objects.get(pk=event.pk).version == clock.version + 1


def test_actions_settle_overdue_levels_first(event):
    act(event, "start")
    clock = act(event, "pause", at=T0 + timedelta(seconds=700))
    assert clock.level_index == 1 and clock.remaining_ms == 500_000


def test_add_time_needs_seconds(event):
    with pytest.raises(ClockError, match="seconds"):
        act(event, "add_time")


def test_unknown_action_is_refused(event):
    with pytest.raises(ClockError, match="unknown action"):
        act(event, "rewind")


def test_tick_settles_overdue_clocks(event):
    act(event, "start")
    with time_machine.travel(T0 + timedelta(seconds=601), tick=False):
        assert services.clocks_settle_due() == 1
    assert Clock.objects.get(pk=event.pk).level_index == 1


def test_the_screens_fast_clock_read_matches_the_orm(event):
    from tdsystem.events.selectors import clock_read

    def same() -> None:
        fast, orm = clock_read(event.pk), Clock.objects.get(pk=event.pk)
        for name in ("status", "level_index", "ends_at", "remaining_ms", "version"):
            assert getattr(fast, name) == getattr(orm, name), name

    same()  # not started: no end time
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    same()  # running: an aware end time
    assert clock_read(event.pk).ends_at.tzinfo is not None
    services.clock_action(event_id=event.pk, action="pause", actor=Actor())
    same()
    assert clock_read(10**9) is None
    assert clock_read(2**63) is None  # past 64 bits: no row, not a driver error


def test_the_fast_clock_read_is_a_value_that_cannot_be_saved(event):
    import dataclasses

    from tdsystem.engine.clock import ClockState
    from tdsystem.events.selectors import clock_read

    fast = clock_read(event.pk)
    assert isinstance(fast, ClockState) and not hasattr(fast, "save")
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.status = "running"


def test_a_console_start_with_nobody_seated_is_refused_until_confirmed(event):
    with pytest.raises(services.NobodySeated, match="Nobody is seated yet"):
        services.clock_action(
            event_id=event.pk,
            action="start",
            confirm_empty=False,
            now=T0,
            actor=Actor.of(None),
        )
    assert Clock.objects.get(pk=event.pk).version == 0
    assert not LogEntry.objects.filter(action="clock.start").exists()
    clock = services.clock_action(
        event_id=event.pk, action="start", confirm_empty=True, now=T0, actor=Actor.of(None)
    )
    assert clock.status == "running"


def test_a_console_start_needs_no_confirmation_once_someone_is_seated(event):
    from tdsystem.simulation.seatings import arrange

    arrange(event, {1: [1]})
    clock = services.clock_action(
        event_id=event.pk,
        action="start",
        confirm_empty=False,
        now=T0,
        actor=Actor.of(None),
    )
    assert clock.status == "running"


def test_the_start_asks_what_a_registered_start_check_asks(event, monkeypatch):
    from tdsystem.events import hooks

    # Without the apps above, events' clock starts as it is told.
    monkeypatch.setattr(hooks, "start_checks", [])
    assert hooks.start_question(event) is None
    monkeypatch.setattr(hooks, "start_checks", [lambda e: None, lambda e: f"Is {e.name} ready?"])
    with pytest.raises(services.NobodySeated, match=f"Is {event.name} ready"):
        services.clock_action(
            event_id=event.pk, action="start", confirm_empty=False, now=T0, actor=Actor()
        )
    assert Clock.objects.get(pk=event.pk).status == "not-started"


def test_finishing_the_clock_runs_the_registered_follow_ups(event, monkeypatch):
    from tdsystem.events import hooks

    seen = []

    def follow_up(*, event_id, actor):
        seen.append((event_id, Clock.objects.get(pk=event_id).status, actor.label))

    monkeypatch.setattr(hooks, "after_finish", [follow_up])
    act(event, "start")
    assert seen == []
    services.clock_action(
        event_id=event.pk, action="finish", now=T0 + timedelta(minutes=5), actor=Actor(label="dora")
    )
    assert seen == [(event.pk, "finished", "dora")]


def test_scripts_start_an_empty_field_as_told(event):
    assert act(event, "start").status == "running"


def test_set_time_past_a_day_is_refused_for_every_caller(event):
    with pytest.raises(ClockError, match="at most 24 hours"):
        act(event, "set_time", 24 * 3600 + 1)
    assert Clock.objects.get(pk=event.pk).version == 0
