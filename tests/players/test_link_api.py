"""The API's players' links: `player_url` in a registration's answer and the seat lookup's,
an entry's link read and renewed by the staff."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache

from tdsystem.players.models import PlayerLink
from tdsystem.results.services import bustout_record
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event
from tests.personas import make_token, make_user

pytestmark = pytest.mark.django_db


def post(client, url: str, token: str | None, body: dict | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


def bearer(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture(autouse=True)
def _public(settings):
    settings.PUBLIC_URL = "http://tdsystem.test"
    cache.clear()  # the limit per device counts in the cache


@pytest.fixture
def seated():
    event = make_event(30)
    return arrange(event, {1: [1, 2, 3]})


def live_token(entry: Entry) -> str:
    return PlayerLink.objects.get(entry=entry, revoked_at__isnull=True).token


def test_a_registration_answers_the_player_s_page(client, floor_token, seated):
    event_id = seated["T1S1"].event_id
    answer = post(client, f"/api/events/{event_id}/entries", floor_token, {"name": "Ann Lee"})
    assert answer.status_code == 201
    body = answer.json()
    ann = Entry.objects.get(event_id=event_id, number=body["entry"])
    assert body["player_url"] == f"http://tdsystem.test/me/{live_token(ann)}/"
    assert client.get(body["player_url"].removeprefix("http://tdsystem.test")).status_code == 200


def test_the_seat_lookup_s_json_gives_one_match_its_page(client, seated):
    event_id = seated["T1S1"].event_id
    url = f"/api/events/{event_id}/seats/lookup"
    several = client.get(url, {"q": "t1s"}).json()
    assert [m["player"] for m in several] == ["T1S1", "T1S2", "T1S3"]
    assert {m["player_url"] for m in several} == {None} and not PlayerLink.objects.exists()
    (one,) = client.get(url, {"q": "T1S2"}).json()
    entry = seated["T1S2"]
    assert one == {
        "entry": entry.number,
        "player": "T1S2",
        "note": "",
        "status": "active",
        "table": 1,
        "seat": 2,
        "place": None,
        "player_url": f"http://tdsystem.test/me/{live_token(entry)}/",
    }
    assert client.get(url, {"entry": entry.number}).json() == [one]  # the same link again
    assert client.get(url, {"q": "nobody"}).json() == []
    assert client.get(url, {"entry": 0}).status_code == 400
    assert client.get("/api/events/999999/seats/lookup", {"q": "a"}).status_code == 404


def test_the_seat_lookup_gives_no_page_to_a_player_out(client, seated):
    out = seated["T1S3"]
    bustout_record(event_id=out.event_id, entry_ids=[out.pk], actor=ACTOR)
    (one,) = client.get(f"/api/events/{out.event_id}/seats/lookup", {"entry": out.number}).json()
    assert (one["status"], one["place"], one["player_url"]) == ("busted", 3, None)
    assert not PlayerLink.objects.filter(entry=out).exists()


def test_the_staff_read_and_renew_an_entry_s_link(client, floor_token, seated):
    entry = seated["T1S2"]
    url = f"/api/events/{entry.event_id}/entries/{entry.number}/player-link"
    read = client.get(url, **bearer(floor_token))
    assert read.status_code == 200
    old = read.json()
    assert old["player_url"] == f"http://tdsystem.test/me/{live_token(entry)}/"
    assert (old["entry"], old["player"], old["seen_at"]) == (entry.number, "T1S2", None)
    assert client.get(url, **bearer(floor_token)).json() == old  # made once
    renewed = post(client, url, floor_token)
    assert renewed.status_code == 201
    new = renewed.json()
    assert new["player_url"] != old["player_url"]
    assert client.get(old["player_url"].removeprefix("http://tdsystem.test")).status_code == 404
    assert client.get(new["player_url"].removeprefix("http://tdsystem.test")).status_code == 200
    none = f"/api/events/{entry.event_id}/entries/99/player-link"
    missing = client.get(none, **bearer(floor_token))
    assert missing.status_code == 404


def test_a_link_is_the_staff_s_only(client, seated, table_device):
    entry = seated["T1S2"]
    url = f"/api/events/{entry.event_id}/entries/{entry.number}/player-link"
    assert client.get(url).status_code == 401
    assert post(client, url, None).status_code == 401
    device = make_token(table_device)
    assert client.get(url, **bearer(device)).status_code == 403
    assert post(client, url, device).status_code == 403
    outsider = make_token(make_user("elsewhere", "floor", events=False))
    assert client.get(url, **bearer(outsider)).status_code == 403
    assert post(client, url, outsider).status_code == 403
    assert not PlayerLink.objects.exists()
