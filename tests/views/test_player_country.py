"""A player's country, recorded at the desk (console, API, service alike) for the results
files; a code that is no country is refused naming the field, and nothing is registered."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.seating import services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, Player
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_service_stores_the_code_and_refuses_one_that_is_no_country():
    event = make_event(600)
    services.player_register(event=event, name="Yuki Sato", country=" jp ", actor=ACTOR)
    assert Player.objects.get(name="Yuki Sato").country == "JP"
    with pytest.raises(SeatingError) as refused:
        services.player_register(event=event, name="Bo Chen", country="XX", actor=ACTOR)
    assert refused.value.field == "country" and "XX" in str(refused.value)
    assert not Player.objects.filter(name="Bo Chen").exists()


def test_a_member_coming_back_gets_the_country_the_desk_learnt():
    first, second = make_event(600, name="Monday"), make_event(600, name="Tuesday")
    services.player_register(event=first, name="An Tran", member_id="M-9", actor=ACTOR)
    services.player_register(
        event=second, name="An Tran", member_id="M-9", country="VN", actor=ACTOR
    )
    assert Player.objects.get(member_id="M-9").country == "VN"


def test_the_console_form_offers_the_countries_in_the_readers_language(client, director):
    event = make_event(600)
    client.force_login(director)
    page = client.get(f"{reverse('seating:console', args=[event.pk])}?lang=ja").content
    assert '<option value="JP">日本</option>' in page.decode()
    url = reverse("seating:register", args=[event.pk])
    client.post(url, {"name": "Mai Ono", "country": "JP"}, **HTMX)
    assert Entry.objects.get(player__name="Mai Ono").player.country == "JP"
    answer = client.post(url, {"name": "Zed Zee", "country": "ZZ"}, **HTMX).content.decode()
    assert 'class="flash error"' in answer  # the form's own message, in the reader's language
    assert not Player.objects.filter(name="Zed Zee").exists()


def test_the_api_takes_the_country_and_names_the_field_it_refuses(client, director_token):
    event = make_event(600)
    url = f"/api/events/{event.pk}/entries"
    auth = {"HTTP_AUTHORIZATION": f"Bearer {director_token}"}

    def post(body):
        return client.post(url, json.dumps(body), content_type="application/json", **auth)

    assert post({"name": "Lee Min", "country": "KR"}).status_code == 201
    assert Player.objects.get(name="Lee Min").country == "KR"
    refused = post({"name": "No Where", "country": "Q1"})
    assert refused.status_code == 400 and refused.json()["field"] == "country"
    assert not Player.objects.filter(name="No Where").exists()
