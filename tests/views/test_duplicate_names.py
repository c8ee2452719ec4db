"""Two players of one name: the seating console and the API warn, confirm, or take a note."""

from __future__ import annotations

import json

import pytest

from tdsystem.seating.models import Entry
from tdsystem.seating.services import player_register
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db


def console_url(event, rest: str = "") -> str:
    return f"/console/events/{event.pk}/seating/{rest}"


def htmx(client, url: str, data: dict | None = None):
    return client.post(url, data or {}, HTTP_HX_REQUEST="true")


def api_register(client, event, token: str, body: dict):
    return client.post(
        f"/api/events/{event.pk}/entries",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


# The seating console -------------------------------------------------------------------------


def test_the_console_warns_and_offers_register_anyway_or_a_note(client, event, floor_person):
    player_register(event=event, name="Ann Lee", actor=ACTOR)
    client.force_login(floor_person)
    response = htmx(client, console_url(event, "register"), {"name": "ann lee"})
    body = response.content.decode()
    assert "Already registered under this name: #1 Ann Lee, no seat yet." in body
    assert "Register anyway" in body and 'name="confirm_duplicate" value="1"' in body
    assert 'id="id_note"' in body and "HX-Trigger" not in response
    assert Entry.objects.count() == 1


def test_the_console_registers_anyway_when_confirmed(client, event, floor_person):
    player_register(event=event, name="Ann Lee", actor=ACTOR)
    client.force_login(floor_person)
    data = {"name": "Ann Lee", "confirm_duplicate": "1"}
    body = htmx(client, console_url(event, "register"), data).content.decode()
    assert "#2 Ann Lee: registered" in body
    assert Entry.objects.count() == 2


def test_the_console_registers_with_a_note_and_shows_it_beside_the_name(
    client, event, floor_person
):
    player_register(event=event, name="Ann Lee", actor=ACTOR)
    client.force_login(floor_person)
    data = {"name": "Ann Lee", "note": "from Lyon"}
    body = htmx(client, console_url(event, "register"), data).content.decode()
    assert "#2 Ann Lee (from Lyon): registered" in body
    found = client.get(console_url(event, "search"), {"q": "ann"}, HTTP_HX_REQUEST="true")
    assert '<span class="pnote">(<bdi>from Lyon</bdi>)</span>' in found.content.decode()


def test_the_table_page_and_the_lookup_show_the_note(client, event, floor_person):
    people = arrange(event, {1: [1, 2]})
    player = people["T1S2"].player
    player.note = "from Lyon"
    player.save()
    client.force_login(floor_person)
    table = client.get(f"/console/events/{event.pk}/tables/1/").content.decode()
    assert '<bdi>T1S2</bdi> <span class="pnote">(<bdi>from Lyon</bdi>)</span>' in table
    lookup = client.get(f"/events/{event.pk}/seats/", {"q": "T1S"}).content.decode()
    assert '<span class="pnote">(<bdi>from Lyon</bdi>)</span>' in lookup
    seats = client.get(f"/api/events/{event.pk}/seats").json()
    assert [row.get("note") for row in seats] == [None, "from Lyon"]


def test_the_draw_screen_shows_the_note_beside_the_name(client, event):
    people = arrange(event, {1: [1, 2]})
    player = people["T1S2"].player
    player.note = "from Lyon"
    player.save()
    html = client.get(f"/events/{event.pk}/seats/draw/").content.decode()
    noted = '<span class="pname"><bdi>T1S2</bdi></span>'
    noted += '<span class="pnote">(<bdi>from Lyon</bdi>)</span>'
    assert f'<span class="name noted">{noted}</span>' in html
    assert '<span class="name"><bdi>T1S1</bdi></span>' in html


def test_the_import_refuses_duplicates_and_keeps_the_list_to_confirm(client, event, director):
    client.force_login(director)
    names = "Ann Lee\nBob Fry\nann lee"
    body = htmx(client, console_url(event, "register-many"), {"names": names}).content.decode()
    assert "Nothing imported: 1 duplicate name (" in body and "repeats line 1" in body
    assert "Ann Lee\nBob Fry\nann lee</textarea>" in body
    assert not Entry.objects.exists()
    data = {"names": names, "confirm_duplicates": "1"}
    body = htmx(client, console_url(event, "register-many"), data).content.decode()
    assert "3 players registered" in body and Entry.objects.count() == 3


# The API -------------------------------------------------------------------------------------


def test_the_api_answers_409_naming_the_existing_entry(client, event, floor_token):
    people = arrange(event, {2: [5]})
    response = api_register(client, event, floor_token, {"name": "t2s5"})
    assert response.status_code == 409
    body = response.json()
    assert "#1 T2S5, table 2 seat 5" in body["error"] and "field" not in body
    assert [(e["entry"], e["table"], e["seat"]) for e in body["existing"]] == [(1, 2, 5)]
    assert Entry.objects.count() == 1 and people


def test_the_api_registers_a_confirmed_duplicate_or_one_with_a_note(client, event, floor_token):
    api_register(client, event, floor_token, {"name": "Ann Lee"})
    confirmed = api_register(
        client, event, floor_token, {"name": "Ann Lee", "confirm_duplicate": True}
    )
    assert confirmed.status_code == 201 and confirmed.json()["note"] == ""
    noted = api_register(client, event, floor_token, {"name": "Ann Lee", "note": "from Lyon"})
    assert noted.status_code == 201 and noted.json()["note"] == "from Lyon"
    assert Entry.objects.count() == 3


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Ann", "confirm_duplicate": "yes"}, "confirm_duplicate"),
        ({"name": "Ann", "note": 5}, "note"),
        ({"name": "Ann", "note": "x" * 61}, "note"),
    ],
)
def test_the_api_refuses_bad_duplicate_fields_with_400(client, event, floor_token, body, field):
    response = api_register(client, event, floor_token, body)
    assert response.status_code == 400 and response.json()["field"] == field
    assert not Entry.objects.exists()
