"""The end of a day (WSOP R125): the last hands, bag and tag, the night, the next day's draw."""

from __future__ import annotations

import re

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import ChipCount, ChipCountHistory
from tdsystem.results.services import bustout_record
from tdsystem.seating import balancing, services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Bag, DayEnd, Entry, EventTable, Move
from tdsystem.seating.services.dayend import (
    bag_correct,
    bags_record,
    day_end_close,
    day_end_start,
    day_next_draw,
)
from tdsystem.simulation.seatings import ACTOR, field, seating_problems
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def four_tables(event, players: int = 30) -> None:
    field(event, players=players, tables=4)  # 30 players at 9-handed tables: 8, 8, 7, 7


def hands_left(event) -> dict[int, int | None]:
    rows = EventTable.objects.filter(event=event, in_play=True)
    return dict(rows.values_list("number", "hands_left"))


def play_out(event, number: int, hands: int) -> None:
    for _ in range(hands):
        table = EventTable.objects.get(event=event, number=number)
        services.table_hand_finish(
            event_id=event.pk,
            table_number=number,
            expected_hand=table.hand_number,
            confirm_halted=True,
            actor=ACTOR,
        )


def bags_of(event, number: int, prefix: str = "A") -> list[tuple[int, int, str]]:
    seated = Entry.objects.filter(event=event, table__number=number, status="active")
    return [(e.seat, 10_000 + e.number, f"{prefix}{e.number}") for e in seated]


def in_play(event) -> int:
    return sum(e.chips - e.chips_removed for e in Entry.objects.filter(event=event))


def bag_everyone(event, day_end) -> None:
    """Every table played out and bagged; the last bag makes the bags add up to the chips
    in play, as a counted room's do."""
    seated = Entry.objects.filter(event=event, status="active").values_list("table__number")
    tables = [n for n in hands_left(event) if (n,) in set(seated)]
    for number in tables:
        if Bag.objects.filter(event=event, table_number=number).exists():
            continue
        play_out(event, number, EventTable.objects.get(event=event, number=number).hands_left)
        bags = bags_of(event, number)
        if number == tables[-1]:
            seat, _chips, bag = bags[-1]
            so_far = sum(Bag.objects.filter(event=event).values_list("chips", flat=True))
            rest = in_play(event) - so_far - sum(c for _s, c, _n in bags[:-1])
            assert rest > 0
            bags[-1] = (seat, rest, bag)
        bags_record(event_id=event.pk, table_number=number, bags=bags, actor=ACTOR)


def test_it_draws_the_last_hands_in_range_and_gives_every_table_them(event):
    four_tables(event)
    day_end = day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    assert 3 <= day_end.hands <= 7 and day_end.day == 1 and day_end.closed_at is None
    assert set(hands_left(event).values()) == {day_end.hands}
    entry = LogEntry.objects.get(action="day.last_hands")
    assert entry.data["seed"] == 3 and "WSOP R125" in entry.summary
    with pytest.raises(SeatingError, match="drawn already"):
        day_end_start(event_id=event.pk, actor=ACTOR)
    short = make_event(600, name="Six-handed", seats_per_table=6)
    field(short, players=40, tables=8, seats=6, first=5)
    assert 2 <= day_end_start(event_id=short.pk, actor=ACTOR, seed=5).hands <= 5


def test_with_three_tables_or_fewer_the_day_ends_at_once_and_every_table_bags(event):
    field(event, players=27, tables=4)  # the draw opens three tables
    day_end = day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    assert day_end.hands == 0 and set(hands_left(event).values()) == {0}
    assert (
        "at 3 tables: the clock has run out"
        in LogEntry.objects.get(action="day.last_hands").summary
    )
    with pytest.raises(SeatingError, match="day 1 is ending already"):
        day_end_start(event_id=event.pk, actor=ACTOR)
    with pytest.raises(SeatingError, match="played its last hand of the day"):
        play_out(event, 1, 1)
    with pytest.raises(SeatingError, match="the day's last hands are being played"):
        services.player_register(event=event, name="Late Larry", actor=ACTOR)
    bag_everyone(event, day_end)
    assert day_end_close(event_id=event.pk, actor=ACTOR).closed_at is not None


def test_a_one_table_flight_bags_and_closes_its_day(event):
    main = make_event(600, name="Main event")
    Event.objects.filter(pk=event.pk).update(parent=main, flight="1A")
    field(event, players=7, tables=1)
    day_end = day_end_start(event_id=event.pk, actor=ACTOR)
    assert day_end.hands == 0
    bag_everyone(event, day_end)
    day_end_close(event_id=event.pk, actor=ACTOR)
    assert Bag.objects.filter(event=event, day=1).count() == 7


def test_bags_that_do_not_add_up_close_the_day_only_with_the_difference_confirmed(event):
    field(event, players=14, tables=2)
    day_end = day_end_start(event_id=event.pk, actor=ACTOR)
    bag_everyone(event, day_end)
    bag = Bag.objects.filter(event=event).first()
    bag_correct(
        event_id=event.pk,
        entry_number=bag.entry.number,
        chips=bag.chips + 20_000,
        number=bag.number,
        actor=ACTOR,
    )
    with pytest.raises(services.dayend.BagsDiffer) as differ:
        day_end_close(event_id=event.pk, actor=ACTOR)
    assert differ.value.difference == 20_000
    assert str(differ.value).startswith(
        "The bags hold 20,000 chips more than the chips in play (160,000 against 140,000)"
    )
    with pytest.raises(services.dayend.BagsDiffer):  # another difference than the one shown
        day_end_close(event_id=event.pk, actor=ACTOR, confirm_difference=10_000)
    assert DayEnd.objects.get(event=event).closed_at is None
    day_end_close(event_id=event.pk, actor=ACTOR, confirm_difference=20_000)
    log = LogEntry.objects.get(action="day.close")
    assert log.data["difference"] == 20_000
    assert "against 140,000 in play (the difference confirmed)" in log.summary


def test_it_counts_down_each_table_and_refuses_a_hand_after_the_last(event):
    four_tables(event)
    hands = day_end_start(event_id=event.pk, actor=ACTOR, seed=3).hands
    play_out(event, 1, hands - 1)
    assert hands_left(event)[1] == 1 and hands_left(event)[2] == hands
    play_out(event, 1, 1)
    assert hands_left(event)[1] == 0
    with pytest.raises(SeatingError, match="played its last hand of the day: bag the chips"):
        play_out(event, 1, 1)


def test_it_suspends_balancing_redraws_and_late_registration(event):
    four_tables(event)
    day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    # Table 4 (7 players) loses two: balancing would move a player in; it waits.
    for entry in list(Entry.objects.filter(event=event, table__number=4))[:2]:
        recorded = bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR)
        assert recorded.finishes and recorded.rebalance.kind is None
    assert not Move.objects.exists()
    assert Entry.objects.filter(event=event, status="busted").count() == 2
    assert balancing.tables_rebalance(event_id=event.pk, actor=ACTOR).moves == []
    with pytest.raises(SeatingError, match="no redraw during the last hands"):
        balancing.tables_redraw(event_id=event.pk, table_count=3, actor=ACTOR)
    with pytest.raises(SeatingError, match="the day's last hands are being played"):
        services.player_register(event=event, name="Late Larry", actor=ACTOR)
    assert not Entry.objects.filter(player__name="Late Larry").exists()


def test_it_bags_a_table_all_or_nothing_and_records_the_counts(event):
    four_tables(event)
    hands = day_end_start(event_id=event.pk, actor=ACTOR, seed=3).hands
    with pytest.raises(SeatingError, match=f"table 1 has {hands} hands to play before bagging"):
        bags_record(event_id=event.pk, table_number=1, bags=bags_of(event, 1), actor=ACTOR)
    play_out(event, 1, hands)
    play_out(event, 2, hands)
    good = bags_of(event, 1)
    empty = min(set(range(1, 10)) - {seat for seat, _chips, _number in good})
    refusals = {
        "no bag given (bag the whole table at once)": good[:-1],
        "give a count from 1": [(good[0][0], 0, good[0][2]), *good[1:]],
        "is given twice": [*good[:-1], (good[-1][0], good[-1][1], good[0][2])],
        "give a bag number of 1 to 20": [(good[0][0], 5, " "), *good[1:]],
        f"nobody still in sits in seat {empty}": [*good, (empty, 100, "X9")],
    }
    for message, bags in refusals.items():
        with pytest.raises(SeatingError, match=re.escape(message)):
            bags_record(event_id=event.pk, table_number=1, bags=bags, actor=ACTOR)
    assert not Bag.objects.exists() and not ChipCount.objects.exists()
    done = bags_record(event_id=event.pk, table_number=1, bags=good, actor=ACTOR)
    assert [(b.seat, b.chips, b.number, b.table_number) for b in done] == [
        (seat, chips, number, 1) for seat, chips, number in sorted(good)
    ]
    counts = dict(ChipCount.objects.values_list("entry__number", "chips"))
    assert counts == {b.entry.number: b.chips for b in done}
    assert ChipCountHistory.objects.count() == len(done)
    # A bag number is unique in the event and day: table 2 may not reuse table 1's.
    taken = bags_of(event, 2, prefix="B")
    taken[0] = (taken[0][0], taken[0][1], good[0][2])
    with pytest.raises(SeatingError, match=f"bag {good[0][2]} is taken in this day already"):
        bags_record(event_id=event.pk, table_number=2, bags=taken, actor=ACTOR)
    with pytest.raises(SeatingError, match="bagged already"):
        bags_record(event_id=event.pk, table_number=1, bags=good, actor=ACTOR)
    assert Bag.objects.count() == len(done)


def test_it_refuses_a_bust_out_of_a_player_already_bagged(event):
    four_tables(event)
    hands = day_end_start(event_id=event.pk, actor=ACTOR, seed=3).hands
    play_out(event, 1, hands)
    (first, *_) = bags_record(
        event_id=event.pk, table_number=1, bags=bags_of(event, 1), actor=ACTOR
    )
    with pytest.raises(ResultsError, match=rf"#{first.entry.number} .* has bagged for the day"):
        bustout_record(event_id=event.pk, entry_ids=[first.entry_id], actor=ACTOR)
    assert Entry.objects.get(pk=first.entry_id).status == "active"
    # A player at a table still playing its last hands may go out as ever.
    other = Entry.objects.filter(event=event, table__number=2).first()
    bustout_record(event_id=event.pk, entry_ids=[other.pk], actor=ACTOR)
    assert Entry.objects.get(pk=other.pk).status == "busted"


def test_it_corrects_a_bag_keeping_numbers_unique(event):
    four_tables(event)
    hands = day_end_start(event_id=event.pk, actor=ACTOR, seed=3).hands
    play_out(event, 1, hands)
    first, second = bags_record(
        event_id=event.pk, table_number=1, bags=bags_of(event, 1), actor=ACTOR
    )[:2]
    with pytest.raises(SeatingError, match="taken in this day already"):
        bag_correct(
            event_id=event.pk,
            entry_number=first.entry.number,
            chips=5,
            number=second.number,
            actor=ACTOR,
        )
    bag = bag_correct(
        event_id=event.pk, entry_number=first.entry.number, chips=12_345, number="Z1", actor=ACTOR
    )
    assert (bag.chips, bag.number) == (12_345, "Z1")
    assert ChipCount.objects.get(entry=first.entry).chips == 12_345
    assert LogEntry.objects.filter(action="day.bag_correct").count() == 1


def test_it_closes_the_day_only_once_everyone_is_bagged_and_stops_the_clock(event):
    four_tables(event)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    day_end = day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    play_out(event, 1, day_end.hands)
    bags_record(event_id=event.pk, table_number=1, bags=bags_of(event, 1), actor=ACTOR)
    with pytest.raises(SeatingError, match=r"23 players are not bagged yet \(table 2 seat 1, "):
        day_end_close(event_id=event.pk, actor=ACTOR)
    bag_everyone(event, day_end)
    closed = day_end_close(event_id=event.pk, actor=ACTOR)
    assert closed.closed_at is not None
    clock = Clock.objects.get(event=event)
    assert clock.status == Clock.Status.PAUSED and clock.remaining_ms > 0
    assert "30 players bagged" in LogEntry.objects.get(action="day.close").summary
    with pytest.raises(SeatingError, match="day 1 is closed"):
        day_end_close(event_id=event.pk, actor=ACTOR)


def test_it_draws_the_next_day_from_the_bags(event):
    four_tables(event)
    day_end = day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    with pytest.raises(SeatingError, match="close day 1 first"):
        day_next_draw(event_id=event.pk, actor=ACTOR)
    bust = Entry.objects.filter(event=event, table__number=4).first()
    bustout_record(event_id=event.pk, entry_ids=[bust.pk], actor=ACTOR)
    bag_everyone(event, day_end)
    day_end_close(event_id=event.pk, actor=ACTOR)
    assert day_next_draw(event_id=event.pk, actor=ACTOR, seed=9) == 29
    event.refresh_from_db()
    assert event.day == 2
    seated = Entry.objects.filter(event=event, status="active", table__isnull=False)
    assert seated.count() == 29 and seating_problems(event) == []
    assert set(hands_left(event).values()) == {None}
    assert LogEntry.objects.filter(action="seats.draw").count() == 2
    # Day 2 balances again: two out at the smallest table, a player moves in.
    smallest = min(hands_left(event), key=lambda n: Entry.objects.filter(table__number=n).count())
    out = list(Entry.objects.filter(event=event, table__number=smallest))[:2]
    rebalance = bustout_record(event_id=event.pk, entry_ids=[out[0].pk], actor=ACTOR).rebalance
    rebalance = bustout_record(event_id=event.pk, entry_ids=[out[1].pk], actor=ACTOR).rebalance
    assert rebalance.kind in ("balance", "break") and rebalance.moves


def test_it_ends_a_flight_with_its_day(event):
    main = make_event(600, name="Main event")  # tables apart: the flight's are 1 to 4
    Event.objects.filter(pk=event.pk).update(parent=main, flight="1A")
    four_tables(event)
    day_end = day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    bag_everyone(event, day_end)
    day_end_close(event_id=event.pk, actor=ACTOR)
    with pytest.raises(SeatingError, match="a flight ends with its day"):
        day_next_draw(event_id=event.pk, actor=ACTOR)
    assert Bag.objects.filter(event=event, day=1).count() == 30


def test_it_bags_a_player_left_alone_at_once_and_ignores_an_empty_table(event):
    from tdsystem.seating.selectors_dayend import day_end_state, last_hands_panel
    from tdsystem.simulation.seatings import arrange

    arrange(event, {1: [1, 4], 2: [2, 5], 3: [1, 3], 4: [2, 4], 5: [3, 6]})
    day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    alone, gone = Entry.objects.filter(event=event, table__number=5)
    for entry in (
        *Entry.objects.filter(event=event, table__number=4),
        gone,
    ):
        bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR)
    # Table 4 is empty, table 5 has one player: neither has a hand to deal.
    assert last_hands_panel(event)["tables_playing"] == 4
    states = {t.number: t.state for t in day_end_state(event).tables}
    assert states[5] == "bag" and 4 not in states
    bags = [(alone.seat, 9, "L1")]
    (bag,) = bags_record(event_id=event.pk, table_number=5, bags=bags, actor=ACTOR)
    assert bag.entry == alone and last_hands_panel(event)["tables_playing"] == 3
