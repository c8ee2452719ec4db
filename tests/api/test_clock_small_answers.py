"""Small answers to the screens' polls: the clock JSON carries one page of move slips and
their count (the slips endpoint pages through the rest), answers 304 to a screen that has
it already, and every text answer is compressed for a reader that accepts gzip."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.http import HttpResponse
from django.test import Client, RequestFactory

from tdsystem.core.actors import Actor
from tdsystem.core.compression import TextGZipMiddleware
from tdsystem.events import services
from tdsystem.seating.models import Entry, Move
from tdsystem.simulation.seatings import field
from tdsystem.venue.screen import SLIPS_PAGE
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


def open_slips(event, count: int) -> None:
    """`count` slips not yet acknowledged, as a redraw leaves them."""
    entries = list(Entry.objects.filter(event=event).select_related("table")[:count])
    Move.objects.bulk_create(
        Move(event=event, entry=e, from_table=e.table.number, from_seat=e.seat,
             to_table=e.table.number + 1, to_seat=e.seat, reason=Move.Reason.REDRAW)
        for e in entries
    )  # fmt: skip


@pytest.fixture
def room():
    event = make_event(600, 600, name="Redraw night")
    field(event, players=60, tables=7)
    open_slips(event, 45)
    with time_machine.travel(T0, tick=False):
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
    return event


def test_the_clock_carries_the_first_page_of_slips_and_the_slips_endpoint_the_rest(room):
    client = Client()
    clock = client.get(f"/api/events/{room.pk}/clock").json()
    assert (len(clock["moves"]), clock["moves_count"]) == (SLIPS_PAGE, 45) == (20, 45)
    seen = [m["id"] for m in clock["moves"]]
    for page, size in ((2, 20), (3, 5), (4, 0)):
        answer = client.get(f"/api/events/{room.pk}/slips?page={page}").json()
        assert (answer["count"], answer["page"], answer["pages"]) == (45, page, 3)
        assert len(answer["moves"]) == size
        seen += [m["id"] for m in answer["moves"]]
    assert sorted(seen) == sorted(Move.objects.values_list("pk", flat=True))
    first = client.get(f"/api/events/{room.pk}/slips").json()
    assert first["moves"] == clock["moves"]  # page 1 by default: the clock's own
    assert set(first["moves"][0]) >= {"id", "text", "to_table", "to_seat", "acknowledged"}
    assert client.get(f"/api/events/{room.pk}/slips?page=0").status_code in (400, 422)
    assert client.get("/api/events/99999/slips").status_code == 404


@pytest.mark.parametrize("session", [False, True], ids=["answered-first", "through-the-list"])
def test_a_screen_that_has_the_answer_is_told_not_modified(room, director, session):
    client = Client()
    if session:  # a staff reader's poll goes through the whole middleware list
        client.force_login(director)
    path = f"/api/events/{room.pk}/clock"
    with time_machine.travel(T0 + timedelta(seconds=10), tick=False):
        client.get(path)  # the first poll of a language teaches the middleware its headers
        first = client.get(path)
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('"')
    assert first["X-Server-Time"] == first.json()["server_time"]
    # Two seconds on, the clock running: only the moment changed.
    with time_machine.travel(T0 + timedelta(seconds=12), tick=False):
        again = client.get(path, headers={"if-none-match": f"W/{tag}"})  # as gzip weakens it
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag and again["X-Server-Time"] == "2026-12-05T20:00:12+00:00"
    assert again["Cache-Control"] == first["Cache-Control"]
    assert "Content-Type" not in again
    # A pause changes what the screen shows: the whole answer again, with a new tag.
    with time_machine.travel(T0 + timedelta(seconds=13), tick=False):
        services.clock_action(event_id=room.pk, action="pause", actor=Actor())
        paused = client.get(path, headers={"if-none-match": tag})
    assert paused.status_code == 200 and paused["ETag"] != tag
    assert paused.json()["status"] == "paused"


def test_text_answers_are_compressed_and_pictures_are_not(room):
    client = Client(headers={"accept-encoding": "gzip, deflate, br"})
    moment = time_machine.travel(T0 + timedelta(seconds=5), tick=False)
    moment.start()
    clock = client.get(f"/api/events/{room.pk}/clock")
    assert clock["Content-Encoding"] == "gzip" and "Accept-Encoding" in clock["Vary"]
    body = gzip.decompress(clock.content)
    assert body.startswith(b'{"event": ') and len(clock.content) < len(body) / 3
    page = client.get(f"/events/{room.pk}/clock/")
    assert page["Content-Encoding"] == "gzip" and b"</html>" in gzip.decompress(page.content)
    plain = Client().get(f"/api/events/{room.pk}/clock")
    moment.stop()
    assert "Content-Encoding" not in plain and plain.content == body
    picture = HttpResponse(b"\x89PNG" + bytes(4000), content_type="image/png")
    request = RequestFactory().get("/x.png", headers={"accept-encoding": "gzip"})
    assert "Content-Encoding" not in TextGZipMiddleware(lambda r: picture)(request)
