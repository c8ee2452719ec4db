"""The stored head counts (TableCount, kept by triggers) agree with the seats on every path
that seats, moves, busts or deletes an entry, and the spread summed from them is the one
the engine makes of the tables listed."""

from __future__ import annotations

import pytest
from django.db.models import F

from tdsystem.engine import seating as rules
from tdsystem.results import services as results
from tdsystem.seating import balancing
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable, SpreadCount, TableCount
from tdsystem.seating.seatmap import _break_key, head_counts, table_spread
from tdsystem.simulation.seatings import ACTOR, arrange, count_problems, field
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def stored(event) -> dict[int, int]:
    """{table number: stored count}, after checking every table against its seats."""
    assert count_problems(event) == []
    numbers = dict(EventTable.objects.filter(event=event).values_list("pk", "number"))
    return {
        numbers[pk]: n
        for pk, n in TableCount.objects.filter(table_id__in=numbers).values_list(
            "table_id", "players"
        )
    }


def test_the_counts_follow_an_entry_made_moved_busted_and_deleted_by_any_path():
    event = make_event(600, name="Counted")
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2]})
    assert stored(event) == {1: 3, 2: 2}
    two = EventTable.objects.get(event=event, number=2)
    # A move by the ORM's save, and by an update of several rows at once.
    moved = people["T1S1"]
    moved.table, moved.seat = two, 5
    moved.save()
    assert stored(event) == {1: 2, 2: 3}
    Entry.objects.filter(pk__in=[people["T1S2"].pk, people["T1S3"].pk]).update(
        table=two, seat=F("seat") + 5
    )
    assert stored(event) == {1: 0, 2: 5}
    # Left unseated (a bust-out writes this), a change of seat at the same table, deleted.
    Entry.objects.filter(pk=people["T2S1"].pk).update(
        status=Entry.Status.BUSTED, table=None, seat=None
    )
    Entry.objects.filter(pk=people["T2S2"].pk).update(seat=9)
    assert stored(event)[2] == 4
    Entry.objects.filter(pk=people["T2S2"].pk).delete()
    assert stored(event)[2] == 3


def test_the_counts_follow_the_draw_the_bust_outs_the_break_and_an_undo():
    event = make_event(600, name="Played")
    field(event, players=20, tables=3, seats=9)
    assert sum(stored(event).values()) == 20
    done = []
    for _ in range(4):  # 16 fit two tables of nine: table 3 breaks on the way
        out = Entry.objects.filter(event=event, status="active", table__number=3).first()
        out = out or Entry.objects.filter(event=event, status="active").first()
        assert out is not None
        done.append(results.bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR))
        assert sum(stored(event).values()) == 20 - len(done)
    assert stored(event)[3] == 0
    results.bustout_undo(event_id=event.pk, bustout_id=done[-1].bustout.pk, actor=ACTOR)
    assert sum(stored(event).values()) == 17


def test_the_spread_is_the_one_the_engine_makes_of_the_head_counts():
    event = make_event(600, name="Spread")
    arrange(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3], 3: [1, 2, 3, 4, 5, 6, 7], 4: [], 5: [2]})
    # Table 5 breaks first, then 1, then the rest by number, highest first.
    EventTable.objects.filter(event=event, number=5).update(break_rank=0)
    EventTable.objects.filter(event=event, number=1).update(break_rank=1)
    EventTable.objects.filter(event=event, number__in=[2, 3, 4]).update(break_rank=2)
    EventTable.objects.filter(event=event, number=2).update(seats=6)
    EventTable.objects.filter(event=event, number=5).update(in_play=False)
    counts = sorted(head_counts(event), key=_break_key)  # the order the plans break in
    listed = rules.spread(
        [(t.number, t.seats, t.players) for t in counts], [t.number for t in counts]
    )
    spread = table_spread(event)
    assert spread == listed
    # Tables 1, 2 and 3 have players, 15 of them in 9 + 6 + 9 seats; table 1 breaks next.
    assert spread == rules.Spread(3, 15, 24, 9, 7, 3)
    assert table_spread(make_event(600, name="Empty")) == rules.Spread(0, 0, 0, 0, 0, 0)


def test_a_bust_out_that_unbalances_the_tables_still_moves_a_player():
    event = make_event(600, name="Uneven")
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6, 7, 8], 2: [1, 2, 3, 4, 5, 6, 7]})
    assert balancing.tables_rebalance(event_id=event.pk, actor=ACTOR).kind is None
    results.bustout_record(event_id=event.pk, entry_ids=[people["T2S1"].pk], actor=ACTOR)
    assert stored(event) == {1: 7, 2: 7}, "eight against six: one player moves over"


def test_a_late_entry_is_counted_at_its_table():
    event = make_event(600, name="Late", late_registration_end_level=3)
    field(event, players=10, tables=2, seats=9)
    seating.player_register(event=event, name="Late Larry", actor=ACTOR)
    assert sum(stored(event).values()) == 11


def by_count(event) -> dict[int, tuple[int, int]]:
    """{players at a table: (tables in play with that many, their seats)}, as stored, after
    checking it against the seats."""
    assert count_problems(event) == []
    return {
        players: (n, seats)
        for players, n, seats in SpreadCount.objects.filter(event_id=event.pk).values_list(
            "players", "tables", "seats"
        )
        if n
    }


def test_the_tables_by_head_count_follow_the_tables_going_out_of_play_and_back():
    event = make_event(600, name="By count")
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2], 4: []})
    assert by_count(event) == {3: (2, 18), 2: (1, 9)}
    one = EventTable.objects.filter(event=event, number=1)
    one.update(seats=6)  # a table shortened: its seats counted anew
    assert by_count(event) == {3: (2, 15), 2: (1, 9)}
    one.update(in_play=False)  # out of play, its players still sitting there
    assert by_count(event) == {3: (1, 9), 2: (1, 9)}
    Entry.objects.filter(pk=people["T1S1"].pk).update(table=None, seat=None)
    assert by_count(event) == {3: (1, 9), 2: (1, 9)}, "a table out of play is not counted"
    one.update(in_play=True)
    assert by_count(event) == {3: (1, 9), 2: (2, 15)}
    # Players sitting down at the empty table put it in; the last leaving takes it out.
    Entry.objects.filter(pk=people["T3S1"].pk).update(
        table=EventTable.objects.get(event=event, number=4), seat=1
    )
    assert by_count(event) == {3: (1, 9), 2: (1, 6), 1: (2, 18)}


def test_the_tables_by_head_count_forget_a_table_and_an_event_deleted():
    event = make_event(600, name="Deleted")
    other = make_event(600, name="Kept")
    arrange(event, {1: [1, 2], 2: [1, 2, 3]})
    arrange(other, {11: [1, 2]})
    table = EventTable.objects.get(event=event, number=2)
    Entry.objects.filter(table=table).delete()
    table.delete()
    assert by_count(event) == {2: (1, 9)}
    event.delete()
    assert not SpreadCount.objects.filter(event_id=event.pk, tables__gt=0).exists()
    assert by_count(other) == {2: (1, 9)}


def test_the_tables_by_head_count_hold_through_a_played_field():
    event = make_event(600, name="Played down")
    field(event, players=40, tables=5, seats=9)
    entries = list(Entry.objects.filter(event=event, status="active").values_list("pk", flat=True))
    done = []
    for step, pk in enumerate(entries[:30]):
        done.append(results.bustout_record(event_id=event.pk, entry_ids=[pk], actor=ACTOR))
        if step % 7 == 6:
            results.bustout_undo(event_id=event.pk, bustout_id=done[-1].bustout.pk, actor=ACTOR)
            done.pop()
            assert by_count(event)
            done.append(results.bustout_record(event_id=event.pk, entry_ids=[pk], actor=ACTOR))
        counts = by_count(event)
        assert sum(players * n for players, (n, _) in counts.items()) == 40 - len(done)
        spread = table_spread(event)
        assert (spread.tables, spread.players) == (
            sum(n for n, _ in counts.values()),
            40 - len(done),
        )
