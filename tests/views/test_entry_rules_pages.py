"""Entry rules on the pages: the event form, the console's buys, the table page's buttons,
the clock JSON's notices and the clock screen."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from tdsystem.events.models import Clock, Event
from tdsystem.seating import services
from tdsystem.seating.models import Entry, Purchase
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

RULES = {
    "late_registration_end_level": 2,
    "reentry_allowed": True,
    "reentry_max": 2,
    "rebuy_until_level": 2,
    "rebuy_threshold": 5000,
    "rebuy_price": Decimal("40"),
    "rebuy_fee": Decimal("4"),
    "addon_break": 1,
    "addon_price": Decimal("20"),
    "addon_fee": Decimal("2"),
    "addon_chips": 15_000,
}


@pytest.fixture
def night():
    """Levels of 10 minutes: 1, 2, the first break, 3; three players seated at table 1."""
    event = make_event(600, 600, "B300", 600, **RULES)
    for name in ("Ana", "Bob", "Cy"):
        services.player_register(event=event, name=name, actor=ACTOR)
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)
    return event


def run_at(event, index: int, left_seconds: int) -> None:
    Clock.objects.filter(pk=event.pk).update(
        status="running",
        level_index=index,
        ends_at=timezone.now() + timedelta(seconds=left_seconds),
        remaining_ms=None,
        version=5,
    )


def notices(client, event) -> dict:
    data = client.get(f"/api/events/{event.pk}/clock").json()
    return {n["code"]: n for n in data["entry_notices"]}


def test_the_clock_json_lists_the_entry_notices(client, night):
    run_at(night, 0, 300)
    found = notices(client, night)
    late = found["late-registration"]
    # Level 1's five minutes left and level 2's ten: late registration closes in 15:00.
    assert late["params"]["level"] == 2 and 899_000 <= late["params"]["ms"] <= 900_000
    assert late["text"] in (
        "Late registration closes in 15:00",
        "Late registration closes in 14:59",
    )
    assert found["rebuys"]["text"] == "Rebuys until level 2"
    assert found["reentries"] == {
        "code": "reentries",
        "params": {"limit": 2},
        "text": "Re-entries: 2 per player",
    }
    assert found["addon"]["text"] == "Add-on at the first break"
    assert found["addon"]["params"] == {"break": 1, "now": False}


def test_the_clock_json_says_the_addon_is_at_this_break(client, night):
    run_at(night, 2, 200)
    found = notices(client, night)
    assert found["addon"]["text"] == "Add-on at this break"
    assert set(found) == {"addon"}  # rebuys, re-entries and registration ended with level 2
    run_at(night, 3, 200)
    assert notices(client, night) == {}


def test_the_clock_screen_shows_the_notices(client, night):
    run_at(night, 0, 300)
    html = client.get(f"/events/{night.pk}/clock/").content.decode()
    assert 'id="entry-notices"' in html
    assert "Rebuys until level 2" in html and "Re-entries: 2 per player" in html
    assert "Add-on at the first break" in html


def test_the_event_form_takes_the_entry_rules(client, director):
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    client.force_login(director)
    page = client.get("/console/events/new/").content.decode()
    assert "Entry rules" in page and "Rebuys until the end of level" in page
    data = {
        "name": "Rebuy Night",
        "template": template.pk,
        "game": "holdem",
        "betting": "no-limit",
        "buy_in": "50",
        "fee": "5",
        "seats_per_table": 9,
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "late_registration_end_level": 4,
        "rebuy_until_level": 6,
        "rebuy_price": "50",
        "rebuy_fee": "5",
        "rebuy_max": 3,
        "addon_break": 2,
        "addon_price": "25",
        "addon_chips": 20000,
    }
    assert client.post("/console/events/new/", data).status_code == 302
    event = Event.objects.get(name="Rebuy Night")
    rules = event.entry_rules
    assert (rules.rebuy_until_level, rules.rebuy_max, rules.addon_break) == (6, 3, 2)
    assert rules.rebuy_threshold == event.starting_stack  # left empty: the starting stack
    assert (event.addon_chips, event.addon_price) == (20000, Decimal("25"))
    bad = client.post("/console/events/new/", data | {"name": "Bad", "rebuy_price": "-1"})
    assert bad.status_code == 400 and "an amount from 0 to 9,999,999,999.99" in bad.content.decode()
    assert not Event.objects.filter(name="Bad").exists()


def buy_url(event, entry) -> str:
    return reverse("seating:entry_action", args=[event.pk, entry.pk, "buy"])


def test_the_console_rebuys_at_the_event_price_and_refuses_with_the_reason(client, director, night):
    client.force_login(director)
    ana = Entry.objects.get(event=night, number=1)
    run_at(night, 0, 300)
    panel = client.get(reverse("seating:entry", args=[night.pk, ana.pk]), HTTP_HX_REQUEST="true")
    html = panel.content.decode()
    assert re.search(r"Rebuy · 10,000 chips · 44(?![\d.])", html) and "at most 5,000" in html
    assert "Add-on" not in html  # not at the add-on's break
    over = client.post(
        buy_url(night, ana), {"kind": "rebuy", "stack": "8200"}, HTTP_HX_REQUEST="true"
    )
    assert "a rebuy needs 5,000 chips or fewer: #1 Ana has 8,200" in over.content.decode()
    ok = client.post(buy_url(night, ana), {"kind": "rebuy", "stack": "300"}, HTTP_HX_REQUEST="true")
    assert re.search(r"Rebuy for #1 Ana: 10,000 chips, 44(?![\d.])", ok.content.decode())
    purchase = Purchase.objects.get(entry=ana, kind="rebuy")
    assert (purchase.amount, purchase.fee) == (Decimal("40"), Decimal("4"))
    assert "140 to the prize pool, 4 in fees" in ok.content.decode()


def test_the_table_page_offers_buys_to_seating_staff_only(client, director, table_device, night):
    client.force_login(director)
    run_at(night, 2, 200)  # the add-on's break
    page = client.get(reverse("results:table", args=[night.pk, 1])).content.decode()
    assert page.count('name="kind" value="addon"') == 3
    assert 'value="rebuy"' not in page  # rebuys ended with level 2
    bob = Entry.objects.get(event=night, number=2)
    answer = client.post(buy_url(night, bob), {"kind": "addon", "table": "1"}, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("results:table", args=[night.pk, 1])
    assert re.search(r"Add-on for #2 Bob: 15,000 chips, 22(?![\d.])", answer.content.decode())
    again = client.post(buy_url(night, bob), {"kind": "addon", "table": "1"}, follow=True)
    assert "#2 Bob has taken the add-on already" in again.content.decode()
    assert Purchase.objects.filter(kind="addon").count() == 1
    from tdsystem.seating.models import TableDevice, VenueTable

    TableDevice.objects.create(user=table_device, venue_table=VenueTable.objects.get(number=1))
    client.force_login(table_device)
    device_page = client.get(reverse("results:table", args=[night.pk, 1])).content.decode()
    assert 'value="addon"' not in device_page
