"""Bounties on the pages and the API: the console's eliminator boxes, the API's
eliminated_by, the event form's settings, the results page and its CSV."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.events.forms import EventForm
from tdsystem.results import services
from tdsystem.results.models import Bounty, Finish
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
D = Decimal
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pko(db):
    event = make_event(600, 600, buy_in=D(100), bounty_type="progressive", bounty_amount=D(40))
    return event, arrange(event, {1: [1, 2, 3, 4]})


def test_the_console_records_who_eliminated_the_player(client, floor_person, pko):
    event, people = pko
    client.force_login(floor_person)
    page = client.get(reverse("results:console", args=[event.pk]) + "?table=1").content.decode()
    assert 'name="eliminated_by"' in page
    body = {"table": 1, "entry": people["T1S4"].pk, "eliminated_by": people["T1S1"].pk}
    answer = client.post(reverse("results:bustout", args=[event.pk]), body, **HTMX)
    assert answer.status_code == 200
    row = Bounty.objects.get()
    assert (row.eliminator_id, row.paid, row.to_head) == (people["T1S1"].pk, D(20), D(20))


def test_the_console_refuses_a_bounty_bustout_without_the_eliminator(client, floor_person, pko):
    event, people = pko
    client.force_login(floor_person)
    body = {"table": 1, "entry": people["T1S4"].pk}
    answer = client.post(reverse("results:bustout", args=[event.pk]), body, **HTMX)
    assert "bounty event" in answer.content.decode()
    assert not Finish.objects.exists()


def test_the_api_takes_eliminated_by_as_entry_numbers(client, floor_token, pko):
    event, people = pko
    body = {
        "entries": [people["T1S4"].number],
        "eliminated_by": [people["T1S2"].number, people["T1S3"].number],
    }
    answer = client.post(
        reverse("api:bustout", args=[event.pk]),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {floor_token}",
    )
    assert answer.status_code == 201
    assert sorted(Bounty.objects.values_list("paid", flat=True)) == [D(10), D(10)]


def test_the_api_names_the_field_of_an_unknown_eliminator(client, floor_token, pko):
    event, people = pko
    body = {"entries": [people["T1S4"].number], "eliminated_by": [99]}
    answer = client.post(
        reverse("api:bustout", args=[event.pk]),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {floor_token}",
    )
    assert answer.status_code == 400
    assert "eliminated_by" in answer.content.decode()


def test_the_results_page_and_csv_show_the_bounties(client, pko):
    event, people = pko
    services.bustout_record(
        event_id=event.pk,
        entry_ids=[people["T1S4"].pk],
        eliminated_by=[people["T1S1"].pk],
        actor=ACTOR,
    )
    page = client.get(reverse("results:page", args=[event.pk])).content.decode()
    assert (
        "Bounty pool" in page and "Heads in play" in page and ">60<" in page
    )  # the head of T1S1: 40 + 20
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("results:csv", args=[event.pk])).content.decode())
        )
    )
    assert rows[0][-1] == "bounties"


def test_the_event_form_keeps_the_bounty_within_the_buy_in():
    data = {
        "name": "PKO",
        "game": "holdem",
        "betting": "no-limit",
        "buy_in": "100",
        "fee": "10",
        "bounty_type": "progressive",
        "bounty_amount": "150",
        "seats_per_table": 9,
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "late_registration_end_level": 0,
    }
    form = EventForm(data)
    assert not form.is_valid()
    assert "part of the buy-in" in str(form.errors["bounty_amount"])


def test_the_event_form_without_bounty_fields_makes_an_event_without_bounties(client, director):
    from tdsystem.events.forms import EventForm
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    base = {"name": "No bounty", "template": template.pk, "game": "holdem"}
    base |= {"betting": "no-limit", "buy_in": "50", "fee": "5", "seats_per_table": 9}
    base |= {"button_rule": "dead", "incomplete_raise": "full-bet"}
    base |= {"pot_limit_preflop": "true-pot", "late_registration_end_level": 0}
    form = EventForm(base)
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["bounty_type"], form.cleaned_data["bounty_amount"]) == ("none", 0)
    refused = EventForm(base | {"bounty_type": "knockout"})
    assert not refused.is_valid() and "bounty_amount" in refused.errors
