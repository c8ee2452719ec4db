"""Undo: the players sit down again, the moves are taken back, places and prizes follow;
an undo that would clash with something done since changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import BustOut, Finish
from tdsystem.results.services import standings
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable, Move
from tdsystem.simulation.seatings import ACTOR, arrange, seating_problems
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal
FULL = list(range(1, 10))


def bust(event, entry, seed=7):
    return services.bustout_record(
        event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR, rng_seed=seed
    )


def undo(event, done):
    return services.bustout_undo(event_id=event.pk, bustout_id=done.bustout.pk, actor=ACTOR)


def seats(event) -> dict[int, tuple[int, int]]:
    rows = Entry.objects.filter(event=event, status="active").values_list(
        "pk", "table__number", "seat"
    )
    return {pk: (table, seat) for pk, table, seat in rows}


@pytest.fixture
def short_table(event):
    """Table 2 is one short; a bust-out there sets off a balancing move from table 1."""
    return arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})


def test_it_seats_the_player_again_and_takes_the_move_back(event, short_table):
    before = seats(event)
    done = bust(event, short_table["T2S4"])
    assert len(done.rebalance.moves) == 1
    result = undo(event, done)
    assert seats(event) == before
    entry = Entry.objects.get(pk=short_table["T2S4"].pk)
    assert (entry.status, entry.table.number, entry.seat) == ("active", 2, 4)
    assert Move.objects.count() == 0 and result.moves_reverted == 1
    assert Finish.objects.get(entry=entry).undone_at is not None
    assert BustOut.objects.get().undone_by == "test"
    log = LogEntry.objects.filter(action="bustout.undo").get()
    assert "back to table 2 seat 4" in log.summary and "1 move slip taken back" in log.summary
    assert seating_problems(event) == []
    again = bust(event, short_table["T2S4"])  # and it can be recorded again
    assert again.finishes[0].place == 17


def test_later_places_move_when_an_earlier_bust_out_is_undone(event):
    people = arrange(event, {1: FULL, 2: FULL})
    first = bust(event, people["T1S1"])
    second = bust(event, people["T2S1"])
    assert second.finishes[0].place == 17
    undo(event, first)
    assert Finish.objects.get(entry=people["T2S1"], undone_at=None).place == 18


def test_an_undo_works_out_the_places_from_its_own_group_on(event, monkeypatch):
    people = arrange(event, {1: FULL, 2: FULL})
    # Four groups, places 18, 17, 16 and 15: the third is taken back.
    busts = {name: bust(event, people[name]) for name in ("T1S1", "T2S1", "T1S2", "T2S2")}
    worked_out = []
    real = standings.places_in_order

    def spy(entries, groups, *args):
        worked_out.append((entries, [[m.entry for m in members] for _, members in groups]))
        return real(entries, groups, *args)

    monkeypatch.setattr(standings, "places_in_order", spy)
    undo(event, busts["T1S2"])
    # The two groups before it counted, not read; only the last one worked out again.
    assert worked_out == [(16, [[people["T2S2"].pk]])]
    assert busts["T2S2"].finishes[0].place == 15
    places = dict(Finish.objects.filter(undone_at=None).values_list("entry__player__name", "place"))
    assert places == {"T1S1": 18, "T2S1": 17, "T2S2": 16}
    # What working every place out again finds: nothing to change.
    event.refresh_from_db()
    field = standings.field_read(event)
    assert (
        standings.standings_refresh(event=event, plan=standings.plan_for(event), field=field) == 0
    )


def test_it_refuses_after_a_later_bust_out_at_the_same_table(event, short_table):
    done = bust(event, short_table["T2S4"])
    bust(event, short_table["T2S5"])
    before = seats(event)
    with pytest.raises(ResultsError, match="later bust-out at table 2"):
        undo(event, done)
    assert seats(event) == before
    assert BustOut.objects.filter(undone_at__isnull=True).count() == 2


def test_it_refuses_once_the_move_has_been_carried_out(event, short_table):
    done = bust(event, short_table["T2S4"])
    move = done.bustout.moves.get()
    seating.move_acknowledge(event_id=event.pk, move_id=move.pk, actor=ACTOR)
    with pytest.raises(ResultsError, match="has been carried out"):
        undo(event, done)
    assert Entry.objects.get(pk=short_table["T2S4"].pk).status == "busted"


def test_it_refuses_when_the_seat_is_taken_since(event):
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]}, seats=9)
    done = bust(event, people["T1S3"])
    Entry.objects.filter(pk=people["T1S6"].pk).update(seat=3)  # the floor reseated someone
    with pytest.raises(ResultsError, match="seat 3 is taken by T1S6"):
        undo(event, done)


def test_it_refuses_a_second_undo(event, short_table):
    done = bust(event, short_table["T2S4"])
    undo(event, done)
    with pytest.raises(ResultsError, match="undone already"):
        undo(event, done)


def test_undoing_a_table_break_puts_the_table_back_in_play():
    event = make_event(600)
    # 9 + 6 + 3: after a bust-out at table 3 its two players fit the seats left.
    people = arrange(event, {1: FULL, 2: FULL[:6], 3: [1, 2, 3]}, positions={3: (1, 2, 3)})
    before = seats(event)
    done = bust(event, people["T3S1"])
    assert done.rebalance.broken == [3]
    assert not EventTable.objects.get(event=event, number=3).in_play
    undo(event, done)
    table = EventTable.objects.get(event=event, number=3)
    assert (table.in_play, table.broken_at, table.button, table.big_blind) == (True, None, 1, 3)
    assert seats(event) == before  # as unbalanced as it was: the undo restores, no more


def test_it_refuses_when_a_broken_table_is_in_use_again():
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL[:6], 3: [1, 2, 3]})
    done = bust(event, people["T3S1"])
    seating.tables_setup(event=event, numbers=[3], seats=9, actor=ACTOR)
    with pytest.raises(ResultsError, match="table 3 broke then and has been put into play again"):
        undo(event, done)


def test_it_refuses_after_a_re_entry():
    event = make_event(600, 600, reentry_allowed=True, late_registration_end_level=2)
    people = arrange(event, {1: [1, 2, 3, 4]})
    done = bust(event, people["T1S2"])
    seating.entry_reenter(event_id=event.pk, entry_id=people["T1S2"].pk, actor=ACTOR)
    with pytest.raises(ResultsError, match="has re-entered"):
        undo(event, done)


def test_it_refuses_once_the_event_has_finished(event):
    people = arrange(event, {1: [1, 2]})
    done = bust(event, people["T1S1"])
    with pytest.raises(ResultsError, match="finished"):
        undo(event, done)


def test_an_undone_prize_goes_back_to_the_places_left(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    services.payout_plan_update(event_id=event.pk, table="top-2", unit=D(1), actor=ACTOR)
    bust(event, people["T1S1"])
    done = bust(event, people["T1S2"])
    assert done.finishes[0].prize == D(0)
    undo(event, done)
    third = bust(event, people["T1S3"])
    assert third.finishes[0].place == 3
