"""The secret links to players' own pages: one live link per entry, renewed by the floor."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.players import links
from tdsystem.players.models import PlayerLink
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    event = make_event(30)
    return arrange(event, {1: [1, 2, 3]})


def test_an_entry_has_one_live_link_made_once(seated):
    entry = seated["T1S2"]
    first = links.link_of_entry(entry)
    assert links.link_of_entry(entry) == first
    assert len(first.token) >= 22  # 128 random bits
    assert links.link_by_token(first.token) == first
    assert links.link_by_token("not-a-token") is None


def test_a_renewed_link_stops_the_old_page(seated, client):
    entry = seated["T1S2"]
    old = links.link_of_entry(entry)
    assert client.get(f"/me/{old.token}/").status_code == 200
    new = links.link_renew(entry=entry, actor=Actor(label="floor"))
    assert new.token != old.token
    assert client.get(f"/me/{old.token}/").status_code == 404
    page = client.get(f"/me/{new.token}/")
    assert page.status_code == 200 and b'id="me-seat">2<' in page.content
    assert PlayerLink.objects.filter(entry=entry, revoked_at__isnull=True).count() == 1
    assert links.player_url(new).endswith(f"/me/{new.token}/")
