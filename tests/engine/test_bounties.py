"""Bounties: knockout pays a fixed head, PKO half to the eliminator and half onto their
head; splits are exact, and everything adds up to the bounty pool."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import bounties as b

D = Decimal
CENT = D("0.01")


def test_it_pays_a_knockout_head_to_the_eliminator():
    ko = b.knockout(kind=b.KNOCKOUT, head=D(50), eliminators=[7], unit=CENT)
    assert ko.paid == {7: D(50)}
    assert ko.to_head == {7: D(0)}


def test_it_pays_half_a_pko_head_and_puts_half_on_the_eliminator():
    ko = b.knockout(kind=b.PROGRESSIVE, head=D(100), eliminators=[3], unit=CENT)
    assert ko.paid == {3: D(50)}
    assert ko.to_head == {3: D(50)}


def test_an_odd_pko_head_rounds_the_cash_down_and_the_head_keeps_the_unit():
    ko = b.knockout(kind=b.PROGRESSIVE, head=D("0.05"), eliminators=[3], unit=CENT)
    assert ko.paid == {3: D("0.02")}
    assert ko.to_head == {3: D("0.03")}


def test_a_split_pot_gives_the_leftover_units_to_the_first_eliminators():
    ko = b.knockout(kind=b.KNOCKOUT, head=D("1.00"), eliminators=[9, 2, 5], unit=CENT)
    assert ko.paid == {9: D("0.34"), 2: D("0.33"), 5: D("0.33")}
    assert ko.total == D(1)


def test_it_refuses_a_head_that_is_not_a_whole_number_of_units():
    with pytest.raises(b.BountyError, match="whole number"):
        b.knockout(kind=b.KNOCKOUT, head=D("1.005"), eliminators=[1], unit=CENT)


def test_a_player_cannot_eliminate_themselves():
    ledger = b.ledger_start(amount=D(10), entries=[1, 2], unit=CENT)
    with pytest.raises(b.BountyError, match="themselves"):
        b.ledger_knockout(ledger, kind=b.KNOCKOUT, out=[1], eliminators=[1], unit=CENT)


def test_heads_grow_in_pko_and_the_winner_collects_their_own():
    ledger = b.ledger_start(amount=D(100), entries=[1, 2, 3], unit=CENT)
    ledger, _ = b.ledger_knockout(ledger, kind=b.PROGRESSIVE, out=[3], eliminators=[2], unit=CENT)
    assert ledger.heads == {1: D(100), 2: D(150)}
    ledger, _ = b.ledger_knockout(ledger, kind=b.PROGRESSIVE, out=[2], eliminators=[1], unit=CENT)
    assert ledger.won == {2: D(50), 1: D(75)}
    ledger = b.own_head(ledger, entry=1)
    assert ledger.won == {2: D(50), 1: D(250)}
    assert ledger.heads == {}
    assert ledger.total() == b.pool(amount=D(100), entries=3)


def test_a_player_out_with_no_eliminator_keeps_their_head():
    ledger = b.ledger_start(amount=D(20), entries=[1, 2], unit=CENT)
    ledger, moved = b.ledger_knockout(
        ledger, kind=b.PROGRESSIVE, out=[2], eliminators=[], unit=CENT
    )
    assert moved[2].paid == {2: D(20)}
    assert ledger.won == {2: D(20)} and ledger.heads == {1: D(20)}


@given(
    kind=st.sampled_from([b.KNOCKOUT, b.PROGRESSIVE]),
    amount_units=st.integers(min_value=0, max_value=100_000),
    unit=st.sampled_from([CENT, D(1), D(5)]),
    players=st.integers(min_value=2, max_value=30),
    data=st.data(),
)
def test_bounties_paid_heads_left_and_the_winner_sum_to_the_pool(
    kind, amount_units, unit, players, data
):
    amount = amount_units * unit
    ledger = b.ledger_start(amount=amount, entries=range(players), unit=unit)
    while len(ledger.heads) > 1:
        alive = sorted(ledger.heads)
        out = data.draw(
            st.lists(st.sampled_from(alive), min_size=1, max_size=len(alive) - 1, unique=True)
        )
        rest = [e for e in alive if e not in out]
        eliminators = data.draw(st.lists(st.sampled_from(rest), max_size=len(rest), unique=True))
        ledger, moved = b.ledger_knockout(
            ledger, kind=kind, out=out, eliminators=eliminators, unit=unit
        )
        for ko in moved.values():
            assert all(v >= 0 and v % unit == 0 for v in (*ko.paid.values(), *ko.to_head.values()))
        assert ledger.total() == b.pool(amount=amount, entries=players)
    (winner,) = ledger.heads
    ledger = b.own_head(ledger, entry=winner)
    assert sum(ledger.won.values(), D(0)) == b.pool(amount=amount, entries=players)
