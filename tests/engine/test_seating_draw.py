import random
from collections import Counter

import pytest

from tdsystem.engine.seating import (
    Counted,
    Reason,
    SeatingError,
    Table,
    check_invariants,
    final_table_size,
    initial_draw,
    new_entry_tables,
    plan_redraw,
    redraw_due,
    seat_new_entry,
)


def empty_tables(count: int, seats: int = 9) -> list[Table]:
    return [Table(number, seats) for number in range(1, count + 1)]


def counts(tables) -> list[int]:
    return [table.count for table in tables]


def test_it_seats_everyone_at_the_fewest_tables_evenly():
    draw = initial_draw(empty_tables(10), range(1, 48), random.Random(1))
    assert sorted(counts(draw.tables)[:6]) == [7, 8, 8, 8, 8, 8]
    assert counts(draw.tables)[6:] == [0, 0, 0, 0]
    assert sorted(p.entry for p in draw.placements) == list(range(1, 48))
    assert check_invariants(draw.tables, range(1, 48)) == []


def test_it_draws_which_tables_get_the_extra_player():
    seen = set()
    for seed in range(20):
        draw = initial_draw(empty_tables(3), range(20), random.Random(seed))
        assert sorted(counts(draw.tables)) == [6, 7, 7]
        seen.add(tuple(counts(draw.tables)))
    assert len(seen) == 3


def test_it_opens_the_number_of_tables_asked_for():
    draw = initial_draw(empty_tables(5), range(20), random.Random(2), table_count=4)
    assert counts(draw.tables) == [5, 5, 5, 5, 0]


def test_it_keeps_a_smaller_table_full_and_evens_the_rest():
    tables = [Table(1, 6), Table(2, 10), Table(3, 10)]
    draw = initial_draw(tables, range(25), random.Random(3))
    assert counts(draw.tables)[0] == 6
    assert sorted(counts(draw.tables)[1:]) == [9, 10]


def test_it_records_placements_matching_the_tables():
    draw = initial_draw(empty_tables(3), range(100, 120), random.Random(4))
    by_number = {table.number: table for table in draw.tables}
    for placement in draw.placements:
        assert by_number[placement.table].entry_at(placement.seat) == placement.entry
        assert placement.dealt_in


def test_it_sets_a_button_and_blinds_at_each_table_it_opens():
    draw = initial_draw(empty_tables(4), range(30), random.Random(5))
    for table in draw.tables:
        assert table.entry_at(table.button) is not None
        assert table.entry_at(table.big_blind) is not None


def test_it_leaves_a_lone_player_without_a_button():
    draw = initial_draw(empty_tables(2), [7], random.Random(5))
    assert draw.tables[0].count == 1
    assert not draw.tables[0].started


def test_it_refuses_entries_that_do_not_fit():
    with pytest.raises(SeatingError, match="do not fit"):
        initial_draw(empty_tables(2), range(19), random.Random(1))
    with pytest.raises(SeatingError, match="do not fit"):
        initial_draw(empty_tables(3), range(19), random.Random(1), table_count=2)


def test_it_refuses_a_duplicate_entry_or_a_table_in_use():
    with pytest.raises(SeatingError, match="twice"):
        initial_draw(empty_tables(2), [1, 2, 1], random.Random(1))
    with pytest.raises(SeatingError, match="empty tables"):
        initial_draw([Table(1, 9, {1: 5})], [1], random.Random(1))
    with pytest.raises(SeatingError, match="appears twice"):
        initial_draw([Table(1, 9), Table(1, 9)], [1], random.Random(1))


def test_it_draws_ten_thousand_entries_evenly():
    draw = initial_draw(empty_tables(1112), range(10_000), random.Random(6))
    assert sorted(set(counts(draw.tables))) == [8, 9]
    assert len(draw.placements) == 10_000


def test_it_seats_a_new_entry_at_a_table_with_the_fewest_players():
    tables = [
        Table(1, 9, {1: 1, 2: 2, 3: 3, 4: 4}, 1, 2, 3),
        Table(2, 9, {1: 11, 2: 12, 3: 13}, 1, 2, 3),
        Table(3, 9, {5: 21, 6: 22, 7: 23, 8: 24}, 5, 6, 7),
    ]
    for seed in range(20):
        placement = seat_new_entry(tables, 99, random.Random(seed))
        assert placement.table == 2
        assert placement.seat in tables[1].empty_seats


def test_it_draws_the_new_entrys_seat_from_every_empty_seat_at_the_shortest_tables():
    tables = [Table(1, 6, {1: 1, 2: 2}, 1, 1, 2), Table(2, 6, {3: 3, 4: 4}, 3, 3, 4)]
    drawn = Counter(
        (p.table, p.seat)
        for p in (seat_new_entry(tables, 99, random.Random(s)) for s in range(400))
    )
    assert set(drawn) == {(1, 3), (1, 4), (1, 5), (1, 6), (2, 1), (2, 2), (2, 5), (2, 6)}


def test_it_does_not_deal_in_a_new_entry_between_the_small_blind_and_the_button():
    # Last hand: button 2, small blind 3, big blind 7 (seats 4-6 empty). Next hand under
    # the dead button: button 3, small blind 7, big blind 8, so seats 4-6 lie between.
    table = Table(1, 9, {1: 1, 2: 2, 3: 3, 7: 7, 8: 8, 9: 9}, 2, 3, 7)
    outcomes = {
        p.seat: p.dealt_in
        for p in (seat_new_entry([table], 99, random.Random(s)) for s in range(60))
    }
    assert outcomes == {4: False, 5: False, 6: False}


def test_a_new_entry_is_not_drawn_into_a_seat_a_moved_player_is_still_leaving():
    # Seat 3 of table 1 was left by a balancing move whose slip is not yet acknowledged.
    tables = [Table(1, 6, {1: 1, 2: 2}, 1, 1, 2), Table(2, 6, {3: 3, 4: 4}, 3, 3, 4)]
    drawn = {
        (p.table, p.seat)
        for p in (
            seat_new_entry(tables, 99, random.Random(s), leaving={(1, 3), (5, 1)})
            for s in range(400)
        )
    }
    assert drawn == {(1, 4), (1, 5), (1, 6), (2, 1), (2, 2), (2, 5), (2, 6)}
    # When the only empty seat is being left, it is still drawn: the newcomer gets a seat.
    last = Table(1, 6, {1: 1, 2: 2, 4: 4, 5: 5, 6: 6}, 1, 2, 4)
    placement = seat_new_entry([last], 99, random.Random(1), leaving=[(1, 3)])
    assert (placement.table, placement.seat) == (1, 3)


def test_it_opens_an_empty_table_when_the_tables_in_play_are_full():
    full = Table(1, 6, {seat: seat for seat in range(1, 7)}, 1, 2, 3)
    placement = seat_new_entry([full, Table(2, 6), Table(3, 6)], 99, random.Random(1))
    assert placement.table == 2
    with pytest.raises(SeatingError, match="no empty seat"):
        seat_new_entry([full], 99, random.Random(1))


def test_the_tables_a_new_entry_draws_at_are_judged_from_head_counts():
    counted = [Counted(1, 9, 8), Counted(2, 9, 6), Counted(3, 9, 0), Counted(4, 9, 6)]
    assert new_entry_tables(counted) == [2, 4]  # the fewest, in the order given
    full = [Counted(1, 6, 6), Counted(2, 6, 0), Counted(3, 6, 0)]
    assert new_entry_tables(full) == [2]  # every table in play full: the first empty one
    assert new_entry_tables([Counted(1, 6, 6)]) == []  # no seat anywhere


def test_it_refuses_to_seat_an_entry_twice():
    with pytest.raises(SeatingError, match="already has a seat"):
        seat_new_entry([Table(1, 9, {4: 99})], 99, random.Random(1))


@pytest.mark.parametrize(("seats", "size"), [(10, 10), (9, 9), (8, 9), (7, 7), (6, 7)])
def test_it_sizes_the_final_table(seats, size):
    assert final_table_size(seats) == size


def test_it_refuses_a_final_table_size_outside_six_to_ten_handed():
    with pytest.raises(SeatingError):
        final_table_size(5)


def seated(counts_by_table: list[int], seats: int = 9) -> list[Table]:
    tables, entry = [], 0
    for number, count in enumerate(counts_by_table, start=1):
        tables.append(
            Table(number, seats, {seat: (entry := entry + 1) for seat in range(1, count + 1)})
        )
    return tables


def test_it_calls_the_final_table_redraw_when_the_players_fit():
    assert redraw_due(seated([5, 5]), 9) is None
    assert redraw_due(seated([5, 4]), 9) == 1
    assert redraw_due(seated([5, 5], seats=8), 8) is None
    assert redraw_due(seated([5, 4], seats=8), 8) == 1
    assert redraw_due(seated([4, 4], seats=6), 6) is None
    assert redraw_due(seated([4, 3], seats=6), 6) == 1
    assert redraw_due(seated([5, 5], seats=10), 10) == 1
    assert redraw_due(seated([9]), 9) is None


def test_it_calls_redraws_at_three_and_two_tables_when_asked():
    at = (3, 2, 1)
    assert redraw_due(seated([7, 7, 7, 7]), 9, redraw_at=at) is None
    assert redraw_due(seated([7, 7, 7, 6]), 9, redraw_at=at) == 3
    assert redraw_due(seated([7, 7, 7, 6]), 9) is None
    assert redraw_due(seated([6, 6, 6]), 9, redraw_at=at) == 2
    assert redraw_due(seated([9, 9]), 9, redraw_at=at) is None


def test_it_redraws_everyone_into_the_final_table_with_a_new_button():
    tables = [
        Table(1, 8, {1: 1, 3: 3, 5: 5, 7: 7, 8: 8}, 1, 3, 5),
        Table(2, 8, {2: 12, 4: 14, 6: 16, 8: 18}, 2, 4, 6),
    ]
    plan = plan_redraw(tables, target_tables=[Table(1, final_table_size(8))], rng=random.Random(1))
    final = plan.tables[0]
    assert final.number == 1 and final.seats == 9 and final.count == 9
    assert final.started
    assert plan.broken == (2,)
    assert plan.tables[1].count == 0 and not plan.tables[1].started
    assert {move.entry for move in plan.moves} == {1, 3, 5, 7, 8, 12, 14, 16, 18}
    assert all(move.reason is Reason.REDRAW and move.dealt_in for move in plan.moves)
    for move in plan.moves:
        source = tables[move.from_table - 1]
        assert source.entry_at(move.from_seat) == move.entry
        assert final.entry_at(move.to_seat) == move.entry


def test_it_redraws_into_several_tables_evenly():
    tables = seated([7, 7, 6, 6])
    targets = [Table(number, 9) for number in (1, 2, 3)]
    plan = plan_redraw(tables, target_tables=targets, rng=random.Random(2))
    assert sorted(table.count for table in plan.tables if table.count) == [8, 9, 9]
    assert plan.broken == (4,)
    assert check_invariants(plan.tables, range(1, 27)) == []


def test_it_refuses_a_redraw_into_tables_in_use():
    with pytest.raises(SeatingError, match="empty target"):
        plan_redraw(seated([3]), target_tables=seated([1]), rng=random.Random(1))
