"""The API's rebuys, add-on and re-entries: the event's figures, and refusals with a code."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tdsystem.events.models import Clock
from tdsystem.results.services import bustout_record
from tdsystem.seating import services
from tdsystem.seating.models import Entry, Purchase
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def post(client, url: str, token: str, body: dict | None = None):
    return client.post(
        url,
        json.dumps(body or {}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@pytest.fixture
def rebuy_event():
    event = make_event(
        600,
        600,
        "B300",
        600,
        rebuy_until_level=1,
        rebuy_threshold=5000,
        rebuy_price=Decimal("40"),
        rebuy_fee=Decimal("4"),
        rebuy_chips=6000,
        rebuy_max=1,
        addon_break=1,
        addon_price=Decimal("20"),
        addon_fee=Decimal("2"),
    )
    for name in ("Ana", "Bob", "Cy"):
        services.player_register(event=event, name=name, actor=ACTOR)
    return event


def test_it_rebuys_at_the_event_price(client, rebuy_event, floor_token):
    url = f"/api/events/{rebuy_event.pk}/entries/1/rebuy"
    response = post(client, url, floor_token, {"stack": 1200})
    assert response.status_code == 200
    assert response.json() == {
        "entry": 1,
        "player": "Ana",
        "kind": "rebuy",
        "chips": 6000,
        "amount": "40.00",
        "fee": "4.00",
        "entry_chips": 16_000,
    }


def test_it_refuses_a_rebuy_with_the_rules_code(client, rebuy_event, floor_token):
    url = f"/api/events/{rebuy_event.pk}/entries/1/rebuy"
    response = post(client, url, floor_token, {"stack": 8200})
    assert response.status_code == 409
    assert response.json() == {
        "error": "a rebuy needs 5,000 chips or fewer: #1 Ana has 8,200",
        "code": "rebuy-over-threshold",
        "params": {"who": "#1 Ana", "threshold": 5000, "stack": 8200},
    }
    assert post(client, url, floor_token, {"stack": 0}).status_code == 200
    limit = post(client, url, floor_token, {"stack": 0})
    assert (limit.status_code, limit.json()["code"]) == (409, "rebuy-limit")
    Clock.objects.filter(pk=rebuy_event.pk).update(status="paused", level_index=1)
    over = post(client, f"/api/events/{rebuy_event.pk}/entries/2/rebuy", floor_token, {"stack": 0})
    assert over.json()["error"] == "Rebuys ended with level 1"
    assert Purchase.objects.filter(kind="rebuy").count() == 1


def test_it_checks_the_stack_is_a_whole_number(client, rebuy_event, floor_token):
    url = f"/api/events/{rebuy_event.pk}/entries/1/rebuy"
    response = post(client, url, floor_token, {"stack": -1})
    assert response.status_code == 400 and response.json()["field"] == "stack"
    assert post(client, url, floor_token, {"stack": "5"}).status_code == 400
    assert (
        post(client, f"/api/events/{rebuy_event.pk}/entries/99/rebuy", floor_token).status_code
        == 404
    )


def test_it_takes_the_addon_at_its_break_once(client, rebuy_event, floor_token):
    url = f"/api/events/{rebuy_event.pk}/entries/2/addon"
    early = post(client, url, floor_token)
    assert (early.status_code, early.json()["code"]) == (409, "addon-not-now")
    assert early.json()["error"] == "the add-on is taken at the first break"
    Clock.objects.filter(pk=rebuy_event.pk).update(status="paused", level_index=2)
    taken = post(client, url, floor_token)
    assert taken.status_code == 200 and taken.json()["fee"] == "2.00"
    again = post(client, url, floor_token)
    assert again.json() == {
        "error": "#2 Bob has taken the add-on already",
        "code": "addon-taken",
        "params": {"who": "#2 Bob"},
    }


def test_it_refuses_a_reentry_the_event_does_not_allow(client, rebuy_event, floor_token):
    services.tables_setup(event=rebuy_event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=rebuy_event, seed=1, actor=ACTOR)
    ana = Entry.objects.get(event=rebuy_event, number=1)
    bustout_record(event_id=rebuy_event.pk, entry_ids=[ana.pk], actor=ACTOR)
    response = post(client, f"/api/events/{rebuy_event.pk}/entries/1/reentry", floor_token)
    assert (response.status_code, response.json()["code"]) == (409, "reentry-not-allowed")


def test_it_reenters_within_the_rules(client, floor_token):
    event = make_event(600, 600, late_registration_end_level=2, reentry_allowed=True, reentry_max=1)
    for name in ("Ana", "Bob", "Cy", "Di"):  # three left when Ana is out: not heads-up
        services.player_register(event=event, name=name, actor=ACTOR)
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)
    ana = Entry.objects.get(event=event, number=1)
    bustout_record(event_id=event.pk, entry_ids=[ana.pk], actor=ACTOR)
    response = post(client, f"/api/events/{event.pk}/entries/1/reentry", floor_token)
    assert response.status_code == 201 and response.json()["entry"] == 5
    bustout_record(event_id=event.pk, entry_ids=[Entry.objects.get(number=5).pk], actor=ACTOR)
    limit = post(client, f"/api/events/{event.pk}/entries/5/reentry", floor_token)
    assert limit.json()["error"] == "#5 Ana has 1 re-entry: the limit is 1"
