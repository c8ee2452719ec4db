"""Every write request runs its service and builds its answer in one transaction
(tdsystem/core/writes.py): an answer of 400 or more, an exception while building the
answer included, changes nothing; a refusal is still logged; reads and logging in stay
out of transactions."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError, connection, transaction
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import include, path

from tdsystem.api import flights as api_flights
from tdsystem.api import results as api_results
from tdsystem.core import writes
from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.results import views as results_views
from tdsystem.results.models import Finish
from tdsystem.seating import services
from tdsystem.seating import views_console as seating_views
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR

pytestmark = pytest.mark.django_db


def api_post(client, url: str, token: str, body: dict):
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def failing(*args, **kwargs):
    raise RuntimeError("the answer could not be built")


@pytest.fixture
def seated(event):
    for name in ("Ana", "Bob", "Cy"):
        services.player_register(event=event, name=name, actor=ACTOR)
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)
    return event


@pytest.fixture
def staff(client, director):
    client.force_login(director)
    client.raise_request_exception = False
    return client


def counts() -> tuple[int, ...]:
    return (
        Event.objects.count(),
        Entry.objects.count(),
        Entry.objects.filter(status="active").count(),
        Finish.objects.count(),
        LogEntry.objects.count(),
    )


def test_an_api_write_whose_answer_fails_changes_nothing(
    client, event, director_token, monkeypatch
):
    """The tester's flight: added, then the answer's read failed (a 500) and the flight stayed."""
    monkeypatch.setattr(api_flights, "day2_preview", failing)
    client.raise_request_exception = False
    before = counts()
    url = f"/api/events/{event.pk}/flights"
    assert api_post(client, url, director_token, {"name": "1A"}).status_code == 500
    assert counts() == before


def test_an_api_bust_out_whose_answer_fails_changes_nothing(
    client, seated, director_token, monkeypatch
):
    monkeypatch.setattr(api_results, "finish_json", failing)
    client.raise_request_exception = False
    before = counts()
    url = f"/api/events/{seated.pk}/bustouts"
    assert api_post(client, url, director_token, {"entries": [1]}).status_code == 500
    assert counts() == before


def test_a_page_registration_whose_answer_fails_changes_nothing(staff, seated, monkeypatch):
    monkeypatch.setattr(seating_views, "enrolled", failing)
    before = counts()
    url = f"/console/events/{seated.pk}/seating/register"
    assert staff.post(url, {"name": "Dee"}, HTTP_HX_REQUEST="true").status_code == 500
    assert counts() == before


def test_a_page_bust_out_whose_answer_fails_changes_nothing(staff, seated, monkeypatch):
    monkeypatch.setattr(results_views, "_recorded", failing)
    entry = Entry.objects.get(event=seated, number=1)
    before = counts()
    url = f"/console/events/{seated.pk}/results/bustouts"
    answer = staff.post(url, {"entry": entry.pk, "table": 1}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 500
    assert counts() == before


def test_a_refusal_rolls_back_and_is_still_logged(client, seated, floor_token, floor_person):
    url = f"/api/events/{seated.pk}/flights"
    assert api_post(client, url, floor_token, {"name": "1A"}).status_code == 403
    client.force_login(floor_person)
    assert client.post(f"/console/events/{seated.pk}/copy/").status_code == 403
    refused = LogEntry.objects.filter(action="access.refused").order_by("pk")
    assert [entry.data["path"] for entry in refused] == [url, f"/console/events/{seated.pk}/copy/"]
    assert not Event.objects.filter(flight="1A").exists()


# A view of each kind, to see the middleware's rule itself -----------------------------


def depth() -> int:
    return len(connection.atomic_blocks)


def writing(status: int):
    def view(request):
        log_record(event=None, actor=Actor(label="test"), action="test", summary=Text("written"))
        return HttpResponse(str(depth()), status=status)

    return view


def follow_up_fails(request):
    log_record(event=None, actor=Actor(label="test"), action="test", summary=Text("written"))

    def fails():
        raise RuntimeError("a follow-up after the commit")

    transaction.on_commit(fails)
    return HttpResponse("done")


urlpatterns = [
    path("ok", writing(200)),
    path("redirect", writing(302)),
    path("conflict", writing(409)),
    path("follow-up", follow_up_fails),
    path("", include("tdsystem.urls")),
]
urls = pytest.mark.urls(__name__)


@urls
@pytest.mark.parametrize(("url", "kept"), [("/ok", 1), ("/redirect", 1), ("/conflict", 0)])
def test_a_write_is_kept_only_when_its_answer_is_not_an_error(client, url, kept):
    client.post(url)
    assert LogEntry.objects.filter(action="test").count() == kept


@urls
def test_a_write_runs_in_a_transaction_of_its_own_and_a_read_in_none(client):
    outside = depth()
    assert int(client.post("/ok").content) == outside + 1
    assert int(client.put("/ok").content) == outside + 1
    assert int(client.get("/ok").content) == outside


@urls
@pytest.mark.django_db(transaction=True)
def test_a_follow_up_failing_after_the_commit_leaves_the_answer_and_the_change(client, caplog):
    response = client.post("/follow-up")
    assert response.status_code == 200 and response.content == b"done"
    assert LogEntry.objects.filter(action="test").count() == 1
    assert "after the commit of POST /follow-up" in caplog.text


def test_logging_in_and_reads_run_outside_and_writes_inside():
    rf = RequestFactory()
    assert not writes.wrapped(rf.post("/login/"))
    assert not writes.wrapped(rf.post("/admin/login/"))
    assert not writes.wrapped(rf.get("/console/"))
    assert not writes.wrapped(rf.post("/no/such/page"))
    assert writes.wrapped(rf.post("/api/events/1/clock"))
    assert writes.wrapped(rf.post("/console/events/1/seating/register"))
    assert writes.wrapped(rf.post("/logout/"))


@pytest.mark.django_db(False)
def test_a_database_that_cannot_begin_the_write_answers_503_without_it(client, monkeypatch):
    def unreachable():
        raise OperationalError("couldn't get a connection")

    monkeypatch.setattr(writes.transaction, "atomic", unreachable)
    response = client.post("/api/events/1/clock", {}, content_type="application/json")
    assert response.status_code == 503 and response["Retry-After"]
    assert "database is unreachable" in response.json()["error"]
    page = client.post("/console/events/1/clock", {"action": "start"})
    assert page.status_code == 503 and "paper notes" in page.content.decode()
