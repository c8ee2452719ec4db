"""The screens' clock poll answered ahead of the middleware (tdsystem/api/clock_poll.py):
the same body and headers as through the whole list, in the reader's language, fresh
after a clock action; whatever it cannot answer goes through the list as before."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
import time_machine
from django.conf import settings
from django.db import OperationalError
from django.test import Client
from django.urls import resolve, reverse

from tdsystem.api.clock_poll import CLOCK_PATH
from tdsystem.core.actors import Actor
from tdsystem.events import selectors, services
from tdsystem.simulation.seatings import field

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
WITHOUT = [m for m in settings.MIDDLEWARE if not m.endswith("ClockPollMiddleware")]


def answered_first(response) -> bool:
    """True when the poll never reached the rest of the list (no session was opened)."""
    return not hasattr(response.wsgi_request, "session")


def through_the_list(path: str, **headers):
    """The same poll through the middleware list without the poll's own."""
    with mock.patch.object(settings, "MIDDLEWARE", WITHOUT):
        return Client(headers=headers).get(path)


@pytest.fixture
def running(event):
    with time_machine.travel(T0, tick=False):
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
    return event


@pytest.mark.parametrize("language", ["en", "ja", "ar"])
def test_a_poll_is_answered_first_with_the_lists_body_and_headers(running, language):
    path = f"/api/events/{running.pk}/clock"
    reader = Client(headers={"accept-language": language})
    with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
        learned = reader.get(path)
        first = reader.get(path)
        listed = through_the_list(path, **{"accept-language": language})
    assert not answered_first(learned) and answered_first(first)
    assert first.status_code == listed.status_code == 200
    assert first.content == listed.content == learned.content
    assert list(first.items()) == list(listed.items())
    assert first["Content-Language"] == language
    assert int(first["Content-Length"]) == len(first.content)


def test_the_body_is_the_selectors_json_byte_for_byte(running):
    path = f"/api/events/{running.pk}/clock"
    client = Client()
    now = T0 + timedelta(seconds=42)
    with time_machine.travel(now, tick=False):
        client.get(path)
        first = client.get(path)
        payload = selectors.event_clock_payload(running.pk, now)
    assert answered_first(first)
    assert first.content == json.dumps(payload).encode()
    assert first.json()["remaining_ms"] == 600_000 - 42_000


def test_a_clock_action_shows_on_the_next_poll_within_the_screen_cache(
    running, settings, director_token
):
    settings.SCREEN_CACHE_SECONDS = 60  # the event and the figures stay cached
    path = f"/api/events/{running.pk}/clock"
    client = Client()
    with time_machine.travel(T0 + timedelta(seconds=10), tick=False):
        client.get(path)
        before = client.get(path)
        changed = client.post(
            path,
            {"action": "pause"},
            content_type="application/json",
            headers={"authorization": f"Bearer {director_token}"},
        )
        after = client.get(path)
        expected = json.dumps(selectors.event_clock_payload(running.pk, T0 + timedelta(seconds=10)))
    assert changed.status_code == 200
    assert answered_first(before) and answered_first(after)
    assert before.json()["status"] == "running" and after.json()["status"] == "paused"
    assert after.json()["version"] == before.json()["version"] + 1
    assert after.content == expected.encode()
    with time_machine.travel(T0 + timedelta(seconds=70), tick=False):
        later = client.get(path)
    assert later.json()["remaining_ms"] == after.json()["remaining_ms"]  # paused


def test_lang_in_the_address_sets_the_cookie_through_the_list_then_is_answered_first(running):
    path = f"/api/events/{running.pk}/clock?lang=ja"
    client = Client()
    asked = client.get(path)
    assert not answered_first(asked)
    assert asked.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    assert asked["Content-Language"] == "ja"
    again = client.get(path)  # the cookie came back: nothing left to set
    assert not again.cookies
    polled = client.get(path)
    assert answered_first(polled) and polled["Content-Language"] == "ja"
    assert polled.json()["schedule_assumption"] == asked.json()["schedule_assumption"]
    assert (
        polled.json()["schedule_assumption"]
        != Client().get(path[: -len("?lang=ja")]).json()["schedule_assumption"]
    )


def test_the_language_cookie_outvotes_the_browsers_language(running):
    path = f"/api/events/{running.pk}/clock"
    client = Client(headers={"accept-language": "ja"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    client.get(path)
    polled = client.get(path)
    assert answered_first(polled) and polled["Content-Language"] == "vi"


def test_a_signed_in_reader_goes_through_the_list(running, director):
    path = f"/api/events/{running.pk}/clock"
    client = Client()
    client.force_login(director)
    client.get(path)
    polled = client.get(path)
    assert not answered_first(polled)
    assert polled.status_code == 200


def test_other_queries_methods_and_unknown_events_go_through_the_list(running):
    client = Client()
    path = f"/api/events/{running.pk}/clock"
    client.get(path)
    assert not answered_first(client.get(f"{path}?x=1"))
    assert not answered_first(client.head(path))
    unknown = client.get(f"/api/events/{running.pk + 1000}/clock")
    assert unknown.status_code == 404 and unknown.json()["error"]
    assert unknown["Content-Security-Policy"]


def test_a_nul_in_a_cookie_or_a_host_not_allowed_is_refused_as_before(running):
    path = f"/api/events/{running.pk}/clock"
    client = Client()
    client.get(path)
    client.cookies["x"] = "a\x00b"
    assert client.get(path).status_code == 400
    assert Client().get(path, headers={"host": "elsewhere.example"}).status_code == 400


def test_a_database_that_does_not_answer_is_the_lists_503(running):
    path = f"/api/events/{running.pk}/clock"
    client = Client()
    client.get(path)
    with mock.patch.object(
        selectors, "clock_read_counted", side_effect=OperationalError("connection refused")
    ):
        down = client.get(path)
    assert down.status_code == 503 and down["Retry-After"]
    assert down.json()["error"] and down["Content-Security-Policy"]


def test_a_changed_setting_is_learned_again(running, settings):
    path = f"/api/events/{running.pk}/clock"
    client = Client()
    client.get(path)
    settings.X_FRAME_OPTIONS = "SAMEORIGIN"
    learned = client.get(path)
    polled = client.get(path)
    assert not answered_first(learned) and answered_first(polled)
    assert polled["X-Frame-Options"] == "SAMEORIGIN"


@pytest.mark.parametrize("event_id", [1, 42, 2**40])
def test_the_polls_path_is_the_clock_route(event_id):
    path = reverse("clock_json", args=[event_id])
    assert CLOCK_PATH.fullmatch(path)
    assert resolve(path).url_name == "clock_json"
    assert not CLOCK_PATH.fullmatch(path + "/")


def test_the_cached_part_is_encoded_once_and_answered_as_the_whole_would_be(event, settings):
    """The field figures, payouts and move slips are encoded once while they are cached;
    every answer is still the whole payload's JSON, the clock's part fresh each time."""
    settings.SCREEN_CACHE_SECONDS = 60
    field(event, players=40, tables=5)
    with time_machine.travel(T0, tick=False):
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
    running = event
    encoded = []

    def encode(obj):
        encoded.append(sorted(obj)[:2])
        return json.dumps(obj)

    bodies = []
    for second in (5, 6, 7):
        now = T0 + timedelta(seconds=second)
        with time_machine.travel(now, tick=False):
            bodies.append(selectors.event_clock_json(running.pk, now, encode))
            payload = selectors.event_clock_payload(running.pk, now)
        assert bodies[-1] == json.dumps(payload)
        assert payload["payouts"] and payload["entries"] == 40
    assert len({body for body in bodies}) == 3  # the time left moved each second
    assert len(encoded) == 4  # three clocks, the cached part once


def test_a_key_of_both_parts_is_where_the_whole_payload_puts_it(running, monkeypatch):
    """An app's panel with a key the clock has too: the answer is the merged payload's."""
    from tdsystem.events import hooks

    panel = hooks.screen_panel
    monkeypatch.setattr(
        hooks, "screen_panel", lambda event, figures: {**panel(event, figures), "status": "x"}
    )
    now = T0 + timedelta(seconds=5)
    with time_machine.travel(now, tick=False):
        body = selectors.event_clock_json(running.pk, now, json.dumps)
        payload = selectors.event_clock_payload(running.pk, now)
    assert body == json.dumps(payload)
    assert list(json.loads(body)).index("status") == list(payload).index("status")
    assert json.loads(body)["status"] == "x"
