"""The shot clock's services: start, reset, extension, expiry, each refused with a clear
message that changes nothing; extensions that follow the player through a redraw and a
new day; the floor's clock at an event without one; the policy on the rules page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.engine import shotclock as sc
from tdsystem.events.models import Event
from tdsystem.results.services import bustout_record
from tdsystem.seating.balancing import tables_redraw
from tdsystem.seating.models import Entry, Move, Player
from tdsystem.shotclock import selectors
from tdsystem.shotclock.errors import ShotClockRefused
from tdsystem.shotclock.models import Call, Extensions, TableClock
from tdsystem.shotclock.services import (
    shot_clock_expire,
    shot_clock_extend,
    shot_clock_reset,
    shot_clock_start,
)
from tdsystem.simulation.seatings import ACTOR, field
from tests.views.test_rule_sets_pages import rules_url, shown_form

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 6, 21, 0, tzinfo=UTC)
# The tours' kind: 30 s, two extensions of 30 s, topped up each day.
POLICY = {
    "shot_clock_starts": sc.STARTS_AT_START,
    "shot_clock_seconds": [30],
    "shot_clock_extensions": 2,
    "shot_clock_reset_day": sc.DAY_RESET,
}


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def table_event(event):
    Event.objects.filter(pk=event.pk).update(rule_overrides=POLICY)
    field(event, players=20, tables=3, seed=7)
    event.refresh_from_db()
    return event


def seated(event, table: int, seat: int) -> Entry:
    return Entry.objects.select_related("player").get(
        table__event=event, table__number=table, seat=seat
    )


def first_seat(event, table: int) -> int:
    return Entry.objects.filter(table__event=event, table__number=table).order_by("seat")[0].seat


def start(event, table: int, seat: int, now, **kw):
    kw = {"street": sc.TURN, "facing": sc.FACING_BET} | kw
    return shot_clock_start(
        event_id=event.pk, table_number=table, seat=seat, actor=ACTOR, now=now, **kw
    )


def test_it_runs_start_extension_reset_and_expiry_and_logs_each(table_event):
    event = table_event
    seat = first_seat(event, 1)
    player = seated(event, 1, seat)
    clock = start(event, 1, seat, at(0))
    assert (clock.seconds, clock.entry_id, clock.kind) == (30, player.pk, sc.KIND_ACTION)
    clock = shot_clock_extend(event_id=event.pk, table_number=1, seat=seat, actor=ACTOR, now=at(20))
    assert clock.extended == 30 and Extensions.objects.get(entry=player).left == 1
    state = selectors.table_state(event, 1, now=at(40))
    assert (state.status, state.seconds_left, state.extensions_of_clock_seat) == ("running", 20, 1)
    shot_clock_reset(event_id=event.pk, table_number=1, actor=ACTOR, now=at(41))
    assert selectors.table_state(event, 1, now=at(41)).status == "idle"

    # The next player faces a bet and lets it run out: dead hand, recorded once.
    start(event, 1, seat, at(100), street=sc.RIVER)
    with pytest.raises(ShotClockRefused, match="seconds left"):
        shot_clock_expire(event_id=event.pk, table_number=1, actor=ACTOR, now=at(130))  # a tie
    for _ in range(2):  # two devices report it
        clock = shot_clock_expire(event_id=event.pk, table_number=1, actor=ACTOR, now=at(130.5))
    assert clock.outcome == sc.OUTCOME_DEAD and clock.expired_at == at(130)
    assert [r.table_number for r in selectors.run_out(now=at(131))] == [1]
    with pytest.raises(ShotClockRefused, match="No clock is running"):
        shot_clock_extend(event_id=event.pk, table_number=1, seat=seat, actor=ACTOR, now=at(131))
    log = list(Call.objects.filter(event=event).order_by("at", "id").values_list("action", "seat"))
    assert [a for a, _ in log] == ["start", "extension", "reset", "start", "expiry"]
    expiry = Call.objects.get(action="expiry")
    assert (expiry.player_name, expiry.street, expiry.facing) == (
        player.player.name,
        sc.RIVER,
        sc.FACING_BET,
    )
    entry = LogEntry.objects.get(event=event, action="shotclock.expiry")
    assert "hand dead" in entry.summary and entry.data["seat"] == seat
    # Cleared at the table: off the floor's list.
    shot_clock_reset(event_id=event.pk, table_number=1, actor=ACTOR, now=at(140))
    assert selectors.run_out(now=at(141)) == []


def test_it_refuses_with_a_reason_and_changes_nothing(table_event):
    event = table_event
    seat = first_seat(event, 2)
    empty = next(
        s
        for s in range(1, 10)
        if not Entry.objects.filter(table__number=2, seat=s, table__event=event).exists()
    )
    with pytest.raises(ShotClockRefused, match=f"Seat {empty} is empty"):
        start(event, 2, empty, at(0))
    with pytest.raises(ShotClockRefused, match="No clock is running"):
        shot_clock_reset(event_id=event.pk, table_number=2, actor=ACTOR, now=at(0))
    with pytest.raises(ShotClockRefused, match="not in play"):
        start(event, 9, seat, at(0))
    start(event, 2, seat, at(0))
    other = seat + 1 if seat < 9 else seat - 1
    with pytest.raises(ShotClockRefused, match=f"runs on seat {seat}, not seat {other}"):
        shot_clock_extend(event_id=event.pk, table_number=2, seat=other, actor=ACTOR, now=at(1))
    for n in range(2):
        shot_clock_extend(event_id=event.pk, table_number=2, seat=seat, actor=ACTOR, now=at(n))
    before = list(Call.objects.values_list("pk", flat=True))
    with pytest.raises(ShotClockRefused, match="has no extensions left"):
        shot_clock_extend(event_id=event.pk, table_number=2, seat=seat, actor=ACTOR, now=at(3))
    assert list(Call.objects.values_list("pk", flat=True)) == before
    assert TableClock.objects.get(table__number=2, table__event=event).extended == 60


def test_extensions_follow_a_player_through_a_redraw_and_a_new_day(table_event):
    event = table_event
    seat = first_seat(event, 3)
    player = seated(event, 3, seat)
    start(event, 3, seat, at(0))
    shot_clock_extend(event_id=event.pk, table_number=3, seat=seat, actor=ACTOR, now=at(5))
    # Two players out: 18 fit two tables; seating breaks one, then redraws every seat.
    for out in Entry.objects.filter(table__event=event, table__number=1)[:2]:
        bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR, table_number=1)
    tables_redraw(event_id=event.pk, table_count=2, actor=ACTOR, rng_seed=3)
    player.refresh_from_db()
    assert Move.objects.filter(entry=player, reason="redraw").exists()
    moved_to = player.table.number
    state = selectors.table_state(event, moved_to, now=at(10))
    assert next(r.extensions for r in state.seats if r.entry == player) == 1
    start(event, moved_to, player.seat, at(60))
    shot_clock_extend(
        event_id=event.pk, table_number=moved_to, seat=player.seat, actor=ACTOR, now=at(61)
    )
    assert Extensions.objects.get(entry=player).left == 0
    # Day 2: topped up to the count (the policy's reset_day), whatever table.
    Event.objects.filter(pk=event.pk).update(day=2)
    event.refresh_from_db()
    state = selectors.table_state(event, moved_to, now=at(70))
    assert next(r.extensions for r in state.seats if r.entry == player) == 2
    assert Extensions.objects.get(entry=player).used == 2


def test_the_floors_clock_runs_where_the_action_clock_is_off(event):
    field(event, players=9, tables=1)
    seat = first_seat(event, 1)
    with pytest.raises(ShotClockRefused, match="does not run at this event"):
        start(event, 1, seat, at(0))
    clock = start(event, 1, seat, at(0), floor=True, facing=sc.FACING_NONE)
    assert (clock.kind, clock.seconds, clock.warnings) == (sc.KIND_FLOOR, 30, [5])
    with pytest.raises(ShotClockRefused, match="takes no extensions"):
        shot_clock_extend(event_id=event.pk, table_number=1, seat=seat, actor=ACTOR, now=at(1))
    clock = shot_clock_expire(event_id=event.pk, table_number=1, actor=ACTOR, now=at(31))
    assert clock.outcome == sc.OUTCOME_CHECKED  # no bet to face: checked (TDA 29)
    assert LogEntry.objects.filter(event=event, action="shotclock.call").count() == 1


def test_the_director_sets_the_policy_on_the_rules_page(client, director, event):
    client.force_login(director)
    data = shown_form(client, rules_url(event)) | {
        "shot_clock_starts": sc.STARTS_AT_LEVEL,
        "shot_clock_starts_at": "16",
        "shot_clock_seconds": "15",
        "shot_clock_facing_raise": "30",
        "shot_clock_extensions": "4",
    }
    refused = client.post(rules_url(event), data | {"shot_clock_warnings": "20 3"})
    assert refused.status_code == 400
    assert "each warning comes before the shortest time" in refused.content.decode()
    event.refresh_from_db()
    assert event.rule_overrides == {}
    assert client.post(rules_url(event), data).status_code == 302
    event.refresh_from_db()
    policy = selectors.policy_of(event)
    assert (policy.starts_at, policy.seconds, policy.facing_raise, policy.extensions) == (
        16,
        (15,),
        30,
        4,
    )
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert "Shot clock: extensions each player holds" in page  # the rules card's differences


def test_a_day_two_entry_starts_from_what_its_flight_entry_had(event):
    from tests.fixtures import make_event

    flight_entry = Entry.objects.create(
        event=event, player=Player.objects.create(name="Ana"), number=1, chips=20_000
    )
    Extensions.objects.create(entry=flight_entry, left=0, used=2, day=1)
    day2 = make_event(600, name="Main event", day=2)
    carried = Entry.objects.create(
        event=day2, player=flight_entry.player, number=1, chips=20_000, carried_from=flight_entry
    )
    kept = sc.Policy(starts=sc.STARTS_AT_START, extensions=2)
    progress = selectors.progress_read(day2, kept)
    assert selectors.allowance_of(kept, progress, carried, None).left == 0
    topped = sc.Policy(starts=sc.STARTS_AT_START, extensions=2, reset_day=sc.DAY_RESET)
    assert selectors.allowance_of(topped, progress, carried, None).left == 2
