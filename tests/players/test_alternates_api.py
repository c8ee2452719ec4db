"""`/api/events/<id>/alternates`: the list, the public join, the floor's actions."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.players import alternates as alt
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event
from tests.personas import make_token, make_user

pytestmark = pytest.mark.django_db
DESK = Actor(label="desk")


@pytest.fixture
def full():
    event = make_event(30)
    return event, arrange(event, {1: list(range(1, 10))})


def post(client, url, body=None, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(url, body or {}, content_type="application/json", **headers)


def test_it_joins_with_a_token_and_lists_without(full, client):
    event, _ = full
    url = f"/api/events/{event.pk}/alternates"
    assert post(client, url, {"name": "Ann"}).status_code == 401
    token = make_token(make_user("floor1", "floor"))
    answer = post(client, url, {"name": "Ann"}, token)
    assert answer.status_code == 201
    assert answer.json()["position"] == 1 and "/me/" in answer.json()["player_url"]
    assert post(client, url, {"name": "ann"}, token).status_code == 409
    assert post(client, url, {"name": ""}, token).json()["field"] == "name"
    listed = client.get(url).json()
    assert [(a["position"], a["name"], a["status"]) for a in listed] == [(1, "Ann", "waiting")]
    assert listed[0]["due_at"] is None


def test_the_floor_calls_and_removes_with_a_token(full, client):
    event, _ = full
    alt.alternate_join(event=event, name="Ann", actor=DESK)
    url = f"/api/events/{event.pk}/alternates"
    assert post(client, url + "/call").status_code == 401
    token = make_token(make_user("floor1", "floor"))
    called = post(client, url + "/call", token=token)
    assert called.status_code == 200 and called.json()["status"] == "called"
    assert client.get(url).json()[0]["due_at"] is not None
    seat = post(client, url + f"/{called.json()['id']}/seat", token=token)
    assert seat.status_code == 409 and "every seat is taken" in seat.json()["error"]
    gone = post(client, url + f"/{called.json()['id']}/remove", token=token)
    assert gone.json()["status"] == "removed"
    assert client.get(url).json() == []
    assert post(client, url + "/999999/skip", token=token).status_code == 404
