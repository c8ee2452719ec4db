"""The payout page refuses a rounding unit that leaves a paid place with nothing, and warns
when the field has grown so that the stored unit does."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.results.models import PayoutPlan
from tdsystem.seating.models import Purchase
from tdsystem.simulation.seatings import arrange

pytestmark = pytest.mark.django_db


def test_a_unit_that_pays_a_place_nothing_is_refused_on_the_page(client, director, event):
    arrange(event, {1: [1, 2, 3, 4, 5]})  # a pool of 500
    client.force_login(director)
    url = reverse("results:payouts", args=[event.pk])
    answer = client.post(url, {"table": "top-3", "unit": "200"})
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "leaves place 3 with nothing" in page and "round to 100 or less" in page
    assert not PayoutPlan.objects.filter(event=event, unit=Decimal(200)).exists()
    assert client.post(url, {"table": "top-3", "unit": "100"}).status_code == 302


def test_the_page_warns_when_the_stored_unit_no_longer_pays_every_place(client, director, event):
    arrange(event, {1: [1, 2, 3, 4, 5]})
    PayoutPlan.objects.create(event=event, table="top-5", unit=Decimal(100))
    client.force_login(director)
    page = client.get(reverse("results:payouts", args=[event.pk])).content.decode()
    assert "The field has grown since the plan was saved" in page
    assert "place 5 with nothing" in page


def test_the_page_shows_the_fees_apart_from_the_pool(client, director, event):
    people = arrange(event, {1: [1, 2]})
    for entry in people.values():
        Purchase.objects.create(
            event=event,
            entry=entry,
            kind="entry",
            amount=entry.paid,
            fee=Decimal(15),
            chips=entry.chips,
            actor_label="test",
        )
    client.force_login(director)
    page = client.get(reverse("results:payouts", args=[event.pk])).content.decode()
    assert "pool 200" in page and "fees 30 (not in the pool)" in page
