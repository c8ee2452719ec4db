"""The seat lookup's "Follow my seat": a form that opens the player's own page."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tdsystem.core.actors import Actor
from tdsystem.players import follow, links
from tdsystem.players.models import PlayerLink
from tdsystem.results.services import bustout_record
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    cache.clear()  # the limit per device counts in the cache
    event = make_event(30)
    return arrange(event, {1: [1, 2, 3]})


def test_the_lookup_s_single_match_offers_to_follow_the_seat(client, seated):
    entry = seated["T1S2"]
    page = client.get(f"/events/{entry.event_id}/seats/?entry={entry.number}").content.decode()
    assert f'action="/events/{entry.event_id}/seats/follow/"' in page
    assert f'name="entry" value="{entry.number}"' in page and 'id="follow"' in page
    several = client.get(f"/events/{entry.event_id}/seats/?q=T1S").content.decode()
    assert 'id="follow"' not in several  # only the one shown in full


def test_it_follows_an_entry_to_its_page_and_reuses_the_link(client, seated):
    entry = seated["T1S2"]
    url = f"/events/{entry.event_id}/seats/follow/"
    first = client.post(url, {"entry": entry.number})
    link = PlayerLink.objects.get(entry=entry)
    assert first.status_code == 302 and first["Location"] == f"/me/{link.token}/"
    again = client.post(url, {"entry": entry.number})
    assert again["Location"] == first["Location"]
    assert PlayerLink.objects.filter(entry=entry).count() == 1
    assert client.get(first["Location"]).status_code == 200
    # A lost phone: the floor's new link is on the new card only; whoever holds the old
    # phone cannot follow the player again from the lookup.
    renewed = links.link_renew(entry=entry, actor=Actor(label="floor"))
    refused = client.post(url, {"entry": entry.number})
    assert refused.status_code == 409 and "new card" in refused.content.decode()
    assert renewed.token not in refused.content.decode()
    lookup = client.get(f"/api/events/{entry.event_id}/seats/lookup", {"entry": entry.number})
    assert lookup.json()[0]["player_url"] is None


def test_it_refuses_a_player_out_another_event_s_entry_and_a_get(client, seated):
    entry = seated["T1S3"]
    bustout_record(event_id=entry.event_id, entry_ids=[entry.pk], actor=ACTOR)
    url = f"/events/{entry.event_id}/seats/follow/"
    out = client.post(url, {"entry": entry.number})
    assert out.status_code == 409 and "is not in play" in out.content.decode()
    other = make_event(30)
    elsewhere = client.post(f"/events/{other.pk}/seats/follow/", {"entry": seated["T1S1"].number})
    assert elsewhere.status_code == 404
    assert client.post(url, {"entry": "1; DROP"}).status_code == 400
    assert client.get(url, {"entry": seated["T1S1"].number}).status_code == 405
    assert client.post("/events/999999/seats/follow/", {"entry": 1}).status_code == 404
    assert not PlayerLink.objects.exists()


def test_one_device_may_ask_for_only_so_many_links(client, seated, monkeypatch):
    monkeypatch.setattr(follow, "FOLLOW_LIMIT", 2)
    url = f"/events/{seated['T1S1'].event_id}/seats/follow/"
    for key in ("T1S1", "T1S2"):
        assert client.post(url, {"entry": seated[key].number}).status_code == 302
    refused = client.post(url, {"entry": seated["T1S3"].number})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert not PlayerLink.objects.filter(entry=seated["T1S3"]).exists()
    other = client.post(url, {"entry": seated["T1S3"].number}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302  # another phone
