"""A hand is finished once: every way in (table page, results console, API) sends the
table's hand count it showed, and a second tap with the same count changes nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.results.models import HandForHand, HandForHandReport
from tdsystem.seating.models import EventTable
from tdsystem.simulation.seatings import arrange

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
HTMX = {"HTTP_HX_REQUEST": "true"}


def api(client, url: str, token: str, body: dict):
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def hands(event, number: int) -> int:
    return EventTable.objects.get(event=event, number=number).hand_number


def test_it_counts_a_double_tap_on_the_table_page_once(client, event, floor_person):
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    url = f"/console/events/{event.pk}/tables/1/hand"
    page = client.get(f"/console/events/{event.pk}/tables/1/").content.decode()
    assert '<input type="hidden" name="hand" value="0">' in page
    client.post(url, {"hand": "0"}, **HTMX)
    second = client.post(url, {"hand": "0"}, **HTMX).content.decode()
    assert "hand 1 was already finished" in second
    assert hands(event, 1) == 1
    assert LogEntry.objects.filter(event=event, action="table.hand").count() == 1


def test_it_refuses_a_table_page_post_without_the_hand(client, event, floor_person):
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    url = f"/console/events/{event.pk}/tables/1/hand"
    for bad in ({}, {"hand": ""}, {"hand": "x"}):
        answer = client.post(url, bad, **HTMX).content.decode()
        assert "the hand count" in answer
    assert hands(event, 1) == 0


def test_it_counts_a_double_api_post_once(client, event, floor_token):
    arrange(event, {4: [1, 2, 3]}, positions={4: (1, 2, 3)})
    url = f"/api/events/{event.pk}/tables/4/hand"
    assert api(client, url, floor_token, {"hand": 0}).json()["hand"] == 1
    again = api(client, url, floor_token, {"hand": 0})
    assert again.status_code == 409
    assert again.json() == {"error": "table 4: hand 1 was already finished"}
    assert hands(event, 4) == 1


def test_it_answers_400_to_an_api_post_without_the_hand(client, event, floor_token):
    arrange(event, {4: [1, 2, 3]}, positions={4: (1, 2, 3)})
    url = f"/api/events/{event.pk}/tables/4/hand"
    for body in ({}, {"hand": None}, {"hand": "0"}, {"hand": -1}):
        answer = api(client, url, floor_token, body)
        assert answer.status_code == 400, body
        assert answer.json()["field"] == "hand"
    assert hands(event, 4) == 0


def test_it_counts_a_double_tap_on_the_console_once_during_hand_for_hand(
    client, director, floor_person, event
):
    arrange(event, {1: FULL, 2: FULL}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    client.force_login(director)
    client.post(
        reverse("results:hand_for_hand", args=[event.pk]), {"action": "start", "minutes": 2}
    )
    client.force_login(floor_person)
    page = client.get(reverse("results:console", args=[event.pk]), {"part": "hfh"}, **HTMX)
    assert 'name="hand" value="0"' in page.content.decode()
    for table in (1, 2, 2):  # table 2 tapped twice: the last tap must not report hand 2
        url = reverse("results:hand_finished", args=[event.pk, table])
        answer = client.post(url, {"hand": "0"}, **HTMX).content.decode()
    assert "hand 1 was already finished" in answer
    assert HandForHand.objects.get(pk=event.pk).hand == 2
    assert not HandForHandReport.objects.filter(hand__number=2).exists()
    assert (hands(event, 1), hands(event, 2)) == (1, 1)
