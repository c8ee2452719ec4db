"""The deal page: counts, ICM or chip-chop, preview, confirm, cancel; the results show it."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tdsystem.results import services
from tdsystem.results.models import Deal
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def four(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    services.payout_plan_update(event_id=event.pk, table="top-4", unit=1, actor=ACTOR)
    for name, chips in (("T1S1", 40_000), ("T1S2", 30_000), ("T1S3", 20_000)):
        services.chip_count_record(
            event_id=event.pk, entry_number=people[name].number, chips=chips, actor=ACTOR
        )
    return event, people


def url(name, event):
    return reverse(f"results:{name}", args=[event.pk])


def test_it_shows_the_players_left_with_their_counts_and_says_what_is_missing(
    client, director, four
):
    event, _ = four
    client.force_login(director)
    page = client.get(url("deal", event)).content.decode()
    assert 'value="40000"' in page and "T1S4" in page
    assert "no chip count for #4" in page and "Confirm the deal" not in page


def test_a_director_previews_then_confirms_a_chip_chop(client, director, four):
    event, people = four
    client.force_login(director)
    form = {"method": "chip-chop", f"chips-{people['T1S4'].pk}": "10,000", "action": "preview"}
    answer = client.post(url("deal", event), form, **HTMX)
    html = answer.content.decode()
    assert "<html" not in html and "Confirm the deal" in html
    assert "136" in html and "64" in html and "160" in html  # the amounts beside the prizes
    assert not Deal.objects.exists()
    answer = client.post(url("deal", event), {**form, "action": "confirm"})
    assert answer.status_code == 302
    deal = Deal.objects.get()
    assert deal.method == "chip-chop" and sum(s.amount for s in deal.shares.all()) == 400
    assert "Deal made" in client.get(url("page", event)).content.decode()
    rows = list(csv.reader(io.StringIO(client.get(url("csv", event)).content.decode())))
    assert rows[0][-1] == "deal"


def test_a_director_cancels_the_deal(client, director, four):
    event, people = four
    client.force_login(director)
    chips = {f"chips-{people['T1S4'].pk}": "10000"}
    client.post(url("deal", event), {"method": "icm", "action": "confirm", **chips})
    assert "Cancel the deal" in client.get(url("deal", event)).content.decode()
    client.post(url("deal_cancel", event))
    assert Deal.objects.get().cancelled_at is not None
    assert "Deal made" not in client.get(url("page", event)).content.decode()


def test_it_refuses_a_bad_count_or_play_for(client, director, four):
    event, people = four
    client.force_login(director)
    bad = {"method": "icm", f"chips-{people['T1S4'].pk}": "lots", "action": "preview"}
    assert "is not a number of chips" in client.post(url("deal", event), bad).content.decode()
    much = {"method": "icm", f"chips-{people['T1S4'].pk}": "1", "play_for": "5000"}
    html = client.post(url("deal", event), {**much, "action": "confirm"}).content.decode()
    assert "more than the 400" in html and not Deal.objects.exists()


def test_a_floor_person_cannot_make_a_deal(client, floor_person, four):
    event, _ = four
    client.force_login(floor_person)
    assert client.get(url("deal", event)).status_code in (302, 403)
    assert client.post(url("deal", event), {"method": "icm", "action": "confirm"}).status_code in (
        302,
        403,
    )
    assert not Deal.objects.exists()
