"""The tickets API: the list, a ticket given by hand, a registration paid by a ticket."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tdsystem.seating.models import Entry, Ticket
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def post(client, url: str, token: str | None, body: dict | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


@pytest.fixture
def target(db):
    return make_event(600, 600, name="Main event", buy_in=Decimal(200), fee=Decimal(20))


def test_it_gives_lists_and_registers_a_ticket(client, target, floor_token):
    url = f"/api/events/{target.pk}/tickets"
    assert post(client, url, None, {"name": "Ann"}).status_code == 401
    given = post(client, url, floor_token, {"name": "Ann Lee", "note": "Lyon qualifier"})
    assert given.status_code == 201
    ticket = given.json()
    assert ticket | {"id": 0} == {
        "id": 0,
        "player": "Ann Lee",
        "target": target.pk,
        "source": None,
        "value": "220.00",
        "note": "Lyon qualifier",
        "used_by": None,
    }
    assert client.get(url).json() == [ticket]
    used = post(client, f"/api/tickets/{ticket['id']}/register", floor_token)
    assert used.status_code == 201
    body = used.json()
    assert body["ticket"]["used_by"] == body["entry"]["entry"] == 1
    assert Entry.objects.get(event=target).paid == Decimal(200)
    again = post(client, f"/api/tickets/{ticket['id']}/register", floor_token)
    assert again.status_code == 409 and "used already" in again.json()["error"]
    assert Entry.objects.count() == 1


def test_it_answers_bad_input_and_unknown_tickets(client, target, floor_token):
    url = f"/api/events/{target.pk}/tickets"
    blank = post(client, url, floor_token, {"name": ""})
    assert blank.status_code == 400 and blank.json()["field"] == "name"
    assert post(client, "/api/events/999/tickets", floor_token, {"name": "Bo"}).status_code == 404
    assert post(client, "/api/tickets/999/register", floor_token).status_code == 404
    other = make_event(600, name="Other")
    ticket = Ticket.objects.create(
        player=_player(),
        target=target,
        value=Decimal(220),
        actor_label="test",
    )
    wrong = post(client, f"/api/tickets/{ticket.pk}/register", floor_token, {"event": other.pk})
    assert wrong.status_code == 409 and "for Main event" in wrong.json()["error"]
    assert not Entry.objects.exists()


def _player():
    from tdsystem.seating.models import Player

    return Player.objects.create(name="Bo")


def test_it_gives_a_ticket_to_a_known_player_and_asks_about_a_known_name(
    client, target, floor_token
):
    from tdsystem.seating.models import Player

    ann = Player.objects.create(name="Ann Lee", member_id="M-17")
    url = f"/api/events/{target.pk}/tickets"
    by_member = post(client, url, floor_token, {"member_id": "M-17"})
    by_id = post(client, url, floor_token, {"player": ann.pk})
    assert by_member.status_code == by_id.status_code == 201
    asked = post(client, url, floor_token, {"name": "Ann Lee"})
    assert asked.status_code == 409 and "member M-17" in asked.json()["error"]
    assert (
        post(client, url, floor_token, {"name": "Ann Lee", "new_player": True}).status_code == 201
    )
    assert list(Ticket.objects.values_list("player__member_id", flat=True)) == ["M-17", "M-17", ""]
    assert Player.objects.count() == 2
