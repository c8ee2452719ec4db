"""PUT /api/events/{id}/levels: the same service as the console's editor."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.structures.editing import stored_rows

pytestmark = pytest.mark.django_db


def put(client, event, token, body):
    return client.put(
        reverse("api:event_levels", args=[event.pk]),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def levels(event) -> list[dict]:
    return stored_rows(event.structure)


def test_a_director_changes_the_future_levels_of_a_running_event(client, director_token, event):
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    rows = levels(event)
    rows[1]["duration_seconds"] = 1200
    rows.insert(2, {"kind": "break", "duration_seconds": 600, "note": "Dinner"})
    answer = put(client, event, director_token, {"levels": rows})
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["level_index"] == 0 and len(body["levels"]) == 6
    assert body["levels"][2]["note"] == "Dinner"
    assert LogEntry.objects.filter(event=event, action="structure.edit").count() == 1


def test_a_refusal_is_a_400_naming_the_field_and_changes_nothing(client, director_token, event):
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    rows = levels(event)
    rows[0]["ante"] = 50
    answer = put(client, event, director_token, {"levels": rows})
    assert answer.status_code == 400
    assert answer.json()["field"] == "levels"
    assert "level 1 is being played" in answer.json()["error"]
    assert levels(event)[0]["ante"] == 10


def test_warnings_are_a_400_until_confirmed(client, director_token, event):
    rows = levels(event)
    rows[4]["small_blind"], rows[4]["big_blind"] = 1000, 3000
    answer = put(client, event, director_token, {"levels": rows})
    assert answer.status_code == 400 and answer.json()["field"] == "confirm_warnings"
    answer = put(client, event, director_token, {"levels": rows, "confirm_warnings": True})
    assert answer.status_code == 200 and answer.json()["warnings"]


@pytest.mark.parametrize(
    ("row", "field"),
    [({"small_blind": -1}, "levels"), ({"duration_seconds": 0}, "levels")],
)
def test_a_row_off_its_schema_is_a_400(client, director_token, event, row, field):
    rows = levels(event)
    rows[0].update(row)
    answer = put(client, event, director_token, {"levels": rows})
    assert answer.status_code == 400 and answer.json()["field"] == field


def test_floor_staff_may_not(client, floor_token, event):
    assert put(client, event, floor_token, {"levels": levels(event)}).status_code == 403
