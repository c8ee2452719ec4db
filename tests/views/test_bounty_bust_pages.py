"""Where a bounty event's bust-out is entered: the table page asks who eliminated the
player; the seating console's entry panel sends the floor to that table page."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def ko_event():
    event = make_event(600, 600, bounty_type="knockout", bounty_amount=Decimal(20))
    return event, arrange(event, {1: [1, 2, 3, 4]})


def test_the_table_page_lists_the_other_players_as_possible_eliminators(
    client, floor_person, ko_event
):
    event, _people = ko_event
    client.force_login(floor_person)
    html = client.get(reverse("results:table", args=[event.pk, 1])).content.decode()
    assert html.count('class="ko-panel"') == 4
    # Each panel offers the three others: 4 panels x 3 checkboxes.
    assert html.count('name="eliminated_by"') == 12
    assert "Who eliminated <bdi>T1S1</bdi>?" in html


def test_without_bounties_the_table_page_keeps_the_one_tap_out(client, floor_person, event):
    arrange(event, {1: [1, 2, 3]})
    client.force_login(floor_person)
    html = client.get(reverse("results:table", args=[event.pk, 1])).content.decode()
    assert 'class="ko-panel"' not in html and html.count('<form class="out"') == 3


def test_the_entry_panel_of_a_bounty_event_sends_the_floor_to_the_table_page(
    client, floor_person, ko_event
):
    event, people = ko_event
    client.force_login(floor_person)
    entry = people["T1S2"]
    url = reverse("seating:entry", args=[event.pk, entry.pk])
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert reverse("results:table", args=[event.pk, 1]) in html
    assert "Bust out at table 1 (who eliminated them)" in html


def test_the_entry_panel_keeps_the_head_apart_from_the_prize_pool(client, floor_person, ko_event):
    event, people = ko_event  # buy-in 100 (the fixture's), bounty 20
    client.force_login(floor_person)
    url = reverse("seating:entry", args=[event.pk, people["T1S2"].pk])
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "80 to the prize pool, 20 on the head (bounty)" in html
