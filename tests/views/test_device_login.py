"""A table device logs in and lands on its own table, not on a console it may not open."""

from __future__ import annotations

import pytest

from tdsystem.seating.models import EventTable, TableDevice, VenueTable
from tdsystem.simulation.seatings import arrange
from tests.personas import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(client, user):
    return client.post("/login/", {"username": user.username, "password": PASSWORD})


def test_a_table_device_lands_on_its_table_in_the_event_playing_there(client, event, table_device):
    arrange(event, {5: [1, 2, 3], 7: [1, 2, 3]}, positions={5: (1, 2, 3), 7: (1, 2, 3)})
    venue = EventTable.objects.get(event=event, number=7).venue_table
    TableDevice.objects.create(user=table_device, venue_table=venue)
    landing = log_in(client, table_device)
    assert landing.status_code == 302 and landing["Location"] == "/console/my-table/"
    page = client.get("/console/my-table/", follow=True)
    assert page.redirect_chain[-1][0] == f"/console/events/{event.pk}/tables/7/"
    assert page.status_code == 200 and "Table 7" in page.content.decode()


def test_a_device_whose_table_plays_no_event_waits_on_a_page_that_says_so(client, table_device):
    TableDevice.objects.create(
        user=table_device, venue_table=VenueTable.objects.create(number=12, seats=9)
    )
    log_in(client, table_device)
    page = client.get("/console/my-table/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table 12" in text and "No event is playing at this table" in text


def test_staff_still_land_on_the_console(client, director, floor_person):
    assert log_in(client, director)["Location"] == "/console/"
    assert client.get("/console/my-table/")["Location"] == "/console/"  # not a device
    client.logout()
    assert log_in(client, floor_person)["Location"] == "/console/"
    assert client.get("/console/my-table/").status_code == 403  # no table right


def test_a_login_with_a_next_page_goes_there(client, table_device):
    response = client.post("/login/?next=/api/docs", {"username": "table7", "password": PASSWORD})
    assert response["Location"] == "/api/docs"


UNTIED = "not tied to a table"


def test_it_refuses_every_table_to_a_device_login_not_tied_to_one(client, event, table_device):
    from tdsystem.core.models import LogEntry
    from tdsystem.seating.models import Move

    arrange(event, {5: [1, 2, 3], 7: [1, 2, 3]}, positions={5: (1, 2, 3), 7: (1, 2, 3)})
    log_in(client, table_device)
    before = LogEntry.objects.count()
    for number in (5, 7):
        page = client.get(f"/console/events/{event.pk}/tables/{number}/")
        assert page.status_code == 403 and UNTIED in page.content.decode()
        hand = client.post(f"/console/events/{event.pk}/tables/{number}/hand", {"hand": "1"})
        assert hand.status_code == 403 and UNTIED in hand.content.decode()
    move = Move.objects.filter(event=event).first()
    if move is not None:
        assert client.post(f"/console/events/{event.pk}/moves/{move.pk}/ack").status_code == 403
    # Nothing changed; each refusal is in the audit log (who, the path, the right).
    assert LogEntry.objects.exclude(action="access.refused").count() == before
    refused = LogEntry.objects.filter(action="access.refused", actor=table_device)
    assert refused.count() == 4 + (move is not None)


def test_it_tells_an_untied_device_on_landing_to_ask_the_director(client, table_device):
    landing = log_in(client, table_device)
    assert landing.status_code == 302
    page = client.get(landing["Location"], follow=True)
    assert page.status_code == 403
    text = page.content.decode()
    assert UNTIED in text and "ask the director" in text


def test_it_refuses_api_writes_to_an_untied_device_with_the_reason(client, event, table_device):
    from tests.personas import make_token

    token = make_token(table_device)
    response = client.post(
        f"/api/events/{event.pk}/tables/7/hand",
        {"hand": 1},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 403 and UNTIED in response.json()["error"]


def test_it_still_refuses_a_tied_device_another_table(client, event, table_device):
    arrange(event, {5: [1, 2, 3], 7: [1, 2, 3]}, positions={5: (1, 2, 3), 7: (1, 2, 3)})
    venue = EventTable.objects.get(event=event, number=7).venue_table
    TableDevice.objects.create(user=table_device, venue_table=venue)
    log_in(client, table_device)
    assert client.get(f"/console/events/{event.pk}/tables/7/").status_code == 200
    other = client.get(f"/console/events/{event.pk}/tables/5/")
    assert other.status_code == 403 and UNTIED not in other.content.decode()
