"""Stud tables balance by position (TDA 11-A, "Stud: players move by position").

The moved player is the one at the giving table in the seat matching an empty seat of the
short table, and takes it; when no such player may move, the short table's lowest empty
seat is filled by the next player clockwise from it at the giving table. Held players
(reserved seat, do not move) are passed over. Stud tables store no button and no blinds,
so everyone moved is dealt in at once.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.engine.seating import (
    Holds,
    Reserved,
    Table,
    apply_moves,
    check_invariants,
    plan_after_elimination,
    plan_balance,
)


def stud_table(number: int, seats: int, occupied) -> Table:
    """A stud table: players on `occupied` seats (entry number*100+seat), no positions."""
    return Table(number, seats, {seat: number * 100 + seat for seat in occupied})


def only_move(plan):
    (move,) = plan.moves
    return move


def test_the_player_in_the_matching_seat_takes_the_empty_seat():
    tables = [stud_table(1, 9, range(1, 10)), stud_table(2, 9, [1, 2, 3, 5, 6, 7, 8])]
    move = only_move(plan_balance(tables, by_position=True))
    assert (move.from_table, move.from_seat, move.to_table, move.to_seat) == (1, 4, 2, 4)
    assert move.dealt_in


def test_the_lowest_empty_seat_with_a_player_to_match_is_filled():
    # Short table 2 has seats 3, 4 and 9 empty; table 1 has nobody on seat 3.
    giver = stud_table(1, 9, [1, 2, 4, 5, 6, 7, 8, 9])
    tables = [giver, stud_table(2, 9, [1, 2, 5, 6, 7, 8])]
    move = only_move(plan_balance(tables, by_position=True))
    assert (move.from_seat, move.to_seat) == (4, 4)


def test_without_a_match_the_next_player_clockwise_fills_the_lowest_empty_seat():
    # Short table 2 (8 seats) lacks seat 8; table 1 (10 seats) has seat 8 empty too: the
    # player on seat 9 moves to seat 8. (Between tables of one size, with nobody held, a
    # matching player is always there: a table short of players has more empty seats.)
    giver = stud_table(1, 10, [1, 2, 3, 4, 5, 6, 7, 9, 10])
    tables = [giver, stud_table(2, 8, range(1, 8))]
    move = only_move(plan_balance(tables, by_position=True))
    assert (move.from_table, move.from_seat, move.to_table, move.to_seat) == (1, 9, 2, 8)


def test_clockwise_goes_round_past_the_last_seat():
    # Table 2 lacks seats 8 and 9; at table 1 those players must not move: seat 1 goes to 8.
    tables = [stud_table(1, 9, range(1, 10)), stud_table(2, 9, range(1, 8))]
    holds = Holds(unmovable=frozenset({108, 109}))
    move = only_move(plan_balance(tables, by_position=True, holds=holds))
    assert (move.from_table, move.from_seat, move.to_table, move.to_seat) == (1, 1, 2, 8)


def test_held_players_are_passed_over():
    # Table 2 lacks seats 4 and 9. Seat 4's player at table 1 keeps a reserved seat, so
    # the player on the other matching seat, 9, moves.
    tables = [stud_table(1, 9, range(1, 10)), stud_table(2, 9, [1, 2, 3, 5, 6, 7, 8])]
    reserved = Holds(reserved={104: Reserved(4)})
    move = only_move(plan_balance(tables, by_position=True, holds=reserved))
    assert (move.from_seat, move.to_seat) == (9, 9)
    # Both matching players held: the lowest empty seat, 4, goes to the next player
    # clockwise from seat 4 who may move (seat 5 is reserved too).
    tables = [stud_table(1, 9, range(1, 10)), stud_table(2, 9, [1, 2, 3, 5, 6, 7, 8])]
    holds = Holds(reserved={104: Reserved(4), 105: Reserved(5)}, unmovable=frozenset({109}))
    move = only_move(plan_balance(tables, by_position=True, holds=holds))
    assert (move.from_seat, move.to_seat) == (6, 4)


def test_everyone_held_at_the_giving_table_stops_balancing():
    tables = [stud_table(1, 9, range(1, 4)), stud_table(2, 9, [1])]
    holds = Holds(unmovable=frozenset({101, 102, 103}))
    assert plan_balance(tables, by_position=True, holds=holds).moves == ()


def test_blind_games_still_move_the_coming_big_blind():
    # The same tables with positions, without by_position: the next big blind (seat 4) moves
    # to the seat after the short table's big blind, not by position.
    giver = Table(1, 9, {s: 100 + s for s in range(1, 10)}, button=1, small_blind=2, big_blind=3)
    short = Table(
        2, 9, {s: 200 + s for s in (1, 2, 3, 4, 5, 9)}, button=1, small_blind=2, big_blind=3
    )
    moves = plan_balance([giver, short]).moves
    assert moves[0].from_seat == 4 and moves[0].to_seat == 6


# Properties ------------------------------------------------------------------------------


@st.composite
def stud_tables(draw, *, holds: bool = False):
    seats = draw(st.integers(6, 10))
    count = draw(st.integers(2, 6))
    tables = []
    for number in range(1, count + 1):
        occupied = draw(st.sets(st.integers(1, seats), min_size=1, max_size=seats))
        tables.append(stud_table(number, seats, sorted(occupied)))
    held = Holds()
    if holds:
        entries = [entry for table in tables for entry in table.entries]
        chosen = draw(st.sets(st.sampled_from(entries), max_size=len(entries) // 3))
        split = draw(st.integers(0, len(chosen)))
        listed = sorted(chosen)
        reserved = {entry: Reserved(entry % 100) for entry in listed[:split]}
        held = Holds(reserved=reserved, unmovable=frozenset(listed[split:]))
    threshold = draw(st.integers(1, 2))
    return tables, held, threshold


def replay(tables, plan, holds):
    """Carry out the plan's moves one by one, checking each against the tables then."""
    now = {table.number: table for table in tables}
    for move in plan.moves:
        giver, receiver = now[move.from_table], now[move.to_table]
        assert receiver.entry_at(move.to_seat) is None, "the seat taken was empty"
        assert not holds.held(move.entry), "held players never move"
        assert move.dealt_in, "nobody waits for a button in stud"
        movable = {
            seat
            for seat in receiver.empty_seats
            if giver.entry_at(seat) is not None and not holds.held(giver.entry_at(seat))
        }
        if movable:
            assert move.from_seat == move.to_seat == min(movable), "matching seat first"
        else:
            assert move.to_seat == receiver.empty_seats[0]
            seats = giver.occupied_seats
            clockwise = sorted(seats, key=lambda s: (s - move.to_seat) % 100)
            first = next(s for s in clockwise if not holds.held(giver.entry_at(s)))
            assert move.from_seat == first, "the next player clockwise who may move"
        now[giver.number] = giver.without_entry(move.entry)
        now[receiver.number] = now[receiver.number].with_entry(move.entry, move.to_seat)
    return [now[table.number] for table in tables]


@settings(max_examples=300, deadline=None)
@given(stud_tables())
def test_it_balances_within_tolerance_by_position(case):
    tables, holds, threshold = case
    plan = plan_balance(tables, threshold=threshold, by_position=True)
    after = replay(tables, plan, holds)
    assert list(apply_moves(tables, plan.moves)) == after
    entries = [entry for table in tables for entry in table.entries]
    assert check_invariants(after, entries, threshold=threshold) == []
    assert all(not table.started for table in after), "stud tables get no positions"


@settings(max_examples=300, deadline=None)
@given(stud_tables(holds=True))
def test_held_players_never_move_and_balancing_stops_only_at_them(case):
    tables, holds, threshold = case
    plan = plan_balance(tables, threshold=threshold, holds=holds, by_position=True)
    after = replay(tables, plan, holds)
    entries = [entry for table in tables for entry in table.entries]
    problems = check_invariants(after, entries, threshold=threshold)
    if problems:
        # Still short only because the giving table (a largest one, the first to break:
        # the highest number) holds nobody who may move.
        most = max(table.count for table in after)
        giving = max((t for t in after if t.count == most), key=lambda t: t.number)
        assert all(holds.held(entry) for entry in giving.entries), problems


@settings(max_examples=200, deadline=None)
@given(stud_tables(), st.integers(0, 2**32))
def test_after_an_elimination_breaks_and_balancing_keep_every_player_seated(case, seed):
    tables, _, threshold = case
    plan = plan_after_elimination(
        tables, threshold=threshold, rng=random.Random(seed), by_position=True
    )
    after = apply_moves(tables, plan.moves)
    entries = [entry for table in tables for entry in table.entries]
    assert check_invariants(after, entries, threshold=threshold) == []
    assert all(move.dealt_in for move in plan.moves)
