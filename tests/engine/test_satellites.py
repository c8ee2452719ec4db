"""Satellites: whole seats from the pool, the rest in cash, nothing lost or invented."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine.payouts import PayoutError
from tdsystem.engine.satellites import satellite_prizes, seats_and_remainder

D = Decimal


def test_it_counts_whole_seats_and_the_cash_left_over():
    # 23 entries of 100: a 2,300 pool buys four 550 seats (500 + 50 fee), 100 left.
    assert seats_and_remainder(D(2300), D(550)) == (4, D(100))
    assert satellite_prizes(D(2300), D(550)) == (D(550),) * 4 + (D(100),)


def test_it_pays_no_cash_place_when_the_seats_take_the_whole_pool():
    assert satellite_prizes(D(1100), D(550)) == (D(550), D(550))


def test_it_awards_no_seat_from_a_pool_smaller_than_one():
    assert seats_and_remainder(D(400), D(550)) == (0, D(400))
    assert satellite_prizes(D(400), D(550)) == ()


def test_it_refuses_a_seat_worth_nothing():
    with pytest.raises(PayoutError):
        seats_and_remainder(D(100), D(0))


money = st.decimals(min_value=0, max_value=1_000_000, places=2, allow_nan=False)


@given(pool=money, value=st.decimals(min_value=10, max_value=100_000, places=2))
def test_the_seats_and_the_remainder_always_make_the_pool(pool, value):
    seats, remainder = seats_and_remainder(pool, value)
    assert seats * value + remainder == pool
    assert D(0) <= remainder < value
    prizes = satellite_prizes(pool, value)
    if seats:
        assert sum(prizes) == pool
        assert prizes[:seats] == (value,) * seats
        assert all(p <= value for p in prizes)
