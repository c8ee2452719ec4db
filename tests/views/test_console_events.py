"""The console's event list and an event's life there: copy, archive, delete."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.events.services import clock_action
from tdsystem.seating import services as seating
from tdsystem.simulation.seatings import ACTOR
from tdsystem.venue import life
from tests.fixtures import make_event
from tests.services.test_event_life import finished_event

pytestmark = pytest.mark.django_db

LONG_NAME = ("Sunday Main Event " + "Deepstack Freezeout " * 4 + "with a long name")[:108]


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_list_filters_by_status_and_hides_archived_events(client, director):
    planned = make_event(600, name="Planned one")
    running = make_event(600, name="Running one")
    clock_action(event_id=running.pk, action="start", actor=ACTOR)
    finished = finished_event("Finished one")
    archived = finished_event("Archived one")
    life.event_archive(event_id=archived.pk, actor=ACTOR)
    client.force_login(director)

    everything = page(client, "/console/")
    assert "Archived one" not in everything
    assert everything.index("Running one") < everything.index("Planned one")
    assert "Finished one" in everything
    assert 'All current <span class="count">3</span>' in everything
    assert 'Archived <span class="count">1</span>' in everything
    for show, name in (
        ("planned", planned.name),
        ("running", running.name),
        ("finished", finished.name),
        ("archived", archived.name),
    ):
        body = page(client, f"/console/?show={show}")
        names = {"Planned one", "Running one", "Finished one", "Archived one"}
        assert name in body
        assert not any(other in body for other in names - {name}), show
    assert "Running one" in page(client, "/console/?show=nonsense")


def test_the_list_costs_the_same_queries_with_more_events(
    client, director, django_assert_num_queries
):
    make_event(600, name="One")
    client.force_login(director)
    client.get("/console/")
    with django_assert_num_queries(8) as first:  # the last backup's line, the staff places
        page(client, "/console/")
    for n in range(11):
        make_event(600, name=f"{LONG_NAME} {n}" if n == 3 else f"Event {n}")  # 110 characters
    with django_assert_num_queries(len(first.captured_queries)):
        body = page(client, "/console/")
    assert f'title="{LONG_NAME} 3"' in body


def test_floor_sees_the_list_but_may_not_copy_archive_or_delete(client, floor_person):
    event = finished_event()
    planned = make_event(600, name="Next")
    client.force_login(floor_person)
    body = page(client, "/console/")
    assert "Week one" in body and "Copy" not in body and "Delete" not in body
    assert client.get(f"/console/events/{event.pk}/copy/").status_code == 403
    assert client.post(f"/console/events/{event.pk}/archive").status_code == 403
    assert client.post(f"/console/events/{planned.pk}/delete/").status_code == 403
    assert Event.objects.filter(pk=planned.pk).exists()
    assert Event.objects.get(pk=event.pk).archived_at is None


def test_the_copy_form_prefills_free_numbers_and_says_which_are_taken(client, director):
    source = make_event(600, name="Thursday")
    seating.tables_setup(event=source, numbers=[1, 2, 3], seats=8, actor=ACTOR)
    client.force_login(director)
    body = page(client, f"/console/events/{source.pk}/copy/")
    assert 'value="Thursday (copy)"' in body
    assert 'value="4, 5, 6"' in body and 'value="8"' in body
    assert "In use by <bdi>Thursday</bdi> (planned): table 1, 2, 3." in body
    assert "Free numbers: 4 and up." in body


def test_a_copy_onto_taken_tables_shows_the_holder_and_creates_nothing(client, director):
    source = make_event(600, name="Thursday")
    seating.tables_setup(event=source, numbers=[1, 2], seats=9, actor=ACTOR)
    client.force_login(director)
    count = Event.objects.count()
    response = client.post(
        f"/console/events/{source.pk}/copy/", {"name": "Next", "numbers": "2-3", "seats": "9"}
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert "table 2 is in use by Thursday (planned); free numbers: 3 and up" in body
    assert Event.objects.count() == count


def test_bad_table_numbers_get_a_message(client, director, event):
    client.force_login(director)
    response = client.post(
        f"/console/events/{event.pk}/copy/", {"name": "Next", "numbers": "1, two", "seats": "9"}
    )
    said = "“two”: give table numbers from 1 to 99,999, or a range from low to high like 1-12"
    assert said in response.content.decode()
    assert Event.objects.count() == 1


def test_the_director_copies_a_finished_event_onto_its_tables(client, director):
    source = finished_event()
    client.force_login(director)
    response = client.post(
        f"/console/events/{source.pk}/copy/",
        {"name": "Week two", "numbers": "1-3", "seats": "9", "scheduled_start": ""},
    )
    copy = Event.objects.get(name="Week two")
    assert response.status_code == 302 and response["Location"] == f"/console/events/{copy.pk}/"
    assert list(copy.tables.values_list("number", flat=True)) == [1, 2, 3]
    assert copy.log.filter(action="event.copy", actor__username="dora").exists()


def test_archive_a_finished_event_then_bring_it_back(client, director):
    event = finished_event()
    client.force_login(director)
    response = client.post(f"/console/events/{event.pk}/archive")
    assert response["Location"] == "/console/?show=archived"
    assert Event.objects.get(pk=event.pk).archived_at is not None
    client.logout()
    assert "Week one" in page(client, f"/events/{event.pk}/results/")
    assert client.get(f"/events/{event.pk}/clock/").status_code == 200
    assert client.get(f"/api/events/{event.pk}/results").status_code == 200
    listed = {e["id"]: e for e in client.get("/api/events").json()}
    assert listed[event.pk]["archived"] is True
    client.force_login(director)
    client.post(f"/console/events/{event.pk}/archive", {"undo": "1"})
    assert Event.objects.get(pk=event.pk).archived_at is None


def test_archiving_a_running_event_is_refused_with_a_message(client, director, event):
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    client.force_login(director)
    response = client.post(f"/console/events/{event.pk}/archive", follow=True)
    assert "Only a finished event can be archived: Test event is running." in (
        response.content.decode()
    )
    assert Event.objects.get(pk=event.pk).archived_at is None


def test_delete_asks_first_then_deletes_and_the_deletion_shows_in_recent_activity(
    client, director, event
):
    seating.tables_setup(event=event, numbers=[1, 2], seats=9, actor=ACTOR)
    seating.players_import(event_id=event.pk, names=["Ana", "Ben"], actor=ACTOR)
    client.force_login(director)
    body = page(client, f"/console/events/{event.pk}/delete/")
    assert "Delete <bdi>Test event</bdi>?" in body and "1, 2" in body and ">2 <" in body
    assert Event.objects.filter(pk=event.pk).exists()
    response = client.post(f"/console/events/{event.pk}/delete/", follow=True)
    body = response.content.decode()
    assert not Event.objects.filter(pk=event.pk).exists()
    assert "Deleted Test event" in body and "Recent activity" in body
    assert LogEntry.objects.get(event=None).actor_label == "dora"


def test_a_started_event_cannot_be_deleted_from_the_page(client, director, event):
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    client.force_login(director)
    body = page(client, f"/console/events/{event.pk}/delete/")
    assert "has started: it cannot be deleted" in body and "Delete the event" not in body
    response = client.post(f"/console/events/{event.pk}/delete/", follow=True)
    assert "has started" in response.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()


def test_a_second_delete_of_the_same_event_is_a_404_not_a_500(client, director, event):
    client.force_login(director)
    client.post(f"/console/events/{event.pk}/delete/")
    assert client.post(f"/console/events/{event.pk}/delete/").status_code == 404


def test_archive_keeps_its_payout_money(client, director):
    event = finished_event()
    client.force_login(director)
    client.post(f"/console/events/{event.pk}/archive")
    assert event.finishes.get(place=1).prize >= Decimal(0)


def event_page_actions(client, event) -> set[str]:
    """Which life actions the event's own console page offers (its header)."""
    body = page(client, f"/console/events/{event.pk}/")
    head = body[body.index('class="page-head event-head"') : body.index('class="grid main-side"')]
    urls = {
        "copy": f'href="/console/events/{event.pk}/copy/"',
        "delete": f'href="/console/events/{event.pk}/delete/"',
        "archive": f'action="/console/events/{event.pk}/archive"',
        "unarchive": 'name="undo" value="1"',
    }
    found = {name for name, html in urls.items() if html in head}
    return found - {"archive"} if "unarchive" in found else found


def test_the_event_page_offers_copy_and_delete_for_a_planned_event(client, director, event):
    client.force_login(director)
    assert event_page_actions(client, event) == {"copy", "delete"}


def test_the_event_page_offers_only_copy_for_a_running_event(client, director, event):
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    client.force_login(director)
    assert event_page_actions(client, event) == {"copy"}


def test_the_event_page_offers_archive_then_unarchive_for_a_finished_event(client, director):
    finished = finished_event()
    client.force_login(director)
    assert event_page_actions(client, finished) == {"copy", "archive"}
    life.event_archive(event_id=finished.pk, actor=ACTOR)
    assert event_page_actions(client, finished) == {"copy", "unarchive"}


def test_floor_sees_no_life_actions_on_the_event_page(client, floor_person, event):
    client.force_login(floor_person)
    assert event_page_actions(client, event) == set()
