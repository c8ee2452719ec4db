"""The console's Export (an event's file downloaded) and Import (a file uploaded)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable
from tdsystem.simulation.seatings import arrange
from tdsystem.venue.transfer import event_export_json
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def upload(client, content: bytes, name: str = "friday.json"):
    return client.post(
        "/console/events/import/",
        {"file": SimpleUploadedFile(name, content, content_type="application/json")},
    )


def test_the_director_downloads_an_event_and_imports_it_again(client, director):
    event = make_event(600, name="Friday")
    arrange(event, {1: [1, 2, 3]})
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert f'href="/console/events/{event.pk}/export.json" download' in page
    response = client.get(f"/console/events/{event.pk}/export.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert f'filename="event-{event.pk}-' in response["Content-Disposition"]
    content = response.content
    assert json.loads(content)["event"] == event.pk

    assert "Import an event" in client.get("/console/").content.decode()
    assert (
        "you direct the events you import" in client.get("/console/events/import/").content.decode()
    )
    refused = upload(client, content)  # its tables are in play here
    assert refused.status_code == 400 and "in play here too: table 1" in refused.content.decode()
    EventTable.objects.filter(event=event).update(in_play=False)
    Entry.objects.filter(event=event).update(table=None, seat=None)
    done = upload(client, content)
    new = Event.objects.exclude(pk=event.pk).get()
    assert done.status_code == 302 and done["Location"] == f"/console/events/{new.pk}/"
    assert new.name == "Friday" and new.entries.count() == 3
    assert "Imported Friday: 1 event," in client.get(done["Location"]).content.decode()
    assert LogEntry.objects.get(event=new, action="event.import").actor == director


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"<html>", "The file is not JSON (line 1, column 1"),
        (b'{"format": "tdsystem-event", "version": 9}', "format version 9"),
    ],
)
def test_a_bad_file_answers_400_naming_what_is_wrong(client, director, content, message):
    client.force_login(director)
    events = Event.objects.count()
    response = upload(client, content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Event.objects.count() == events


@pytest.mark.parametrize(
    ("label", "field", "value", "message"),
    [
        ("seating.player", "name", "Ann\u202enhoJ", "field name: character 4 (U+202E RIGHT-TO-"),
        ("events.event", "scheduled_start", "10000-01-01T00:00:00Z", "field scheduled_start: "
         "choose a date and time from 2000-01-01 00:00 to 2100-12-31 23:59"),
    ],
)  # fmt: skip
def test_a_file_against_the_rules_of_text_or_dates_answers_400(
    client, director, label, field, value, message
):
    event = make_event(600, name="Friday")
    arrange(event, {1: [1, 2, 3]})
    doc = json.loads(event_export_json(event_id=event.pk))
    doc["rows"][label][-1]["fields"][field] = value
    EventTable.objects.filter(event=event).update(in_play=False)
    client.force_login(director)
    response = upload(client, json.dumps(doc).encode())
    assert response.status_code == 400
    assert f"{label} {doc['rows'][label][-1]['pk']}, {message}" in response.content.decode()
    assert Event.objects.count() == 1


def test_floor_staff_may_neither_export_nor_import(client, floor_person):
    event = make_event(600, name="Friday")
    client.force_login(floor_person)
    assert client.get(f"/console/events/{event.pk}/export.json").status_code == 403
    assert client.get("/console/events/import/").status_code == 403
    assert upload(client, b"{}").status_code == 403
    assert "Import an event" not in client.get("/console/").content.decode()
