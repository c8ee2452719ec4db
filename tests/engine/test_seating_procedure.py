"""Balancing by the rule set's procedure (TDA 11-C, WSOP R67), the final table's size and
the table counts that redraw."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.engine import rulesets
from tdsystem.engine.seating import (
    Procedure,
    SeatingError,
    Table,
    apply_moves,
    check_invariants,
    final_table_size,
    initial_draw,
    plan_after_elimination,
    plan_balance,
    redraw_due,
    settled,
)

LARGEST, NEXT_FULL, BREAK_ORDER = (
    rulesets.BALANCE_FROM_LARGEST,
    rulesets.BALANCE_FROM_NEXT_FULL,
    rulesets.BALANCE_FROM_BREAK_ORDER,
)


def table(number: int, players: int, seats: int = 9) -> Table:
    """A table that has dealt: players on seats 1..players, button 1, blinds 2 and 3."""
    occupants = {seat: number * 100 + seat for seat in range(1, players + 1)}
    return Table(number, seats, occupants, button=1, small_blind=2, big_blind=3)


def giver_of(plan) -> int:
    (move,) = plan.moves
    return move.from_table


def everywhere(source: str) -> Procedure:
    return Procedure(from_large=source, from_small=source)


def test_the_largest_table_gives_first_in_the_break_order():
    tables = [table(1, 9), table(2, 9), table(3, 8), table(4, 7), table(5, 9)]
    # The break sequence: highest number first, so table 5 gives (TDA's procedure).
    assert giver_of(plan_balance(tables)) == 5
    assert giver_of(plan_balance(tables, break_order=[2])) == 2


def test_the_next_full_table_counting_on_from_the_short_table_gives():
    tables = [table(1, 9), table(2, 9), table(3, 8), table(4, 7), table(5, 9)]
    plan = plan_balance(tables, procedure=everywhere(NEXT_FULL))
    assert giver_of(plan) == 5  # short table 4: the next full one is 5
    tables = [table(1, 9), table(2, 7), table(3, 9), table(4, 8), table(5, 9)]
    assert giver_of(plan_balance(tables, procedure=everywhere(NEXT_FULL))) == 3
    # Round from the lowest number when no higher table is full.
    tables = [table(1, 8), table(2, 9), table(3, 8), table(4, 6), table(5, 8)]
    assert giver_of(plan_balance(tables, procedure=everywhere(NEXT_FULL))) == 2


def test_without_a_full_table_the_fullest_count_as_full():
    tables = [table(1, 8), table(2, 8), table(3, 6), table(4, 8)]
    assert giver_of(plan_balance(tables, procedure=everywhere(NEXT_FULL))) == 4


def test_the_next_table_in_the_breaking_order_gives_when_it_can_spare_one():
    # Threshold 2: table 2 (8 players) may give without becoming short of table 1's 9.
    tables = [table(1, 9), table(2, 8), table(3, 6)]
    by_order = plan_balance(tables, threshold=2, break_order=[2], procedure=everywhere(BREAK_ORDER))
    largest = plan_balance(tables, threshold=2, break_order=[2])
    assert (giver_of(by_order), giver_of(largest)) == (2, 1)
    # A table that would become short itself does not give: table 2 at threshold 1.
    tables = [table(1, 9), table(2, 8), table(3, 7)]
    plan = plan_balance(tables, break_order=[2], procedure=everywhere(BREAK_ORDER))
    assert giver_of(plan) == 1


def test_the_source_follows_the_number_of_tables_in_play():
    procedure = Procedure(from_large=NEXT_FULL, from_small=BREAK_ORDER, large_tables=5)
    assert procedure.source(5) == NEXT_FULL and procedure.source(4) == BREAK_ORDER
    with pytest.raises(SeatingError, match="balancing source"):
        Procedure(from_small="smallest")


def test_at_the_within_one_count_the_tables_balance_within_one_player():
    tables = [table(1, 9), table(2, 9), table(3, 7)]
    assert plan_balance(tables, threshold=2).moves == ()
    tight = Procedure(within_one_at=3)
    assert len(plan_balance(tables, threshold=2, procedure=tight).moves) == 1
    assert not settled([(1, 9, 9), (2, 9, 9), (3, 9, 7)], threshold=2, procedure=tight)
    assert settled([(1, 9, 9), (2, 9, 9), (3, 9, 7)], threshold=2)
    # Above that count the event's threshold holds.
    four = [*tables, table(4, 9)]
    assert plan_balance(four, threshold=2, procedure=tight).moves == ()


@pytest.mark.parametrize(
    ("seats", "size", "final"),
    [(9, 0, 9), (9, 10, 10), (8, 0, 9), (8, 10, 9), (10, 10, 10), (6, 10, 7), (9, 8, 8)],
)
def test_the_final_table_size_follows_the_rule_set_where_it_fits(seats, size, final):
    assert final_table_size(seats, size) == final


def test_the_final_table_redraw_is_due_at_the_rule_sets_size():
    tables = [table(1, 5), table(2, 6)]
    assert redraw_due(tables, 9) is None
    assert redraw_due(tables, 9, final_size=10) is None  # 11 players
    tables = [table(1, 5), table(2, 5)]
    assert redraw_due(tables, 9) is None
    assert redraw_due(tables, 9, final_size=10) == 1


sources = st.sampled_from([LARGEST, NEXT_FULL, BREAK_ORDER])


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(20, 200),
    seed=st.integers(0, 10_000),
    large=sources,
    small=sources,
    large_tables=st.integers(1, 25),
    within_one_at=st.integers(0, 25),
    threshold=st.integers(1, 3),
    busts=st.lists(st.integers(0, 10_000), min_size=1, max_size=40),
)
def test_every_procedure_balances_to_its_tolerance_and_moves_from_a_table_that_can_spare(
    players, seed, large, small, large_tables, within_one_at, threshold, busts
):
    rng = random.Random(seed)
    procedure = Procedure(large, small, large_tables, within_one_at)
    tables = list(initial_draw([Table(n, 9) for n in range(1, 31)], range(players), rng).tables)
    active = set(range(players))
    for pick in busts:
        if len(active) <= 2:
            break
        gone = sorted(active)[pick % len(active)]
        active.discard(gone)
        tables = [t.without_entry(gone) if t.seat_of(gone) is not None else t for t in tables]
        before = {t.number: t.count for t in tables if t.occupants}
        plan = plan_after_elimination(
            tables, threshold=threshold, rng=rng, procedure=procedure, break_order=()
        )
        tables = list(apply_moves(tables, plan.moves))
        in_play = [t for t in tables if t.occupants]
        tolerance = procedure.threshold(len(in_play), threshold)
        assert check_invariants(tables, active, threshold=tolerance) == []
        if not plan.broken and len(plan.moves) == 1:
            # The giving table stays within the tolerance of the largest.
            assert before[plan.moves[0].from_table] - 1 >= max(before.values()) - tolerance
