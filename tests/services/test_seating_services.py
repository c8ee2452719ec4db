"""Seating services: tables, registration, re-entries, buys, the draw, hands, move slips."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tdsystem.events.services import clock_action
from tdsystem.results.services import bustout_record
from tdsystem.seating import services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, EventTable, Move, Purchase
from tdsystem.simulation.seatings import ACTOR, arrange, field, seating_problems
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def seats_of(event) -> dict[int, tuple[int, int]]:
    rows = Entry.objects.filter(event=event, table__isnull=False)
    rows = rows.values_list("pk", "table__number", "seat")
    return {pk: (table, seat) for pk, table, seat in rows}


def positions(event, number: int) -> tuple:
    table = EventTable.objects.get(event=event, number=number)
    return table.button, table.small_blind, table.big_blind


def register(event, name: str, **kwargs):
    return services.player_register(event=event, name=name, actor=ACTOR, **kwargs)


# The draw -----------------------------------------------------------------------------------


def test_it_fills_the_tables_evenly_and_records_the_seed(event):
    field(event, players=30, tables=5, seed=42)
    counts = Counter(table for table, _ in seats_of(event).values())
    # 30 players need four 9-seat tables; the fifth stays closed.
    assert sorted(counts.values()) == [7, 7, 8, 8]
    assert set(counts) == {1, 2, 3, 4}
    log = LogEntry.objects.get(event=event, action="seats.draw")
    assert log.data["seed"] == 42 and "seed 42" in log.summary
    for number in counts:
        button, small, big = positions(event, number)
        assert None not in (button, small, big)
    assert seating_problems(event) == []


def test_it_reproduces_a_draw_from_the_logged_seed(event):
    field(event, players=40, tables=5)
    seed = LogEntry.objects.get(event=event, action="seats.draw").data["seed"]
    first = seats_of(event), [positions(event, n) for n in range(1, 6)]
    Entry.objects.filter(event=event).update(table=None, seat=None)
    EventTable.objects.filter(event=event).update(button=None, small_blind=None, big_blind=None)
    services.seats_draw(event=event, actor=ACTOR, seed=seed)
    assert (seats_of(event), [positions(event, n) for n in range(1, 6)]) == first
    Entry.objects.filter(event=event).update(table=None, seat=None)
    services.seats_draw(event=event, actor=ACTOR, seed=seed + 1)
    assert seats_of(event) != first[0]


def test_it_refuses_a_second_draw_and_a_draw_without_tables(event):
    with pytest.raises(SeatingError, match="put tables into play"):
        services.seats_draw(event=event, actor=ACTOR)
    field(event, players=12, tables=2)
    with pytest.raises(SeatingError, match="drawn already"):
        services.seats_draw(event=event, actor=ACTOR)


def test_it_refuses_tables_outside_six_to_ten_seats(event):
    with pytest.raises(SeatingError) as error:
        services.tables_setup(event=event, numbers=[1], seats=11, actor=ACTOR)
    assert error.value.field == "seats"


def test_it_breaks_the_highest_table_first_unless_the_director_reorders(event):
    services.tables_setup(event=event, numbers=[1, 2, 3, 4], seats=9, actor=ACTOR)
    ranked = EventTable.objects.filter(event=event).order_by("break_rank")
    assert list(ranked.values_list("number", flat=True)) == [4, 3, 2, 1]
    assert services.tables_reorder(event_id=event.pk, numbers=[2], actor=ACTOR) == [2, 4, 3, 1]
    with pytest.raises(SeatingError, match="not in play"):
        services.tables_reorder(event_id=event.pk, numbers=[9], actor=ACTOR)


def test_it_gives_back_empty_tables_only(event):
    arrange(event, {1: [1, 2], 2: []})
    with pytest.raises(SeatingError, match="players sit at that table"):
        services.tables_release(event_id=event.pk, numbers=[1], actor=ACTOR)
    services.tables_release(event_id=event.pk, numbers=[2], actor=ACTOR)
    assert list(EventTable.objects.filter(in_play=True).values_list("number", flat=True)) == [1]
    # The venue table is free for another event now.
    other = make_event(600, name="Other")
    services.tables_setup(event=other, numbers=[2], seats=9, actor=ACTOR)


@pytest.mark.parametrize(
    ("reason", "summary"),
    [
        ("finished", "Tables given back to the venue: 1, 3"),
        ("day2", "Tables given back for Day 2: 1, 3"),
    ],
)
def test_an_event_gives_back_all_its_tables_and_unseats_who_is_left(event, reason, summary):
    arrange(event, {1: [1, 2], 2: [], 3: [4]})
    EventTable.objects.filter(event=event, number=2).update(in_play=False)
    with transaction.atomic():
        released = services.tables_release_all(event=event, reason=reason, actor=ACTOR)
    assert released == [1, 3]
    assert not EventTable.objects.filter(event=event, in_play=True).exists()
    assert not Entry.objects.filter(event=event, table__isnull=False).exists()
    assert EventTable.objects.filter(event=event).count() == 3  # the rows stay
    logged = LogEntry.objects.get(event=event, action="tables.release")
    assert logged.summary == summary
    assert (logged.data["numbers"], logged.data["reason"]) == ([1, 3], reason)
    # Nothing left in play: nothing more to give back, nothing logged.
    assert services.tables_release_all(event=event, reason=reason, actor=ACTOR) == []
    assert LogEntry.objects.filter(event=event, action="tables.release").count() == 1


# Registration, late registration and re-entries ---------------------------------------------


def test_it_registers_before_the_draw_without_a_seat(event):
    enrolment = register(event, "  Sam   Lee ")
    entry = enrolment.entry
    assert (entry.player.name, entry.number, entry.table, entry.paid) == (
        "Sam Lee",
        1,
        None,
        Decimal("100"),
    )
    assert Purchase.objects.get(entry=entry).kind == "entry"
    with pytest.raises(SeatingError) as error:
        register(event, "   ")
    assert error.value.field == "name"


def test_it_refuses_late_registration_after_the_closing_level():
    # Positions: 0 level 1, 1 level 2, 2 break, 3 level 3.
    event = make_event(600, 600, "B300", 600, late_registration_end_level=2)
    field(event, players=10, tables=2)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    clock_action(event_id=event.pk, action="next", actor=ACTOR)
    assert register(event, "Late Larry").entry.table is not None  # level 2 is open
    clock_action(event_id=event.pk, action="next", actor=ACTOR)  # the break after level 2
    with pytest.raises(SeatingError, match="closed at the end of level 2"):
        register(event, "Too Late Tom")
    assert not Entry.objects.filter(player__name="Too Late Tom").exists()


def test_it_counts_a_level_that_ran_out_without_a_worker_as_over():
    event = make_event(600, 600, "B300", late_registration_end_level=1)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    Clock.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(SeatingError, match="end of level 1"):
        register(event, "Late Larry")


def test_it_takes_no_entries_once_the_clock_runs_without_late_registration(event):
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    with pytest.raises(SeatingError, match="no late registration"):
        register(event, "Sam Lee")


def test_it_seats_a_late_entry_at_a_table_with_the_fewest_players(event):
    field(event, players=17, tables=2)  # 9 and 8
    short = Counter(t for t, _ in seats_of(event).values()).most_common()[-1][0]
    enrolment = register(event, "Late Larry")
    assert enrolment.entry.table.number == short
    assert LogEntry.objects.filter(action="entry.register", data__seed=enrolment.seed).exists()
    assert seating_problems(event) == []


def test_a_late_entry_is_not_seated_where_a_moved_player_may_still_sit(event):
    people = arrange(event, {1: FULL, 2: FULL, 3: list(range(1, 9))})
    bustout_record(event_id=event.pk, entry_ids=[people["T3S1"].pk], actor=ACTOR)
    slip = Move.objects.get(event=event, acknowledged_at__isnull=True)
    # 8, 9, 8 now (or 9, 8, 8): the fewest are the table the player left, whose one free
    # seat is theirs, and table 3, one seat free.
    assert slip.to_table == 3
    left = (slip.from_table, slip.from_seat)

    def seats_drawn() -> set[tuple[int, int]]:
        """The seats ten seeds draw for a late entry, each entry undone after."""
        seats = set()
        for seed in range(10):
            with transaction.atomic():
                entry = register(event, "Late Larry", rng_seed=seed).entry
                seats.add((entry.table.number, entry.seat))
                transaction.set_rollback(True)
        return seats

    pending = seats_drawn()
    assert left not in pending and {table for table, _ in pending} == {3}
    # Once the slip is acknowledged, the player has gone: the seat is anyone's.
    services.move_acknowledge(event_id=event.pk, move_id=slip.pk, actor=ACTOR)
    assert left in seats_drawn()
    assert seating_problems(event) == []


def test_it_opens_an_empty_table_for_a_late_entry_when_the_others_are_full(event):
    arrange(event, {1: FULL, 2: FULL})
    with pytest.raises(SeatingError, match="put another table into play"):
        register(event, "Late Larry")
    services.tables_setup(event=event, numbers=[3], seats=9, actor=ACTOR)
    enrolment = register(event, "Late Larry")
    # The new table opens with Larry, and balancing brings it up to the others.
    assert enrolment.entry.table.number == 3 and len(enrolment.applied.moves) == 5
    assert sorted(Counter(t for t, _ in seats_of(event).values()).values()) == [6, 6, 7]
    assert seating_problems(event) == []


def test_it_deals_a_late_entry_in_except_between_the_small_blind_and_the_button(event):
    # Seat 3 is the only empty seat, between last hand's blinds (2 and 4): the button
    # passes it next hand, so the newcomer waits for the button (TDA 8-A).
    arrange(event, {1: [1, 2, 4, 5, 6, 7, 8, 9]}, positions={1: (1, 2, 4)})
    enrolment = register(event, "Late Larry")
    assert (enrolment.entry.seat, enrolment.dealt_in) == (3, False)
    log = LogEntry.objects.filter(action="entry.register").latest("id")
    assert "waits for the button" in log.summary
    table = finish(event, 1)
    # The next hand: button 2, small blind 4, big blind 5; seat 3 sits it out.
    assert (table.button, table.small_blind, table.big_blind, table.sitting_out) == (2, 4, 5, [3])
    table = finish(event, 1)
    assert table.sitting_out == []


def test_it_gives_a_reentry_a_new_entry_and_a_new_seat():
    event = make_event(600, 600, reentry_allowed=True)
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6]})
    out = people["T1S3"]
    bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    again = services.entry_reenter(event_id=event.pk, entry_id=out.pk, actor=ACTOR)
    new = again.entry
    assert new.pk != out.pk and new.is_reentry and new.player_id == out.player_id
    assert new.number == 13 and new.table is not None
    assert Entry.objects.filter(event=event).aggregate(s=Sum("paid"))["s"] == Decimal("1300")
    with pytest.raises(SeatingError, match="still playing"):
        services.entry_reenter(event_id=event.pk, entry_id=new.pk, actor=ACTOR)
    with pytest.raises(SeatingError, match="re-entered already"):
        services.entry_reenter(event_id=event.pk, entry_id=out.pk, actor=ACTOR)


def test_it_refuses_a_reentry_when_the_event_does_not_allow_them(event):
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    bustout_record(event_id=event.pk, entry_ids=[people["T1S1"].pk], actor=ACTOR)
    with pytest.raises(SeatingError, match="does not allow re-entries"):
        services.entry_reenter(event_id=event.pk, entry_id=people["T1S1"].pk, actor=ACTOR)
    assert Entry.objects.filter(event=event).count() == 6


def test_it_refuses_a_member_who_entered_already(event):
    register(event, "Sam Lee", member_id="M-17")
    with pytest.raises(SeatingError, match="Sam Lee has entered already"):
        register(event, "Samuel Lee", member_id="M-17")


def test_it_adds_rebuys_and_addons_to_the_stack_and_the_prize_pool():
    # The entry rules themselves (periods, limits, the add-on's break): test_entry_rules.py.
    event = make_event(600, 600, "B300", 600, 600, rebuy_until_level=2, rebuy_price=100)
    entry = register(event, "Sam Lee").entry
    services.entry_purchase(
        event_id=event.pk, entry_id=entry.pk, kind="rebuy", stack=0, actor=ACTOR
    )
    Clock.objects.filter(pk=event.pk).update(level_index=2)  # the break
    type(event).objects.filter(pk=event.pk).update(addon_break=1)
    services.entry_purchase(
        event_id=event.pk,
        entry_id=entry.pk,
        kind="addon",
        chips=15_000,
        amount=Decimal("50"),
        actor=ACTOR,
    )
    entry.refresh_from_db()
    assert (entry.chips, entry.paid) == (10_000 + 10_000 + 15_000, Decimal("250"))
    kinds = list(Purchase.objects.filter(entry=entry).values_list("kind", flat=True))
    assert kinds == ["entry", "rebuy", "addon"]
    assert LogEntry.objects.filter(event=event, action="entry.addon").exists()
    with pytest.raises(SeatingError) as error:
        services.entry_purchase(event_id=event.pk, entry_id=entry.pk, kind="gift", actor=ACTOR)
    assert error.value.field == "kind"


# Hands: the button and blinds ------------------------------------------------------------------


def finish(event, number: int, **kwargs):
    """ "Hand finished" at a table, with the hand count it shows unless `expected_hand` is given."""
    if "expected_hand" not in kwargs:
        shown = EventTable.objects.filter(event=event, number=number).values_list("hand_number")
        kwargs["expected_hand"] = shown.first()[0] if shown.exists() else 0
    return services.table_hand_finish(event_id=event.pk, table_number=number, actor=ACTOR, **kwargs)


def test_it_moves_a_dead_button_after_the_big_blind_busts(event):
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]}, positions={1: (1, 2, 3)})
    bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR)
    table = finish(event, 1)
    # The big blind moves on to seat 4; seat 3 owes a dead small blind; the button to 2.
    assert (table.button, table.small_blind, table.big_blind) == (2, 3, 4)
    assert table.hand_number == 1
    log = LogEntry.objects.filter(action="table.hand").latest("id")
    assert "dead small blind" in log.summary


def test_it_moves_the_button_to_the_next_player_under_the_moving_rule():
    event = make_event(600, button_rule="moving")
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]}, positions={1: (1, 2, 3)})
    bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR)
    table = finish(event, 1)
    assert (table.button, table.small_blind, table.big_blind) == (2, 4, 5)


@pytest.mark.parametrize(
    ("busted", "expected"),
    [
        # D11: Alice (1) on the button, Dianne (2) small blind, Carol (3) big blind.
        ("T1S1", (3, 3, 2)),  # Alice busts: Dianne is the big blind, Carol the button
        ("T1S3", (2, 2, 1)),  # Carol busts: Alice big blind, Dianne button and SB again
    ],
)
def test_it_adjusts_the_button_going_heads_up(event, busted, expected):
    people = arrange(event, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    bustout_record(event_id=event.pk, entry_ids=[people[busted].pk], actor=ACTOR)
    table = finish(event, 1)
    assert (table.button, table.small_blind, table.big_blind) == expected
    log = LogEntry.objects.filter(action="table.hand").latest("id")
    assert "heads-up" in log.summary


def test_it_ignores_a_second_tap_on_the_same_hand(event):
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    finish(event, 1, expected_hand=0)
    with pytest.raises(SeatingError, match="table 1: hand 1 was already finished") as caught:
        finish(event, 1, expected_hand=0)
    assert caught.value.field is None  # a refusal (409), not bad input
    with pytest.raises(SeatingError, match="has finished 1 hands, not 5"):
        finish(event, 1, expected_hand=5)
    assert positions(event, 1) == (2, 3, 4)


def test_it_draws_the_first_button_at_a_table_that_never_dealt(event):
    arrange(event, {1: [2, 5, 7]})
    table = finish(event, 1, rng_seed=3)
    assert table.button in (2, 5, 7) and table.hand_number == 1
    with pytest.raises(SeatingError, match="not in play"):
        finish(event, 4)


# Move slips -----------------------------------------------------------------------------------


def test_it_acknowledges_a_move_once(event, floor_person):
    from tdsystem.core.actors import Actor

    people = arrange(event, {1: [1, 2]})
    move = Move.objects.create(
        event=event,
        entry=people["T1S1"],
        from_table=1,
        from_seat=1,
        to_table=1,
        to_seat=3,
        reason="balance",
    )
    fred = Actor.of(floor_person)
    done = services.move_acknowledge(event_id=event.pk, move_id=move.pk, actor=fred)
    first = done.acknowledged_at
    again = services.move_acknowledge(event_id=event.pk, move_id=move.pk, actor=fred)
    assert again.acknowledged_at == first and again.acknowledged_by == floor_person
    assert LogEntry.objects.filter(action="move.ack").count() == 1
    with pytest.raises(SeatingError) as error:
        services.move_acknowledge(event_id=event.pk + 1, move_id=move.pk, actor=fred)
    assert error.value.field == "move"


def test_it_deletes_an_event_with_its_seated_players(event):
    field(event, players=12, tables=2)
    event.delete()
    assert not Entry.objects.exists() and not EventTable.objects.exists()


# Players of the same name -------------------------------------------------------------------


def test_it_warns_of_a_name_already_in_the_field_and_changes_nothing(event):
    first = register(event, "Ann Lee").entry
    with pytest.raises(services.DuplicateName) as caught:
        register(event, "  ann   LEE ")
    assert caught.value.existing == [first] and caught.value.field is None
    assert f"#{first.number} Ann Lee, no seat yet" in str(caught.value)
    assert Entry.objects.filter(event=event).count() == 1
    assert LogEntry.objects.filter(event=event, action__startswith="entry").count() == 1


def test_it_names_the_table_and_seat_of_the_entry_it_means(event):
    people = arrange(event, {3: [4]})
    name = people["T3S4"].player.name
    with pytest.raises(services.DuplicateName, match="table 3 seat 4"):
        register(event, name.lower())


def test_it_registers_a_confirmed_duplicate(event):
    register(event, "Ann Lee")
    second = register(event, "Ann Lee", confirm_duplicate=True).entry
    assert second.number == 2 and second.player.name == "Ann Lee"


def test_a_note_that_tells_them_apart_needs_no_confirmation(event):
    register(event, "Ann Lee")
    second = register(event, "Ann Lee", note="  from   Lyon ").entry
    assert second.player.note == "from Lyon"
    assert str(second.player) == "Ann Lee (from Lyon)"
    with pytest.raises(services.DuplicateName, match=r"Ann Lee \(from Lyon\)"):
        register(event, "ann lee", note="From Lyon")


def test_accents_count_as_entered(event):
    register(event, "José Ruiz")
    assert register(event, "Jose Ruiz").entry.number == 2


def test_a_known_member_id_keeps_its_own_rule(event):
    register(event, "Ann Lee", member_id="M1")
    with pytest.raises(SeatingError, match="has entered already") as caught:
        register(event, "Ann Lee", member_id="M1")
    assert not isinstance(caught.value, services.DuplicateName)


def test_a_note_longer_than_sixty_characters_is_refused(event):
    with pytest.raises(SeatingError) as caught:
        register(event, "Ann Lee", note="x" * 61)
    assert caught.value.field == "note"


def test_the_import_refuses_a_list_with_duplicates_and_names_them(event):
    register(event, "Cy Young")
    with pytest.raises(SeatingError) as caught:
        services.players_import(
            event_id=event.pk, names=["Ann Lee", "Bob", "ann lee", "cy  young"], actor=ACTOR
        )
    text = str(caught.value)
    assert "Nothing imported: 2 duplicate names" in text
    assert "“ann lee” (line 3) repeats line 1" in text and "#1 Cy Young" in text
    assert Entry.objects.filter(event=event).count() == 1


def test_the_import_registers_duplicates_when_confirmed(event):
    count = services.players_import(
        event_id=event.pk, names=["Ann Lee", "Ann Lee"], actor=ACTOR, confirm_duplicates=True
    )
    assert count == 2


def test_it_finds_a_name_in_a_big_field_by_its_key_in_one_query(event, django_assert_num_queries):
    field(event, players=300, tables=34)
    services.player_register(event=event, name="Élodie Nguyễn", actor=ACTOR)
    with django_assert_num_queries(1):
        same = services.same_names(event, "  ÉLODIE   NGUYỄN ")
    assert [entry.player.name for entry in same] == ["Élodie Nguyễn"]
    assert services.same_names(event, "Elodie Nguyen") == []  # accents count, as entered
