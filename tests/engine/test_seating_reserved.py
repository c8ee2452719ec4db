"""Reserved seats (TDA 9) and players who must keep their seat, in the seating engine."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.engine.seating import (
    Holds,
    Reason,
    Reserved,
    SeatingError,
    Table,
    apply_moves,
    check_invariants,
    initial_draw,
    next_big_blind_seat,
    plan_after_elimination,
    plan_balance,
    plan_break,
    plan_redraw,
    plan_reserved_seat,
    start_hands,
)


def full_table(number: int, seats: int = 9, *, leave=(), button: int = 1) -> Table:
    """A started table whose entries are number * 100 + seat, with some seats empty."""
    occupants = {s: number * 100 + s for s in range(1, seats + 1) if s not in leave}
    small_blind = button % seats + 1
    return Table(number, seats, occupants, button, small_blind, small_blind % seats + 1)


def where(tables, entry: int) -> tuple[int, int] | None:
    for table in tables:
        seat = table.seat_of(entry)
        if seat is not None:
            return table.number, seat
    return None


def test_it_refuses_a_seat_number_no_table_has():
    with pytest.raises(SeatingError, match="no seat 11"):
        Reserved(11)


def test_the_draw_seats_a_reserved_player_at_the_named_table_and_seat():
    holds = Holds({7: Reserved(4, table=2)})
    for seed in range(20):
        draw = initial_draw(
            [Table(n, 9) for n in (1, 2, 3)], range(20), random.Random(seed), holds=holds
        )
        assert where(draw.tables, 7) == (2, 4)


def test_the_draw_opens_the_table_a_reservation_names():
    # Ten players fit table 1 and 2; the reservation names table 3, which opens instead of 2.
    holds = Holds({0: Reserved(1, table=3)})
    draw = initial_draw([Table(n, 9) for n in (1, 2, 3)], range(10), random.Random(1), holds=holds)
    assert sorted(t.number for t in draw.tables if t.occupants) == [1, 3]
    assert where(draw.tables, 0) == (3, 1)


def test_the_draw_keeps_the_seat_number_at_some_table_when_no_table_is_named():
    holds = Holds({3: Reserved(9), 4: Reserved(9), 5: Reserved(9)})
    draw = initial_draw([Table(n, 9) for n in (1, 2, 3)], range(25), random.Random(5), holds=holds)
    places = [where(draw.tables, entry) for entry in (3, 4, 5)]
    assert sorted(seat for _, seat in places) == [9, 9, 9]
    assert len({table for table, _ in places}) == 3
    assert sorted(t.count for t in draw.tables) == [8, 8, 9]


def test_the_draw_refuses_reservations_it_cannot_keep():
    with pytest.raises(SeatingError, match="reserved twice"):
        initial_draw(
            [Table(1, 9)],
            range(5),
            random.Random(0),
            holds=Holds({1: Reserved(2, table=1), 2: Reserved(2, table=1)}),
        )
    with pytest.raises(SeatingError, match="no table can keep seat 3"):
        initial_draw(
            [Table(1, 9)],
            range(5),
            random.Random(0),
            holds=Holds({1: Reserved(3), 2: Reserved(3)}),
        )


def test_balancing_moves_the_next_player_clockwise_when_the_big_blind_keeps_their_seat():
    big = full_table(1)  # seat 4 posts the big blind next
    short = full_table(2, leave=(5, 6, 8))
    middle = full_table(3, leave=(9,))
    assert next_big_blind_seat(big) == 4
    for holds in (Holds({104: Reserved(4)}), Holds(unmovable=frozenset({104}))):
        (move,) = plan_balance([big, short, middle], holds=holds).moves
        assert (move.entry, move.from_seat, move.reason) == (105, 5, Reason.BALANCE)
    both = Holds({104: Reserved(4)}, frozenset({105}))
    (move,) = plan_balance([big, short, middle], holds=both).moves
    assert move.entry == 106


def test_balancing_leaves_a_table_alone_when_everyone_there_keeps_their_seat():
    big = full_table(1, seats=6)
    short = full_table(2, seats=6, leave=(2, 3, 4))
    holds = Holds(unmovable=frozenset(big.entries))
    assert plan_balance([big, short], holds=holds).moves == ()


def test_a_break_gives_the_reserved_player_the_same_seat_number_where_it_is_free():
    closing = full_table(3, leave=(1, 2, 3, 5, 6, 7, 8, 9))  # only seat 4: entry 304
    left = full_table(1, leave=(4,))
    right = full_table(2, leave=(4, 5))
    plan = plan_break(
        [left, right, closing],
        break_order=[3],
        rng=random.Random(0),
        holds=Holds({304: Reserved(4)}),
    )
    (move,) = plan.moves
    # Both tables have seat 4 free; table 2 has fewer players.
    assert (move.to_table, move.to_seat, move.reason) == (2, 4, Reason.BREAK)


def test_a_break_moves_the_player_in_the_reserved_seat_number_when_no_table_has_it_free():
    closing = full_table(3, leave=(2, 3, 5, 6, 7, 8, 9))  # entries 301 and 304
    left = full_table(1, leave=(1, 2))
    right = full_table(2, leave=(1, 3))
    holds = Holds({304: Reserved(4)})
    plan = plan_break([left, right, closing], break_order=[3], rng=random.Random(3), holds=holds)
    after = {t.number: t for t in plan.tables}
    table, seat = where(plan.tables, 304)
    assert seat == 4
    displaced = table * 100 + 4
    assert where(plan.tables, displaced) not in (None, (table, 4))
    moved = {m.entry for m in plan.moves}
    assert moved == {301, 304, displaced}
    assert after[3].count == 0 and sorted(t.count for t in plan.tables if t.occupants) == [8, 8]
    assert [t.occupants for t in apply_moves([left, right, closing], plan.moves)] == [
        t.occupants for t in plan.tables
    ]


def test_a_break_never_takes_the_seat_of_a_player_who_is_held():
    closing = full_table(3, leave=(2, 3, 5, 6, 7, 8, 9))
    left = full_table(1, leave=(1, 2))
    right = full_table(2, leave=(1, 3))
    holds = Holds({304: Reserved(4), 104: Reserved(4)}, frozenset({204}))
    plan = plan_break([left, right, closing], break_order=[3], rng=random.Random(3), holds=holds)
    # Seat 4 is held at both tables: the reserved player draws a seat like the others.
    assert {m.entry for m in plan.moves} == {301, 304}
    assert where(plan.tables, 104) == (1, 4) and where(plan.tables, 204) == (2, 4)


def test_a_break_still_moves_a_player_who_must_not_move():
    closing = full_table(3, leave=(2, 3, 5, 6, 7, 8, 9))
    tables = [full_table(1, leave=(1, 2)), full_table(2, leave=(1, 3)), closing]
    plan = plan_break(
        tables, break_order=[3], rng=random.Random(0), holds=Holds(unmovable=frozenset({301}))
    )
    assert 301 in {m.entry for m in plan.moves}


def test_a_redraw_keeps_reserved_seats():
    tables = [full_table(1, leave=(1, 2, 3, 4)), full_table(2, leave=(5, 6, 7, 8, 9))]
    holds = Holds({105: Reserved(5, table=1), 201: Reserved(2)})
    plan = plan_redraw(tables, target_tables=[Table(7, 9)], rng=random.Random(1), holds=holds)
    # Table 1 is not a target: both keep their seat numbers at the final table.
    assert where(plan.tables, 105) == (7, 5)
    assert where(plan.tables, 201) == (7, 2)


def test_a_new_reservation_swaps_the_player_with_the_one_in_that_seat_at_their_table():
    tables = [full_table(1), full_table(2, leave=(3,))]
    plan = plan_reserved_seat(tables, 105, Reserved(2), random.Random(0))
    assert {(m.entry, m.to_table, m.to_seat, m.reason) for m in plan.moves} == {
        (105, 1, 2, Reason.RESERVED),
        (102, 1, 5, Reason.RESERVED),
    }


def test_a_new_reservation_moves_nobody_when_the_player_sits_in_it():
    tables = [full_table(1)]
    assert plan_reserved_seat(tables, 105, Reserved(5, table=1), random.Random(0)).moves == ()


def test_a_new_reservation_takes_a_free_seat_elsewhere_when_a_held_player_sits_in_it():
    tables = [full_table(1), full_table(2, leave=(2,)), full_table(3)]
    holds = Holds(unmovable=frozenset({102}))
    plan = plan_reserved_seat(tables, 105, Reserved(2), random.Random(0), holds=holds)
    (move,) = plan.moves
    assert (move.to_table, move.to_seat) == (2, 2)
    full = [full_table(1), full_table(2)]
    holds = Holds(unmovable=frozenset({102, 202}))
    with pytest.raises(SeatingError, match="kept for another player"):
        plan_reserved_seat(full, 105, Reserved(2), random.Random(0), holds=holds)


def test_a_new_reservation_at_a_named_table_moves_the_player_there():
    tables = [full_table(1), full_table(2, leave=(7,))]
    (move,) = plan_reserved_seat(tables, 101, Reserved(7, table=2), random.Random(0)).moves
    assert (move.from_table, move.to_table, move.to_seat) == (1, 2, 7)
    with pytest.raises(SeatingError, match="table 4 is not in play"):
        plan_reserved_seat(tables, 101, Reserved(7, table=4), random.Random(0))


# Properties: random fields with random holds --------------------------------------------


@st.composite
def fields(draw):
    """Started tables with players on them, and holds among those players: reservations
    of the seat each already sits in (so the draw kept them), and do-not-moves."""
    seats = draw(st.integers(6, 10))
    counts = draw(st.lists(st.integers(0, seats), min_size=2, max_size=8))
    rng = random.Random(draw(st.integers(0, 2**32)))
    tables = []
    for number, count in enumerate(counts, start=1):
        chosen = rng.sample(range(1, seats + 1), count)
        table = Table(number, seats, {seat: number * 100 + seat for seat in chosen})
        tables.append(start_hands(table, rng) if table.count >= 2 else table)
    seated = [(t.number, seat, entry) for t in tables for seat, entry in t.occupants]
    picks = draw(st.lists(st.sampled_from(seated), unique=True, max_size=6)) if seated else []
    reserved = {}
    unmovable = set()
    for number, seat, entry in picks:
        kind = draw(st.sampled_from(["named", "seat", "stay"]))
        if kind == "stay":
            unmovable.add(entry)
        else:
            reserved[entry] = Reserved(seat, number if kind == "named" else None)
    order = draw(st.permutations([t.number for t in tables]))
    return tables, Holds(reserved, frozenset(unmovable)), list(order), rng


def keeps_seat_number(tables, plan, entry: int, reserved: Reserved) -> bool:
    return where(plan.tables, entry)[1] == reserved.seat


def every_seat_was_held(plan, holds, reserved) -> bool:
    """Whether every table that stays has the reserved seat number held by someone who
    keeps it: only then may a break give the reserved player another seat."""
    return all(
        holds.held(table.entry_at(reserved.seat) or -1)
        for table in plan.tables
        if table.occupants and reserved.seat <= table.seats
    )


@settings(max_examples=300, deadline=None)
@given(
    field=fields(),
    threshold=st.sampled_from([1, 2]),
    rule=st.sampled_from(["dead", "moving"]),
)
def test_plans_keep_reserved_players_in_their_seat_and_never_balance_a_held_one(
    field, threshold, rule
):
    tables, holds, order, rng = field
    active = {entry for t in tables for entry in t.entries}
    plan = plan_after_elimination(
        tables, break_order=order, threshold=threshold, rng=rng, rule=rule, holds=holds
    )
    assert [t.occupants for t in apply_moves(tables, plan.moves)] == [
        t.occupants for t in plan.tables
    ]
    assert [p for p in check_invariants(plan.tables, active, threshold=99)] == []
    moved = {m.entry: m for m in plan.moves}
    for entry in holds.unmovable | set(holds.reserved):
        move = moved.get(entry)
        assert move is None or move.reason is Reason.BREAK, "balancing moved a held player"
        if move is not None:
            assert move.from_table in plan.broken
    for entry, reserved in holds.reserved.items():
        if entry not in moved:
            assert keeps_seat_number(tables, plan, entry, reserved)
        elif not keeps_seat_number(tables, plan, entry, reserved):
            assert every_seat_was_held(plan, holds, reserved), "lost the seat at a break"
    # Nobody else's guarantee is lost: balanced, unless only held players could move.
    playing = [t for t in plan.tables if t.occupants]
    if playing:
        most = max(t.count for t in playing)
        short = [t for t in playing if t.count < most - threshold]
        if short and rule == "dead":
            largest = [t for t in playing if t.count == most]
            assert any(all(holds.held(e) for e in t.entries) for t in largest) or any(
                t.count == t.seats for t in short
            )


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(6, 10),
    players=st.integers(2, 60),
    data=st.data(),
)
def test_a_draw_seats_every_reserved_player_in_their_seat(seed, seats, players, data):
    tables = [Table(n, seats) for n in range(1, -(-players // seats) + 2)]
    entries = list(range(players))
    picks = data.draw(st.lists(st.sampled_from(entries), unique=True, max_size=4))
    reserved = {}
    for entry in picks:
        seat = data.draw(st.integers(1, seats))
        named = data.draw(st.none() | st.sampled_from([t.number for t in tables]))
        if any((r.seat, r.table) == (seat, named) for r in reserved.values()):
            continue
        reserved[entry] = Reserved(seat, named)
    holds = Holds(reserved)
    try:
        draw = initial_draw(tables, entries, random.Random(seed), holds=holds)
    except SeatingError as refusal:
        assert "reserved" in str(refusal) or "keep seat" in str(refusal)
        return
    assert check_invariants(draw.tables, entries) == []
    opened = {t.number for t in draw.tables if t.occupants}
    for entry, reserved_seat in reserved.items():
        table, seat = where(draw.tables, entry)
        assert seat == reserved_seat.seat
        if reserved_seat.table in opened:
            assert table == reserved_seat.table
