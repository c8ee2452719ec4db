import random

import pytest

from tdsystem.engine.seating import (
    Move,
    Reason,
    SeatingError,
    Table,
    apply_moves,
    balance_seat,
    break_sequence,
    check_invariants,
    initial_draw,
    next_hand,
    plan_after_elimination,
    plan_balance,
    plan_break,
)


def full_table(number: int, seats: int = 9, *, leave=(), button: int = 1) -> Table:
    """A started table whose entries are number * 100 + seat, with some seats empty."""
    occupants = {s: number * 100 + s for s in range(1, seats + 1) if s not in leave}
    small_blind = button % seats + 1
    return Table(number, seats, occupants, button, small_blind, small_blind % seats + 1)


def active(tables) -> set[int]:
    return {entry for table in tables for entry in table.entries}


def test_it_moves_the_next_big_blind_from_the_largest_table_to_the_short_one():
    big = full_table(1)  # button 1, blinds 2 and 3: seat 4 posts the big blind next
    short = full_table(2, leave=(5, 6, 8), button=1)  # 6 players, big blind on seat 3
    middle = full_table(3, leave=(9,))
    plan = plan_balance([big, short, middle])
    # Seat 5 is the first empty seat after the big blind (3): it posts the big blind
    # right after seat 4, sooner than any other empty seat.
    assert plan.moves == (Move(104, 1, 4, 2, 5, Reason.BALANCE, True),)
    after = {table.number: table for table in plan.tables}
    assert next_hand(next_hand(after[2])).big_blind == 5


def test_it_seats_the_balanced_player_in_the_next_big_blind_even_after_posting_one():
    giver = full_table(1)
    # The short table's big blind is seat 3 and seat 4 is empty: the newcomer posts the
    # next big blind there, whatever they posted at the old table.
    short = full_table(2, leave=(4, 5, 6))
    plan = plan_balance([giver, short, full_table(3, leave=(9,))])
    (move,) = plan.moves
    assert (move.to_table, move.to_seat) == (2, 4)
    receiving = next(table for table in plan.tables if table.number == 2)
    assert next_hand(receiving).big_blind == 4


def test_it_never_moves_a_balanced_player_into_the_small_blind():
    giver = full_table(1)
    # Seat 3 posted the big blind and busted: it owes the (dead) small blind next hand.
    short = full_table(2, leave=(3, 7, 9))
    plan = plan_balance([giver, short])
    (move,) = plan.moves
    assert move.to_seat == 7
    assert next_hand(next(t for t in plan.tables if t.number == 2)).small_blind == 3


def test_it_leaves_tables_within_the_threshold_alone():
    tables = [full_table(1), full_table(2, leave=(5,))]
    assert plan_balance(tables).moves == ()
    tables = [full_table(1), full_table(2, leave=(5, 6))]
    assert plan_balance(tables, threshold=2).moves == ()
    assert len(plan_balance(tables).moves) == 1


def test_it_takes_from_the_first_largest_table_in_the_break_order():
    tables = [full_table(1), full_table(2), full_table(3, leave=(4, 5))]
    assert plan_balance(tables, break_order=[2, 1]).moves[0].from_table == 2
    assert plan_balance(tables, break_order=[1, 2]).moves[0].from_table == 1
    # Without a break order the highest number breaks first, so gives first.
    assert plan_balance(tables).moves[0].from_table == 2


def test_it_gives_to_the_short_table_that_breaks_last():
    tables = [full_table(1), full_table(2, leave=(4, 5)), full_table(3, leave=(4, 5))]
    assert plan_balance(tables, break_order=[2, 3, 1]).moves[0].to_table == 3
    assert plan_balance(tables, break_order=[3, 2, 1]).moves[0].to_table == 2


def test_it_repeats_until_balanced():
    tables = [full_table(1), full_table(2), full_table(3, leave=(1, 2, 3, 4, 5, 6))]
    plan = plan_balance(tables)
    assert sorted(table.count for table in plan.tables) == [7, 7, 7]
    assert [move.to_table for move in plan.moves] == [3, 3, 3, 3]
    # The second player from a table is the one who became its next big blind.
    from_one = [move for move in plan.moves if move.from_table == 1]
    assert [move.from_seat for move in from_one] == [4, 5]


def test_it_balances_into_a_new_table_that_has_not_dealt():
    tables = [full_table(1), full_table(2), Table(3, 9, {5: 999})]
    plan = plan_balance(tables)
    assert sorted(table.count for table in plan.tables) == [6, 6, 7]
    assert check_invariants(plan.tables, active(tables)) == []


def test_it_refuses_a_threshold_below_one():
    with pytest.raises(SeatingError):
        plan_balance([full_table(1)], threshold=0)


def test_it_breaks_the_next_table_when_its_players_fit_elsewhere():
    tables = [
        full_table(1, leave=(2, 5)),
        full_table(2, leave=(1, 3)),
        full_table(3, leave=(4, 8)),
        full_table(4, leave=(1, 2, 3)),
    ]
    plan = plan_break(tables, break_order=[4, 3, 2, 1], rng=random.Random(1))
    assert plan.broken == (4,)
    assert len(plan.moves) == 6
    assert all(move.from_table == 4 and move.reason is Reason.BREAK for move in plan.moves)
    assert [table.count for table in plan.tables] == [9, 9, 9, 0]
    assert not plan.tables[3].started
    assert check_invariants(plan.tables, active(tables)) == []


def test_it_does_not_break_while_the_players_need_every_table():
    tables = [full_table(n, leave=(1, 2, 3)) for n in (1, 2, 3)]
    tables[0] = full_table(1, leave=(1, 2))
    assert plan_break(tables, rng=random.Random(1)).broken == ()  # 19 players, 18 seats
    tables[0] = full_table(1, leave=(1, 2, 3))
    assert plan_break(tables, rng=random.Random(1)).broken == (3,)


def test_it_fills_the_tables_with_the_fewest_players_first():
    tables = [
        full_table(1, leave=(1,)),  # 8
        full_table(2, leave=(1, 2, 3)),  # 6
        full_table(3, leave=(1, 2)),  # 7
        full_table(4, leave=(1, 2, 3, 4, 5, 6)),  # 3, breaks first
    ]
    for seed in range(10):
        plan = plan_break(tables, break_order=[4], rng=random.Random(seed))
        assert [table.count for table in plan.tables] == [8, 8, 8, 0]


def test_it_keeps_counts_within_one_after_a_break():
    tables = [full_table(n, leave=(1, 2, 3)) for n in range(1, 5)] + [full_table(5, leave=(1,))]
    for seed in range(10):
        plan = plan_break(tables, break_order=[1], rng=random.Random(seed))
        live = [table.count for table in plan.tables if table.count]
        assert max(live) - min(live) <= 1


def test_it_draws_broken_table_players_into_any_seat():
    seats_taken = set()
    tables = [full_table(1, leave=(2, 3, 4, 5, 6, 7)), full_table(2, leave=(1, 2, 3, 4, 5, 6))]
    for seed in range(200):
        plan = plan_break(tables, break_order=[2], rng=random.Random(seed))
        seats_taken.update(move.to_seat for move in plan.moves)
    # Seats 2 and 3 are the next button and the next small blind: drawn as well.
    assert seats_taken == {2, 3, 4, 5, 6, 7}


def test_it_flags_broken_table_players_seated_between_the_small_blind_and_the_button():
    # Table 1 last hand: button 1, small blind 2, big blind 6 (3-5 empty). Next hand the
    # button is seat 2 and the small blind seat 6, so seats 3-5 wait for the button.
    receiving = Table(1, 9, {1: 1, 2: 2, 6: 6, 7: 7, 8: 8, 9: 9}, 1, 2, 6)
    closing = Table(2, 9, {1: 21, 2: 22, 3: 23}, 1, 2, 3)
    plan = plan_break([receiving, closing], break_order=[2], rng=random.Random(1))
    assert {move.to_seat for move in plan.moves} == {3, 4, 5}
    assert not any(move.dealt_in for move in plan.moves)


def test_it_breaks_then_balances_after_an_elimination():
    tables = [
        full_table(1, seats=6, leave=(1, 2)),
        full_table(2, seats=6, leave=(1, 2)),
        full_table(3, seats=6, leave=(1, 2, 3)),
    ]
    plan = plan_after_elimination(tables, break_order=[3], rng=random.Random(1))
    assert plan.broken == (3,)
    assert sorted(table.count for table in plan.tables) == [0, 5, 6]


def test_it_breaks_two_tables_when_several_players_left_together():
    tables = [full_table(n, leave=(1, 2, 3, 4, 5, 6)) for n in range(1, 4)]  # 3 + 3 + 3
    plan = plan_after_elimination(tables, break_order=[3, 2], rng=random.Random(1))
    assert plan.broken == (3, 2)
    assert [table.count for table in plan.tables] == [9, 0, 0]
    # Table 3's players may land at table 2 first; each still makes one trip.
    assert len({move.entry for move in plan.moves}) == len(plan.moves) == 6
    assert sorted(move.from_table for move in plan.moves) == [2, 2, 2, 3, 3, 3]
    assert {move.to_table for move in plan.moves} == {1}


def test_it_stops_balancing_when_the_short_table_has_no_seat_left():
    # A 6-seat table among 10-seat tables: full at six, it cannot take more.
    tables = [
        Table(1, 6, {s: s for s in range(1, 7)}, 1, 2, 3),
        Table(2, 10, {s: 20 + s for s in range(1, 10)}, 1, 2, 3),
        Table(3, 10, {s: 30 + s for s in range(1, 9)}, 1, 2, 3),
    ]
    assert plan_balance(tables).moves == ()


def test_it_plans_nothing_when_the_tables_are_fine():
    tables = [full_table(1), full_table(2, leave=(3,))]
    plan = plan_after_elimination(tables, rng=random.Random(1))
    assert plan.moves == () and plan.broken == ()
    assert plan.tables == tuple(tables)


def test_it_keeps_ten_thousand_entries_seated_and_balanced_through_eliminations():
    rng = random.Random(7)
    tables = list(initial_draw([Table(n, 9) for n in range(1, 1113)], range(10_000), rng).tables)
    order = list(range(1112, 0, -1))
    active = set(range(10_000))
    for _ in range(20):
        table = rng.choice([t for t in tables if t.count])
        index = tables.index(table)
        gone = rng.choice(table.entries)
        active.discard(gone)
        tables[index] = table.without_entry(gone)
        plan = plan_after_elimination(tables, break_order=order, rng=rng)
        tables = list(plan.tables)
    # Speed is the benchmark's business (benchmarks/bench_seating.py), not a test's.
    assert check_invariants(tables, active) == []


def test_it_orders_the_break_sequence_by_the_event_then_highest_number():
    tables = [full_table(n) for n in (1, 2, 3, 4)] + [Table(5, 9)]
    assert break_sequence(tables, [2, 9]) == [2, 4, 3, 1]


def test_it_applies_moves_that_free_and_fill_the_same_seat():
    tables = [Table(1, 9, {1: 1}), Table(2, 9, {1: 2})]
    swap = [Move(1, 1, 1, 2, 1, Reason.REDRAW), Move(2, 2, 1, 1, 1, Reason.REDRAW)]
    after = apply_moves(tables, swap)
    assert after[0].entry_at(1) == 2 and after[1].entry_at(1) == 1


def test_it_refuses_a_move_from_the_wrong_seat_or_into_a_taken_one():
    tables = [Table(1, 9, {1: 1}), Table(2, 9, {1: 2})]
    with pytest.raises(SeatingError, match="not at table"):
        apply_moves(tables, [Move(1, 1, 2, 2, 3, Reason.BALANCE)])
    with pytest.raises(SeatingError, match="taken"):
        apply_moves(tables, [Move(1, 1, 1, 2, 1, Reason.BALANCE)])


def test_it_reports_broken_invariants():
    tables = [Table(1, 9, {1: 1, 2: 2, 3: 3, 4: 4}), Table(2, 9, {1: 2, 2: 5}), Table(2, 9)]
    problems = check_invariants(tables, [1, 2, 3, 4, 6])
    assert problems == [
        "table 2 appears twice",
        "entry 2 holds 2 seats: table 1 seat 2, table 2 seat 1",
        "entry 5 is seated at table 2 seat 2 but not active",
        "entry 6 has no seat",
        "table 2 has 2 players, 2 fewer than table 1 (at most 1 allowed)",
    ]
    assert check_invariants(tables[:2], [1, 2, 3, 4, 5], threshold=2) == [
        "entry 2 holds 2 seats: table 1 seat 2, table 2 seat 1"
    ]


def test_it_builds_tables_that_cannot_break_the_seat_rules():
    with pytest.raises(SeatingError, match="no seat 10"):
        Table(1, 9, {10: 1})
    with pytest.raises(SeatingError, match="holds two players"):
        Table(1, 9, ((3, 1), (3, 2)))
    with pytest.raises(SeatingError, match="two seats"):
        Table(1, 9, {3: 1, 4: 1})
    with pytest.raises(SeatingError, match="2 to 10"):
        Table(1, 11)
    with pytest.raises(SeatingError, match="set together"):
        Table(1, 9, {1: 1}, button=1)
    with pytest.raises(SeatingError, match="shares a seat"):
        Table(1, 9, {1: 1, 2: 2}, 1, 2, 2)


def test_it_waits_a_hand_when_the_moving_button_leaves_only_small_blind_seats():
    # The big blind (seat 1) busted. Under the moving button the button goes to seat 6
    # and the next player after it posts the small blind: a newcomer on seat 1 or 2.
    short = Table(2, 6, {3: 22, 4: 31, 5: 2, 6: 20}, 5, 6, 1)
    tables = [Table(1, 6, {s: 10 + s for s in range(1, 7)}, 1, 2, 3), short]
    assert plan_balance(tables, rule="moving").moves == ()
    (move,) = plan_balance(tables).moves  # the dead button has seat 2 to offer
    assert move.to_seat == 2


def test_it_keeps_an_earlier_balanced_player_off_the_small_blind():
    # Seats 1-3 empty: last hand button 7, small blind 1, big blind 2, and seat 8's player
    # arrived since (waiting). Under the moving button the first player in takes seat 3
    # (the button); a second one on seat 1 would make that player the small blind.
    receiving = Table(4, 8, {4: 36, 5: 19, 6: 8, 7: 21, 8: 12}, 7, 1, 2)
    assert balance_seat(receiving, "moving") == 3
    assert balance_seat(receiving.with_entry(6, 3), "moving") == 1
    with pytest.raises(SeatingError, match="small blind"):
        balance_seat(receiving.with_entry(6, 3), "moving", movers=[3])
