"""Reserved seats (TDA 9) and "do not move": set, logged, kept by draws, balancing, breaks."""

from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.results.services import bustout_record
from tdsystem.seating import balancing, services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, Move
from tdsystem.seating.seatmap import SeatMap
from tdsystem.simulation.seatings import ACTOR, arrange, seating_problems

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def seat_of(entry: Entry) -> tuple[int | None, int | None]:
    entry.refresh_from_db()
    return (entry.table.number if entry.table else None), entry.seat


def reserve(event, entry, seat, table=None, reason="wheelchair"):
    return services.entry_reserve(
        event_id=event.pk, entry_id=entry.pk, seat=seat, table=table, reason=reason, actor=ACTOR
    )


def bust(event, entry, seed: int = 7):
    return bustout_record(
        event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR, rng_seed=seed
    ).rebalance


def test_the_draw_seats_a_player_in_the_seat_reserved_for_them(event):
    services.tables_setup(event=event, numbers=[1, 2, 3], seats=9, actor=ACTOR)
    services.players_import(event_id=event.pk, names=[f"P{i}" for i in range(20)], actor=ACTOR)
    first, second = Entry.objects.filter(event=event).order_by("number")[:2]
    reserve(event, first, 4, table=3)
    reserve(event, second, 9)
    assert seat_of(first) == (None, None)
    services.seats_draw(event=event, actor=ACTOR, seed=5)
    assert seat_of(first) == (3, 4)
    assert seat_of(second)[1] == 9
    assert seating_problems(event) == []
    log = LogEntry.objects.filter(action="entry.reserve").order_by("pk").first()
    assert log.summary == "Reserved seat (TDA 9) for #1 P0: table 3 seat 4 (wheelchair)"
    assert log.data["before"] == [None, None, ""]


def test_reserving_moves_a_seated_player_and_swaps_with_the_one_in_that_seat(event):
    people = arrange(event, {1: FULL, 2: FULL}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    result = reserve(event, people["T1S5"], 8)
    assert seat_of(people["T1S5"]) == (1, 8)
    assert seat_of(people["T1S8"]) == (1, 5)
    slips = {(m.entry_id, m.to_table, m.to_seat, m.reason) for m in result.moves}
    assert slips == {
        (people["T1S5"].pk, 1, 8, "reserved"),
        (people["T1S8"].pk, 1, 5, "reserved"),
    }
    assert Move.objects.filter(reason="reserved").count() == 2
    assert "2 move slips" in LogEntry.objects.get(action="entry.reserve").summary


def test_it_refuses_a_seat_reserved_for_someone_else_or_that_no_table_has(event):
    people = arrange(event, {1: FULL[:6]})
    reserve(event, people["T1S1"], 1, table=1)
    with pytest.raises(SeatingError, match="reserved for #1 T1S1"):
        reserve(event, people["T1S2"], 1, table=1)
    with pytest.raises(SeatingError, match="seats 1 to 9"):
        reserve(event, people["T1S2"], 10)
    with pytest.raises(SeatingError, match="say why"):
        reserve(event, people["T1S2"], 3, reason="  ")


def test_balancing_passes_over_held_players_and_a_break_keeps_the_seat_number(event):
    # Table 1 full, its next big blind is seat 8 (blinds 6 and 7); table 2 loses a player.
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    reserve(event, people["T1S8"], 8)
    services.entry_do_not_move(
        event_id=event.pk,
        entry_id=people["T1S9"].pk,
        do_not_move=True,
        reason="medical",
        actor=ACTOR,
    )
    result = bust(event, people["T2S4"])
    (move,) = result.moves
    assert (move.entry_id, move.from_seat) == (people["T1S1"].pk, 1)
    assert seat_of(people["T1S8"]) == (1, 8) and seat_of(people["T1S9"]) == (1, 9)
    assert LogEntry.objects.get(action="entry.do_not_move").summary == (
        "Do not move #9 T1S9 when balancing (medical)"
    )


def test_a_break_gives_the_reserved_player_the_same_seat_number_elsewhere(event):
    people = arrange(event, {1: FULL[:6], 2: [1, 2, 3]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    reserve(event, people["T2S3"], 3)
    services.tables_reorder(event_id=event.pk, numbers=[2], actor=ACTOR)
    result = balancing.tables_rebalance(event_id=event.pk, actor=ACTOR, rng_seed=3)
    assert result.broken == [2]
    # Seat 3 at table 1 is taken: its player draws a seat with table 2's players.
    assert seat_of(people["T2S3"]) == (1, 3)
    assert seat_of(people["T1S3"])[1] != 3
    assert seating_problems(event) == []


def test_clearing_undoes_both_and_is_logged(event):
    people = arrange(event, {1: FULL[:6]})
    reserve(event, people["T1S2"], 2, table=1)
    services.entry_do_not_move(
        event_id=event.pk,
        entry_id=people["T1S2"].pk,
        do_not_move=True,
        reason="crutches",
        actor=ACTOR,
    )
    services.entry_reserve_clear(event_id=event.pk, entry_id=people["T1S2"].pk, actor=ACTOR)
    entry = services.entry_do_not_move(
        event_id=event.pk, entry_id=people["T1S2"].pk, do_not_move=False, actor=ACTOR
    )
    assert (entry.reserved_seat, entry.reserved_table, entry.reserve_reason) == (None, None, "")
    assert (entry.do_not_move, entry.do_not_move_reason) == (False, "")
    actions = list(LogEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions[-4:] == [
        "entry.reserve",
        "entry.do_not_move",
        "entry.reserve_clear",
        "entry.do_not_move_clear",
    ]
    with pytest.raises(SeatingError, match="no seat is reserved"):
        services.entry_reserve_clear(event_id=event.pk, entry_id=people["T1S2"].pk, actor=ACTOR)


def test_a_player_out_no_longer_holds_a_seat_or_a_table(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    reserve(event, people["T1S4"], 4)
    services.entry_do_not_move(
        event_id=event.pk, entry_id=people["T2S5"].pk, do_not_move=True, actor=ACTOR, reason="TV"
    )
    holds = SeatMap.read(event).holds
    assert set(holds.reserved) == {people["T1S4"].pk}
    assert holds.unmovable == {people["T2S5"].pk}
    bust(event, people["T1S4"])
    bust(event, people["T2S5"])
    holds = SeatMap.read(event).holds
    assert holds.reserved == {} and holds.unmovable == frozenset()
