"""A write sent again with its Idempotency-Key changes nothing and gets its first answer
again: on every write that creates something (a bust-out of one player or of several on
one hand, a registration, a re-entry, a rebuy, the add-on, a flight, a ticket given or
used). Another request under the same key is refused; an error keeps no key."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from tdsystem.api import flights as api_flights
from tdsystem.api.main import api
from tdsystem.core import idempotency
from tdsystem.core.models import IdempotencyKey
from tdsystem.core.tasks import idempotency_keys_expire
from tdsystem.events.models import Clock, Event
from tdsystem.results.models import Finish
from tdsystem.results.services import bustout_record
from tdsystem.seating import services
from tdsystem.seating.models import Entry, Purchase, Ticket
from tdsystem.seating.services.tickets import ticket_issue
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def post(client, url: str, token: str, body: dict | None = None, key: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


@pytest.fixture
def room():
    """Five seated players at one table; #5 is out (for a re-entry); rebuys, the add-on,
    re-entries and tickets allowed."""
    event = make_event(
        600,
        600,
        "B300",
        600,
        late_registration_end_level=3,
        reentry_allowed=True,
        reentry_max=2,
        rebuy_until_level=2,
        rebuy_threshold=5000,
        rebuy_price=Decimal("40"),
        rebuy_fee=Decimal("4"),
        rebuy_chips=6000,
        rebuy_max=3,
        addon_break=1,
        addon_price=Decimal("20"),
        addon_fee=Decimal("2"),
        buy_in=Decimal("100"),
    )
    for name in ("Ana", "Bob", "Cy", "Dee", "Eve"):
        services.player_register(event=event, name=name, actor=ACTOR)
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)
    eve = Entry.objects.get(event=event, number=5)
    bustout_record(event_id=event.pk, entry_ids=[eve.pk], actor=ACTOR)
    return event


def _at_the_addon_break(event):
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=2)


def _ticket(event) -> str:
    ticket = ticket_issue(event_id=event.pk, name="Tia", actor=ACTOR)
    return f"/api/tickets/{ticket.pk}/register"


# (what it is, the path under the event (or a function of the event giving the path),
# the body, the rows it creates, what to set up first)
CREATING = {
    "one bust-out": ("/bustouts", {"entries": [1]}, Finish, None),
    "a hand's bust-outs": (
        "/bustouts",
        {"entries": [2, 3], "stacks": {"2": 4000, "3": 6000}},
        Finish,
        None,
    ),
    "registration": ("/entries", {"name": "Zed"}, Entry, None),
    "re-entry": ("/entries/5/reentry", {}, Entry, None),
    "rebuy": ("/entries/4/rebuy", {"stack": 100}, Purchase, None),
    "add-on": ("/entries/4/addon", {}, Purchase, _at_the_addon_break),
    "flight": ("/flights", {"name": "1C"}, Event, None),
    "ticket given": ("/tickets", {"name": "Uma"}, Ticket, None),
    "ticket used": (_ticket, {}, Entry, None),
}


def _url(room, where) -> str:
    return where(room) if callable(where) else f"/api/events/{room.pk}{where}"


@pytest.mark.parametrize("case", CREATING)
def test_the_same_key_twice_answers_the_first_answer_and_writes_once(
    client, room, director_token, case
):
    where, body, rows, setup = CREATING[case]
    if setup:
        setup(room)
    url = _url(room, where)
    before = rows.objects.count()
    first = post(client, url, director_token, body, key="k-0001")
    assert first.status_code in (200, 201), first.content
    assert "Idempotent-Replayed" not in first
    written = rows.objects.count()
    assert written > before
    again = post(client, url, director_token, body, key="k-0001")
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Idempotent-Replayed"] == "true"
    assert rows.objects.count() == written


def test_without_a_key_the_second_sending_is_a_second_write(client, room, director_token):
    url = f"/api/events/{room.pk}/entries/4/rebuy"
    for _ in range(2):
        assert post(client, url, director_token, {"stack": 100}).status_code == 200
    assert Purchase.objects.filter(kind="rebuy").count() == 2


def test_a_key_sent_with_another_body_or_path_is_refused(client, room, director_token):
    url = f"/api/events/{room.pk}/entries"
    assert post(client, url, director_token, {"name": "Zed"}, key="k1").status_code == 201
    other = post(client, url, director_token, {"name": "Yan"}, key="k1")
    assert other.status_code == 422
    assert "Idempotency-Key" in other.json()["error"]
    elsewhere = post(client, f"/api/events/{room.pk}/entries/4/rebuy", director_token, {}, "k1")
    assert elsewhere.status_code == 422
    assert not Entry.objects.filter(player__name="Yan").exists()
    assert not Purchase.objects.filter(kind="rebuy").exists()


def test_an_error_keeps_no_key_so_the_write_may_be_sent_again(
    client, room, director_token, monkeypatch
):
    url = f"/api/events/{room.pk}/flights"
    answer = api_flights.flights_json

    def failing(preview):
        raise RuntimeError("the answer could not be built")

    monkeypatch.setattr(api_flights, "flights_json", failing)
    client.raise_request_exception = False
    assert post(client, url, director_token, {"name": "1C"}, key="k1").status_code == 500
    assert not Event.objects.filter(flight="1C").exists()
    assert not IdempotencyKey.objects.exists()
    monkeypatch.setattr(api_flights, "flights_json", answer)
    again = post(client, url, director_token, {"name": "1C"}, key="k1")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert Event.objects.filter(flight="1C").count() == 1


def test_a_refused_write_keeps_no_key(client, room, floor_token, director_token):
    url = f"/api/events/{room.pk}/flights"
    assert post(client, url, floor_token, {"name": "1C"}, key="k1").status_code == 403
    assert post(client, url, "td_nobody", {"name": "1C"}, key="k1").status_code == 401
    assert not IdempotencyKey.objects.exists()
    assert post(client, url, director_token, {"name": "1C"}, key="k1").status_code == 201


def test_keys_are_each_users_own(client, room, director_token, floor_token):
    url = f"/api/events/{room.pk}/entries/4/rebuy"
    for token in (director_token, floor_token):
        response = post(client, url, token, {"stack": 100}, key="shared")
        assert response.status_code == 200 and "Idempotent-Replayed" not in response
    assert Purchase.objects.filter(kind="rebuy").count() == 2


def test_a_key_older_than_a_day_counts_as_new(client, room, director_token):
    url = f"/api/events/{room.pk}/entries/4/rebuy"
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        assert post(client, url, director_token, {"stack": 100}, key="k1").status_code == 200
    with time_machine.travel(now + timedelta(hours=25), tick=False):
        again = post(client, url, director_token, {"stack": 100}, key="k1")
    assert again.status_code == 200 and "Idempotent-Replayed" not in again
    assert Purchase.objects.filter(kind="rebuy").count() == 2


def test_the_housekeeping_task_deletes_the_keys_older_than_a_day(client, room, director_token):
    url = f"/api/events/{room.pk}/entries/4/rebuy"
    now = timezone.now()
    with time_machine.travel(now - timedelta(hours=25), tick=False):
        post(client, url, director_token, {"stack": 100}, key="old")
    post(client, url, director_token, {"stack": 100}, key="new")
    assert idempotency_keys_expire() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]


@pytest.mark.parametrize("key", ["", "x" * 256, "ключ", "two words"])
def test_a_key_that_is_not_1_to_255_visible_ascii_characters_is_a_400(
    client, room, director_token, key
):
    url = f"/api/events/{room.pk}/entries"
    response = post(client, url, director_token, {"name": "Zed"}, key=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["error"]
    assert not Entry.objects.filter(player__name="Zed").exists()


def test_a_replay_keeps_the_answers_own_headers_and_no_cookie(client, room, director_token):
    url = f"/api/events/{room.pk}/entries/4/rebuy"
    post(client, url, director_token, {"stack": 100}, key="k1")
    row = IdempotencyKey.objects.get()
    assert (row.method, row.path, row.status) == ("POST", url, 200)
    assert row.body_hash == idempotency.hashlib.sha256(b'{"stack": 100}').hexdigest()
    assert set(row.headers) <= {"Location", "Content-Disposition", "Content-Language"}
    again = post(client, url, director_token, {"stack": 100}, key="k1")
    assert "no-store" in again["Cache-Control"] and not again.cookies


def test_the_reference_documents_the_header_on_every_write():
    doc = json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api/"), default=str))
    writes = 0
    for item in doc["paths"].values():
        for method, operation in item.items():
            headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
            if method == "get":
                assert "Idempotency-Key" not in headers
                continue
            writes += 1
            assert "Idempotency-Key" in headers and "422" in operation["responses"]
    assert writes >= 20
    assert "Idempotency-Key" in doc["info"]["description"]
