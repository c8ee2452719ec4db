"""The room's figures in a bounty event: the prize pool and the payouts the clock screen and
the console show are the places' pool, the heads left out, as on the results page."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.results import selectors as results_selectors
from tdsystem.simulation.seatings import field
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def test_it_leaves_the_bounties_out_of_the_prize_pool_and_the_payouts(client):
    event = make_event(
        600, 600, name="Friday PKO", bounty_type="progressive", bounty_amount=Decimal(40)
    )
    field(event, players=20, tables=3)

    body = client.get(f"/api/events/{event.pk}/clock").json()

    assert Decimal(body["prize_pool"]) == 20 * (100 - 40)
    assert sum(Decimal(p["amount"]) for p in body["payouts"]) == 20 * 60
    assert results_selectors.overview(event).prize_pool == Decimal(body["prize_pool"])


def test_it_keeps_the_whole_buy_in_in_the_pool_without_bounties(client):
    event = make_event(600, 600, name="Friday Freezeout")
    field(event, players=20, tables=3)

    body = client.get(f"/api/events/{event.pk}/clock").json()

    assert Decimal(body["prize_pool"]) == 20 * 100
