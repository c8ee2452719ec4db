"""Chip counts: a table's counts recorded together or not at all, every count kept with who
and when, and the counted total checked against the chips in play."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import ChipCount, ChipCountHistory
from tdsystem.results.selectors_chips import chip_total, count_rows
from tdsystem.results.services import chip_count_record
from tdsystem.results.services.chips import chip_counts_record
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import arrange

pytestmark = pytest.mark.django_db

FLOOR = Actor(label="fred")
DEVICE = Actor(label="table7")


@pytest.fixture
def room(event):
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2]})
    return event, people


def numbers(people, *names: str) -> list[int]:
    return [people[n].number for n in names]


def test_it_records_a_tables_counts_together_with_history_and_a_log_line(room):
    event, people = room
    a, b, c = numbers(people, "T1S1", "T1S2", "T1S3")
    done = chip_counts_record(
        event_id=event.pk, counts={a: 12_000, b: 30_500, c: 7_000}, actor=DEVICE, table=1
    )
    assert [d.chips for d in done] == [12_000, 30_500, 7_000]
    assert ChipCount.objects.filter(event=event).count() == 3
    assert set(ChipCountHistory.objects.values_list("actor_label", flat=True)) == {"table7"}
    log = LogEntry.objects.get(action="chips.count")
    data = {k: v for k, v in log.data.items() if k != "message"}  # the summary's Text
    assert data == {"table": 1, "counts": {str(a): 12_000, str(b): 30_500, str(c): 7_000}}
    assert "table 1" in log.summary and "30,500" in log.summary


def test_it_never_overwrites_a_count_the_history_keeps_them_all(room):
    event, people = room
    (a,) = numbers(people, "T1S1")
    chip_counts_record(event_id=event.pk, counts={a: 10_000}, actor=FLOOR, table=1)
    chip_counts_record(event_id=event.pk, counts={a: 14_000}, actor=DEVICE, table=1)
    assert ChipCount.objects.get(entry=people["T1S1"]).chips == 14_000
    kept = ChipCountHistory.objects.filter(entry=people["T1S1"]).order_by("id")
    assert [(h.chips, h.actor_label) for h in kept] == [(10_000, "fred"), (14_000, "table7")]


def test_the_console_count_of_one_player_goes_through_the_same_service(room):
    event, people = room
    (a,) = numbers(people, "T2S1")
    count = chip_count_record(event_id=event.pk, entry_number=a, chips=9_000, actor=FLOOR)
    assert count.chips == 9_000
    log = LogEntry.objects.get(action="chips.count")
    assert log.summary == f"Chip counts: #{a} 9,000"
    assert {k: v for k, v in log.data.items() if k != "message"} == {
        "table": None,
        "counts": {str(a): 9_000},
    }


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("out", "T1S2 is out"),
        ("elsewhere", "T2S1 does not sit at table 1"),
        ("unknown", "no entry #999"),
        ("zero", "T1S2: give a chip count from 1"),
    ],
)
def test_one_bad_count_refuses_them_all_naming_the_player(room, bad, message):
    event, people = room
    a, b = numbers(people, "T1S1", "T1S2")
    chip_counts_record(event_id=event.pk, counts={a: 5_000}, actor=FLOOR, table=1)
    counts = {a: 11_000, b: 12_000}
    if bad == "out":
        Entry.objects.filter(pk=people["T1S2"].pk).update(
            status=Entry.Status.BUSTED, table=None, seat=None
        )
    elif bad == "elsewhere":
        counts[people["T2S1"].number] = 8_000
    elif bad == "unknown":
        counts[999] = 1
    else:
        counts[b] = 0
    with pytest.raises(ResultsError, match=message):
        chip_counts_record(event_id=event.pk, counts=counts, actor=FLOOR, table=1)
    assert ChipCount.objects.get(entry=people["T1S1"]).chips == 5_000
    assert ChipCountHistory.objects.count() == 1
    assert LogEntry.objects.filter(action="chips.count").count() == 1


def test_no_counts_at_all_are_refused(room):
    event, _ = room
    with pytest.raises(ResultsError, match="no chip counts"):
        chip_counts_record(event_id=event.pk, counts={}, actor=FLOOR)


def test_the_count_list_runs_by_chips_then_the_players_never_counted(room):
    event, people = room
    a, b, c = numbers(people, "T1S1", "T1S2", "T2S2")
    chip_counts_record(event_id=event.pk, counts={a: 9_000, b: 20_000, c: 9_000}, actor=FLOOR)
    rows = count_rows(event)
    names = [r.entry.player.name for r in rows]
    assert names[:3] in (["T1S2", "T1S1", "T2S2"], ["T1S2", "T2S2", "T1S1"])
    assert [r.rank for r in rows] == [1, 2, 3, None, None]
    assert {r.entry.player.name for r in rows[3:]} == {"T1S3", "T2S1"}
    assert [r.entry.seat for r in count_rows(event, table=1)] == [1, 2, 3]


def test_the_total_is_partial_until_everyone_still_in_is_counted(room):
    event, people = room
    stack = event.starting_stack
    chip_counts_record(event_id=event.pk, counts={people["T1S1"].number: stack}, actor=FLOOR)
    total = chip_total(event)
    assert (total.counted, total.players, total.in_play) == (1, 5, 5 * stack)
    assert total.summary == (
        f"Counted {stack:,} of {5 * stack:,} chips in play (1 of 5 players counted)"
    )
    assert total.warning is None and not total.matches


def test_the_total_warns_when_the_counts_differ_and_not_when_they_match(room):
    event, people = room
    stack = event.starting_stack
    all_in = {e.number: stack for e in people.values()}
    chip_counts_record(event_id=event.pk, counts=all_in, actor=FLOOR)
    assert chip_total(event).matches and chip_total(event).warning is None
    chip_counts_record(
        event_id=event.pk, counts={people["T1S1"].number: stack + 15_000}, actor=FLOOR
    )
    assert chip_total(event).warning == ("The counts add up to 15,000 more than the chips in play.")
    chip_counts_record(event_id=event.pk, counts={people["T1S1"].number: stack - 500}, actor=FLOOR)
    assert chip_total(event).warning == "The counts add up to 500 less than the chips in play."


def test_busted_players_chips_stay_in_play_and_removed_chips_do_not(room):
    event, people = room
    stack = event.starting_stack
    Entry.objects.filter(pk=people["T2S2"].pk).update(
        status=Entry.Status.BUSTED, table=None, seat=None
    )
    Entry.objects.filter(pk=people["T2S1"].pk).update(chips_removed=300)
    total = chip_total(event)
    assert (total.players, total.in_play) == (4, 5 * stack - 300)


def test_counts_taken_before_a_later_purchase_are_called_stale(room):
    from decimal import Decimal

    from tdsystem.seating.models import Purchase

    event, people = room
    stack = event.starting_stack
    chip_counts_record(
        event_id=event.pk, counts={e.number: stack for e in people.values()}, actor=FLOOR
    )
    assert chip_total(event).stale == 0
    entry = people["T1S1"]
    Purchase.objects.create(
        event=event, entry=entry, kind="addon", amount=Decimal(20), chips=5_000, actor_label="t"
    )
    Entry.objects.filter(pk=entry.pk).update(chips=stack + 5_000)
    total = chip_total(event)
    assert total.stale == 5 and total.since is not None
    assert total.warning == "The counts add up to 5,000 less than the chips in play."
