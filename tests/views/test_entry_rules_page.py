"""The console's page of an existing event's entry rules."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.events.forms import ENTRY_RULE_FIELDS
from tdsystem.events.models import Clock, Event
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

LEVELS = (600, 600, "B300", 600, 600)


def url(event) -> str:
    return reverse("console:event_entry_rules", args=[event.pk])


def posted(event, **changes) -> dict:
    """The page's form as shown for `event`, with `changes`."""
    data = {}
    for name in ENTRY_RULE_FIELDS:
        value = getattr(event, name)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else str(value)
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = str(value)
    return data


def running(event, index: int = 3) -> None:
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=index, remaining_ms=1000)
    Event.objects.filter(pk=event.pk).update(status="paused")


def notices(client, event) -> dict:
    return {
        n["code"]: n for n in client.get(f"/api/events/{event.pk}/clock").json()["entry_notices"]
    }


def test_it_shows_the_rules_and_what_the_clock_screen_says(client, director):
    event = make_event(*LEVELS, late_registration_end_level=4, rebuy_until_level=2)
    client.force_login(director)
    page = client.get(url(event)).content.decode()
    assert 'name="late_registration_end_level"' in page and 'value="4"' in page
    assert "Late registration until the end of level 4" in page  # the screen's notice
    assert "Rebuys until level 2" in page
    console = client.get(reverse("console:event", args=[event.pk])).content.decode()
    assert url(event) in console


def test_a_change_while_running_is_logged_and_the_clock_json_follows(client, director):
    event = make_event(*LEVELS, late_registration_end_level=1)
    running(event)
    client.force_login(director)
    assert "late-registration" not in notices(client, event)

    answer = client.post(url(event), posted(event, late_registration_end_level=5))

    assert answer.status_code == 302 and answer.url == reverse("console:event", args=[event.pk])
    entry = LogEntry.objects.get(event=event, action="event.entry_rules")
    assert entry.summary == "Late registration: until level 1 → until level 5 (while paused)"
    assert entry.actor_label == "dora"
    assert notices(client, event)["late-registration"]["params"]["level"] == 5


def test_saving_the_rules_as_they_are_changes_nothing(client, director):
    event = make_event(*LEVELS, rebuy_until_level=2, rebuy_price=Decimal("40"))
    client.force_login(director)
    answer = client.post(url(event), posted(event), follow=True)
    assert "Nothing changed in the entry rules." in answer.content.decode()
    assert not LogEntry.objects.filter(event=event, action="event.entry_rules").exists()


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"rebuy_chips": "0"}, "rebuy_chips", "a whole number from 1 to 1,000,000,000,000"),
        ({"addon_price": "-5"}, "addon_price", "an amount from 0 to 9,999,999,999.99"),
        ({"reentry_max": ""}, "reentry_max", "This field is required."),
        ({"rebuy_until_level": "40000"}, "rebuy_until_level", "a whole number from 0 to 1,000"),
        ({"rebuy_fee": "abc"}, "rebuy_fee", "an amount from 0 to 9,999,999,999.99"),
        (
            {"reentry_allowed": "", "reentry_max": "1"},
            "reentry_max",
            "Re-entries are not allowed: tick “Re-entries allowed”",
        ),
    ],
)
def test_bad_input_is_said_under_its_field_and_changes_nothing(
    client, director, changes, field, words
):
    event = make_event(*LEVELS, late_registration_end_level=2)
    client.force_login(director)
    answer = client.post(url(event), posted(event, late_registration_end_level=6, **changes))
    assert answer.status_code == 400
    assert words in answer.content.decode()
    assert answer.context["form"].errors[field]
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 2
    assert not LogEntry.objects.filter(event=event, action="event.entry_rules").exists()


def test_floor_staff_are_refused(client, floor_person):
    event = make_event(*LEVELS, late_registration_end_level=2)
    client.force_login(floor_person)
    assert client.get(url(event)).status_code == 403
    answer = client.post(url(event), posted(event, late_registration_end_level=6))
    assert answer.status_code == 403
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 2


def test_a_finished_event_is_shown_and_refused(client, director):
    event = make_event(*LEVELS, late_registration_end_level=2)
    Event.objects.filter(pk=event.pk).update(status="finished")
    client.force_login(director)
    page = client.get(url(event)).content.decode()
    assert "its entry rules no longer change" in page and "<fieldset disabled>" in page
    answer = client.post(url(event), posted(event, late_registration_end_level=6))
    assert answer.status_code == 400
    assert "The event has finished" in answer.content.decode()
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 2
