"""The stored field counts (FieldCount, kept by triggers) agree with the entries on every
path that changes them: made, busted, undone, re-entered, moved, carried, deleted."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.actors import Actor
from tdsystem.results import services as results
from tdsystem.results.models import FieldCount
from tdsystem.results.services import snapshot, standings
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event
from tests.services.test_flights import day2, played

pytestmark = pytest.mark.django_db

ACTOR = Actor(label="test")
D = Decimal


def agree(event) -> tuple[int, int, int, Decimal]:
    stored = snapshot.field_counts(event.pk)
    assert stored == standings.field_counted(event.pk)
    return stored


def test_it_counts_entries_as_they_are_made_changed_and_deleted():
    event = make_event(600, name="Counted")
    people = arrange(event, {1: [1, 2, 3, 4]})
    assert agree(event) == (4, 4, 4, D(400))
    Entry.objects.filter(pk=people["T1S1"].pk).update(
        status=Entry.Status.BUSTED, table=None, seat=None, paid=D("33.33")
    )
    assert agree(event) == (4, 3, 4, D("333.33"))
    Entry.objects.filter(pk=people["T1S2"].pk).delete()
    assert agree(event) == (3, 2, 3, D("233.33"))


def test_an_entry_moved_to_another_event_leaves_one_count_for_the_other():
    first, second = make_event(600, name="First"), make_event(600, name="Second")
    people = arrange(first, {1: [1, 2]})
    Entry.objects.filter(pk=people["T1S1"].pk).update(event=second, table=None, seat=None)
    assert agree(first) == (1, 1, 1, D(100))
    assert agree(second) == (1, 1, 1, D(100))


def test_a_bust_out_a_re_entry_and_an_undo_keep_the_counts():
    event = make_event(600, name="Played", reentry_allowed=True, late_registration_end_level=2)
    seating.tables_setup(event=event, numbers=[1, 2], seats=9, actor=ACTOR)
    seating.players_import(event_id=event.pk, names=[f"P{i}" for i in range(12)], actor=ACTOR)
    seating.seats_draw(event=event, actor=ACTOR, seed=1)
    assert agree(event) == (12, 12, 12, D(1200))
    out = Entry.objects.filter(event=event).order_by("pk").first()
    assert out is not None
    done = results.bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    assert agree(event)[:2] == (12, 11)
    results.bustout_undo(event_id=event.pk, bustout_id=done.bustout.pk, actor=ACTOR)
    assert agree(event)[:2] == (12, 12)
    results.bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    seating.entry_reenter(event_id=event.pk, entry_id=out.pk, actor=ACTOR, rng_seed=1)
    assert agree(event) == (13, 12, 13, D(1300))


def test_day_2_counts_the_flights_entries_and_its_own_carried_field():
    main, a, b, _ = played()
    assert agree(main) == (6, 0, 0, D(600))
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    assert len(day2(main)) == 3
    assert agree(main) == (6, 3, 3, D(600))
    assert agree(a)[:3] == (4, 0, 4) and agree(b)[:3] == (2, 0, 2)


def test_an_event_deleted_leaves_no_count_standing():
    event = make_event(600, name="Gone")
    arrange(event, {1: [1, 2]})
    pk = event.pk
    event.delete()
    assert FieldCount.objects.filter(event_id=pk, entries__gt=0).count() == 0
    assert snapshot.field_counts(pk) == (0, 0, 0, D(0))
