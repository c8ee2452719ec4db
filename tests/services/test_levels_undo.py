"""Undoing a level edit from the event log: the levels go back through the rules of an edit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.models import Clock
from tdsystem.events.services import event_levels_edit, event_levels_undo
from tdsystem.structures.editing import LevelsError, stored_rows

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(director) -> Actor:
    """The console offers to undo what a person did: the director acts."""
    return Actor.of(director)


# event fixture: 600, 600, B300, 600, 600 (indexes 0..4)


def durations(event) -> list[int]:
    return [r["duration_seconds"] for r in stored_rows(event.structure)]


def edit(event, rows, at, actor):
    event_levels_edit(event_id=event.pk, rows=rows, actor=actor, now=at, confirm_warnings=True)
    return LogEntry.objects.filter(event=event, action="structure.edit").latest("id")


def started(event, actor, at=T0):
    services.clock_action(event_id=event.pk, action="start", now=at, actor=actor)


def left_ms(event, at) -> int:
    clock = Clock.objects.get(pk=event.pk)
    if clock.status == Clock.Status.RUNNING:
        return int((clock.ends_at - at).total_seconds() * 1000)
    return clock.remaining_ms


def test_undo_puts_a_future_level_back_and_is_logged(event, actor):
    started(event, actor)
    rows = stored_rows(event.structure)
    rows[3]["duration_seconds"] = 1200
    entry = edit(event, rows, T0 + timedelta(seconds=60), actor)
    assert durations(event) == [600, 600, 300, 1200, 600]
    undo = event_levels_undo(
        event_id=event.pk, entry_id=entry.pk, actor=actor, now=T0 + timedelta(seconds=90)
    )
    assert durations(event) == [600, 600, 300, 600, 600]
    entry.refresh_from_db()
    assert entry.undone_at is not None
    assert undo.action == "structure.undo" and undo.summary.startswith("Undone: Levels edited")
    assert undo.data["undone"] == entry.pk
    # The undo is not itself offered for undo, and the edit cannot be undone twice.
    assert services.clock_undoable(event) is None
    with pytest.raises(LevelsError, match="undone already"):
        event_levels_undo(event_id=event.pk, entry_id=entry.pk, actor=actor)


def test_undoing_the_current_levels_new_duration_moves_its_time_left_back(event, actor):
    started(event, actor)
    rows = stored_rows(event.structure)
    rows[0]["duration_seconds"] = 900  # 5 minutes more for the level being played
    at = T0 + timedelta(seconds=120)
    entry = edit(event, rows, at, actor)
    assert left_ms(event, at) == (900 - 120) * 1000
    event_levels_undo(event_id=event.pk, entry_id=entry.pk, actor=actor, now=at)
    assert left_ms(event, at) == (600 - 120) * 1000
    assert durations(event)[0] == 600


def test_a_level_played_since_the_edit_refuses_the_undo_and_nothing_changes(event, actor):
    started(event, actor)
    rows = stored_rows(event.structure)
    rows[1]["ante"] = 25
    entry = edit(event, rows, T0 + timedelta(seconds=10), actor)
    # Level 2 starts (the director's "next level" is a clock action; the worker's end of
    # level is the same for the levels).
    clock = Clock.objects.get(pk=event.pk)
    Clock.objects.filter(pk=event.pk).update(level_index=1, version=clock.version + 1)
    with pytest.raises(LevelsError, match=r"level 2 (has been|is being) played"):
        event_levels_undo(
            event_id=event.pk, entry_id=entry.pk, actor=actor, now=T0 + timedelta(seconds=20)
        )
    entry.refresh_from_db()
    assert entry.undone_at is None
    assert stored_rows(event.structure)[1]["ante"] == 25


def test_only_the_newest_change_is_undone(event, actor):
    started(event, actor)
    rows = stored_rows(event.structure)
    rows[4]["duration_seconds"] = 900
    entry = edit(event, rows, T0 + timedelta(seconds=10), actor)
    services.clock_action(
        event_id=event.pk, action="pause", now=T0 + timedelta(seconds=20), actor=actor
    )
    with pytest.raises(LevelsError, match="Only the newest change"):
        event_levels_undo(event_id=event.pk, entry_id=entry.pk, actor=actor)
    assert durations(event)[4] == 900


def test_the_console_offers_the_undo_to_a_director_and_refuses_it_to_the_floor(
    client, director, floor_person, event, actor
):
    started(event, actor, at=datetime.now(UTC))
    rows = stored_rows(event.structure)
    rows[4]["duration_seconds"] = 900
    entry = edit(event, rows, datetime.now(UTC), actor)
    url = reverse("console:clock_undo", args=[event.pk, entry.pk])
    client.force_login(floor_person)
    assert url not in client.get(reverse("console:event", args=[event.pk])).content.decode()
    assert client.post(url).status_code == 403
    assert durations(event)[4] == 900
    client.force_login(director)
    assert url in client.get(reverse("console:event", args=[event.pk])).content.decode()
    answer = client.post(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Undone: Levels edited" in answer.content.decode()
    assert durations(event)[4] == 600
