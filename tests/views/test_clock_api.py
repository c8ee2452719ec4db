"""The clock JSON: public reads, token-authenticated staff writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.models import Clock
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def post(client, event, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(
        f"/api/events/{event.pk}/clock", body, content_type="application/json", **headers
    )


def test_the_clock_json_has_every_documented_field(client, event):
    body = client.get(f"/api/events/{event.pk}/clock").json()
    for key in (
        "status",
        "level",
        "on_break",
        "small_blind",
        "big_blind",
        "ante",
        "ante_type",
        "min_raise_to",
        "max_raise_to",
        "remaining_ms",
        "level_ends_at",
        "server_time",
        "next",
        "players_left",
        "entries",
        "average_stack",
    ):
        assert key in body, key
    assert body["status"] == "not-started" and body["level"] == 1
    assert (body["small_blind"], body["big_blind"], body["ante"]) == (50, 100, 10)
    assert body["min_raise_to"] == 200 and body["max_raise_to"] is None
    assert body["remaining_ms"] == 600_000 and body["level_ends_at"] is None
    assert body["next"]["big_blind"] == 200


def test_it_lists_running_events_first(client, db):
    a = make_event(60, name="Planned one")
    b = make_event(60, name="Running one")
    from tdsystem.events import services

    services.clock_action(event_id=b.pk, action="start", actor=Actor())
    body = client.get("/api/events").json()
    assert [e["name"] for e in body][:2] == ["Running one", "Planned one"]
    assert set(body[0]) == {"id", "name", "status", "archived"} and body[1]["id"] == a.pk


def test_a_director_token_controls_the_clock(client, event, director_token):
    with time_machine.travel(T0, tick=False):
        response = post(client, event, {"action": "start"}, director_token)
    assert response.status_code == 200
    assert response.json()["status"] == "running"
    assert response.json()["level_ends_at"] == (T0 + timedelta(minutes=10)).isoformat()
    with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
        body = post(client, event, {"action": "add_time", "seconds": -60}, director_token).json()
    assert body["remaining_ms"] == 510_000
    assert LogEntry.objects.filter(
        event=event, action="clock.add_time", actor_label="dora"
    ).exists()


@pytest.mark.parametrize("token", [None, "td_not-a-token"])
def test_anonymous_writes_are_refused_and_change_nothing(client, event, token):
    response = post(client, event, {"action": "start"}, token)
    assert response.status_code == 401
    assert Clock.objects.get(pk=event.pk).status == "not-started"


def test_a_session_cookie_does_not_authorise_api_writes(client, event, director):
    client.force_login(director)
    assert post(client, event, {"action": "start"}).status_code == 401


def test_floor_may_pause_but_not_change_levels(client, event, director_token, floor_token):
    post(client, event, {"action": "start"}, director_token)
    assert post(client, event, {"action": "next"}, floor_token).status_code == 403
    assert post(client, event, {"action": "pause"}, floor_token).status_code == 200
    assert Clock.objects.get(pk=event.pk).level_index == 0


def test_a_table_device_may_not_touch_the_clock(client, event, table_device):
    from tests.personas import make_token

    assert post(client, event, {"action": "pause"}, make_token(table_device)).status_code == 403


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "rewind"}, "action"),
        ({}, "action"),
        ({"action": "add_time"}, "seconds"),
        ({"action": "add_time", "seconds": "ten"}, "seconds"),
        ({"action": "add_time", "seconds": 1.5}, "seconds"),
        ({"action": "add_time", "seconds": True}, "seconds"),
    ],
)
def test_bad_input_gets_400_naming_the_field(client, event, director_token, body, field):
    response = post(client, event, body, director_token)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert Clock.objects.get(pk=event.pk).version == 0


def test_malformed_json_gets_400(client, event, director_token):
    response = client.post(
        f"/api/events/{event.pk}/clock",
        "{not json",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert response.status_code == 400


def test_an_impossible_action_gets_409_with_the_reason(client, event, director_token):
    response = post(client, event, {"action": "previous"}, director_token)
    assert response.status_code == 409
    assert "first level" in response.json()["error"]


def test_an_unknown_event_is_404(client):
    assert client.get("/api/events/999/clock").status_code == 404


def test_the_clock_json_is_computed_from_time_even_without_a_worker(client, event, director_token):
    with time_machine.travel(T0, tick=False):
        post(client, event, {"action": "start"}, director_token)
    with time_machine.travel(T0 + timedelta(seconds=660), tick=False):
        body = client.get(f"/api/events/{event.pk}/clock").json()
    assert body["level"] == 2 and body["remaining_ms"] == 540_000
    assert Clock.objects.get(pk=event.pk).level_index == 0  # nothing written by a read


def test_on_a_break_it_shows_the_break_and_the_level_after(client, event, director_token):
    with time_machine.travel(T0, tick=False):
        post(client, event, {"action": "start"}, director_token)
    with time_machine.travel(T0 + timedelta(seconds=1210), tick=False):
        body = client.get(f"/api/events/{event.pk}/clock").json()
    assert body["on_break"] is True and body["break_note"] == "Colour up"
    assert body["level"] == 3 and body["big_blind"] == 400


def test_the_clock_json_uses_a_constant_number_of_queries(
    client, event, django_assert_max_num_queries
):
    # Cold cache: clock row, event, schedule, slips, field figures, payout plan, chip leader,
    # the day's last hands. A warm poll is the clock row alone (test_clock_screen_page.py).
    with django_assert_max_num_queries(8):
        client.get(f"/api/events/{event.pk}/clock")


def test_the_clock_json_is_never_cached_as_add_never_cache_headers_says(client, event):
    from django.http import HttpResponse
    from django.utils.cache import add_never_cache_headers

    expected = HttpResponse()
    with time_machine.travel(T0, tick=False):
        add_never_cache_headers(expected)
        response = client.get(f"/api/events/{event.pk}/clock")
    assert response["Cache-Control"] == expected["Cache-Control"]
    assert response["Expires"] == expected["Expires"]
    assert response["Content-Type"] == "application/json; charset=utf-8"


@pytest.mark.parametrize("known", [True, False])
def test_the_read_ahead_of_the_api_route_answers_as_the_api_route(client, rf, event, known):
    from tdsystem.urls import api_urls

    api_view = next(p.callback for p in api_urls[0] if getattr(p, "name", None) == "clock")
    event_id = event.pk if known else event.pk + 1000
    with time_machine.travel(T0, tick=False):
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
        first = client.get(f"/api/events/{event_id}/clock")
        through_the_api = api_view(rf.get(f"/api/events/{event_id}/clock"), event_id=event_id)
    assert first.status_code == through_the_api.status_code == (200 if known else 404)
    assert first.content == through_the_api.content
    assert dict(first.items()).items() >= dict(through_the_api.items()).items()
