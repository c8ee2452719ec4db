"""Flights and Day 2: flights added, the flights combined, the whole event's field."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tdsystem.results import services as results
from tdsystem.results.models import Finish
from tdsystem.results.services import standings
from tdsystem.seating import services as seating
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Bag, Entry, EventTable, Player, Purchase
from tdsystem.seating.selectors_flights import day2_preview
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal


def festival(*flights: str, **settings) -> tuple[Event, list[Event]]:
    main = make_event(600, 600, "B300", 600, 600, 600, name="Main Event", **settings)
    return main, [seating.flight_add(event_id=main.pk, name=n, actor=ACTOR) for n in flights]


def enter(flight: Event, player: Player, *, busted: bool = False) -> Entry:
    """An entry of the flight (a re-entry when the player entered it before)."""
    entry = Entry.objects.create(
        event=flight,
        player=player,
        number=Entry.objects.filter(event=flight).count() + 1,
        is_reentry=Entry.objects.filter(event=flight, player=player).exists(),
        chips=flight.starting_stack,
        paid=flight.buy_in,
        status=Entry.Status.BUSTED if busted else Entry.Status.ACTIVE,
    )
    Purchase.objects.create(
        event=flight,
        entry=entry,
        kind=Purchase.Kind.ENTRY,
        amount=flight.buy_in,
        chips=entry.chips,
        actor_label="test",
    )
    return entry


def bag(entry: Entry, chips: int) -> Bag:
    seat = Bag.objects.filter(event=entry.event).count() + 1
    return Bag.objects.create(
        event=entry.event,
        day=1,
        entry=entry,
        chips=chips,
        number=f"{entry.event.flight}-{seat:03}",
        table_number=1,
        seat=seat,
        actor_label="test",
    )


def players(*names: str) -> list[Player]:
    return [Player.objects.create(name=n, member_id=n.lower()) for n in names]


def played(**rule) -> tuple[Event, Event, Event, dict[str, Player]]:
    """Two flights: Ann bags in both (20,000 in 1A, 30,000 in 1B), Bob bags 5,000 in 1A,
    Cy busts in 1A and re-enters 1A (bust again), Dee bags 12,000 in 1B. The bags do not
    add up to the flights' chips in play (40,000 and 20,000): combining confirms it."""
    main, (a, b) = festival("1A", "1B", **rule)
    ann, bob, cy, dee = players("Ann", "Bob", "Cy", "Dee")
    bag(enter(a, ann), 20_000)
    bag(enter(a, bob), 5_000)
    enter(a, cy, busted=True)
    enter(a, cy, busted=True)
    bag(enter(b, dee), 12_000)
    bag(enter(b, ann), 30_000)
    Clock.objects.filter(pk=a.pk).update(level_index=3, status=Clock.Status.PAUSED)
    Clock.objects.filter(pk=b.pk).update(level_index=4, status=Clock.Status.PAUSED)
    return main, a, b, {"ann": ann, "bob": bob, "cy": cy, "dee": dee}


def day2(main: Event) -> dict[str, int]:
    return {
        e.player.name: e.chips
        for e in Entry.objects.filter(event=main).select_related("player").order_by("number")
    }


def test_it_adds_a_flight_like_its_event_with_its_own_structure_and_clock():
    main, (a,) = festival("1A", buy_in=D(250), reentry_allowed=True)
    assert (a.parent, a.flight, a.day, a.name) == (main, "1A", 1, "Main Event · 1A")
    assert (a.buy_in, a.reentry_allowed, a.starting_stack) == (D(250), True, main.starting_stack)
    assert a.structure_id != main.structure_id
    assert a.structure.levels.count() == main.structure.levels.count()
    assert Clock.objects.get(pk=a.pk).status == Clock.Status.NOT_STARTED
    assert LogEntry.objects.filter(event=main, action="flight.add").get().summary == (
        "Flight 1A added"
    )


def test_it_refuses_a_flight_of_a_flight_a_name_taken_and_an_event_on_day_2():
    main, (a,) = festival("1A")
    with pytest.raises(SeatingError, match="is a flight"):
        seating.flight_add(event_id=a.pk, name="1B", actor=ACTOR)
    with pytest.raises(SeatingError, match="has a flight 1A already") as caught:
        seating.flight_add(event_id=main.pk, name=" 1a ", actor=ACTOR)
    assert caught.value.field == "name"
    with pytest.raises(SeatingError, match="at most 8"):
        seating.flight_add(event_id=main.pk, name="Day 1 flight B", actor=ACTOR)
    Event.objects.filter(pk=main.pk).update(day=2)
    with pytest.raises(SeatingError, match="is on Day 2"):
        seating.flight_add(event_id=main.pk, name="1C", actor=ACTOR)
    assert Event.objects.filter(parent=main).count() == 1


def test_it_previews_day_2_with_the_player_who_bagged_twice():
    main, _a, _b, _ = played()
    preview = day2_preview(main)
    assert [(r.event.flight, r.entries, r.active, r.bagged, r.status) for r in preview.flights] == [
        ("1A", 4, 2, 2, "bagged"),
        ("1B", 2, 2, 2, "bagged"),
    ]
    assert (preview.players, preview.chips, preview.entries) == (3, 47_000, 6)
    [twice] = preview.twice
    assert (twice.name, twice.kept.chips, [d.chips for d in twice.dropped]) == (
        "Ann",
        30_000,
        [20_000],
    )
    assert preview.may_combine and preview.blockers == [] and preview.level_index == 4


def test_it_combines_the_flights_keeping_the_larger_stack():
    main, _a, b, people = played()
    done = seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=7)
    assert (done.players, done.chips, done.dropped) == (3, 47_000, 1)
    assert day2(main) == {"Ann": 30_000, "Bob": 5_000, "Dee": 12_000}
    ann = Entry.objects.get(event=main, player=people["ann"])
    assert ann.carried_from == Entry.objects.get(event=b, player=people["ann"])
    assert (ann.paid, ann.is_reentry) == (D(0), False)
    carry = Purchase.objects.get(entry=ann)
    assert (carry.kind, carry.amount, carry.fee, carry.chips) == ("carry", D(0), D(0), 30_000)
    main.refresh_from_db()
    assert main.day == 2
    # Everyone is drawn to a seat at the event's own tables.
    seated = Entry.objects.filter(event=main, table__isnull=False)
    assert seated.count() == 3 and set(seated.values_list("table__event", flat=True)) == {main.pk}
    assert done.tables == [1]
    dropped = LogEntry.objects.get(event=main, action="day2.bag_dropped")
    assert "bag 1A-001 of flight 1A (20000 chips) dropped" in dropped.summary
    assert LogEntry.objects.filter(event=main, action="seats.draw").exists()
    assert "(seed 7)" in LogEntry.objects.get(event=main, action="seats.draw").summary


def test_it_keeps_the_first_flights_bag_under_the_first_rule():
    main, *_ = played(bag_rule=Event.BagRule.FIRST)
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    assert day2(main) == {"Ann": 20_000, "Bob": 5_000, "Dee": 12_000}


def test_it_resumes_the_clock_at_the_level_the_flights_reached_with_its_full_time():
    main, *_ = played()
    done = seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    clock = Clock.objects.get(pk=main.pk)
    level = main.structure.levels.get(position=4)
    assert done.level_index == 4
    assert (clock.status, clock.level_index, clock.remaining_ms) == (
        Clock.Status.NOT_STARTED,
        4,
        level.duration_seconds * 1000,
    )
    assert (
        LogEntry.objects.filter(event=main, action="clock.day")
        .get()
        .summary.startswith("Day 2 starts at level 4")
    )


def test_it_gives_the_flights_tables_to_day_2():
    main, a, b, _ = played()
    seating.tables_setup(event=a, numbers=[1, 2], seats=9, actor=ACTOR)
    seating.tables_setup(event=b, numbers=[3], seats=9, actor=ACTOR)
    table = EventTable.objects.get(event=a, number=2)
    for seat, entry in enumerate(Entry.objects.filter(event=a, status="active"), start=4):
        Entry.objects.filter(pk=entry.pk).update(table=table, seat=seat)
    done = seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    assert done.tables == [1]
    assert not EventTable.objects.filter(event__in=[a, b], in_play=True).exists()
    assert not Entry.objects.filter(event=a, table__isnull=False).exists()


def test_it_refuses_while_a_flight_has_not_bagged_and_changes_nothing():
    main, _a, b, _ = played()
    enter(b, Player.objects.create(name="Eve"))
    with pytest.raises(SeatingError, match="1B has not finished its day: 2 of 3 players bagged"):
        seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR)
    main.refresh_from_db()
    assert main.day == 1 and not Entry.objects.filter(event=main).exists()
    assert not LogEntry.objects.filter(event=main, action__startswith="day2").exists()


def test_it_refuses_a_second_combination_and_a_flight():
    main, a, *_ = played()
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    with pytest.raises(SeatingError, match="combined already"):
        seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR)
    with pytest.raises(SeatingError, match="is a flight"):
        seating.day2_combine(event_id=a.pk, confirm_differences=True, actor=ACTOR)
    assert Entry.objects.filter(event=main).count() == 3


def test_the_whole_event_counts_every_flights_entries_and_buy_ins():
    main, a, _b, _ = played()
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    # Six entries (Cy's re-entry one of them), 100 each; Day 2's three are not entries again.
    assert standings.field_read(main) == standings.Field(6, 3, D(600), 3)
    assert standings.field_read(main).places_from == 3
    # A flight counts its own entries and pays nothing: its prizes are its event's. Its
    # survivors went on to Day 2: none is left playing the flight.
    assert standings.field_read(a) == standings.Field(4, 0, D(0))


def test_a_combined_flight_is_finished_its_survivors_carried_and_its_clock_stopped():
    main, a, b, _ = played()
    for flight in (a, b):  # the flights' days closed: clocks paused for the night
        Clock.objects.filter(pk=flight.pk).update(status=Clock.Status.PAUSED, remaining_ms=60_000)
        Event.objects.filter(pk=flight.pk).update(status=Event.Status.PAUSED)
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    for flight, carried in ((a, 2), (b, 2)):
        flight.refresh_from_db()
        assert flight.status == Event.Status.FINISHED
        assert Clock.objects.get(pk=flight.pk).status == Clock.Status.FINISHED
        entries = Entry.objects.filter(event=flight)
        assert not entries.filter(status=Entry.Status.ACTIVE).exists()
        assert entries.filter(status=Entry.Status.CARRIED).count() == carried
        assert LogEntry.objects.filter(event=flight, action="day2.flight_combined").exists()
    # The whole event reads as before: its field, pool and places; the preview its Day 2.
    assert standings.field_read(main) == standings.Field(6, 3, D(600), 3)
    main.refresh_from_db()
    preview = day2_preview(main)
    assert [(r.status, r.active, r.bagged) for r in preview.flights] == [
        ("combined", 2, 2),
        ("combined", 2, 2),
    ]
    assert (preview.players, preview.chips) == (3, 47_000)


def test_a_day_2_bust_out_takes_the_place_of_the_players_left_in_the_whole_event():
    main, *_ = played()
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    bob = Entry.objects.get(event=main, player__name="Bob")
    done = results.bustout_record(event_id=main.pk, entry_ids=[bob.pk], actor=ACTOR, rng_seed=1)
    assert [(f.place, f.place_to) for f in done.finishes] == [(3, 3)]
    # A full refresh (the pool changed) places from the Day 2 field as well.
    plan = standings.plan_for(main)
    standings.standings_refresh(event=main, plan=plan, field=standings.field_read(main))
    assert Finish.objects.get(entry=bob, undone_at=None).place == 3


def test_the_clock_figures_show_the_whole_event_and_a_flights_own_field(client):
    from tdsystem.events.selectors import field_figures

    main, a, _b, _ = played()
    # The flight's own field, the whole event's pool (it pays no prizes of its own).
    assert field_figures(a) | {
        "whole_event": None,
        "prize_pool": D(field_figures(a)["prize_pool"]),
    } == {
        "entries": 4,
        "players_left": 2,
        "chips_in_play": 40_000,
        "average_stack": 20_000,
        "prize_pool": D(600),
        "whole_event": None,
    }
    assert field_figures(a)["whole_event"] == {"flight": "1A", "entries": 6}
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    figures = field_figures(main)
    assert (figures["entries"], figures["players_left"], figures["chips_in_play"]) == (6, 3, 47_000)
    assert D(figures["prize_pool"]) == D(600) and "whole_event" not in figures
    screen = client.get(f"/api/events/{a.pk}/clock").json()
    assert screen["whole_event"] == {"flight": "1A", "entries": 6}
    assert "1A · whole event 6" in client.get(f"/events/{a.pk}/clock/").content.decode()


def counted_on_the_entries(event: Event) -> dict:
    """The clock's field figures counted from the entries themselves, for field_figures
    (the stored counts and a sum of the chips) to agree with."""
    from django.db.models import Count, Q, Sum

    main_id = event.parent_id or event.pk
    own = Q(event_id=event.pk)
    counted = ~Q(event_id=main_id, carried_from__isnull=False)
    family = Entry.objects.filter(Q(event_id=main_id) | Q(event__parent_id=main_id))
    agg = family.aggregate(
        own=Count("id", filter=own & counted),
        whole=Count("id", filter=counted),
        left=Count("id", filter=own & Q(status="active")),
        chips=Sum("chips", filter=own),
        removed=Sum("chips_removed", filter=own),
        pool=Sum("paid"),
    )
    pool = agg["pool"] or D(0)
    if event.has_bounties:
        pool = max(pool - D(event.bounty_amount) * agg["whole"], D(0))
    chips = (agg["chips"] or 0) - (agg["removed"] or 0)
    left = agg["left"]
    figures = {
        "entries": agg["whole"] if event.parent_id is None else agg["own"],
        "players_left": left,
        "chips_in_play": chips,
        "average_stack": chips // left if left else None,
        "prize_pool": D(pool),
    }
    if event.parent_id is not None:
        figures["whole_event"] = {"flight": event.flight, "entries": agg["whole"]}
    return figures


@pytest.mark.parametrize("bounty", [0, 100])
def test_the_clock_figures_agree_with_the_entries_counted(bounty):
    from tdsystem.events.selectors import field_figures

    main, a, b, _ = played(bounty_amount=D(bounty))
    Entry.objects.filter(event=b, number=1).update(chips_removed=700)
    empty = make_event(600, 600, name="Nobody yet")  # no entry, no stored count

    def agree() -> None:
        for event in (main, a, b, empty):
            event.refresh_from_db()
            shown = field_figures(event)
            assert shown | {"prize_pool": D(shown["prize_pool"])} == counted_on_the_entries(event)

    agree()
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    agree()
    assert field_figures(main)["entries"] == 6  # the Day 2 entries are not entries again


def test_the_preview_and_the_field_cost_the_same_queries_with_more_flights(
    django_assert_num_queries,
):
    main, *_ = played()
    with django_assert_num_queries(1):
        standings.field_read(main)
    with django_assert_num_queries(7) as two:
        day2_preview(main)
    for name in ("1C", "1D"):
        flight = seating.flight_add(event_id=main.pk, name=name, actor=ACTOR)
        for player in players(f"{name} one", f"{name} two"):
            bag(enter(flight, player), 9_000)
    with django_assert_num_queries(len(two.captured_queries)):
        assert day2_preview(main).players == 7
    with django_assert_num_queries(1):
        assert standings.field_read(main).entries == 10


def test_it_combines_bags_that_do_not_add_up_only_with_the_differences_confirmed():
    main, _a, _b, _ = played()
    preview = day2_preview(main)
    assert [(r.event.flight, r.chips_bagged, r.chips_in_play) for r in preview.differences] == [
        ("1A", 25_000, 40_000),
        ("1B", 42_000, 20_000),
    ]
    assert preview.may_combine  # nothing stops it but the director's word
    with pytest.raises(SeatingError) as refused:
        seating.day2_combine(event_id=main.pk, actor=ACTOR, seed=1)
    assert str(refused.value) == (
        "Flight 1A: The bags hold 15,000 chips fewer than the chips in play (25,000 against "
        "40,000); Flight 1B: The bags hold 22,000 chips more than the chips in play (42,000 "
        "against 20,000). Confirm the differences to combine."
    )
    assert not Entry.objects.filter(event=main).exists()
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    log = LogEntry.objects.get(event=main, action="day2.combine")
    assert log.data["differences"] == {"1A": -15_000, "1B": 22_000}


def test_day_2_knows_the_bag_dropped_is_no_bust_out():
    from tdsystem.results.selectors import overview

    main, _a, _b, _ = played()
    seating.day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    main.refresh_from_db()
    seen = overview(main)
    assert seen.unrecorded == 0  # Cy went out in 1A, Ann's 1A bag was dropped: neither here
    assert [(d.name, d.flight, d.chips) for d in seen.dropped] == [("Ann", "1A", 20_000)]
    # A Day 2 player out with no bust-out recorded (a row changed by hand) is still told.
    Entry.objects.filter(event=main, player__name="Bob").update(
        status=Entry.Status.BUSTED, table=None, seat=None
    )
    assert overview(main).unrecorded == 1
