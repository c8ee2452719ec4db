"""The new event form sets the language of the event's public screens."""

from __future__ import annotations

import pytest

from tdsystem.events.models import Event

pytestmark = pytest.mark.django_db


def form_data(template_pk: int, **extra) -> dict:
    return {
        "name": "Friday",
        "template": template_pk,
        "game": "holdem",
        "betting": "no-limit",
        "buy_in": "50",
        "fee": "5",
        "seats_per_table": 9,
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        **extra,
    }


@pytest.fixture
def template(db):
    from tdsystem.structures.services import templates_install

    return templates_install()[0]


def test_it_offers_the_screen_language_with_following_the_browser_first(client, director):
    client.force_login(director)
    page = client.get("/console/events/new/").content.decode()
    assert "Screen language" in page
    select = page.split('id="id_screen_language"', 1)[1].split("</select>", 1)[0]
    assert select.index("Follow each screen&#x27;s browser") < select.index("日本語")
    assert 'value="ar"' in select and 'value="vi"' in select


def test_it_creates_the_event_with_the_chosen_screen_language(client, director, template):
    client.force_login(director)
    response = client.post("/console/events/new/", form_data(template.pk, screen_language="ar"))
    assert response.status_code == 302
    assert Event.objects.get(name="Friday").screen_language == "ar"


def test_left_blank_the_screens_follow_their_browsers(client, director, template):
    client.force_login(director)
    assert client.post("/console/events/new/", form_data(template.pk)).status_code == 302
    assert Event.objects.get(name="Friday").screen_language == ""


def test_it_refuses_a_language_it_does_not_offer_and_creates_nothing(client, director, template):
    client.force_login(director)
    response = client.post("/console/events/new/", form_data(template.pk, screen_language="xx"))
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Event.objects.filter(name="Friday").exists()
