"""The alternates list: joining, calls, seats through registration, skips and the hold."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.players import alternates as alt
from tdsystem.players import links
from tdsystem.players.errors import PlayersRefused
from tdsystem.players.models import Alternate, PlayerLink
from tdsystem.results.services import bustout_record
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
DESK = Actor(label="desk")


@pytest.fixture
def full():
    """An event whose one table of 9 is full."""
    event = make_event(30)
    seats = arrange(event, {1: list(range(1, 10))})
    return event, seats


def names(event) -> list[tuple[str, str]]:
    return [(a.name, a.status) for a in alt.queue(event.pk)]


def join(event, *who):
    return [alt.alternate_join(event=event, name=name, actor=DESK).alternate for name in who]


def test_it_joins_with_a_link_and_a_position(full):
    event, _ = full
    joined = alt.alternate_join(event=event, name="  Ann   Lee ", actor=DESK)
    assert joined.alternate.name == "Ann Lee"
    assert joined.link.alternate == joined.alternate and joined.link.entry is None
    bob = alt.alternate_join(event=event, name="Bob", actor=DESK).alternate
    assert alt.position_of(bob) == 2
    assert alt.join_offered(event)  # full: the lookup offers the list


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "needs a name"),
        ("x" * 121, "longer than 120"),
        ("ann lee", "already"),
        ("T1S3", "playing"),
    ],
)
def test_it_refuses_a_join(full, name, message):
    event, _ = full
    join(event, "Ann Lee")
    with pytest.raises(PlayersRefused, match=message):
        alt.alternate_join(event=event, name=name, actor=DESK)


def test_it_refuses_a_closed_or_full_list(full):
    event, _ = full
    alt.alternates_settings(event=event, is_open=True, size=1, hold_minutes=5, actor=DESK)
    join(event, "Ann")
    with pytest.raises(PlayersRefused, match="full"):
        join(event, "Bob")
    alt.alternates_settings(event=event, is_open=False, size=5, hold_minutes=5, actor=DESK)
    with pytest.raises(PlayersRefused, match="closed"):
        join(event, "Bob")
    assert not alt.join_offered(event)


def test_it_calls_the_next_with_a_hold(full, django_capture_on_commit_callbacks):
    event, _ = full
    join(event, "Ann", "Bob")
    heard = []

    def hear(sender, alternate, due_at, **kwargs):
        heard.append((alternate.name, due_at))

    from tdsystem.players.signals import seat_ready

    seat_ready.connect(hear)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            ann = alt.alternate_call_next(event=event, actor=DESK)
    finally:
        seat_ready.disconnect(hear)
    assert ann.name == "Ann" and ann.status == "called"
    assert ann.due_at - ann.called_at == timedelta(minutes=10)
    assert heard == [("Ann", ann.due_at)]
    assert names(event) == [("Ann", "called"), ("Bob", "waiting")]


def test_a_bust_out_calls_one_per_seat_opened(full, django_capture_on_commit_callbacks):
    event, seats = full
    join(event, "Ann", "Bob", "Cy")
    with django_capture_on_commit_callbacks(execute=True):
        bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    assert names(event) == [("Ann", "called"), ("Bob", "waiting"), ("Cy", "waiting")]
    # Nothing more opened: a table put into play would fill its seats, nothing else does.
    assert alt.alternates_seats_opened(event_id=event.pk, opened=1, actor=DESK) == 0


def test_it_seats_through_registration_and_the_link_follows(full):
    event, seats = full
    bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    (ann,) = join(event, "Ann")
    token = PlayerLink.objects.get(alternate=ann).token
    entry = alt.alternate_seat(alternate=ann, actor=DESK)
    assert entry.status == Entry.Status.ACTIVE and entry.table.number == 1
    ann.refresh_from_db()
    assert ann.status == "seated" and ann.entry == entry
    assert PlayerLink.objects.get(token=token).entry == entry
    assert alt.queue(event.pk) == []


def test_registration_refusal_changes_nothing(full):
    event, _ = full
    (ann,) = join(event, "Ann")
    with pytest.raises(ValueError, match="every seat is taken"):
        alt.alternate_seat(alternate=ann, actor=DESK)
    ann.refresh_from_db()
    assert ann.status == "waiting"


def test_a_player_out_comes_back_as_a_reentry_within_its_limits(full):
    event, seats = full
    bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    (again,) = join(event, "T1S2")
    with pytest.raises(ValueError, match="re-entr"):
        alt.alternate_seat(alternate=again, actor=DESK)  # the event takes no re-entry


def test_skip_drops_one_place(full):
    event, _ = full
    ann, _bob, cy = join(event, "Ann", "Bob", "Cy")
    alt.alternate_skip(alternate=ann, actor=DESK)
    assert [n for n, _ in names(event)] == ["Bob", "Ann", "Cy"]
    alt.alternate_remove(alternate=cy, actor=DESK)
    alt.alternate_skip(alternate=ann, actor=DESK)  # last already: stays
    assert [n for n, _ in names(event)] == ["Bob", "Ann"]


def test_the_hold_ends_one_place_lower_and_the_next_is_called(full):
    event, _ = full
    join(event, "Ann", "Bob", "Cy")
    ann = alt.alternate_call_next(event=event, actor=DESK)
    assert alt.alternates_expire(event_id=event.pk, actor=DESK) == 0  # not due yet
    later = ann.due_at + timedelta(seconds=1)
    assert alt.alternates_expire_due(actor=DESK, now=later) == 1
    assert names(event) == [("Bob", "called"), ("Ann", "waiting"), ("Cy", "waiting")]
    assert Alternate.objects.get(name="Ann").missed == 1
    assert alt.alternates_expire(event_id=event.pk, actor=DESK, now=later) == 0  # once


def test_the_state_counts_down_and_estimates(full):
    event, seats = full
    bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    joined = [alt.alternate_join(event=event, name=n, actor=DESK) for n in ("Ann", "Bob")]
    state = alt.alternate_state(joined[1].link)
    assert state["position"] == 2 and state["wait_minutes"] == 120  # one out an hour
    alt.alternate_call_next(event=event, actor=DESK)
    fresh = links.link_by_token(joined[0].link.token)  # as each poll reads it
    state = alt.alternate_state(fresh, now=timezone.now())
    assert state["status"] == "called" and 590 <= state["seconds_left"] <= 600


def test_a_table_put_into_play_calls_as_many_as_seats_free(
    full, django_capture_on_commit_callbacks
):
    from tdsystem.seating.services import tables_setup

    event, _ = full
    join(event, "Ann", "Bob")
    with django_capture_on_commit_callbacks(execute=True):
        tables_setup(event=event, numbers=[2], seats=9, actor=DESK)
    assert names(event) == [("Ann", "called"), ("Bob", "called")]


def test_no_call_while_the_event_takes_no_entry(
    full, django_capture_on_commit_callbacks, monkeypatch
):
    event, seats = full
    join(event, "Ann")
    monkeypatch.setattr(alt, "registration_refusal", lambda event: "late registration closed")
    with django_capture_on_commit_callbacks(execute=True):
        bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    assert names(event) == [("Ann", "waiting")]


def test_the_tasks_end_the_holds_due(full):
    from tdsystem.players import tasks

    event, _ = full
    join(event, "Ann", "Bob")
    alt.alternate_call_next(event=event, actor=DESK)
    assert tasks.alternates_hold_end(event.pk) == 0  # early: nothing due
    Alternate.objects.filter(name="Ann").update(due_at=timezone.now() - timedelta(seconds=1))
    assert tasks.alternates_sweep() == 1
    assert names(event) == [("Bob", "called"), ("Ann", "waiting")]
    assert tasks.alternates_hold_end(event.pk) == 0  # a late delivery changes nothing
