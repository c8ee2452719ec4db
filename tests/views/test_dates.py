"""Dates and times from people: the pages' forms take 2000-01-01 to 2100-12-31 in the
installation's time zone and refuse the rest on the field, keeping what was typed; and one
row out of that range, however it got into the database, takes no page or screen down.
Run on SQLite and on PostgreSQL (which keeps a year-10000 timestamp and fails to read it
back without tdsystem.core.postgresql's loader)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import connection
from django.test import override_settings

from tdsystem.core.log import Text, log_record
from tdsystem.core.models import LogEntry
from tdsystem.engine.clock import ClockError
from tdsystem.events import services as events
from tdsystem.events.models import Clock, Event
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event
from tests.personas import make_token
from tests.services.test_flights import festival

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NEW_YORK = "America/New_York"


def new_event_data(**changes) -> dict:
    from tdsystem.structures.services import templates_install

    return {
        "name": "Friday",
        "template": templates_install()[0].pk,
        "game": "holdem",
        "betting": "no-limit",
        "seats_per_table": "9",
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "late_registration_end_level": "0",
        "buy_in": "100",
        "fee": "10",
        **changes,
    }


# The forms ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "typed"),
    [
        (NEW_YORK, "9999-12-31T23:59"),  # the year 10000 in UTC: a 500, or stored on PostgreSQL
        (NEW_YORK, "0001-01-01T00:00"),  # west of UTC no page could show it
        ("UTC", "0001-01-01T00:00"),
        ("UTC", "1999-12-31T23:59"),
        ("UTC", "2101-01-01T00:00"),
    ],
)
def test_the_new_event_form_refuses_a_start_out_of_range_on_its_field(
    client, director, zone, typed
):
    client.force_login(director)
    with override_settings(TIME_ZONE=zone):
        before = Event.objects.count()
        response = client.post("/console/events/new/", new_event_data(scheduled_start=typed))
        assert response.status_code == 400
        errors = response.context["form"].errors
        assert list(errors) == ["scheduled_start"]
        assert errors["scheduled_start"] == [
            f"Choose a date and time from 2000-01-01 00:00 to 2100-12-31 23:59 (time zone {zone})."
        ]
        html = response.content.decode()
        assert f'value="{typed}"' in html  # what was typed is kept
        assert 'min="2000-01-01T00:00" max="2100-12-31T23:59"' in html
        assert Event.objects.count() == before


def test_the_new_event_form_takes_the_ends_of_the_range(client, director):
    client.force_login(director)
    with override_settings(TIME_ZONE=NEW_YORK):
        for name, typed in (("First", "2000-01-01T00:00"), ("Last", "2100-12-31T23:59")):
            data = new_event_data(name=name, scheduled_start=typed)
            assert client.post("/console/events/new/", data).status_code == 302
        starts = dict(Event.objects.values_list("name", "scheduled_start"))
    assert starts["First"] == datetime(2000, 1, 1, 5, 0, tzinfo=UTC)
    assert starts["Last"] == datetime(2101, 1, 1, 4, 59, tzinfo=UTC)


def test_the_copy_form_refuses_a_start_out_of_range(client, director, event):
    client.force_login(director)
    before = Event.objects.count()
    data = {"name": "Next week", "numbers": "", "seats": "9", "scheduled_start": "0001-01-01T00:00"}
    response = client.post(f"/console/events/{event.pk}/copy/", data)
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["scheduled_start"]
    assert 'value="0001-01-01T00:00"' in response.content.decode()
    assert Event.objects.count() == before


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "plain"])
def test_the_flights_page_refuses_a_start_out_of_range_on_its_field(client, director, headers):
    main, _ = festival("1A")
    client.force_login(director)
    before = Event.objects.count()
    with override_settings(TIME_ZONE=NEW_YORK):
        response = client.post(
            f"/console/events/{main.pk}/flights/add",
            {"name": "Z3", "scheduled_start": "9999-12-31T23:59"},
            **headers,
        )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Choose a date and time from 2000-01-01 00:00 to 2100-12-31 23:59" in html
    assert 'value="9999-12-31T23:59"' in html and 'value="Z3"' in html
    assert ("<html" in html) is not bool(headers)  # the panel for htmx, else the whole page
    assert Event.objects.count() == before


# The clock ---------------------------------------------------------------------------


def test_time_added_again_and_again_never_runs_a_level_past_a_day(event):
    events.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    events.clock_action(event_id=event.pk, action="set_time", seconds=24 * 3600, actor=ACTOR)
    version = Clock.objects.get(pk=event.pk).version
    with pytest.raises(ClockError, match="at most 24 hours"):
        events.clock_action(event_id=event.pk, action="add_time", seconds=60, actor=ACTOR)
    assert Clock.objects.get(pk=event.pk).version == version


# Pages and screens with a bad row ----------------------------------------------------

# What each database lets a hand (or an older release) put in, bypassing the forms:
# SQLite any text, PostgreSQL any timestamp from 4713 BC to the year 294276.
MINUS_14 = timezone(timedelta(hours=-14))
YEAR_1 = datetime(1, 1, 1, tzinfo=UTC)
YEAR_9999 = datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
YEAR_10000 = datetime(9999, 12, 31, 23, 59, 59, tzinfo=MINUS_14)  # 10000-01-01 13:59 UTC


def force(model, pk: int, field: str, value) -> None:
    """`value` into the row as the database takes it, past every check of the system."""
    if isinstance(value, datetime) and not (connection.vendor == "sqlite" and value is YEAR_10000):
        model.objects.filter(pk=pk).update(**{field: value})
        return
    # SQLite: Django cannot write the year 10000 (its conversion to UTC overflows): as text.
    text = value if isinstance(value, str) else "10000-01-01 13:59:59"
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(model._meta.db_table)} SET {quote(field)} = %s "
            f"WHERE {quote(model._meta.pk.column)} = %s",
            [text, pk],
        )


def pages(main: Event, running: Event) -> list[str]:
    return [
        "/console/",
        "/console/?show=all",
        "/console/floor/",
        f"/console/events/{main.pk}/",
        f"/console/events/{main.pk}/flights/",
        f"/console/events/{running.pk}/",
        f"/console/events/{running.pk}/levels/",
        "/api/events",
        "/api/current-event",
        "/api/floor",
        f"/api/events/{main.pk}/flights",
        f"/api/events/{main.pk}/clock",
        f"/api/events/{running.pk}/clock",
        "/clock/",
        "/schedule/",
        "/seats/",
        f"/events/{main.pk}/clock/",
        f"/events/{main.pk}/schedule/",
        f"/events/{running.pk}/clock/",
        f"/events/{running.pk}/schedule/",
        f"/events/{running.pk}/seats/",
        "/screens/clocks/",
    ]


@pytest.mark.parametrize("zone", ["UTC", NEW_YORK, "Pacific/Kiritimati"])
@pytest.mark.parametrize(
    "bad",
    [YEAR_1, YEAR_9999, YEAR_10000, "infinity"],
    ids=["year-1", "year-9999", "year-10000", "infinity"],
)
@pytest.mark.parametrize("clock_running", [False, True], ids=["planned", "running"])
def test_the_pages_and_screens_answer_with_a_date_out_of_range_in_the_database(
    client, director, zone, bad, clock_running
):
    ends_at = bad
    if bad == "infinity" and connection.vendor == "sqlite":
        # SQLite keeps any text: one that is no date reads as None, as it always did, and
        # a running clock without its end cannot be shown: that one gets the year 10000.
        bad, ends_at = "banana", YEAR_10000
    main, (flight,) = festival("1A")
    running = make_event(600, 600, name="Side event")
    if clock_running:
        events.clock_action(event_id=running.pk, action="start", actor=ACTOR)
        force(Clock, running.pk, "ends_at", ends_at)
    for event in (main, flight):
        force(Event, event.pk, "scheduled_start", bad)
    note = log_record(event=None, actor=ACTOR, action="test", summary=Text("A note"))
    force(LogEntry, note.pk, "at", bad)
    client.force_login(director)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {make_token(director)}"}
    with override_settings(TIME_ZONE=zone):
        for url in pages(main, running):
            response = client.get(url, follow=True, **auth)
            assert response.status_code == 200, (url, response.content[:300])
