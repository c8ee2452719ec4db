"""Deals: ICM against a published example, chip-chop, play-for, exact rounded totals."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import deals as d

D = Decimal
F = Fraction


def test_it_matches_the_published_malmuth_harville_example():
    # Wikipedia, "Independent Chip Model", section "Model" (the worked example): players A,
    # B, C hold 50%, 30% and 20% of the chips; 1st pays 70 units, 2nd 30, 3rd nothing. The
    # article gives ICM(A) ~ 45, ICM(B) ~ 32 (and C the rest, ~ 23). Exactly:
    # A = 70*0.5 + 30*(0.3*5/7 + 0.2*5/8) = 1265/28, B = 21 + 30*(0.3 + 0.075) = 129/4.
    eq = d.icm_equities([50, 30, 20], [70, 30])
    assert eq == (F(1265, 28), F(129, 4), F(632, 28))
    assert [round(float(x)) for x in eq] == [45, 32, 23]
    assert sum(eq) == 100


def test_it_rounds_the_published_example_to_the_unit_with_the_total_exact():
    # (A deal itself needs a prize for every player left: this is the rounding step alone.)
    eq = d.icm_equities([50, 30, 20], [70, 30])
    # 45.18 / 32.25 / 22.57: floors 45, 32, 22 leave 1 unit, for C's remainder (0.57).
    assert d.round_to_unit(eq, [50, 30, 20], D(100), D(1)) == (D(45), D(32), D(23))
    # In units of 5: floors 45, 30, 20 leave 1 unit, for C's remainder (2.57 over B's 2.25).
    assert d.round_to_unit(eq, [50, 30, 20], D(100), D(5)) == (D(45), D(30), D(25))


def test_it_chip_chops_with_the_last_place_prize_first():
    # 3 left, prizes 500 / 300 / 200: each gets 200, the other 400 goes by chips 5:3:2.
    plan = d.deal_plan(
        method=d.CHIP_CHOP, stacks=[5000, 3000, 2000], prizes=[D(500), D(300), D(200)], unit=D(1)
    )
    assert plan.amounts == (D(400), D(320), D(280))


def test_it_keeps_back_an_amount_to_play_for_off_the_top_prize():
    plan = d.deal_plan(
        method=d.CHIP_CHOP,
        stacks=[5000, 3000, 2000],
        prizes=[D(500), D(300), D(200)],
        unit=D(1),
        play_for=D(100),
    )
    assert plan.prizes == (F(400), F(300), F(200))
    assert sum(plan.amounts) == D(900)
    assert plan.play_for == D(100)


def test_a_play_for_above_the_gap_levels_the_top_prizes():
    assert d.take_play_for([F(500), F(300), F(200)], F(300)) == (F(250), F(250), F(200))
    assert d.take_play_for([F(500), F(300), F(200)], F(1000)) == (F(0), F(0), F(0))


def test_it_refuses_more_players_than_paid_places():
    with pytest.raises(d.DealError, match="more players left than paid places"):
        d.deal_plan(method=d.ICM, stacks=[1, 2, 3], prizes=[D(70), D(30), D(0)], unit=D(1))
    with pytest.raises(d.DealError, match="only 2 paid place"):
        d.deal_plan(method=d.ICM, stacks=[1, 2, 3], prizes=[D(70), D(30)], unit=D(1))


@pytest.mark.parametrize("stacks", [[0, 10], [], [True, 3]])
def test_it_refuses_stacks_without_chips(stacks):
    with pytest.raises(d.DealError):
        d.deal_plan(method=d.ICM, stacks=stacks, prizes=[D(70), D(30)], unit=D(1))


def test_it_refuses_amounts_that_are_not_whole_units():
    with pytest.raises(d.DealError, match="whole units"):
        d.deal_plan(method=d.ICM, stacks=[1, 2], prizes=[D(70), D(30)], unit=D(5), play_for=D(3))
    with pytest.raises(d.DealError, match="more than"):
        d.deal_plan(method=d.ICM, stacks=[1, 2], prizes=[D(70), D(30)], unit=D(5), play_for=D(105))


def test_it_works_out_ten_players_exactly():
    stacks = [10_000 * (i + 1) for i in range(10)]
    prizes = [D(1000 - 90 * i) for i in range(10)]
    plan = d.deal_plan(method=d.ICM, stacks=stacks, prizes=prizes, unit=D(1))
    assert sum(plan.exact) == sum(prizes)
    assert list(plan.amounts) == sorted(plan.amounts)
    with pytest.raises(d.DealError, match="at most 10"):
        d.icm_equities([1] * 11, [1] * 11)


@st.composite
def deals(draw, max_players=6):
    n = draw(st.integers(min_value=1, max_value=max_players))
    unit = draw(st.sampled_from([D(1), D(5), D("0.01"), D(25)]))
    stacks = draw(st.lists(st.integers(1, 5_000_000), min_size=n, max_size=n))
    units = sorted(draw(st.lists(st.integers(1, 20_000), min_size=n, max_size=n)), reverse=True)
    prizes = [unit * u for u in units]
    play_units = draw(st.integers(0, sum(units)))
    method = draw(st.sampled_from(d.METHODS))
    return method, stacks, prizes, unit, unit * play_units


@given(deals())
def test_the_amounts_add_up_exactly_in_whole_units(case):
    method, stacks, prizes, unit, play_for = case
    plan = d.deal_plan(method=method, stacks=stacks, prizes=prizes, unit=unit, play_for=play_for)
    assert sum(plan.amounts) + play_for == sum(prizes)
    assert sum(plan.exact) == sum(prizes) - play_for
    assert all(a >= 0 and a % unit == 0 for a in plan.amounts)
    assert all(abs(F(a) - x) < unit for a, x in zip(plan.amounts, plan.exact, strict=True))


@given(deals())
def test_a_bigger_stack_never_gets_less(case):
    method, stacks, prizes, unit, play_for = case
    plan = d.deal_plan(method=method, stacks=stacks, prizes=prizes, unit=unit, play_for=play_for)
    for i, si in enumerate(stacks):
        for j, sj in enumerate(stacks):
            if si > sj:
                assert plan.exact[i] >= plan.exact[j]
                assert plan.amounts[i] >= plan.amounts[j]


@given(deals())
def test_equal_stacks_get_equal_shares_and_amounts_at_most_a_unit_apart(case):
    method, stacks, prizes, unit, play_for = case
    stacks = [stacks[0]] * len(stacks)
    plan = d.deal_plan(method=method, stacks=stacks, prizes=prizes, unit=unit, play_for=play_for)
    assert len(set(plan.exact)) == 1
    assert max(plan.amounts) - min(plan.amounts) <= unit
    if (sum(prizes) - play_for) % (unit * len(stacks)) == 0:
        assert len(set(plan.amounts)) == 1


@given(
    n=st.integers(1, 8),
    chips=st.integers(1, 10**9),
    units=st.lists(st.integers(1, 10_000), min_size=8, max_size=8),
)
def test_chip_chop_at_equal_stacks_is_an_equal_split(n, chips, units):
    prizes = [D(u) for u in sorted(units, reverse=True)[:n]]
    total = sum(prizes)
    prizes[0] += (-int(total)) % n  # a total the players can split evenly
    plan = d.deal_plan(method=d.CHIP_CHOP, stacks=[chips] * n, prizes=prizes, unit=D(1))
    assert plan.amounts == (sum(prizes) / n,) * n


@given(deals(max_players=5))
def test_icm_finishing_probabilities_add_up(case):
    _, stacks, _, _, _ = case
    n = len(stacks)
    # With 1 for one place and 0 elsewhere, each equity is the chance of that place.
    for place in range(n):
        prizes = [0] * n
        prizes[place] = 1
        assert sum(d.icm_equities(stacks, prizes)) == 1
