"""Undo the newest clock action from the event log: the stored state as it was before,
refused after any later change (compare-and-set on the clock's version)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

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


# Hand-for-hand's own clock changes ------------------------------------------------------


@pytest.fixture
def two_tables():
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    event = make_event(3600, 3600)
    arrange(event, {1: [1, 2, 3], 2: [1, 2, 3]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    return event


def hfh_start(event, user, at):
    from tdsystem.results.services import handforhand_start

    with time_machine.travel(at, tick=False):
        handforhand_start(event_id=event.pk, actor=Actor.of(user))


def hfh_hand(event, user, at):
    """Both tables report the hand: it completes and its time comes off the clock."""
    from tdsystem.results.services import handforhand_hand_finish
    from tdsystem.seating.models import EventTable

    with time_machine.travel(at, tick=False):
        for number in (1, 2):
            count = EventTable.objects.get(event=event, number=number).hand_number
            handforhand_hand_finish(
                event_id=event.pk, table_number=number, expected_hand=count, actor=Actor.of(user)
            )


def test_hand_for_hands_pause_is_not_offered_for_undo(two_tables, director):
    event = two_tables
    act(event, "start", user=director)
    hfh_start(event, director, T0 + timedelta(seconds=60))
    pause = LogEntry.objects.filter(event=event, action="clock.pause").latest("id")
    assert pause.actor == director and pause.data["source"] == "hand-for-hand"
    assert services.clock_undoable(event) is None
    with pytest.raises(ClockError, match="Hand-for-hand made this clock change"):
        undo(event, pause, director, T0 + timedelta(seconds=70))
    assert stored(event)[0] == "paused"
    pause.refresh_from_db()
    assert pause.undone_at is None


def test_the_time_a_hand_took_off_the_clock_is_not_offered_for_undo(two_tables, director):
    event = two_tables
    act(event, "start", user=director)
    hfh_start(event, director, T0 + timedelta(seconds=60))
    hfh_hand(event, director, T0 + timedelta(seconds=150))
    taken = LogEntry.objects.filter(event=event, action="clock.add_time").latest("id")
    assert taken.data["seconds"] == -90 and taken.data["source"] == "hand-for-hand"
    assert services.clock_undoable(event) is None


def test_a_directors_own_change_during_hand_for_hand_is_undone_and_the_clock_stays_paused(
    two_tables, director
):
    event = two_tables
    act(event, "start", user=director)
    hfh_start(event, director, T0 + timedelta(seconds=60))
    before = stored(event)
    added = act(event, "add_time", 120, at=T0 + timedelta(seconds=80), user=director)
    assert services.clock_undoable(event) == added
    undo(event, added, director, T0 + timedelta(seconds=90))
    assert stored(event) == before and before[0] == "paused"
    added.refresh_from_db()
    assert added.undone_at == T0 + timedelta(seconds=90)


def test_an_undo_that_would_run_the_clock_hand_for_hand_holds_is_refused(two_tables, director):
    event = two_tables
    act(event, "start", user=director)
    hfh_start(event, director, T0 + timedelta(seconds=60))
    act(event, "resume", at=T0 + timedelta(seconds=70), user=director)
    paused = act(event, "pause", at=T0 + timedelta(seconds=80), user=director)
    assert services.clock_undoable(event) == paused
    with pytest.raises(ClockError, match="Hand-for-hand holds the clock paused"):
        undo(event, paused, director, T0 + timedelta(seconds=90))
    assert stored(event)[0] == "paused"
    paused.refresh_from_db()
    assert paused.undone_at is None
    assert not LogEntry.objects.filter(event=event, action="clock.undo").exists()


def test_once_hand_for_hand_stops_the_clock_is_the_directors_again(two_tables, director):
    from tdsystem.results.services import handforhand_stop

    event = two_tables
    act(event, "start", user=director)
    hfh_start(event, director, T0 + timedelta(seconds=60))
    with time_machine.travel(T0 + timedelta(seconds=100), tick=False):
        handforhand_stop(event_id=event.pk, actor=Actor.of(director))
    assert stored(event)[0] == "running"
    assert services.clock_undoable(event) is None  # the resume was hand-for-hand's
    before = stored(event)
    paused = act(event, "pause", at=T0 + timedelta(seconds=130), user=director)
    undo(event, paused, director, T0 + timedelta(seconds=140))
    assert stored(event) == before
