"""The room's stable addresses: /clock/, /seats/... lead to the current event, whatever its id."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import resolve

from tdsystem.core.actors import Actor
from tdsystem.core.network import public_url
from tdsystem.events import services
from tdsystem.events.models import Event
from tdsystem.events.selectors_life import current_event_id
from tdsystem.venue import life
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
ACTOR = Actor(label="test")
NOW = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)


def started(name: str) -> Event:
    event = make_event(600, 600, name=name)
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    return event


def finished(name: str) -> Event:
    event = started(name)
    services.clock_action(event_id=event.pk, action="finish", actor=ACTOR)
    return event


def planned(name: str, start: datetime | None = None) -> Event:
    event = make_event(600, name=name)
    if start:
        Event.objects.filter(pk=event.pk).update(scheduled_start=start)
    return event


# Which event is current


def test_it_has_no_current_event_without_events():
    assert current_event_id(NOW) is None


def test_it_prefers_a_running_event_to_planned_and_finished_ones():
    finished("Last week")
    planned("Next week", NOW)
    running = started("Tonight")
    assert current_event_id(NOW) == running.pk


def test_a_paused_event_counts_as_running_and_the_newest_of_several_wins():
    started("Early table")
    late = started("Late table")
    services.clock_action(event_id=late.pk, action="pause", actor=ACTOR)
    assert current_event_id(NOW) == late.pk


def test_it_takes_the_planned_event_with_the_nearest_scheduled_start():
    planned("In two weeks", NOW + timedelta(days=14))
    nearest = planned("Tonight at eight", NOW + timedelta(hours=1))
    planned("Yesterday, never started", NOW - timedelta(days=1))
    planned("No start given")
    assert current_event_id(NOW) == nearest.pk


def test_without_scheduled_starts_the_newest_planned_event_wins():
    planned("Older")
    newer = planned("Newer")
    assert current_event_id(NOW) == newer.pk


def test_a_planned_event_comes_before_a_finished_one():
    finished("Last week")
    copy = planned("This week")
    assert current_event_id(NOW) == copy.pk


def test_with_only_finished_events_the_last_one_to_finish_wins():
    older, newer = started("Main event, day 1"), started("Side event")
    with time_machine.travel(NOW):
        services.clock_action(event_id=newer.pk, action="finish", actor=ACTOR)
    with time_machine.travel(NOW + timedelta(hours=3)):
        services.clock_action(event_id=older.pk, action="finish", actor=ACTOR)
    assert current_event_id(NOW) == older.pk  # finishing order counts, not creation


def test_an_archived_event_is_never_current():
    done = finished("Archived night")
    life.event_archive(event_id=done.pk, actor=ACTOR)
    assert current_event_id(NOW) is None
    running = started("Running, then archived by hand")
    Event.objects.filter(pk=running.pk).update(archived_at=NOW)
    assert current_event_id(NOW) is None


# The stable addresses


@pytest.mark.parametrize(
    ("stable", "page", "follows"),
    [
        ("/clock/", "clock/", True),
        ("/seats/draw/", "seats/draw/", True),
        ("/seats/", "seats/", False),
        ("/schedule/", "schedule/", False),
    ],
)
def test_it_redirects_each_stable_address_to_the_current_events_page(client, stable, page, follows):
    event = started("Tonight")
    answer = client.get(stable)
    assert answer.status_code == 302
    assert answer["Location"] == f"/events/{event.pk}/{page}" + ("?follow=1" if follows else "")
    assert client.get(answer["Location"]).status_code == 200


def test_a_redirect_keeps_the_query(client):
    event = started("Tonight")
    answer = client.get("/clock/?layout=draw&sound=on")
    assert answer["Location"] == f"/events/{event.pk}/clock/?layout=draw&sound=on&follow=1"
    answer = client.get("/seats/?q=ann+lee")
    assert answer["Location"] == f"/events/{event.pk}/seats/?q=ann+lee"


def test_a_redirect_follows_the_next_weeks_copy(client):
    week_one = started("Thursday")
    assert client.get("/clock/")["Location"].startswith(f"/events/{week_one.pk}/")
    services.clock_action(event_id=week_one.pk, action="finish", actor=ACTOR)
    week_two = life.event_copy(source_id=week_one.pk, name="Thursday II", actor=ACTOR)
    assert client.get("/clock/")["Location"].startswith(f"/events/{week_two.pk}/")


def test_the_events_own_addresses_stay_as_they_are():
    assert resolve("/events/7/clock/").url_name == "clock_screen"
    assert resolve("/events/7/schedule/").url_name == "schedule"
    assert resolve("/events/7/seats/").view_name == "seating:lookup"
    assert resolve("/events/7/seats/poster/").view_name == "seating:poster"
    assert resolve("/events/7/seats/draw/").view_name == "seating:draw_screen"


@pytest.mark.parametrize("stable", ["/clock/", "/seats/", "/seats/draw/", "/schedule/"])
def test_without_an_event_it_says_so_and_looks_again_every_30_seconds(client, stable):
    answer = client.get(stable + "?layout=draw")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "No event yet" in html and "every 30 seconds" in html
    assert '<meta http-equiv="refresh" content="30">' in html
    assert "Traceback" not in html


def test_the_permanent_poster_names_the_stable_lookup(client):
    answer = client.get("/seats/poster/")  # works before any event exists
    html = answer.content.decode()
    assert answer.status_code == 200
    assert public_url("/seats/") in html and "<svg" in html
    event = started("Tonight")
    own = client.get(f"/events/{event.pk}/seats/poster/").content.decode()
    assert public_url(f"/events/{event.pk}/seats/") in own  # the event's poster keeps its own


def test_the_screens_carry_the_follow_check(client):
    event = started("Tonight")
    for url in (f"/events/{event.pk}/clock/", f"/events/{event.pk}/seats/draw/"):
        html = client.get(url).content.decode()
        assert "js/screen-follow.js" in html and f'data-event="{event.pk}"' in html
        assert 'data-current-event-url="/api/current-event"' in html
        assert 'data-seconds="60"' in html
    assert 'data-home="/clock/"' in client.get(f"/events/{event.pk}/clock/").content.decode()


def test_the_follow_interval_comes_from_the_setting(client, settings):
    settings.SCREEN_FOLLOW_SECONDS = 2
    event = started("Tonight")
    html = client.get(f"/events/{event.pk}/seats/draw/").content.decode()
    assert 'data-seconds="2"' in html and 'data-home="/seats/draw/"' in html


# The JSON read


def test_the_api_names_the_current_event(client):
    event = started("Tonight")
    answer = client.get("/api/current-event")
    assert answer.status_code == 200
    assert answer.json() == {"id": event.pk, "name": "Tonight", "status": "running"}
    assert "no-cache" in answer["Cache-Control"]


def test_the_api_answers_404_without_a_current_event(client):
    done = finished("Archived night")
    life.event_archive(event_id=done.pk, actor=ACTOR)
    answer = client.get("/api/current-event")
    assert answer.status_code == 404 and answer.json() == {"error": "no current event"}


def test_the_api_refuses_a_write(client):
    assert client.post("/api/current-event").status_code == 405


# Query counts


def test_a_redirect_costs_one_query(client, django_assert_num_queries):
    planned("This week")
    with django_assert_num_queries(1):
        assert client.get("/clock/").status_code == 302


def test_with_only_finished_events_it_costs_two(client, django_assert_num_queries):
    finished("Last week")
    with django_assert_num_queries(2):
        assert client.get("/api/current-event").status_code == 200


@pytest.fixture
def screen_cache():
    from tdsystem.core import screencache

    screencache.clear()
    yield
    screencache.clear()


def test_the_api_answers_from_the_screen_cache(
    client, settings, screen_cache, django_assert_num_queries
):
    settings.SCREEN_CACHE_SECONDS = 60
    started("Tonight")
    with django_assert_num_queries(1):
        client.get("/api/current-event")
    with django_assert_num_queries(0):
        for _ in range(5):
            assert client.get("/api/current-event").status_code == 200
