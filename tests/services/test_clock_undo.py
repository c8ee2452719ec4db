"""Undo the newest clock action from the event log: the stored state as it was before,
refused after any later change (compare-and-set on the clock's version)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.engine.clock import ClockError
from tdsystem.events import services
from tdsystem.events.models import Clock, Event

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


def act(event, action, seconds=None, *, at=T0, user=None):
    services.clock_action(
        event_id=event.pk, action=action, seconds=seconds, now=at, actor=Actor.of(user)
    )
    return LogEntry.objects.filter(event=event, action=f"clock.{action}").latest("id")


def undo(event, entry, user, at):
    return services.clock_undo(event_id=event.pk, entry_id=entry.pk, actor=Actor.of(user), now=at)


def stored(event):
    c = Clock.objects.get(pk=event.pk)
    return (c.status, c.level_index, c.ends_at, c.remaining_ms)


def test_it_puts_the_clock_back_as_it_was_before_a_pause(event, director):
    act(event, "start", user=director)
    before = stored(event)
    paused = act(event, "pause", at=T0 + timedelta(seconds=60), user=director)
    assert services.clock_undoable(event) == paused
    done = undo(event, paused, director, T0 + timedelta(seconds=90))
    assert stored(event) == before  # running, the same end: as if never paused
    paused.refresh_from_db()
    assert paused.undone_at == T0 + timedelta(seconds=90)
    assert done.action == "clock.undo" and done.actor == director
    assert done.summary == "Undone: Clock paused"
    assert services.clock_undoable(event) is None  # nothing more to undo
    with pytest.raises(ClockError, match="undone already"):
        undo(event, paused, director, T0 + timedelta(seconds=95))


def test_it_undoes_a_start_back_to_not_started(event, director):
    before = stored(event)
    started = act(event, "start", user=director)
    undo(event, started, director, T0 + timedelta(seconds=5))
    assert stored(event) == before
    assert Event.objects.get(pk=event.pk).status == "planned"


def test_it_refuses_an_undo_after_a_later_change_and_changes_nothing(event, director):
    act(event, "start", user=director)
    paused = act(event, "pause", at=T0 + timedelta(seconds=60), user=director)
    # A later change the log does not offer to undo (a task, a script): the version moved.
    services.clock_action(
        event_id=event.pk,
        action="add_time",
        seconds=30,
        now=T0 + timedelta(seconds=70),
        actor=Actor(label="script"),
    )
    after = (stored(event), Clock.objects.get(pk=event.pk).version)
    with pytest.raises(ClockError, match="has changed since “Clock paused”"):
        undo(event, paused, director, T0 + timedelta(seconds=80))
    assert (stored(event), Clock.objects.get(pk=event.pk).version) == after
    assert LogEntry.objects.get(pk=paused.pk).undone_at is None


def test_it_undoes_only_the_newest_action_by_a_person(event, director):
    started = act(event, "start", user=director)
    act(event, "pause", at=T0 + timedelta(seconds=60), user=director)
    with pytest.raises(ClockError, match="Only the newest"):
        undo(event, started, director, T0 + timedelta(seconds=70))


def test_it_refuses_to_undo_what_is_not_a_clock_action(event, director):
    other = LogEntry.objects.filter(event=event).exclude(action__startswith="clock.").first()
    with pytest.raises(ClockError, match="Only a clock action"):
        undo(event, other, director, T0)
