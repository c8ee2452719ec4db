"""A database that does not answer: 503 pages and JSON, and the console's banner saying so.

The middleware tests use no database at all (pytest-django refuses any query), which is
the point: the error page must not need the database it reports missing. The full outage
against a real PostgreSQL is tests/faults/test_database_outage.py.
"""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import IntegrityError, InterfaceError, OperationalError
from django.urls import include, path

from tdsystem.core import health


class Cause(Exception):
    """A driver error as psycopg raises it, with its SQLSTATE."""

    def __init__(self, sqlstate):
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def fails_with(exc: Exception, sqlstate: str | None = None):
    def view(request):
        if sqlstate:
            raise exc from Cause(sqlstate)
        raise exc

    return view


urlpatterns = [
    path("page", fails_with(OperationalError("connection refused"))),
    path("api/events/1/clock", fails_with(OperationalError("couldn't get a connection"))),
    path("closed", fails_with(InterfaceError("connection already closed"))),
    path("shutdown", fails_with(OperationalError("terminating connection"), "57P01")),
    path("deadlock", fails_with(OperationalError("deadlock detected"), "40P01")),
    path("integrity", fails_with(IntegrityError("duplicate key"))),
    path("", include("tdsystem.urls")),  # the pages' own links (the busy page has them)
]

urls = pytest.mark.urls(__name__)


@urls
def test_a_page_gets_a_plain_503_telling_the_floor_to_keep_paper_notes(client):
    response = client.get("/page")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"]
    page = response.content.decode()
    assert "database is unreachable" in page and "paper notes" in page
    assert "Traceback" not in page and "connection refused" not in page


@urls
def test_a_page_asked_for_reloads_itself_and_a_form_sent_is_not_sent_again(client, db):
    page = client.get("/page").content.decode()
    assert '<meta http-equiv="refresh" content="10">' in page
    assert "tries again by itself every 10 seconds" in page
    sent = client.post("/page", {"name": "x"})
    assert sent.status_code == 503 and "refresh" not in sent.content.decode()


@urls
def test_the_api_gets_a_json_503(client, db):
    # A write begins its transaction before the view (core.writes; a BEGIN that fails is
    # tests/core/test_write_transaction.py's): here the database answers that much.
    response = client.post("/api/events/1/clock", {}, content_type="application/json")
    assert response.status_code == 503
    assert "database is unreachable" in response.json()["error"]


@urls
@pytest.mark.parametrize("url", ["/closed", "/shutdown"])
def test_a_lost_connection_or_a_server_shutting_down_is_a_503(client, url):
    assert client.get(url).status_code == 503


@urls
def test_an_error_on_a_working_database_is_not_called_an_outage(client):
    with pytest.raises(IntegrityError):
        client.get("/integrity")


@urls
def test_a_deadlock_the_database_broke_is_busy_try_again_not_an_outage(client):
    response = client.get("/deadlock")
    assert response.status_code == 409
    page = response.content.decode()
    assert "try again" in page and "database is unreachable" not in page


@pytest.fixture
def database_goes_down(monkeypatch):
    """From the call on, every session lookup fails as it does when PostgreSQL is down."""

    def load(self):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    def go_down():
        monkeypatch.setattr(SessionStore, "load", load)
        monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))

    return go_down


@pytest.mark.django_db
def test_the_banner_says_the_database_is_down_when_the_staff_check_cannot_reach_it(
    client, director, database_goes_down
):
    client.force_login(director)
    database_goes_down()
    response = client.get("/health/banner")
    assert response.status_code == 200
    text = response.content.decode()
    assert "health-banner" in text and "Database unreachable" in text
    assert "No Celery worker" not in text  # its heartbeat is in the database: unknown


@pytest.mark.django_db
def test_a_staff_page_answers_503_when_the_session_cannot_be_read(
    client, director, database_goes_down
):
    client.force_login(director)
    database_goes_down()
    response = client.get("/console/")
    assert response.status_code == 503
    assert "keep paper notes" in response.content.decode()


def test_without_a_session_cookie_the_banner_still_sends_to_the_login_page(
    client, database_goes_down
):
    database_goes_down()
    response = client.get("/health/banner")
    assert response.status_code == 302 and "/login/" in response["Location"]
