"""The alternates list's pages: the desk, the public join from the lookup, the poll."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.players import alternates as alt
from tdsystem.players.models import Alternate
from tdsystem.results.services import bustout_record
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event
from tests.personas import make_user

pytestmark = pytest.mark.django_db
DESK = Actor(label="desk")


@pytest.fixture
def full():
    event = make_event(30)
    return event, arrange(event, {1: list(range(1, 10))})


@pytest.fixture
def floor(client):
    user = make_user("floor1", "floor")
    client.force_login(user)
    return client


def test_the_lookup_offers_the_list_when_full_and_joins(full, client):
    event, _ = full
    page = client.get(f"/events/{event.pk}/seats/")
    assert b'id="alternates-join"' in page.content
    answer = client.post(f"/events/{event.pk}/alternates/join", {"name": "Ann"})
    assert answer.status_code == 302 and answer["Location"].startswith("/me/")
    me = client.get(answer["Location"])
    assert b'id="alt-position">1<' in me.content
    token = answer["Location"].split("/")[2]
    poll = client.get(f"/me/{token}/alternate")
    assert poll.json()["position"] == 1 and poll.json()["wait_text"] == "—"
    again = client.get(f"/me/{token}/alternate", HTTP_IF_NONE_MATCH=poll["ETag"])
    assert again.status_code == 304


def test_the_lookup_does_not_offer_it_while_seats_are_free(client):
    event = make_event(30)
    arrange(event, {1: [1, 2]})
    assert b'id="alternates-join"' not in client.get(f"/events/{event.pk}/seats/").content


def test_the_public_join_is_rate_limited(full, client):
    event, _ = full
    for n in range(5):
        client.post(f"/events/{event.pk}/alternates/join", {"name": f"P{n}"})
    answer = client.post(f"/events/{event.pk}/alternates/join", {"name": "P9"})
    assert answer.status_code == 400 and b"Too many" in answer.content
    assert Alternate.objects.filter(event=event).count() == 5


def test_the_desk_calls_seats_and_skips(full, floor):
    event, seats = full
    for name in ("Ann", "Bob", "Cy"):
        alt.alternate_join(event=event, name=name, actor=DESK)
    base = f"/console/events/{event.pk}/alternates/"
    page = floor.get(base)
    assert page.status_code == 200 and b"Ann" in page.content
    answer = floor.post(base + "call", HTTP_HX_REQUEST="true")
    assert b"Ann called" in answer.content and b'class="countdown"' in answer.content
    ann = Alternate.objects.get(name="Ann")
    refused = floor.post(base + f"{ann.pk}/seat", HTTP_HX_REQUEST="true")
    assert b"every seat is taken" in refused.content  # registration's own refusal
    bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    seated = floor.post(base + f"{ann.pk}/seat", HTTP_HX_REQUEST="true")
    assert b"Ann seated: table 1 seat 2" in seated.content
    bob = Alternate.objects.get(name="Bob")
    floor.post(base + f"{bob.pk}/skip", HTTP_HX_REQUEST="true")
    assert [a.name for a in alt.queue(event.pk)] == ["Cy", "Bob"]


def test_the_floor_cannot_change_the_settings(full, floor):
    event, _ = full
    answer = floor.post(
        f"/console/events/{event.pk}/alternates/settings",
        {"is_open": "on", "size": "3", "hold_minutes": "5"},
    )
    assert answer.status_code == 403


def test_the_director_sets_the_list(full, client):
    event, _ = full
    client.force_login(make_user("td", "director"))
    client.post(
        f"/console/events/{event.pk}/alternates/settings",
        {"size": "3", "hold_minutes": "5"},
        HTTP_HX_REQUEST="true",
    )
    alist = alt.list_of(event)
    assert (alist.is_open, alist.size, alist.hold_minutes) == (False, 3, 5)


def test_the_poll_is_a_few_queries(full, client, django_assert_max_num_queries, settings):
    settings.SCREEN_CACHE_SECONDS = 5  # the tests' default keeps nothing
    event, _ = full
    token = alt.alternate_join(event=event, name="Ann", actor=DESK).link.token
    client.get(f"/me/{token}/alternate")  # the rate, kept with the screens
    with django_assert_max_num_queries(3):
        assert client.get(f"/me/{token}/alternate").status_code == 200
