"""Staff per event: a director or floor account acts on its events only; a director
manages the staff of the events they direct; a superuser acts on every event.

Who is on whose staff here: dora directs "Main" (made through the console), fred is not on
it until dora adds him; cleo directs "Side" (a colleague's event). The walk over every
route is test_event_staff_walk.py.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tdsystem.core.actors import Actor
from tdsystem.core.models import EventStaff, LogEntry
from tdsystem.events.models import Event
from tdsystem.events.services import StaffError, event_staff_add, event_staff_remove
from tdsystem.seating.services.flights import flight_add
from tests.fixtures import make_event
from tests.personas import make_token, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dora():
    return make_user("dora", "director")


@pytest.fixture
def fred():
    return make_user("fred", "floor")


@pytest.fixture
def main(dora, fred):
    """dora's event, with her as its director (its creator) and no one else."""
    event = make_event(600, 600, name="Main", staff=False)
    EventStaff.objects.create(event=event, user=dora, role="director")
    return event


@pytest.fixture
def side(dora, fred):
    cleo = make_user("cleo", "director", events=False)
    event = make_event(600, name="Side", staff=False)
    EventStaff.objects.create(event=event, user=cleo, role="director")
    return event


def console(event) -> str:
    return f"/console/events/{event.pk}/"


def add(client, event, user, role: str, **extra):
    return client.post(
        f"/console/events/{event.pk}/staff/", {"user": user.pk, "role": role}, **extra
    )


def remove(client, event, user, **extra):
    return client.post(f"/console/events/{event.pk}/staff/{user.pk}/remove", **extra)


def test_a_director_adds_and_removes_the_floor_of_their_event(client, dora, fred, main):
    client.force_login(fred)
    assert client.get(console(main)).status_code == 403
    client.force_login(dora)
    panel = add(client, main, fred, "floor", **HTMX)
    assert panel.status_code == 200
    assert "fred is on the staff as floor." in panel.content.decode()
    assert EventStaff.objects.get(event=main, user=fred).role == "floor"
    client.force_login(fred)
    assert client.get(console(main)).status_code == 200
    assert client.post(f"{console(main)}clock", {"action": "pause"}).status_code != 403
    client.force_login(dora)
    assert remove(client, main, fred).status_code == 302  # no HTMX: back to the page
    client.force_login(fred)
    assert client.get(console(main)).status_code == 403
    log = list(main.log.filter(action__startswith="staff.").order_by("at", "pk"))
    assert [e.summary for e in log] == [
        "fred added to the staff as floor",
        "fred taken off the staff (was floor)",
    ]
    assert all(e.actor == dora for e in log)


def test_the_event_page_shows_its_staff_and_the_panel_to_its_director(client, dora, fred, main):
    EventStaff.objects.create(event=main, user=fred, role="floor")
    client.force_login(dora)
    page = client.get(console(main)).content.decode()
    assert 'id="staff"' in page and "Add to the staff" in page
    assert f"/console/events/{main.pk}/staff/{fred.pk}/remove" in page
    client.force_login(fred)
    page = client.get(console(main)).content.decode()
    assert 'id="staff"' in page and "dora" in page  # the floor sees who is on it
    assert "Add to the staff" not in page and "/remove" not in page


def test_the_floor_may_not_change_the_staff(client, dora, fred, main):
    EventStaff.objects.create(event=main, user=fred, role="floor")
    olga = make_user("olga", "floor", events=False)
    client.force_login(fred)
    assert add(client, main, olga, "floor").status_code == 403
    assert remove(client, main, dora).status_code == 403
    assert set(EventStaff.objects.filter(event=main).values_list("user__username", flat=True)) == {
        "dora",
        "fred",
    }
    assert LogEntry.objects.filter(action="access.refused", actor=fred).count() == 2


def test_a_director_cannot_act_on_another_directors_event(client, dora, fred, main, side):
    client.force_login(dora)
    before = set(EventStaff.objects.values_list("event_id", "user_id", "role"))
    assert client.get(console(side)).status_code == 403
    assert add(client, side, fred, "floor").status_code == 403
    assert client.post(f"{console(side)}clock", {"action": "start"}).status_code == 403
    assert set(EventStaff.objects.values_list("event_id", "user_id", "role")) == before
    assert side.clock.status == "not-started"
    refusal = LogEntry.objects.filter(action="access.refused", actor=dora).first()
    assert refusal.data["event"] == side.pk


def test_a_floor_account_is_floor_staff_only(client, dora, fred, main):
    client.force_login(dora)
    answer = add(client, main, fred, "director", **HTMX)
    assert answer.status_code == 409
    assert "floor account: they can be floor staff only" in answer.content.decode()
    assert not EventStaff.objects.filter(user=fred).exists()


def test_adding_someone_already_on_the_staff_changes_their_role(client, dora, main):
    cleo = make_user("cleo", "director", events=False)
    client.force_login(dora)
    add(client, main, cleo, "floor")
    add(client, main, cleo, "director")
    assert EventStaff.objects.get(event=main, user=cleo).role == "director"
    assert main.log.filter(action="staff.role").get().summary == "cleo is now director on the staff"


def test_an_event_keeps_a_director(client, dora, main):
    client.force_login(dora)
    answer = remove(client, main, dora, **HTMX)
    assert answer.status_code == 409
    assert "only director" in answer.content.decode()
    with pytest.raises(StaffError):
        event_staff_add(event_id=main.pk, user=dora, role="floor", actor=Actor.of(dora))
    assert EventStaff.objects.get(event=main, user=dora).role == "director"


def test_a_director_account_placed_as_floor_acts_as_floor_there(client, dora, side):
    EventStaff.objects.create(event=side, user=dora, role="floor")
    client.force_login(dora)
    assert client.post(f"{console(side)}clock", {"action": "start"}).status_code == 403
    assert client.post(f"/console/events/{side.pk}/copy/").status_code == 403
    assert client.get(f"/console/events/{side.pk}/seating/").status_code == 200
    side.clock.refresh_from_db()
    assert side.clock.status == "not-started"


def test_superusers_act_on_every_event_and_only_a_superuser_takes_one_off(client, dora, main):
    root = make_user("root", None)
    root.is_superuser = True
    root.save()
    client.force_login(root)
    assert client.get(console(main)).status_code == 200
    EventStaff.objects.create(event=main, user=root, role="director")
    # A superuser is nobody's staff to add...
    assert add(client, main, root, "director", **HTMX).status_code == 409
    client.force_login(dora)
    # ...and only a superuser takes one off: the refusal is a 403 in the audit log.
    assert remove(client, main, root).status_code == 403
    assert EventStaff.objects.filter(event=main, user=root).exists()
    refusal = LogEntry.objects.get(action="access.refused", actor=dora)
    assert "needs the right superuser" in refusal.summary
    client.force_login(root)
    assert remove(client, main, root).status_code == 302
    assert not EventStaff.objects.filter(event=main, user=root).exists()


def test_the_creator_directs_a_new_event(client, dora, fred):
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    client.force_login(dora)
    data = {
        "name": "Friday",
        "template": template.pk,
        "game": "holdem",
        "betting": "no-limit",
        "buy_in": "50",
        "fee": "5",
        "seats_per_table": 9,
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
    }
    assert client.post("/console/events/new/", data).status_code == 302
    event = Event.objects.get(name="Friday")
    assert list(EventStaff.objects.filter(event=event).values_list("user__username", "role")) == [
        ("dora", "director")
    ]
    client.force_login(fred)
    assert client.get(console(event)).status_code == 403


def test_a_copy_keeps_the_staff(client, dora, fred, main):
    cleo = make_user("cleo", "director", events=False)
    EventStaff.objects.create(event=main, user=fred, role="floor")
    EventStaff.objects.create(event=main, user=cleo, role="director")
    client.force_login(cleo)
    response = client.post(f"/console/events/{main.pk}/copy/", {"name": "Main again", "seats": 9})
    assert response.status_code == 302
    copy = Event.objects.get(name="Main again")
    staff = set(EventStaff.objects.filter(event=copy).values_list("user__username", "role"))
    assert staff == {("dora", "director"), ("fred", "floor"), ("cleo", "director")}
    assert copy.log.get(action="event.copy").data["staff"] == ["cleo", "dora", "fred"]


def test_a_flight_has_the_staff_of_its_event(client, dora, fred, main):
    flight = flight_add(event_id=main.pk, name="1A", actor=Actor.of(dora))
    assert not EventStaff.objects.filter(event=flight).exists()
    client.force_login(fred)
    assert client.get(console(flight)).status_code == 403
    client.force_login(dora)
    assert client.get(console(flight)).status_code == 200
    # Added on the flight's page, fred joins the event's staff, and so every flight's.
    add(client, flight, fred, "floor")
    assert EventStaff.objects.filter(event=main, user=fred).exists()
    client.force_login(fred)
    assert client.get(console(flight)).status_code == 200
    assert client.get(console(main)).status_code == 200
    token = make_token(fred)
    answer = client.post(
        f"/api/events/{flight.pk}/clock",
        {"action": "pause"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code != 403


def test_the_console_lists_the_events_a_user_acts_on(client, dora, fred, main, side):
    flight = flight_add(event_id=main.pk, name="1A", actor=Actor.of(dora))
    client.force_login(dora)
    body = client.get("/console/").content.decode()
    assert "Main" in body and flight.name in body and "Side" not in body
    client.force_login(fred)
    body = client.get("/console/").content.decode()
    assert "Main" not in body and "No events of yours yet" in body
    EventStaff.objects.create(event=side, user=fred, role="floor")
    body = client.get("/console/").content.decode()
    assert "Side" in body and "Main" not in body
    assert "Copy" not in body  # the floor manages no event
    # The public front page lists them all still.
    client.logout()
    body = client.get("/").content.decode()
    assert "Main" in body and "Side" in body


def test_the_floor_plan_gives_tables_to_the_users_own_events_only(client, dora, main, side):
    client.force_login(dora)
    page = client.get("/console/floor/").content.decode()
    assert f'<option value="{main.pk}">Main' in page
    assert f'<option value="{side.pk}">' not in page
    refused = client.post("/console/floor/give", {"event": side.pk, "numbers": ["5"]})
    assert refused.status_code == 403
    assert not side.tables.exists()
    assert LogEntry.objects.get(action="access.refused", actor=dora).data["event"] == side.pk
    given = client.post("/console/floor/give", {"event": main.pk, "numbers": ["5"]})
    assert given.status_code == 302 and main.tables.filter(number=5).exists()


def test_an_api_token_acts_on_its_users_events_only(client, dora, main, side):
    token = make_token(dora)

    def clock(event):
        return client.post(
            f"/api/events/{event.pk}/clock",
            {"action": "start"},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )

    refused = clock(side)
    assert refused.status_code == 403
    assert refused.json() == {"error": "You do not have the right to do this."}
    side.clock.refresh_from_db()
    assert side.clock.status == "not-started"
    assert clock(main).status_code == 200


def test_a_ticket_is_registered_by_the_staff_of_its_event_only(client, dora, main, side):
    from tdsystem.seating.services.tickets import ticket_issue

    ticket = ticket_issue(event_id=side.pk, name="Eve", actor=Actor(label="test"))
    answer = client.post(
        f"/api/tickets/{ticket.pk}/register",
        {},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {make_token(dora)}",
    )
    assert answer.status_code == 403
    ticket.refresh_from_db()
    assert ticket.used_by is None


def test_a_missing_event_is_a_404_not_a_refusal(client, dora):
    client.force_login(dora)
    assert client.get("/console/events/999999/").status_code == 404
    assert not LogEntry.objects.filter(action="access.refused").exists()


def test_the_service_refuses_accounts_that_cannot_be_staff(dora, main):
    device = make_user("table7", "table")
    with pytest.raises(StaffError, match="neither a director nor a floor account"):
        event_staff_add(event_id=main.pk, user=device, role="floor", actor=Actor.of(dora))
    assert not event_staff_remove(event_id=main.pk, user_id=device.pk, actor=Actor.of(dora))


def test_the_demo_accounts_work_on_the_demo_event_out_of_the_box(client, monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "demo-pass")
    monkeypatch.setenv("DEMO_FLOOR_PASSWORD", "demo-floor-pass")
    call_command("loaddemo")
    call_command("loaddemo")  # still once on the staff
    demo = Event.objects.get()
    floor = EventStaff.objects.get(event=demo, user__username="floor")
    assert floor.role == "floor"
    for name, password in (("director", "demo-pass"), ("floor", "demo-floor-pass")):
        client.post("/logout/")
        assert client.post("/login/", {"username": name, "password": password}).status_code == 302
        assert client.get(console(demo)).status_code == 200
        assert client.get(f"/console/events/{demo.pk}/seating/").status_code == 200
        assert demo.name in client.get("/console/").content.decode()
    token = make_token(EventStaff.objects.get(event=demo, user__username="floor").user)
    paused = client.post(
        f"/api/events/{demo.pk}/clock",
        {"action": "start"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert paused.status_code == 403  # the floor's role: pause and resume only


def test_the_upgrade_puts_every_director_and_floor_account_on_every_event(dora, fred):
    """The migration's step, run on an installation with events and accounts."""
    from importlib import import_module

    from django.apps import apps

    first = make_event(600, name="Last week", staff=False)
    second = make_event(600, name="This week", staff=False)
    flight_add(event_id=second.pk, name="1A", actor=Actor(label="test"))
    make_user("table7", "table")
    root = make_user("root", None)
    root.is_superuser = True
    root.save()
    migration = import_module("tdsystem.core.migrations.0009_event_staff")
    migration.staff_every_event(apps, None)
    places = set(EventStaff.objects.values_list("event__name", "user__username", "role"))
    assert places == {
        ("Last week", "dora", "director"),
        ("Last week", "fred", "floor"),
        ("This week", "dora", "director"),
        ("This week", "fred", "floor"),
    }
    assert first.pk and second.pk
