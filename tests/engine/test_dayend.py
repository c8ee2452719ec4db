"""The end of a day's rules (WSOP R125): the number of last hands, the countdown."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import dayend
from tdsystem.engine.errors import RuleError


def test_it_draws_3_to_7_hands_at_9_handed_events_and_2_to_5_at_others():
    rng = random.Random(1)
    nine = {
        dayend.last_hands_draw(seats_per_table=9, tables_in_play=4, rng=rng) for _ in range(500)
    }
    six = {dayend.last_hands_draw(seats_per_table=6, tables_in_play=4, rng=rng) for _ in range(500)}
    assert nine == {3, 4, 5, 6, 7} and six == {2, 3, 4, 5}
    assert dayend.hands_range(10) == (2, 5)


def test_it_refuses_the_last_hands_with_three_tables_or_fewer():
    with pytest.raises(RuleError, match="3 tables in play: with 3 or fewer the day runs the clock"):
        dayend.last_hands_draw(seats_per_table=9, tables_in_play=3, rng=random.Random(1))


def test_it_counts_down_to_the_last_hand_then_the_bags():
    assert [dayend.countdown(n).state for n in (3, 2, 1, 0)] == [
        dayend.PLAYING,
        dayend.PLAYING,
        dayend.LAST,
        dayend.BAG,
    ]
    assert dayend.hand_played(1) == 0 and dayend.hand_played(0) == 0
    assert dayend.tables_still_playing({4: 0, 2: 1, 7: 3}) == [2, 7]
    with pytest.raises(RuleError):
        dayend.countdown(-1)


@given(
    seats=st.integers(min_value=2, max_value=10),
    tables=st.integers(min_value=4, max_value=500),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_it_always_draws_within_the_range_and_the_same_for_a_seed(seats, tables, seed):
    low, high = dayend.hands_range(seats)
    drawn = dayend.last_hands_draw(
        seats_per_table=seats, tables_in_play=tables, rng=random.Random(seed)
    )
    assert low <= drawn <= high
    again = dayend.last_hands_draw(
        seats_per_table=seats, tables_in_play=tables, rng=random.Random(seed)
    )
    assert again == drawn


@given(hands=st.integers(min_value=1, max_value=20))
def test_it_reaches_the_bags_after_exactly_the_hands_drawn(hands):
    left, played = hands, 0
    while dayend.countdown(left).state != dayend.BAG:
        left, played = dayend.hand_played(left), played + 1
    assert played == hands


@pytest.mark.parametrize("tables", [1, 2, 3])
def test_a_day_on_three_tables_or_fewer_ends_with_no_hands_every_table_bagging(tables):
    hands = dayend.day_end_hands(seats_per_table=9, tables_in_play=tables, rng=random.Random(1))
    assert hands == 0 and dayend.countdown(hands).state == dayend.BAG


def test_a_day_on_more_tables_ends_with_its_last_hands_drawn():
    rng = random.Random(2)
    drawn = {dayend.day_end_hands(seats_per_table=6, tables_in_play=4, rng=rng) for _ in range(200)}
    assert drawn == {2, 3, 4, 5}
    with pytest.raises(RuleError, match="a table seats 2 or more"):
        dayend.day_end_hands(seats_per_table=1, tables_in_play=1, rng=rng)
