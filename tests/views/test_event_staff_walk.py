"""Walk every route that names an event: an account that is not on the event's staff is
refused (403, in the audit log) and changes nothing; the event's own staff are let
through wherever their role has the right.

The routes come from the URL conf (pages) and from django-ninja's operations (the API,
each method on its own), so a route added later is walked too.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.apps import apps
from django.test import Client
from ninja.operation import PathView

from tdsystem.core.access import FLOOR, role_may
from tdsystem.core.models import EventStaff, LogEntry
from tdsystem.results import services as results
from tdsystem.seating.models import Move
from tdsystem.seating.services.tickets import ticket_issue
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import BOOKKEEPING
from tests.personas import make_token, make_user
from tests.views.test_access_walk import concrete, rights, staff_routes, walk

pytestmark = pytest.mark.django_db

WATCHED_APPS = {"events", "seating", "results", "structures", "core", "auth"}


def snapshot() -> dict:
    """Every row a write could change, by model (a refusal's audit entry aside; a token's
    use is stamped on it, so tokens are left out)."""
    rows = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if model._meta.app_label in WATCHED_APPS and label not in BOOKKEEPING:
            found = model.objects.order_by("pk")
            if label == "core.logentry":
                found = found.exclude(action="access.refused")
            rows[label] = list(found.values_list())
    return rows


@dataclass
class Room:
    event: int
    move: int
    bustout: int
    ticket: int

    def path(self, route: str) -> str:
        """The route with this room's ids (the API's `{name}` or the URL conf's `<int:name>`)."""
        ids = {
            "event_id": self.event,
            "number": 1,
            "move_id": self.move,
            "bustout_id": self.bustout,
            "ticket_id": self.ticket,
            "entry_id": 1,
            "user_id": 1,
        }
        for name, value in ids.items():
            route = route.replace(f"<int:{name}>", str(value)).replace(f"{{{name}}}", str(value))
        return concrete(route, self.event)


@pytest.fixture
def room(event) -> Room:
    """An event under way: players seated at two tables, one out, a move slip, a ticket.
    Its staff: dora (director) and fred (floor)."""
    full = list(range(1, 10))
    people = arrange(event, {1: full, 2: full[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    done = results.bustout_record(
        event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR, table_number=2
    )
    ticket = ticket_issue(event_id=event.pk, name="Eve", actor=ACTOR)
    move = Move.objects.filter(event=event).first()
    return Room(event.pk, move.pk if move else 1, done.bustout.pk, ticket.pk)


@pytest.fixture
def outsiders(director, floor_person, room) -> dict:
    """A floor and a director account, made after the event and on no event's staff."""
    return {
        "floor": make_user("olga", "floor", events=False),
        "director": make_user("cleo", "director", events=False),
    }


def event_pages():
    """(name, route, right) of every console page that names an event."""
    for name, route, callback in staff_routes():
        if "<int:event_id>" in route and not name.startswith("api:"):
            yield name, route, rights(callback)


def api_operations():
    """(name, route, method, right) of every API operation behind a token whose path names
    an event or a ticket (which names its event)."""
    for name, route, callback in walk():
        if not name.startswith("api:"):
            continue
        for cell in getattr(callback, "__closure__", None) or ():
            if not isinstance(cell.cell_contents, PathView):
                continue
            for operation in cell.cell_contents.operations:
                right = next(
                    (a.right for a in operation.auth_callbacks or () if getattr(a, "right", None)),
                    None,
                )
                if right and ("<int:event_id>" in route or "<int:ticket_id>" in route):
                    for method in operation.methods:
                        yield name, route, method, right


def test_the_walks_find_the_routes_they_are_meant_to():
    pages = {name for name, _route, _right in event_pages()}
    assert {"console:event", "console:clock", "seating:register", "results:bustout"} <= pages
    assert {"console:event_staff_add", "results:table", "seating:move_ack"} <= pages
    api = {(name, method) for name, _route, method, _right in api_operations()}
    assert {("api:clock", "POST"), ("api:bustout", "POST"), ("api:ticket_register", "POST")} <= api
    assert len(pages) > 50 and len(api) > 20


@pytest.mark.parametrize("kind", ["floor", "director"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_an_account_off_the_staff_is_refused_every_page_of_the_event(
    client, room, outsiders, kind, method
):
    user = outsiders[kind]
    client.force_login(user)
    before = snapshot()
    wrong = []
    for name, route, _right in event_pages():
        path = room.path(route)
        response = getattr(client, method)(path)
        if response.status_code == 405:
            continue  # a GET to a POST-only route: refused before anything else
        if response.status_code != 403:
            wrong.append((name, response.status_code))
        elif not LogEntry.objects.filter(action="access.refused", actor=user, data__path=path):
            wrong.append((name, "not in the audit log"))
    assert wrong == []
    assert snapshot() == before
    refusal = LogEntry.objects.filter(action="access.refused", actor=user).first()
    assert refusal.data["event"] == room.event
    assert f"on event {room.event}" in refusal.summary


@pytest.mark.parametrize("kind", ["floor", "director"])
def test_an_account_off_the_staff_is_refused_every_api_write_on_the_event(room, outsiders, kind):
    user = outsiders[kind]
    token = make_token(user)
    before = snapshot()
    wrong = []
    api = Client()
    for name, route, method, _right in api_operations():
        response = api.generic(
            method,
            room.path(route),
            data="{}",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        if response.status_code != 403:
            wrong.append((name, method, response.status_code))
        elif response.json() != {"error": "You do not have the right to do this."}:
            wrong.append((name, method, response.json()))
    assert wrong == []
    assert snapshot() == before
    assert LogEntry.objects.filter(action="access.refused", actor=user).count() >= len(
        {route for _n, route, _m, _r in api_operations()}
    )


def test_the_floor_of_the_event_is_let_through_every_page_a_floor_may_open(
    client, room, floor_person
):
    client.force_login(floor_person)
    refused = [
        name
        for name, route, right in event_pages()
        if role_may(FLOOR, right) and client.get(room.path(route)).status_code == 403
    ]
    assert refused == []


def test_a_director_placed_on_the_event_is_let_through_every_page(client, room, outsiders):
    cleo = outsiders["director"]
    EventStaff.objects.create(event_id=room.event, user=cleo, role="director")
    client.force_login(cleo)
    refused = [
        name for name, route, _r in event_pages() if client.get(room.path(route)).status_code == 403
    ]
    assert refused == []


def test_the_floor_of_the_event_is_let_through_every_api_write_a_floor_may_make(room, floor_person):
    token = make_token(floor_person)
    api = Client()
    refused = [
        (name, method)
        for name, route, method, right in api_operations()
        if role_may(FLOOR, right)
        and api.generic(
            method,
            room.path(route),
            data="{}",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        ).status_code
        == 403
    ]
    assert refused == []
