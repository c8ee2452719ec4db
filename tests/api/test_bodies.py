"""The API takes only what it documents: a write's body is a JSON object sent as
application/json (else 415), with each key once; a whole number may be written 5.0; text
is stored as core.text says (NFC, no control or invisible character). Every refusal is a
4xx that changes no row. Run on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime

import pytest
import time_machine
from django.apps import apps

from tdsystem.core.actors import Actor
from tdsystem.events import services as clock
from tdsystem.events.models import Clock, Event
from tdsystem.results import services as results
from tdsystem.seating import services
from tdsystem.seating.models import Entry, Move, Player
from tdsystem.seating.services.tickets import ticket_issue
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import BOOKKEEPING, make_event

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)

NOT_OBJECTS = ["[null, null]", "[]", '"x"', "5", "null", "true", '[{"name": "Ann"}]']
NOT_JSON_TYPES = [
    "text/plain",
    "",  # no Content-Type at all
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin-1",
    "application/jsonp",
    "application/vnd.api+json",
]


def everything() -> dict:
    """Every row an API write could change (an access refusal's audit entry aside)."""
    rows = {}
    for model in apps.get_models():
        if model._meta.app_label in {"events", "seating", "results", "structures", "core"}:
            found = model.objects.order_by("pk")
            if model._meta.label_lower == "core.logentry":
                found = found.exclude(action="access.refused")
            elif model._meta.label_lower in BOOKKEEPING:
                continue
            rows[model._meta.label_lower] = list(found.values_list())
    return rows


def send(client, token, url, body, content_type="application/json", method="POST"):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.generic(method, url, data, content_type, HTTP_AUTHORIZATION=f"Bearer {token}")


def refused(client, token, url, body, status, content_type="application/json", method="POST"):
    """The answer of a request that must be refused with `status` and change nothing."""
    before = everything()
    answer = send(client, token, url, body, content_type, method)
    assert answer.status_code == status, (url, body, answer.content)
    assert answer.json()["error"], answer.content
    assert everything() == before, (url, body)
    return answer.json()


@pytest.fixture
def running(event):
    clock.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    return event


# The body is a JSON object --------------------------------------------------------------


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_body_that_is_not_an_object_is_a_400_and_registers_nobody(
    client, director_token, event, body
):
    url = f"/api/events/{event.pk}/entries"
    answer = refused(client, director_token, url, body, 400)
    assert answer == {"error": "the body must be a JSON object"}
    assert not Entry.objects.exists()


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_route_whose_body_is_optional_does_not_read_a_list_as_no_body(
    client, director_token, event, body
):
    """A ticket's registration takes an optional body: `[]` once registered its holder."""
    ticket = ticket_issue(event_id=event.pk, name="Eve", actor=ACTOR)
    refused(client, director_token, f"/api/tickets/{ticket.pk}/register", body, 400)
    assert not Entry.objects.exists()
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    refused(client, director_token, f"/api/events/{event.pk}/draw", body, 400)


# Content-Type: application/json ---------------------------------------------------------


@pytest.mark.parametrize("content_type", NOT_JSON_TYPES)
def test_json_sent_as_another_type_is_a_415_and_does_not_pause_the_clock(
    client, director_token, running, content_type
):
    url = f"/api/events/{running.pk}/clock"
    answer = refused(client, director_token, url, '{"action": "pause"}', 415, content_type)
    assert "Content-Type: application/json" in answer["error"]
    assert Clock.objects.get(pk=running.pk).status == Clock.Status.RUNNING


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "Application/JSON; Charset=UTF-8"],
)
def test_json_as_application_json_is_taken(client, director_token, running, content_type):
    url = f"/api/events/{running.pk}/clock"
    answer = send(client, director_token, url, '{"action": "pause"}', content_type)
    assert answer.status_code == 200, answer.content
    assert Clock.objects.get(pk=running.pk).status == Clock.Status.PAUSED


@pytest.fixture
def moved(event):
    """A bust-out that set off a balancing move: a slip to acknowledge."""
    people = arrange(event, {1: list(range(1, 10)), 2: list(range(1, 9))})
    results.bustout_record(
        event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR, table_number=2
    )
    return Move.objects.get(event=event)


def test_a_route_that_takes_no_body_needs_none_and_refuses_one_it_cannot_read(
    client, director_token, event, moved
):
    url = f"/api/events/{event.pk}/moves/{moved.pk}/ack"
    refused(client, director_token, url, '{"x": 1}', 415, "text/plain")
    refused(client, director_token, url, "[]", 400)
    refused(client, director_token, url, "{", 400)
    assert Move.objects.get(pk=moved.pk).acknowledged_at is None
    answer = send(client, director_token, url, b"", "")  # no body, no Content-Type
    assert answer.status_code == 200 and answer.json()["acknowledged"] is True
    again = send(client, director_token, url, "{}")  # an empty object is no change either
    assert again.status_code == 200


def test_a_required_body_left_out_still_names_the_missing_field(client, director_token, event):
    url = f"/api/events/{event.pk}/entries"
    for content_type in ("", "text/plain", "application/json"):
        answer = refused(client, director_token, url, b"", 400, content_type)
        assert answer["field"] == "name"


def test_the_token_is_checked_before_the_body(client, event):
    url = f"/api/events/{event.pk}/clock"
    answer = client.generic("POST", url, "x", "text/plain")
    assert answer.status_code == 401


# Each key once ------------------------------------------------------------------------


def test_a_key_given_twice_is_a_400_naming_it_and_the_clock_does_not_move(
    client, director_token, running
):
    url = f"/api/events/{running.pk}/clock"
    body = '{"action": "pause", "action": "next"}'
    answer = refused(client, director_token, url, body, 400)
    assert answer == {"error": '"action" is given twice in the body', "field": "action"}
    version = Clock.objects.get(pk=running.pk).version
    assert Clock.objects.get(pk=running.pk).status == Clock.Status.RUNNING
    assert Clock.objects.get(pk=running.pk).version == version


def test_a_key_given_twice_inside_a_field_is_a_400_naming_the_field(client, director_token, event):
    people = arrange(event, {1: list(range(1, 10))}, positions={1: (5, 6, 7)})
    one, two = people["T1S1"].number, people["T1S2"].number
    body = (
        f'{{"entries": [{one}, {two}], "table": 1, '
        f'"stacks": {{"{one}": 100, "{two}": 200, "{one}": 300}}}}'
    )
    answer = refused(client, director_token, f"/api/events/{event.pk}/bustouts", body, 400)
    assert answer["field"] == "stacks" and f'the key "{one}" is given twice' in answer["error"]
    assert Entry.objects.filter(event=event, status="active").count() == 9


# Whole numbers --------------------------------------------------------------------------


@pytest.mark.parametrize(("seconds", "added"), [("60.0", 60), ("6e1", 60), ("-3.0E1", -30)])
def test_a_whole_number_may_be_written_with_a_point(client, director_token, event, seconds, added):
    url = f"/api/events/{event.pk}/clock"
    with time_machine.travel(T0, tick=False):
        clock.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
        body = '{"action": "add_time", "seconds": ' + seconds + "}"
        answer = send(client, director_token, url, body)
    assert answer.status_code == 200, answer.content
    assert answer.json()["remaining_ms"] == 600_000 + added * 1000


@pytest.mark.parametrize("seconds", ["60.5", "true", '"60"', "1e400", "1.0000000000000001e2"])
def test_a_fraction_a_boolean_or_a_string_is_not_a_whole_number(
    client, director_token, running, seconds
):
    url = f"/api/events/{running.pk}/clock"
    body = '{"action": "add_time", "seconds": ' + seconds + "}"
    assert refused(client, director_token, url, body, 400)["field"] == "seconds"


def test_whole_numbers_with_a_point_count_inside_lists_and_objects(client, director_token, event):
    people = arrange(event, {1: list(range(1, 10))}, positions={1: (5, 6, 7)})
    number = people["T1S1"].number
    body = f'{{"counts": [{{"entry": {number}.0, "chips": 12500.0}}], "table": 1.0}}'
    answer = send(client, director_token, f"/api/events/{event.pk}/chip-counts", body)
    assert answer.status_code == 200, answer.content
    assert answer.json()["counts"][0]["chips"] == 12500


# Text people read -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("\u202eevil\u202c gnaY", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\x07\x1b[31mRed", "U+0007"),
        ("Ann\x9bLee", "U+009B"),
        ("\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("An\ud800n", "U+D800"),
    ],
)
def test_a_name_a_person_cannot_read_is_a_400_and_registers_nobody(
    client, director_token, event, name, char
):
    url = f"/api/events/{event.pk}/entries"
    answer = refused(client, director_token, url, {"name": name}, 400)
    assert answer["field"] == "name" and f"({char})" in answer["error"]
    assert not Player.objects.exists()


def test_a_note_or_a_member_id_a_person_cannot_read_is_refused_too(client, director_token, event):
    url = f"/api/events/{event.pk}/entries"
    for field in ("note", "member_id"):
        answer = refused(client, director_token, url, {"name": "Ann", field: "x\u2066y"}, 400)
        assert answer["field"] == field


def test_a_name_is_stored_in_nfc_trimmed_so_nfd_and_nfc_are_one_player(
    client, director_token, event
):
    url = f"/api/events/{event.pk}/entries"
    nfd = unicodedata.normalize("NFD", "José Lee")
    first = send(client, director_token, url, {"name": f"  {nfd} ", "member_id": " M-1 "})
    assert first.status_code == 201 and first.json()["player"] == "José Lee"
    assert Player.objects.get().name == "José Lee" and Player.objects.get().member_id == "M-1"
    answer = refused(client, director_token, url, {"name": "José  Lee"}, 409)
    assert "Already registered under this name" in answer["error"]
    assert len(answer["existing"]) == 1


def test_every_script_s_names_register(client, director_token, event):
    url = f"/api/events/{event.pk}/entries"
    for name in ("محمد", "می\u200cخواهم", "山田 太郎", "Nguyễn Văn Ánh", "👍🏽 Sam"):
        answer = send(client, director_token, url, {"name": name})
        assert answer.status_code == 201 and answer.json()["player"] == name


def test_a_flight_named_with_a_bidi_override_is_a_400_and_adds_no_flight(
    client, director_token, db
):
    main = make_event(600, name="Main Event")
    url = f"/api/events/{main.pk}/flights"
    answer = refused(client, director_token, url, {"name": "\u202e1A"}, 400)
    assert answer["field"] == "name" and "U+202E" in answer["error"]
    assert Event.objects.count() == 1


def test_a_level_note_a_person_cannot_read_names_where_it_is(client, director_token, event):
    levels = [
        {"small_blind": 50, "big_blind": 100, "duration_seconds": 600},
        {"kind": "break", "duration_seconds": 300, "note": "Colour\u202e up"},
        {"small_blind": 100, "big_blind": 200, "duration_seconds": 600},
    ]
    url = f"/api/events/{event.pk}/levels"
    answer = refused(client, director_token, url, {"levels": levels}, 400, method="PUT")
    assert answer["field"] == "levels" and answer["error"].startswith("levels[1].note: ")


def test_a_ticket_for_a_name_a_person_cannot_read_is_refused(client, director_token, event):
    url = f"/api/events/{event.pk}/tickets"
    assert refused(client, director_token, url, {"name": "Eve\x1b"}, 400)["field"] == "name"
    answer = refused(client, director_token, url, {"name": "Eve", "note": "\u200f"}, 400)
    assert answer["field"] == "note"
