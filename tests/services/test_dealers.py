"""The dealers' services: clock in and out, pushes (held around a level change, once per
version), the rotation following the tables the seating opens and breaks, and the hours."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.dealers import selectors, services
from tdsystem.dealers.errors import DealerError
from tdsystem.dealers.models import Assignment, Rotation, Shift
from tdsystem.events.services import clock_action
from tdsystem.seating import services as seating
from tdsystem.seating.models import EventTable, Move
from tdsystem.seating.signals import moves_applied
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
ACTOR = Actor(label="test")


def places(event) -> dict[str, tuple[str, int | None]]:
    shifts = Shift.objects.filter(event=event, clock_out__isnull=True).select_related("dealer")
    return {s.dealer.name: (s.status, s.table) for s in shifts}


@pytest.fixture
def room(django_capture_on_commit_callbacks):
    """An event with tables 1-3 in play and four dealers clocked in at 18:00."""
    event = make_event(1800, 1800, 1800)
    with django_capture_on_commit_callbacks(execute=False):
        arrange(event, {1: [1, 2], 2: [1, 2], 3: [1, 2]})
    start = timezone.now().replace(microsecond=0)
    dealers = [services.dealer_add(name=n, games="NLH", actor=ACTOR) for n in "ABCD"]
    for dealer in dealers:
        services.dealer_clock_in(event_id=event.pk, dealer_id=dealer.pk, actor=ACTOR, now=start)
    return event, dealers, start


def test_it_gives_every_table_a_dealer_and_pushes_them_on(room):
    event, dealers, start = room
    assert places(event) == {
        "A": ("table", 1),
        "B": ("table", 2),
        "C": ("table", 3),
        "D": ("free", None),
    }
    moved = services.rotation_push(
        event_id=event.pk, actor=ACTOR, now=start + timedelta(minutes=30)
    )
    assert places(event)["A"] == ("table", 2)
    # D waited the whole down in the room: that was D's break.
    assert places(event)["D"] == ("break", None)
    assert moved is not None and len(moved) == 4
    rotation = Rotation.objects.get(pk=event.pk)
    assert rotation.version == 1 and rotation.next_push_at == start + timedelta(minutes=60)
    assert Shift.objects.get(dealer=dealers[0], clock_out__isnull=True).downs_dealt == 1
    assert LogEntry.objects.filter(event=event, action="dealers.push").count() == 1
    assert Assignment.objects.filter(dealer=dealers[0], ended_at__isnull=True).get().table == 2


def test_a_scheduled_push_runs_once_and_the_minute_of_a_level_change_holds_it(room):
    event, _dealers, start = room
    at = start + timedelta(minutes=30)
    assert services.rotation_push(event_id=event.pk, actor=ACTOR, now=at, expected_version=0)
    # The same task delivered again pushes nothing.
    before = places(event)
    assert (
        services.rotation_push(event_id=event.pk, actor=ACTOR, now=at, expected_version=0) is None
    )
    assert places(event) == before
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    change = event.clock.__class__.objects.get(pk=event.pk).ends_at
    with pytest.raises(DealerError, match="level change"):
        services.rotation_push(event_id=event.pk, actor=ACTOR, now=change - timedelta(seconds=20))
    assert places(event) == before
    held = services.rotation_push(
        event_id=event.pk, actor=ACTOR, now=change - timedelta(seconds=20), expected_version=1
    )
    assert held is None
    assert Rotation.objects.get(pk=event.pk).next_push_at == change + timedelta(minutes=1)


def test_the_rotation_follows_the_tables_the_seating_opens_and_breaks(
    room, django_capture_on_commit_callbacks
):
    event, _dealers, _start = room
    with django_capture_on_commit_callbacks(execute=True):
        seating.tables_setup(event=event, numbers=[4], seats=9, actor=ACTOR)
    assert places(event)["D"] == ("table", 4)
    with django_capture_on_commit_callbacks(execute=True):
        seating.tables_release(event_id=event.pk, numbers=[4], actor=ACTOR)
    assert places(event)["D"] == ("free", None)
    # A plan that broke table 3 (as a bust-out's balancing does).
    EventTable.objects.filter(event=event, number=3).update(in_play=False)
    with django_capture_on_commit_callbacks(execute=True):
        moves_applied.send(sender=Move, event_id=event.pk, move_ids=[], broken=[3])
    assert places(event)["C"] == ("free", None)
    assert LogEntry.objects.filter(event=event, action="dealers.tables").count() == 3


def test_clocking_out_hands_the_table_to_a_dealer_waiting(room):
    event, dealers, start = room
    services.dealer_clock_out(
        event_id=event.pk, dealer_id=dealers[0].pk, actor=ACTOR, now=start + timedelta(hours=2)
    )
    assert places(event)["D"] == ("table", 1)
    assert "A" not in places(event)
    with pytest.raises(DealerError):
        services.dealer_clock_out(event_id=event.pk, dealer_id=dealers[0].pk, actor=ACTOR)
    with pytest.raises(DealerError, match="clocked in already"):
        services.dealer_clock_in(event_id=event.pk, dealer_id=dealers[1].pk, actor=ACTOR)
    (row,) = [h for h in selectors.hours(event, start + timedelta(hours=3)) if h.dealer == "A"]
    assert row.hours == 2


def test_the_board_says_who_goes_where_at_the_next_push(room):
    event, dealers, start = room
    services.rotation_settings(
        event_id=event.pk,
        down_minutes=20,
        break_every=1,
        break_minutes=20,
        automatic=True,
        keep_final_table=False,
        actor=ACTOR,
        now=start,
    )
    board = selectors.board(event, start + timedelta(minutes=1))
    assert board.next_push_at == start + timedelta(minutes=20)
    nxt = {r.name: (r.next_status, r.next_table) for r in board.rows}
    assert nxt["D"] == ("table", 2) and nxt["A"] == ("break", None)
    plan = selectors.dealer_plan(dealers[3].pk, start + timedelta(minutes=1))
    assert (plan.next_table, plan.next_at) == (2, start + timedelta(minutes=20))
    assert plan.break_at is not None


def test_nobody_clocks_in_to_a_finished_event(room):
    event, dealers, _start = room
    services.dealer_clock_out(event_id=event.pk, dealer_id=dealers[0].pk, actor=ACTOR)
    event.__class__.objects.filter(pk=event.pk).update(status="finished")
    with pytest.raises(DealerError, match="finished"):
        services.dealer_clock_in(event_id=event.pk, dealer_id=dealers[0].pk, actor=ACTOR)


def test_it_refuses_a_dealer_without_a_name():
    with pytest.raises(DealerError):
        services.dealer_add(name="  ", actor=ACTOR)
    with pytest.raises(DealerError):
        services.dealer_add(name="A\u202eB", actor=ACTOR)


def test_the_beat_pushes_a_due_rotation_once_and_a_stale_task_nothing(room):
    from tdsystem.dealers.tasks import rotation_push_due

    event, _dealers, _start = room
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    due = Rotation.objects.get(pk=event.pk).next_push_at
    assert services.rotations_due(actor=ACTOR, now=due - timedelta(minutes=1)) == 0
    assert services.rotations_due(actor=ACTOR, now=due + timedelta(minutes=2)) == 1
    assert Rotation.objects.get(pk=event.pk).version == 1
    assert services.rotations_due(actor=ACTOR, now=due + timedelta(minutes=2)) == 0
    assert rotation_push_due(event.pk, 0) is False  # sent for version 0: already pushed
    assert Rotation.objects.get(pk=event.pk).pushes == 1
