"""Editing levels: templates, planned events, and the future of a running or paused event."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import selectors, services
from tdsystem.events.models import Clock
from tdsystem.events.services import event_levels_edit
from tdsystem.structures.editing import LevelsError, stored_rows, structure_levels_edit
from tdsystem.structures.models import Structure
from tdsystem.structures.services import structure_create

from ..fixtures import make_event, short_levels

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
ACTOR = Actor(label="dora")
pytestmark = pytest.mark.django_db


@pytest.fixture
def warm_screens(settings):
    """The screens' short cache on (a warm cache must not hide an edit), empty before and
    after: its entries are keyed by event id, which the next test may reuse."""
    from tdsystem.core import screencache

    settings.SCREEN_CACHE_SECONDS = 60
    screencache.clear()
    yield
    screencache.clear()


def rows_of(event) -> list[dict]:
    return stored_rows(event.structure)


def edit(event, rows, *, at=T0, **kwargs):
    return event_levels_edit(event_id=event.pk, rows=rows, actor=ACTOR, now=at, **kwargs)


def act(event, action, *, at=T0, seconds=None):
    return services.clock_action(
        event_id=event.pk, action=action, seconds=seconds, now=at, actor=ACTOR
    )


def clock_of(event) -> Clock:
    return Clock.objects.get(pk=event.pk)


# event fixture: 600, 600, B300, 600, 600 (indexes 0..4)


def test_it_edits_a_template_and_logs_old_and_new_rows():
    template, _ = structure_create(name="T", levels=short_levels(600, 600))
    rows = short_levels(600, 900, "B600")
    structure, warnings = structure_levels_edit(structure_id=template.pk, rows=rows, actor=ACTOR)
    assert warnings == []
    assert [r["duration_seconds"] for r in stored_rows(structure)] == [600, 900, 600]
    entry = LogEntry.objects.get(action="structure.edit")
    assert entry.event is None and len(entry.data["old"]) == 2 and len(entry.data["new"]) == 3


def test_a_template_edit_with_an_error_changes_nothing():
    template, _ = structure_create(name="T", levels=short_levels(600, 600))
    rows = [{"small_blind": 200, "big_blind": 100, "duration_minutes": 10}]
    with pytest.raises(LevelsError, match="less than the big blind"):
        structure_levels_edit(structure_id=template.pk, rows=rows, actor=ACTOR)
    assert len(stored_rows(template)) == 2
    assert not LogEntry.objects.filter(action="structure.edit").exists()


def test_warnings_need_a_confirmation(event):
    rows = rows_of(event)
    rows[4]["big_blind"] = 3000  # 400 -> 3000: a jump
    rows[4]["small_blind"] = 1000
    with pytest.raises(LevelsError) as refused:
        edit(event, rows)
    assert refused.value.is_warning and "jumps" in str(refused.value)
    assert rows_of(event)[4]["big_blind"] == 800
    _event, warnings = edit(event, rows, confirm_warnings=True)
    assert warnings and rows_of(event)[4]["big_blind"] == 3000


def test_a_planned_event_edits_freely_and_the_clock_takes_the_new_first_level(event):
    rows = rows_of(event)
    rows[0]["duration_seconds"] = 1200
    rows[0]["ante"] = 0
    edit(event, rows)
    clock = clock_of(event)
    assert clock.status == "not-started" and clock.remaining_ms == 1_200_000
    assert LogEntry.objects.filter(event=event, action="structure.edit").count() == 1


def test_it_lengthens_a_future_level_and_inserts_a_break_while_running(event):
    act(event, "start")
    version = clock_of(event).version
    rows = rows_of(event)
    rows[1]["duration_seconds"] = 1500
    rows.insert(2, {"kind": "break", "duration_seconds": 600, "note": "Dinner"})
    edit(event, rows, at=T0 + timedelta(seconds=100))
    clock = clock_of(event)
    assert clock.version == version + 1
    assert clock.ends_at == T0 + timedelta(seconds=600)  # the current level is unchanged
    assert [r["duration_seconds"] for r in rows_of(event)] == [600, 1500, 600, 300, 600, 600]
    entry = LogEntry.objects.get(event=event, action="structure.edit")
    assert entry.actor_label == "dora"
    assert len(entry.data["old"]) == 5 and len(entry.data["new"]) == 6


def test_it_refuses_to_change_a_played_level_naming_it(event):
    act(event, "start")
    act(event, "next", at=T0 + timedelta(seconds=60))
    act(event, "next", at=T0 + timedelta(seconds=120))  # on the break (index 2)
    rows = rows_of(event)
    rows[1]["ante"] = 0
    with pytest.raises(LevelsError, match="level 2 has been played"):
        edit(event, rows, at=T0 + timedelta(seconds=130))
    assert rows_of(event)[1]["ante"] == 20
    assert not LogEntry.objects.filter(action="structure.edit").exists()


def test_it_refuses_to_change_the_current_levels_blinds(event):
    act(event, "start")
    rows = rows_of(event)
    rows[0]["ante"] = 50
    with pytest.raises(LevelsError, match="level 1 is being played: only its duration"):
        edit(event, rows, at=T0 + timedelta(seconds=10))


def test_it_refuses_removing_the_current_level(event):
    act(event, "start")
    act(event, "next", at=T0 + timedelta(seconds=60))
    with pytest.raises(LevelsError, match="cannot be removed"):
        edit(event, rows_of(event)[:1], at=T0 + timedelta(seconds=70))


def test_lengthening_the_running_level_moves_its_end_and_keeps_the_time_played(event):
    act(event, "start")
    now = T0 + timedelta(seconds=420)  # 7 minutes played, 3 left
    rows = rows_of(event)
    rows[0]["duration_seconds"] = 900
    edit(event, rows, at=now)
    clock = clock_of(event)
    assert clock.ends_at == T0 + timedelta(seconds=900)  # 15 - 7 = 8 minutes left
    assert selectors.event_clock_payload(event.pk, now)["remaining_ms"] == 480_000


def test_shortening_the_paused_level_changes_the_time_left(event):
    act(event, "start")
    act(event, "pause", at=T0 + timedelta(seconds=120))  # 8 minutes left
    rows = rows_of(event)
    rows[0]["duration_seconds"] = 300
    edit(event, rows, at=T0 + timedelta(seconds=4000))
    clock = clock_of(event)
    assert clock.status == "paused" and clock.remaining_ms == 180_000  # 5 - 2 played


def test_a_duration_shorter_than_the_time_played_is_refused(event):
    act(event, "start")
    rows = rows_of(event)
    rows[0]["duration_seconds"] = 240
    version = clock_of(event).version
    with pytest.raises(LevelsError, match="has been played for 5:00") as refused:
        edit(event, rows, at=T0 + timedelta(seconds=300))
    assert refused.value.field == "duration"
    clock = clock_of(event)
    assert clock.version == version and clock.ends_at == T0 + timedelta(seconds=600)
    assert rows_of(event)[0]["duration_seconds"] == 600


def test_an_edit_settles_the_clock_first(event):
    act(event, "start")
    rows = rows_of(event)
    rows[0]["ante"] = 99  # level 1 ran out at 10:00: it is played now
    with pytest.raises(LevelsError, match="level 1 has been played"):
        edit(event, rows, at=T0 + timedelta(seconds=700))
    assert clock_of(event).level_index == 0  # the refusal rolled the settling back too


def test_a_finished_event_does_not_change(event):
    act(event, "start")
    act(event, "finish", at=T0 + timedelta(seconds=60))
    with pytest.raises(LevelsError, match="finished"):
        edit(event, rows_of(event), at=T0 + timedelta(seconds=70))


def test_an_edit_from_a_stale_page_is_refused(event):
    version = clock_of(event).version
    act(event, "start")
    with pytest.raises(LevelsError, match="changed since this page was opened"):
        edit(event, rows_of(event), expected_version=version)


def test_the_end_of_level_task_is_sent_for_the_new_end(event, settings, monkeypatch):
    from tdsystem.events import tasks

    sent = []
    monkeypatch.setattr(tasks.clock_advance, "apply_async", lambda **kw: sent.append(kw))
    settings.CLOCK_SCHEDULE_AHEAD_SECONDS = 10**6
    act(event, "start")
    rows = rows_of(event)
    rows[0]["duration_seconds"] = 720
    with pytest.MonkeyPatch.context():
        from django.test import TestCase

        with TestCase.captureOnCommitCallbacks(execute=True):
            edit(event, rows, at=T0 + timedelta(seconds=30))
    # The edit's own tasks: the new end of the level, then the next level's end.
    assert sent[-2]["eta"] == T0 + timedelta(seconds=720)
    assert sent[-2]["args"] == [event.pk, clock_of(event).version]
    assert sent[-1]["eta"] == T0 + timedelta(seconds=720 + rows[1]["duration_seconds"])


def test_the_screen_json_and_the_schedule_follow_at_once(event, client, warm_screens):
    act(event, "start")
    now = T0 + timedelta(seconds=30)
    assert selectors.event_clock_payload(event.pk, now)["next"]["duration_seconds"] == 600
    rows = rows_of(event)
    rows[1]["duration_seconds"] = 1800
    rows[1]["ante"] = 40
    edit(event, rows, at=now)
    payload = selectors.event_clock_payload(event.pk, now)
    assert payload["next"]["duration_seconds"] == 1800 and payload["next"]["ante"] == 40
    page = client.get(f"/events/{event.pk}/schedule/").content.decode()
    assert "30:00" in page or "30 min" in page


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_edits_from_the_same_page_one_wins():
    event = make_event(600, 600, 600)
    version = clock_of(event).version
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def run(seconds: int) -> None:
        rows = rows_of(event)
        rows[2]["duration_seconds"] = seconds
        barrier.wait()
        try:
            edit(event, rows, expected_version=version)
            outcomes.append("saved")
        except LevelsError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(s,)) for s in (900, 1200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused", "saved"]
    assert LogEntry.objects.filter(action="structure.edit").count() == 1
    assert clock_of(event).version == version + 1
    assert Structure.objects.get(pk=event.structure_id).levels.count() == 3
