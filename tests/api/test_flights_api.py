"""The flights API: the flights and the Day 2 preview, a flight added, Day 2 combined."""

from __future__ import annotations

import json

import pytest

from tdsystem.events.models import Event
from tdsystem.seating.models import Entry
from tests.services.test_flights import played

pytestmark = pytest.mark.django_db


def post(client, url: str, token: str | None, body: dict | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


def test_it_lists_adds_and_combines_flights(client, director_token, floor_token):
    main, _a, _b, _ = played()
    url = f"/api/events/{main.pk}/flights"
    listed = client.get(url).json()
    assert [f["flight"] for f in listed["flights"]] == ["1A", "1B"]
    assert listed["flights"][0] | {"id": 0, "scheduled_start": None} == {
        "id": 0,
        "flight": "1A",
        "name": "Main Event · 1A",
        "scheduled_start": None,
        "status": "bagged",
        "entries": 4,
        "players_left": 2,
        "bagged": 2,
        "level": 3,
        "blocker": None,
        "chips_bagged": 25_000,
        "chips_in_play": 40_000,
        "difference": -15_000,
    }
    assert (listed["entries"], listed["day2_players"], listed["day2_chips"]) == (6, 3, 47_000)
    assert listed["bagged_twice"] == [
        {"player": "Ann", "kept_flight": "1B", "kept_chips": 30_000, "dropped": ["1A"]}
    ]
    assert post(client, url, floor_token, {"name": "1C"}).status_code == 403
    added = post(
        client, url, director_token, {"name": "1C", "scheduled_start": "2026-12-02T12:00:00Z"}
    )
    assert added.status_code == 201
    assert (added.json()["flight"], added.json()["status"]) == ("1C", "planned")
    taken = post(client, url, director_token, {"name": "1c"})
    assert taken.status_code == 400 and "has a flight 1C already" in taken.json()["error"]
    assert post(client, url, director_token, {"name": ""}).json()["field"] == "name"
    # The new flight has not been played: it stops the combination.
    refused = post(client, f"/api/events/{main.pk}/day2", director_token)
    assert refused.status_code == 409 and "1C has not been played" in refused.json()["error"]
    Event.objects.filter(parent=main, flight="1C").delete()
    # The fixture's bags do not add up to the flights' chips in play: confirmed, not silent.
    differ = post(client, f"/api/events/{main.pk}/day2", director_token, {"seed": 5})
    assert differ.status_code == 409 and "Confirm the differences" in differ.json()["error"]
    confirmed = {"seed": 5, "confirm_differences": True}
    done = post(client, f"/api/events/{main.pk}/day2", director_token, confirmed)
    assert done.status_code == 200
    assert done.json() == {
        "event": main.pk,
        "players": 3,
        "chips": 47_000,
        "dropped": 1,
        "tables": [1],
        "level": 4,
        "seed": 5,
    }
    assert Entry.objects.filter(event=main).count() == 3
    again = post(client, f"/api/events/{main.pk}/day2", director_token)
    assert again.status_code == 409 and "combined already" in again.json()["error"]
    assert client.get(url).json()["combined"] is True
    assert client.get("/api/events/999999/flights").status_code == 404
