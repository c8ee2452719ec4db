"""The web worker warms itself before it accepts: it serves the public pages of the
current event once to itself, writes nothing, and never fails for want of an event or a
database."""

from __future__ import annotations

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext

from tdsystem.core.actors import Actor
from tdsystem.events import services
from tdsystem.serving import _event_of, _host, warm_up
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
ACTOR = Actor(label="test")


@pytest.fixture(autouse=True)
def _as_the_test_client(settings):
    """The test's own database connection stays open across the requests, as Django's
    test client keeps it (a worker's requests give theirs back when they finish)."""
    settings.ALLOWED_HOSTS = ["testserver"]
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def test_it_serves_the_current_events_public_pages():
    event = make_event(600, 600, name="Warm")
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    served = warm_up(WSGIHandler())
    assert "302 /clock/" in served and "302 /seats/" in served
    for path in ("/api/events/{}/clock", "/api/events/{}/seats", "/events/{}/seats/?q=a"):
        assert f"200 {path.format(event.pk)}" in served


def test_it_writes_nothing():
    event = make_event(600, 600, name="Warm")
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    with CaptureQueriesContext(connection) as queries:
        warm_up(WSGIHandler())
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert statements and set(statements) <= {"SELECT", "SAVEPOINT", "RELEASE"}


def test_without_a_current_event_it_serves_only_the_stable_addresses():
    served = warm_up(WSGIHandler())
    assert served and all(not line.startswith("5") for line in served)
    assert not any("/api/events/" in line for line in served)


def test_a_failing_application_does_not_stop_the_warm_up():
    def broken(environ, start_response):
        raise RuntimeError("no database yet")

    assert warm_up(broken) == []


def test_it_reads_the_event_from_a_redirect_and_picks_an_allowed_host():
    assert _event_of("/events/12/clock/?follow=1") == 12
    assert _event_of("/login/?next=/clock/") is None
    assert _host(["*"]) == "127.0.0.1"
    assert _host([".example.org"]) == "www.example.org"
    assert _host(["tv.local", "localhost"]) == "tv.local"
