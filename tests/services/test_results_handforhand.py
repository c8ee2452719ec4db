"""Hand-for-hand: every table finishes each hand, the clock loses at most N minutes a hand,
and bust-outs on the same hand at different tables are simultaneous."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tdsystem.events.services import clock_action
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import BustOutGroup, Finish, HandForHand
from tdsystem.results.selectors import hand_for_hand as hand_for_hand_status
from tdsystem.seating.models import Entry, EventTable
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal
FULL = list(range(1, 10))
TWELVE_PAID = ["20", "15", "12", "10", "8", "7", "6", "5", "5", "4", "4", "4"]
START = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


def bust_at(event, entry, stack=None, **kwargs):
    return services.bustout_record(
        event_id=event.pk,
        entry_ids=[entry.pk],
        stacks={entry.pk: stack} if stack is not None else None,
        actor=ACTOR,
        rng_seed=5,
        **kwargs,
    )


def active_at(event, table: int) -> list[Entry]:
    rows = Entry.objects.filter(event=event, status="active", table__number=table)
    return list(rows.select_related("player").order_by("seat"))


def report_hand(event, number: int):
    """The table's "hand finished", with the hand count it shows."""
    count = EventTable.objects.get(event=event, number=number).hand_number
    return services.handforhand_hand_finish(
        event_id=event.pk, table_number=number, expected_hand=count, actor=ACTOR
    )


def make_bubble(**settings):
    """Two full tables, twelve paid: five bust first, so thirteen play the bubble."""
    event = make_event(3600, 3600, buy_in=D(100), **settings)
    arrange(event, {1: FULL, 2: FULL}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    services.payout_plan_update(
        event_id=event.pk, table="custom", percentages=TWELVE_PAID, unit=D(1), actor=ACTOR
    )
    for _ in range(5):
        table = max((1, 2), key=lambda n: len(active_at(event, n)))
        bust_at(event, active_at(event, table)[0])
    assert Entry.objects.filter(event=event, status="active").count() == 13
    return event


@pytest.fixture
def bubble():
    return make_bubble()


@pytest.fixture
def bubble_by_stack():
    """The bubble where players out on the bubble hand are placed by stack, not shared."""
    return make_bubble(rule_overrides={"bubble_share": False})


def test_two_players_busting_on_one_hand_at_different_tables_share_the_bubble(bubble):
    event = bubble
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    first, second = active_at(event, 1)[0], active_at(event, 2)[0]
    done = bust_at(event, first, 4000)
    assert [(f.place, f.place_to) for f in done.finishes] == [(13, 13)]
    done = bust_at(event, second, 4000)
    # Pool 1800: 12th place pays 4% = 72; the two split it.
    assert {(f.entry_id, f.place, f.place_to, f.prize) for f in done.group} == {
        (first.pk, 12, 13, D(36)),
        (second.pk, 12, 13, D(36)),
    }
    assert BustOutGroup.objects.filter(event=event, hfh_hand=1).count() == 1
    # Reported again: the refusal names the place the finish holds, its tie with it.
    with pytest.raises(ResultsError, match=r"already out \(place 12-13\)"):
        bust_at(event, first, 4000)


def test_a_later_report_with_the_smaller_stack_moves_the_first_player_up(bubble_by_stack):
    event = bubble_by_stack
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    first, second = active_at(event, 1)[0], active_at(event, 2)[0]
    bust_at(event, first, 9000)
    assert Finish.objects.get(entry=first).place == 13
    bust_at(event, second, 2500)
    assert Finish.objects.get(entry=first).place == 12
    assert Finish.objects.get(entry=first).prize == D(72)
    assert Finish.objects.get(entry=second).place == 13


def test_every_report_needs_the_starting_stack_during_hand_for_hand(bubble):
    services.handforhand_start(event_id=bubble.pk, actor=ACTOR)
    with pytest.raises(ResultsError, match="start of the hand") as caught:
        bust_at(bubble, active_at(bubble, 1)[0])
    assert caught.value.field == "stacks"


def test_the_next_hand_waits_for_every_table_and_the_clock_loses_at_most_two_minutes(bubble):
    event = bubble
    with time_machine.travel(START, tick=False) as traveller:
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        traveller.shift(600)
        services.handforhand_start(event_id=event.pk, actor=ACTOR)
        clock = Clock.objects.get(pk=event.pk)
        assert (clock.status, clock.remaining_ms) == ("paused", 3000 * 1000)
        traveller.shift(60)
        report = report_hand(event, 1)
        assert (report.hand, report.waiting_for, report.completed) == (1, [2], False)
        with pytest.raises(ResultsError, match="wait for table 2"):
            report_hand(event, 1)
        traveller.shift(240)  # a five-minute hand
        report = report_hand(event, 2)
        assert report.completed and report.charged_seconds == 120
        assert HandForHand.objects.get(pk=event.pk).hand == 2
        assert Clock.objects.get(pk=event.pk).remaining_ms == (3000 - 120) * 1000
        traveller.shift(45)  # a quick hand costs what it took
        for table in (2, 1):
            report = report_hand(event, table)
        assert report.charged_seconds == 45
        assert Clock.objects.get(pk=event.pk).remaining_ms == (3000 - 165) * 1000
        traveller.shift(30)
        services.handforhand_stop(event_id=event.pk, actor=ACTOR)
        clock = Clock.objects.get(pk=event.pk)
        assert clock.status == "running"
        assert clock.ends_at == START + timedelta(seconds=600 + 375 + 3000 - 195)


def test_a_long_hand_at_the_end_of_a_level_runs_into_the_next(bubble):
    event = bubble
    with time_machine.travel(START, tick=False) as traveller:
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        traveller.shift(3600 - 60)  # one minute left in level 1
        services.handforhand_start(event_id=event.pk, actor=ACTOR)
        traveller.shift(300)
        for table in (1, 2):
            report_hand(event, table)
        clock = Clock.objects.get(pk=event.pk)
        assert (clock.status, clock.level_index, clock.remaining_ms) == (
            "paused",
            1,
            (3600 - 60) * 1000,
        )


def test_outside_hand_for_hand_a_report_is_just_the_next_hand(bubble):
    report = report_hand(bubble, 1)
    assert report.hand is None and report.table.hand_number == 1


def test_it_refuses_hand_for_hand_at_one_table(event):
    arrange(event, {1: [1, 2, 3, 4]})
    with pytest.raises(ResultsError, match="two tables"):
        services.handforhand_start(event_id=event.pk, actor=ACTOR)


def test_it_keeps_the_minutes_per_hand_it_is_given(bubble):
    services.handforhand_start(event_id=bubble.pk, actor=ACTOR, minutes_per_hand=3)
    with pytest.raises(ResultsError, match="on already"):
        services.handforhand_start(event_id=bubble.pk, actor=ACTOR)
    assert HandForHand.objects.get(pk=bubble.pk).minutes_per_hand == 3


def test_a_late_report_of_an_earlier_hand_joins_that_hand_and_moves_the_later_places(
    bubble_by_stack,
):
    event = bubble_by_stack
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    a, c = active_at(event, 1)[0], active_at(event, 2)[0]
    bust_at(event, a, 5000)  # hand 1, table 1: 13th for now
    for table in (1, 2):
        report_hand(event, table)
    b = active_at(event, 1)[0]
    bust_at(event, b, 5000)  # hand 2: 12th
    assert Finish.objects.get(entry=b).place == 12
    # Table 2 forgot: C went out on hand 1 too, with more chips than A.
    bust_at(event, c, 7000, hand=1)
    assert [
        (Finish.objects.get(entry=e).place, Finish.objects.get(entry=e).place_to) for e in (a, c, b)
    ] == [(13, 13), (12, 12), (11, 11)]
    assert [Finish.objects.get(entry=e).prize for e in (a, c, b)] == [D(0), D(72), D(72)]
    with pytest.raises(ResultsError, match="hand-for-hand hand is 1 to 2") as caught:
        bust_at(event, active_at(event, 1)[0], 100, hand=3)
    assert caught.value.field == "hand"


def test_on_the_bubble_hand_tda_2024_shares_the_paid_place_whatever_the_stacks(bubble):
    """RP-8-A: the players out on the hand that bursts the bubble share its payout."""
    event = bubble
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    first, second = active_at(event, 1)[0], active_at(event, 2)[0]
    bust_at(event, first, 9000)
    done = bust_at(event, second, 2500)
    assert {(f.entry_id, f.place, f.place_to, f.prize) for f in done.group} == {
        (first.pk, 12, 13, D(36)),
        (second.pk, 12, 13, D(36)),
    }
    assert "(TDA RP-8)" in LogEntry.objects.filter(action="bustout.record").first().summary


def test_hand_for_hand_starts_with_the_rule_sets_minutes_per_hand():
    event = make_bubble(rule_set="wsop-2026", rule_overrides={"hfh_minutes_per_hand": 4})
    assert hand_for_hand_status(event).minutes == 4  # what the console's form offers
    hfh = services.handforhand_start(event_id=event.pk, actor=ACTOR)
    assert hfh.minutes_per_hand == 4
    assert "(WSOP R126)" in LogEntry.objects.filter(action="hfh.start").first().summary
    services.handforhand_stop(event_id=event.pk, actor=ACTOR)
    # The form may change them for one run; the next starts from the rule set again.
    services.handforhand_start(event_id=event.pk, actor=ACTOR, minutes_per_hand=1)
    assert HandForHand.objects.get(pk=event.pk).minutes_per_hand == 1
    services.handforhand_stop(event_id=event.pk, actor=ACTOR)
    assert hand_for_hand_status(event).minutes == 4
    assert services.handforhand_start(event_id=event.pk, actor=ACTOR).minutes_per_hand == 4
