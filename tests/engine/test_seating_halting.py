"""Halting a short table (TDA 11-D "once the blinds are impacted"; WSOP R67 at once)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine.rulesets import HALT_AT_ONCE, HALT_BLINDS_IMPACTED, HALTING
from tdsystem.engine.seating import (
    Halt,
    Impact,
    Position,
    SeatingError,
    Table,
    halts,
    next_hand,
    shortfalls,
    start_hands,
    tables_to_halt,
)


def full_table(number: int, seats: int = 9, *, leave=(), button: int = 1) -> Table:
    """A started table whose entries are number * 100 + seat, with some seats empty."""
    occupants = {s: number * 100 + s for s in range(1, seats + 1) if s not in leave}
    small_blind = button % seats + 1
    return Table(number, seats, occupants, button, small_blind, small_blind % seats + 1)


def test_it_halts_tables_three_or_more_short_at_once_under_wsop():
    tables = [full_table(1), full_table(2, leave=(1, 2)), full_table(3, leave=(7, 8, 9))]
    assert tables_to_halt(tables, halting=HALT_AT_ONCE) == [3]
    more = [*tables, full_table(4, leave=(6, 7, 8, 9))]
    assert tables_to_halt(more, halting=HALT_AT_ONCE) == [3, 4]
    assert tables_to_halt([], halting=HALT_AT_ONCE) == []


# The TDA's illustration ---------------------------------------------------------------------


def test_it_plays_on_until_the_big_blind_would_fall_on_an_empty_seat():
    """9-handed; table A has 5 players, table B, the largest, 8: A is 3 short and plays
    on while its button and blinds fall on seated players, then halts (TDA 11-D)."""
    a = Table(1, 9, {seat: 100 + seat for seat in range(1, 6)}, 1, 2, 3)
    b = full_table(2, leave=(9,))
    seen = []
    for _ in range(3):
        seen.append(((a.button, a.small_blind, a.big_blind), tables_to_halt([a, b])))
        a = next_hand(a)
    # After the hand with the blinds on seats 4 and 5 the big blind would be seat 6.
    assert seen == [((1, 2, 3), []), ((2, 3, 4), []), ((3, 4, 5), [1])]
    (stopped,) = halts([Table(1, 9, a.occupants, 3, 4, 5), b])
    assert stopped == Halt(table=1, short=3, largest=2, impacts=(Impact(Position.BIG_BLIND, 6),))


def test_it_halts_at_once_under_wsop():
    a = Table(1, 9, {seat: 100 + seat for seat in range(1, 6)}, 1, 2, 3)
    b = full_table(2, leave=(9,))
    assert halts([a, b], halting=HALT_AT_ONCE) == [Halt(1, 3, 2, ())]
    assert halts([a, b]) == []


def test_it_names_each_position_that_would_fall_on_an_empty_seat():
    # The players on seats 2 and 3 (the last small and big blinds) left.
    a = Table(1, 9, {1: 101, 5: 105, 6: 106, 7: 107}, 1, 2, 3)
    (stopped,) = halts([a, full_table(2)])
    assert stopped.short == 5 and stopped.impacts == (
        Impact(Position.BUTTON, 2),
        Impact(Position.SMALL_BLIND, 3),
        Impact(Position.BIG_BLIND, 4),
    )


def test_a_table_that_has_not_dealt_plays_on_and_a_lone_player_halts():
    not_dealt = Table(1, 9, {1: 101, 2: 102, 3: 103})
    alone = Table(3, 9, {4: 304}, 1, 2, 3)
    assert halts([not_dealt, full_table(2), alone]) == [Halt(3, 8, 2, ())]


def test_the_largest_of_equal_tables_is_the_lowest_number_and_short_by_is_the_rule_sets():
    short = full_table(3, leave=(7, 8))
    field = [full_table(2), full_table(1), short]
    assert shortfalls([(t.number, t.count) for t in field], short_by=2) == {3: (2, 1)}
    assert halts(field, halting=HALT_AT_ONCE, short_by=2) == [Halt(3, 2, 1, ())]
    assert halts(field, halting=HALT_AT_ONCE) == []


def test_it_judges_only_the_tables_given_against_the_whole_field():
    short = Table(7, 9, {1: 701, 2: 702, 3: 703, 4: 704}, 2, 3, 4)
    field = [(7, 4), (8, 9), (9, 0)]
    assert halts([short], field=field) == [Halt(7, 5, 8, (Impact(Position.BIG_BLIND, 5),))]


def test_it_refuses_an_unknown_rule():
    with pytest.raises(SeatingError):
        halts([full_table(1)], halting="never")
    with pytest.raises(SeatingError):
        halts([full_table(1)], short_by=0)


# Properties -----------------------------------------------------------------------------


@st.composite
def tables_in_play(draw, number: int) -> Table:
    """A table as play leaves it: dealt some hands, then players gone and newcomers seated."""
    seats = draw(st.integers(2, 10))
    first = draw(st.sets(st.integers(1, seats), min_size=2))
    table = Table(number, seats, {seat: number * 100 + seat for seat in first})
    if draw(st.booleans()):
        table = start_hands(table, random.Random(draw(st.integers(0, 99))))
        for _ in range(draw(st.integers(0, 4))):
            table = next_hand(table)
    for seat in draw(st.sets(st.sampled_from(sorted(first)), max_size=len(first) - 1)):
        table = table.without_entry(number * 100 + seat)
    for seat in draw(st.sets(st.sampled_from(table.empty_seats))) if table.empty_seats else ():
        table = table.with_entry(number * 100 + 50 + seat, seat)
    return table


@st.composite
def fields(draw) -> list[Table]:
    count = draw(st.integers(1, 6))
    return [draw(tables_in_play(number)) for number in range(1, count + 1)]


def would_fall_on_an_empty_seat(table: Table) -> bool:
    """The button, the small blind or the big blind, each stepping one seat on as the dead
    button has them, reaches a seat nobody sits in."""
    steps = (table.small_blind, table.big_blind, table.big_blind % table.seats + 1)
    return any(table.entry_at(seat) is None for seat in steps)


def short_enough(table: Table, tables: list[Table], short_by: int) -> bool:
    return max(t.count for t in tables) - table.count >= short_by


rules = st.sampled_from(HALTING)


@given(fields(), rules, st.integers(2, 9))
def test_a_table_not_short_enough_never_halts(tables, halting, short_by):
    halted = tables_to_halt(tables, halting=halting, short_by=short_by)
    for table in tables:
        if not short_enough(table, tables, short_by):
            assert table.number not in halted


@given(fields(), st.integers(2, 9))
def test_at_once_a_table_short_enough_always_halts(tables, short_by):
    halted = halts(tables, halting=HALT_AT_ONCE, short_by=short_by)
    most = max(t.count for t in tables)
    expected = [t.number for t in tables if short_enough(t, tables, short_by)]
    assert [h.table for h in halted] == expected
    assert all(
        h.short == most - t.count for h, t in zip(halted, tables_by(expected, tables), strict=True)
    )


@given(fields(), st.integers(2, 9))
def test_once_the_blinds_are_impacted_it_halts_exactly_when_a_position_meets_an_empty_seat(
    tables, short_by
):
    halted = {h.table: h for h in halts(tables, halting=HALT_BLINDS_IMPACTED, short_by=short_by)}
    for table in tables:
        impacted = table.count < 2 or (table.started and would_fall_on_an_empty_seat(table))
        assert (table.number in halted) == (short_enough(table, tables, short_by) and impacted)
        if table.number in halted:
            # Every position named falls on a seat nobody sits in.
            assert all(table.entry_at(i.seat) is None for i in halted[table.number].impacts)
            assert bool(halted[table.number].impacts) == (table.count >= 2)
        if table.started and table.button != table.small_blind and not impacted:
            # Nothing impacted: the coming hand is dealt one seat on, all to seated players.
            coming = next_hand(table)
            steps = (table.small_blind, table.big_blind, table.big_blind % table.seats + 1)
            assert (coming.button, coming.small_blind, coming.big_blind) == steps


def tables_by(numbers: list[int], tables: list[Table]) -> list[Table]:
    by_number = {t.number: t for t in tables}
    return [by_number[n] for n in numbers]
