"""PATCH /api/events/{id}/entry-rules: the same service as the console's page."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

LEVELS = (600, 600, "B300", 600, 600)


def patch(client, event, token, body):
    return client.patch(
        reverse("api:event_entry_rules", args=[event.pk]),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def running(event, index: int = 3) -> None:
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=index, remaining_ms=1000)
    Event.objects.filter(pk=event.pk).update(status="paused")


def notices(client, event) -> dict:
    data = client.get(f"/api/events/{event.pk}/clock").json()
    return {n["code"]: n for n in data["entry_notices"]}


def test_a_director_changes_a_running_events_rules(client, director_token):
    event = make_event(
        *LEVELS, late_registration_end_level=1, reentry_allowed=True, reentry_max=2, addon_break=2
    )
    running(event)
    answer = patch(
        client, event, director_token, {"late_registration_end_level": 4, "reentry_max": 3}
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["changed"] == ["late_registration_end_level", "reentry_max"]
    assert body["late_registration_end_level"] == 4 and body["addon_break"] == 2
    assert body["addon_price"] == "0.00" and body["rebuy_chips"] is None
    entry = LogEntry.objects.get(event=event, action="event.entry_rules")
    assert entry.data["before"] == {"late_registration_end_level": 1, "reentry_max": 2}
    shown = notices(client, event)
    assert shown["late-registration"]["params"]["level"] == 4
    assert shown["reentries"]["params"]["limit"] == 3


def test_money_and_the_starting_stack(client, director_token):
    event = make_event(*LEVELS, rebuy_until_level=2, rebuy_chips=5000)
    answer = patch(
        client, event, director_token, {"rebuy_price": "44.5", "rebuy_fee": 4, "rebuy_chips": None}
    )
    assert answer.status_code == 200, answer.json()
    stored = Event.objects.get(pk=event.pk)
    assert stored.rebuy_price == Decimal("44.50") and stored.rebuy_fee == Decimal("4")
    assert stored.rebuy_chips is None


def test_an_empty_body_changes_nothing(client, director_token):
    event = make_event(*LEVELS)
    answer = patch(client, event, director_token, {})
    assert answer.status_code == 200 and answer.json()["changed"] == []
    assert not LogEntry.objects.filter(event=event, action="event.entry_rules").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"late_registration_end_level": -1}, "late_registration_end_level"),
        ({"late_registration_end_level": 32768}, "late_registration_end_level"),
        ({"late_registration_end_level": None}, "late_registration_end_level"),
        ({"reentry_max": "3"}, "reentry_max"),
        ({"reentry_allowed": 1}, "reentry_allowed"),
        ({"rebuy_chips": 0}, "rebuy_chips"),
        ({"rebuy_threshold": 10**12 + 1}, "rebuy_threshold"),
        ({"addon_price": -1}, "addon_price"),
        ({"addon_fee": "1.234"}, "addon_fee"),
        ({"reentry_max": 1}, "reentry_max"),
        ({"reentry_until_level": 4}, "reentry_until_level"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_changes_nothing(
    client, director_token, body, field
):
    event = make_event(*LEVELS, late_registration_end_level=2)
    answer = patch(client, event, director_token, {"rebuy_until_level": 3, **body})
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == field and answer.json()["error"]
    stored = Event.objects.get(pk=event.pk)
    assert stored.late_registration_end_level == 2 and stored.rebuy_until_level == 0


def test_a_reentry_rule_needs_reentries_allowed(client, director_token):
    """The form's rule, the same through the API: a limit on re-entries that are not
    allowed would do nothing, so it is refused naming the rule, and nothing changes."""
    event = make_event(*LEVELS, reentry_allowed=True, reentry_max=1)
    answer = patch(client, event, director_token, {"reentry_allowed": False})
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == "reentry_max"
    assert "Re-entries allowed" in answer.json()["error"]
    assert Event.objects.get(pk=event.pk).reentry_allowed is True
    answer = patch(client, event, director_token, {"reentry_allowed": False, "reentry_max": 0})
    assert answer.status_code == 200, answer.json()
    assert answer.json()["changed"] == ["reentry_allowed", "reentry_max"]


def test_floor_staff_are_refused(client, floor_token):
    event = make_event(*LEVELS, late_registration_end_level=2)
    answer = patch(client, event, floor_token, {"late_registration_end_level": 6})
    assert answer.status_code == 403
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 2


def test_a_finished_event_is_a_409(client, director_token):
    event = make_event(*LEVELS, late_registration_end_level=2)
    Event.objects.filter(pk=event.pk).update(status="finished")
    answer = patch(client, event, director_token, {"late_registration_end_level": 6})
    assert answer.status_code == 409
    assert "finished" in answer.json()["error"]
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 2


def test_an_unknown_event_is_a_404(client, director_token):
    event = make_event(*LEVELS)
    answer = client.patch(
        reverse("api:event_entry_rules", args=[event.pk + 999]),
        data="{}",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert answer.status_code == 404


@pytest.mark.parametrize(
    "body", [b"", b"{", b"null", b"[]", b'"x"', b'{"addon_break": NaN}', b"\xff\xfe", b"\x00"]
)
def test_a_body_that_does_not_read_is_a_4xx_and_changes_nothing(client, director_token, body):
    """The fuzz tests count POST and PUT as writes; this PATCH is checked here."""
    event = make_event(*LEVELS, addon_break=1)
    answer = client.generic(
        "PATCH",
        reverse("api:event_entry_rules", args=[event.pk]),
        body,
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert 400 <= answer.status_code < 500 and answer.json()["error"]
    assert Event.objects.get(pk=event.pk).addon_break == 1
    assert not LogEntry.objects.filter(event=event, action="event.entry_rules").exists()
