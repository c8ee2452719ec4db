"""An event's life: copied for next week, archived when finished, deleted if never started."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import TestCase

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action
from tdsystem.results import services as results
from tdsystem.results.models import PayoutPlan
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable, Player, VenueTable
from tdsystem.simulation.seatings import ACTOR, arrange
from tdsystem.structures.models import Structure
from tdsystem.venue import life
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal


def finished_event(name: str = "Week one"):
    """An event played to its winner at table 1 of tables 1-2."""
    event = make_event(600, name=name, buy_in=D(100))
    people = arrange(event, {1: [1, 2]}, positions={1: (1, 2, 1)})
    seating.tables_setup(event=event, numbers=[1, 2], seats=9, actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    # The clock finishes (and the tables go back) once the bust-out commits.
    with TestCase.captureOnCommitCallbacks(execute=True):
        results.bustout_record(event_id=event.pk, entry_ids=[people["T1S1"].pk], actor=ACTOR)
    event.refresh_from_db()
    return event


def test_it_copies_structure_payouts_settings_and_tables_and_nothing_else():
    source = make_event(
        600,
        "B300",
        900,
        name="Thursday",
        buy_in=D(50),
        fee=D(5),
        starting_stack=25_000,
        seats_per_table=8,
        late_registration_end_level=3,
        reentry_allowed=True,
        game=Event.Game.OMAHA,
        betting="pot-limit",
        button_rule=Event.ButtonRule.MOVING,
        balance_threshold=2,
        bb_must_cover_sb=True,
    )
    results.payout_plan_update(event_id=source.pk, table="top-2", unit=D(5), actor=ACTOR)
    seating.tables_setup(event=source, numbers=[4, 5], seats=8, actor=ACTOR)
    seating.players_import(event_id=source.pk, names=["Ana", "Ben"], actor=ACTOR)
    clock_action(event_id=source.pk, action="start", actor=ACTOR)
    seating.tables_release(event_id=source.pk, numbers=[4, 5], actor=ACTOR)

    copy = life.event_copy(source_id=source.pk, name="Thursday II", numbers=[4, 5], actor=ACTOR)

    for field in life.COPIED_SETTINGS:
        assert getattr(copy, field) == getattr(source, field), field
    assert copy.status == Event.Status.PLANNED and copy.archived_at is None
    assert copy.structure_id != source.structure_id
    levels = ("position", "kind", "small_blind", "big_blind", "ante", "duration_seconds")
    assert list(copy.structure.levels.values_list(*levels)) == list(
        source.structure.levels.values_list(*levels)
    )
    plan = PayoutPlan.objects.get(event=copy)
    assert (plan.table, plan.unit) == ("top-2", D(5))
    assert list(copy.tables.values_list("number", "seats", "in_play")) == [
        (4, 8, True),
        (5, 8, True),
    ]
    assert not Entry.objects.filter(event=copy).exists()
    clock = Clock.objects.get(pk=copy.pk)
    assert (clock.status, clock.level_index, clock.version) == ("not-started", 0, 0)
    assert set(copy.log.values_list("action", flat=True)) == {
        "event.create",
        "tables.setup",
        "event.copy",
    }
    assert copy.log.get(action="event.copy").summary == f"Copied from Thursday (event {source.pk})"


def test_a_copy_onto_a_taken_table_is_refused_and_nothing_is_created():
    holder = make_event(600, name="Friday deepstack")
    seating.tables_setup(event=holder, numbers=[1, 2, 3], seats=9, actor=ACTOR)
    source = make_event(600, name="Monday")
    events, structures = Event.objects.count(), Structure.objects.count()
    with pytest.raises(seating.SeatingError) as caught:
        life.event_copy(source_id=source.pk, name="Monday II", numbers=[2, 3], actor=ACTOR)
    assert caught.value.field == "numbers"
    assert "Friday deepstack" in str(caught.value)
    assert (Event.objects.count(), Structure.objects.count()) == (events, structures)


def test_the_taken_message_names_the_holder_and_the_free_numbers():
    holder = make_event(600, name="Friday deepstack")
    seating.tables_setup(event=holder, numbers=[1, 2, 3, 13], seats=9, actor=ACTOR)
    VenueTable.objects.bulk_create(VenueTable(number=n) for n in range(4, 13))
    other = make_event(600, name="Side event")
    with pytest.raises(seating.SeatingError) as caught:
        seating.tables_setup(event=other, numbers=[1], seats=9, actor=ACTOR)
    assert str(caught.value) == (
        "table 1 is in use by Friday deepstack (planned); free numbers: 4–12, 14 and up"
    )
    assert caught.value.field == "numbers"
    assert seating.tables_free(count=3) == [4, 5, 6]
    assert seating.tables_free(count=2, exclude_event_id=holder.pk) == [1, 2]


def test_a_finished_event_gives_its_tables_back_and_keeps_its_results():
    week_one = finished_event()
    assert week_one.status == Event.Status.FINISHED
    assert not EventTable.objects.filter(event=week_one, in_play=True).exists()
    assert EventTable.objects.filter(event=week_one).count() == 2
    assert week_one.finishes.count() == 2
    winner = week_one.finishes.get(is_winner=True)
    assert winner.from_table.number == 1 and winner.from_seat == 2
    assert not Entry.objects.filter(event=week_one, table__isnull=False).exists()
    released = week_one.log.get(action="tables.release")
    assert released.data["numbers"] == [1, 2]
    week_two = make_event(600, name="Week two")
    seating.tables_setup(event=week_two, numbers=[1, 2, 3], seats=9, actor=ACTOR)
    assert week_two.tables.filter(in_play=True).count() == 3


def test_a_director_finishing_the_clock_gives_the_tables_back_too(event):
    seating.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    clock_action(event_id=event.pk, action="finish", actor=ACTOR)
    assert not EventTable.objects.filter(event=event, in_play=True).exists()


def test_archive_refuses_an_unfinished_event_and_changes_nothing(event):
    with pytest.raises(life.EventError, match="Only a finished event can be archived"):
        life.event_archive(event_id=event.pk, actor=ACTOR)
    event.refresh_from_db()
    assert event.archived_at is None
    assert not event.log.filter(action="event.archive").exists()


def test_archive_and_unarchive_a_finished_event():
    week_one = finished_event()
    life.event_archive(event_id=week_one.pk, actor=ACTOR)
    week_one.refresh_from_db()
    assert week_one.is_archived and week_one.status == Event.Status.FINISHED
    with pytest.raises(life.EventError, match="archived already"):
        life.event_archive(event_id=week_one.pk, actor=ACTOR)
    life.event_unarchive(event_id=week_one.pk, actor=ACTOR)
    week_one.refresh_from_db()
    assert not week_one.is_archived
    assert list(week_one.log.filter(action__startswith="event.").values_list("action", flat=True))[
        :2
    ] == ["event.unarchive", "event.archive"]


def test_delete_refuses_a_started_event(event):
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    with pytest.raises(life.EventError, match="has started"):
        life.event_delete(event_id=event.pk, actor=ACTOR)
    assert Event.objects.filter(pk=event.pk).exists()


def test_delete_takes_the_event_and_its_own_rows_and_logs_it_on_no_event(event):
    seating.tables_setup(event=event, numbers=[1, 2], seats=9, actor=ACTOR)
    seating.players_import(event_id=event.pk, names=["Ana", "Ben", "Chen"], actor=ACTOR)
    seating.seats_draw(event=event, actor=ACTOR, seed=1)
    structure_id = event.structure_id
    record = life.event_delete(event_id=event.pk, actor=ACTOR)
    assert record == {"event_id": event.pk, "name": "Test event", "entries": 3, "tables": [1, 2]}
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Structure.objects.filter(pk=structure_id).exists()
    assert not EventTable.objects.exists() and not Entry.objects.exists()
    assert VenueTable.objects.count() == 2 and Player.objects.count() == 3
    entry = LogEntry.objects.get()
    assert entry.event is None and entry.action == "event.delete"
    assert entry.data["name"] == "Test event" and entry.actor_label == ACTOR.label
    with pytest.raises(life.EventError, match="no event"):
        life.event_delete(event_id=event.pk, actor=ACTOR)
