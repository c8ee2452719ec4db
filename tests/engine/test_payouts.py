"""Payouts: the amounts always sum to the pool; places for simultaneous bust-outs."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import payouts as p

D = Decimal


def test_it_splits_a_pool_by_a_fixed_table():
    assert p.split_pool(D(1000), p.FIXED_TABLES["top-3"], D(1)) == [D(500), D(300), D(200)]


def test_leftover_units_go_to_the_places_that_lost_most_to_rounding():
    amounts = p.split_pool(D(1001), p.FIXED_TABLES["top-3"], D(5))
    assert sum(amounts) == D(1001)
    assert amounts == [D(501), D(300), D(200)]


@given(
    pool=st.integers(min_value=0, max_value=10_000_000),
    entries=st.integers(min_value=1, max_value=5000),
    unit=st.sampled_from([D(1), D(5), D(25), D("0.01"), D(100)]),
    fraction=st.sampled_from([0.1, 0.15, 0.2]),
)
def test_amounts_always_sum_to_the_pool_and_never_increase_down_the_table(
    pool, entries, unit, fraction
):
    table = p.standard_table(entries, fraction)
    assert sum(table) == 100
    amounts = p.split_pool(D(pool), table, unit)
    assert sum(amounts) == D(pool)
    assert all(a >= 0 for a in amounts)
    assert all(a % unit == 0 for a in amounts[1:])


def test_a_standard_table_pays_about_the_top_fraction():
    assert len(p.standard_table(1000, 0.15)) == 150
    assert len(p.standard_table(5, 0.15)) == 1
    assert p.standard_table(1000)[0] > p.standard_table(1000)[1]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([60, 30], "add up to 90"),
        ([30, 70], "may not pay more"),
        ([100, 0], "above 0"),
        ([], "at least"),
    ],
)
def test_custom_tables_are_checked(values, message):
    with pytest.raises(p.PayoutError, match=message):
        p.check_custom(values)


def test_the_bigger_starting_stack_finishes_higher():
    finishes = p.finishing_places(10, [(1, 300), (2, 500)])
    assert finishes == [p.Finish(2, 9, 9), p.Finish(1, 10, 10)]


def test_equal_starting_stacks_share_the_places():
    finishes = p.finishing_places(10, [(1, 300), (2, 500), (3, 300)])
    assert finishes == [p.Finish(2, 8, 8), p.Finish(1, 9, 10), p.Finish(3, 9, 10)]


def test_ties_across_the_money_line_split_the_prizes_of_the_places_they_share():
    prizes = [D(500), D(300), D(200)]  # three paid
    finishes = p.finishing_places(4, [(7, 1000), (8, 1000)])  # places 3 and 4 shared
    assert {f.place for f in finishes} == {3}
    assert p.prizes_for(finishes, prizes, D(1)) == {7: D(100), 8: D(100)}


def test_an_odd_split_stays_exact():
    finishes = p.finishing_places(5, [(1, 10), (2, 10), (3, 10)])  # places 3-5
    won = p.prizes_for(finishes, [D(50), D(30), D(10), D(7), D(3)], D(1))
    assert sum(won.values()) == D(20) and sorted(won.values()) == [D(6), D(7), D(7)]


def test_everyone_busting_at_once_is_refused():
    with pytest.raises(p.PayoutError, match="one must win"):
        p.finishing_places(2, [(1, 5), (2, 5)])


def test_a_custom_table_longer_than_the_field_is_cut_and_still_adds_up_to_100():
    table = p.fit_table([D(40), D(25), D(15), D(10), D(6), D(4)], 3)
    assert len(table) == 3 and sum(table) == 100
    assert table == (D("50.0000"), D("31.2500"), D("18.7500"))
    assert p.fit_table(p.FIXED_TABLES["top-3"], 10) == p.FIXED_TABLES["top-3"]


def test_places_of_groups_in_order_from_the_field_size():
    groups = [[(1, 0)], [(2, 500), (3, 900)], [(4, 100), (5, 100)]]
    finishes = p.places_for_groups(8, groups)
    assert finishes == [
        p.Finish(1, 8, 8),
        p.Finish(3, 6, 6),
        p.Finish(2, 7, 7),
        p.Finish(4, 4, 5),
        p.Finish(5, 4, 5),
    ]
    # A late entry (a field of 9) moves every place down by one.
    assert [f.place for f in p.places_for_groups(9, groups)] == [9, 7, 8, 5, 5]


def test_a_place_label_shows_a_tie_as_a_range():
    assert p.place_label(5, 5) == "5" and p.place_label(5, 6) == "5-6"


@st.composite
def tournaments(draw):
    """A field, the bust-outs in order (some together, some tied), a payout plan."""
    entries = draw(st.integers(min_value=2, max_value=120))
    left, groups, entry = entries, [], 0
    while left > 1:
        size = draw(st.integers(min_value=1, max_value=min(4, left - 1)))
        stacks = draw(
            st.lists(st.sampled_from([0, 100, 250, 250, 1000]), min_size=size, max_size=size)
        )
        groups.append([(entry + i, s) for i, s in enumerate(stacks)])
        entry += size
        left -= size
    table = draw(
        st.one_of(
            st.sampled_from([*p.STANDARD_TABLES, *p.FIXED_TABLES]).map(
                lambda name: p.table_for(name, entries)
            ),
            st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=30).map(
                lambda ws: tuple(
                    sorted(
                        (D(w) * 100 / sum(ws)).quantize(D("0.0001"), rounding="ROUND_FLOOR")
                        for w in ws
                    )[::-1]
                )
            ),
        )
    )
    if sum(table) != 100:  # custom weights: the rounding crumbs to the winner
        table = (table[0] + D(100) - sum(table), *table[1:])
    pool = D(draw(st.integers(min_value=0, max_value=5_000_000))) / draw(st.sampled_from([1, 100]))
    unit = draw(st.sampled_from([D("0.01"), D(1), D(5), D(25), D(100)]))
    return entries, groups, p.fit_table(table, entries), pool, unit


@given(tournaments())
def test_every_field_pays_exactly_the_pool_with_places_unique_but_for_ties(case):
    entries, groups, table, pool, unit = case
    finishes = p.places_for_groups(entries, groups)
    winner = entries + 100
    finishes.append(p.Finish(winner, 1, 1))
    # Places: every place from 1 to the field is covered once, ties share a range.
    covered = sorted(
        place
        for (first, last) in {(f.place, f.place_to) for f in finishes}
        for place in range(first, last + 1)
    )
    assert covered == list(range(1, entries + 1))
    for f in finishes:
        sharing = [g for g in finishes if (g.place, g.place_to) == (f.place, f.place_to)]
        assert len(sharing) == f.place_to - f.place + 1
    # Prizes: the places' amounts add up to the pool, and so do the players' shares.
    prizes = p.split_pool(pool, table, unit)
    assert sum(prizes) == pool
    won = p.prizes_for(finishes, prizes, unit)
    assert sum(won.values()) == pool
    assert all(amount >= 0 for amount in won.values())


def test_a_unit_that_leaves_a_paid_place_with_nothing_is_found():
    # 1,000 by top-5 (38/25/17/12/8). At 100 the units left over still reach 5th place
    # (400/200/200/100/100); at 200 they do not (400/200/200/200/0).
    top5 = p.FIXED_TABLES["top-5"]
    assert p.unpaid_place(Decimal(1000), top5, Decimal(100)) is None
    assert p.unpaid_place(Decimal(1000), top5, Decimal(200)) == 5
    assert p.unpaid_place(Decimal(1000), top5, Decimal(500)) == 3
    assert p.largest_paying_unit(Decimal(1000), top5, below=Decimal(500)) == Decimal(100)


def test_no_pool_leaves_no_place_unpaid():
    assert p.unpaid_place(Decimal(0), p.FIXED_TABLES["top-3"], Decimal(1000)) is None


@given(
    pool=st.integers(min_value=1, max_value=10**7).map(Decimal),
    unit=st.sampled_from(p.USUAL_UNITS),
    table=st.sampled_from(sorted(p.FIXED_TABLES)),
)
def test_the_unpaid_place_is_the_first_zero_of_the_split(pool, unit, table):
    percentages = p.FIXED_TABLES[table]
    amounts = p.split_pool(pool, percentages, unit)
    zeros = [i + 1 for i, a in enumerate(amounts) if a <= 0]
    assert p.unpaid_place(pool, percentages, unit) == (zeros[0] if zeros else None)
    better = p.largest_paying_unit(pool, percentages, below=unit)
    if better is not None:
        assert better < unit
        assert all(a > 0 for a in p.split_pool(pool, percentages, better))
