"""The shot clock on the table page (a device sees its own table's), the floor's list and
the log, and the API: read in public, the dealer's buttons with a staff token."""

from __future__ import annotations

import json

import pytest
import time_machine

from tdsystem.engine import shotclock as sc
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, TableDevice, VenueTable
from tdsystem.simulation.seatings import field

pytestmark = pytest.mark.django_db

POLICY = {"shot_clock_starts": sc.STARTS_AT_START, "shot_clock_extensions": 1}


@pytest.fixture
def seated(event):
    Event.objects.filter(pk=event.pk).update(rule_overrides=POLICY)
    field(event, players=12, tables=2, seed=5)
    return event


def first_seat(event, table: int) -> Entry:
    return Entry.objects.filter(table__event=event, table__number=table).order_by("seat")[0]


def test_a_table_device_runs_its_tables_clock_from_the_table_page(client, seated, table_device):
    event = seated
    TableDevice.objects.create(user=table_device, venue_table=VenueTable.objects.get(number=1))
    client.force_login(table_device)
    page = client.get(f"/console/events/{event.pk}/tables/1/").content.decode()
    panel_url = f"/console/events/{event.pk}/tables/1/shot-clock/"
    assert f'hx-get="{panel_url}"' in page
    assert client.get(f"/console/events/{event.pk}/tables/2/shot-clock/").status_code == 403
    player = first_seat(event, 1)
    with time_machine.travel("2026-12-06 21:00:00Z", tick=False):
        answer = client.post(
            panel_url + "start",
            {"seat": player.seat, "street": "flop", "facing": "raise"},
            HTTP_HX_REQUEST="true",
        ).content.decode()
        assert "Clock on seat" in answer and player.player.name in answer
        assert 'data-status="running"' in answer and "Extension: seat" in answer
        refused = client.post(panel_url + "expire", HTTP_HX_REQUEST="true").content.decode()
        assert "seconds left" in refused
    with time_machine.travel("2026-12-06 21:00:31Z", tick=False):
        face = client.get(panel_url + "?part=face").content.decode()
        assert 'data-status="expired"' in face and "the hand is dead" in face
        client.post(panel_url + "expire", HTTP_HX_REQUEST="true")
    # The device is not the floor: no log link for it, and the floor's pages refuse it.
    assert client.get(f"/console/events/{event.pk}/shot-clock/").status_code == 403


def test_the_floor_sees_the_expiry_and_the_log(client, seated, floor_person):
    event = seated
    client.force_login(floor_person)
    player = first_seat(event, 2)
    url = f"/console/events/{event.pk}/tables/2/shot-clock/"
    with time_machine.travel("2026-12-06 21:00:00Z", tick=False):
        client.post(url + "start", {"seat": player.seat, "street": "river", "facing": "none"})
    with time_machine.travel("2026-12-06 21:01:00Z", tick=False):
        floor = client.get("/console/shot-clocks/").content.decode()
        assert 'data-table="2"' in floor and "not answered at the table" in floor
        client.post(url + "expire")
        floor = client.get("/console/shot-clocks/").content.decode()
        assert "checked" in floor and "not answered" not in floor
        log = client.get(f"/console/events/{event.pk}/shot-clock/?table=2").content.decode()
        assert log.count('<tr class="') == 2 and player.player.name in log
    assert "shot-clocks" in client.get("/console/floor/").content.decode()


def api(client, event, table: int, body: dict | None = None, token: str | None = None):
    url = f"/api/events/{event.pk}/tables/{table}/shot-clock"
    if body is None:
        return client.get(url)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def test_the_api_reads_and_runs_the_clock(client, seated, floor_token):
    event = seated
    player = first_seat(event, 1)
    read = api(client, event, 1).json()
    assert (read["on"], read["status"]) == (True, "idle")
    assert {
        "seat": player.seat,
        "entry": player.number,
        "player": player.player.name,
        "extensions": 1,
    } in read["seats"]
    assert api(client, event, 1, {"action": "reset"}).status_code == 401
    missing = api(client, event, 1, {"action": "start"}, floor_token)
    assert (missing.status_code, missing.json()["field"]) == (400, "seat")
    started = api(client, event, 1, {"action": "start", "seat": player.seat}, floor_token).json()
    assert (started["status"], started["seat"], started["seconds"]) == ("running", player.seat, 30)
    extended = api(client, event, 1, {"action": "extend", "seat": player.seat}, floor_token)
    assert extended.json()["seconds"] == 60
    none_left = api(client, event, 1, {"action": "extend", "seat": player.seat}, floor_token)
    assert none_left.status_code == 409 and "no extensions left" in none_left.json()["error"]
    assert api(client, event, 1, {"action": "reset"}, floor_token).json()["status"] == "idle"
    assert api(client, event, 77).status_code == 404


def test_the_panel_reads_in_a_fixed_number_of_queries(
    client, seated, floor_person, django_assert_max_num_queries
):
    """A device refreshes its face every 5 seconds and its panel every 30 at every table."""
    client.force_login(floor_person)
    url = f"/console/events/{seated.pk}/tables/1/shot-clock/"
    client.get(url)
    for part in ("?part=face", ""):
        with django_assert_max_num_queries(12):  # 10 on SQLite, with 6 players seated
            assert client.get(url + part).status_code == 200
