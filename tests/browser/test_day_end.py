"""The end of a day in Chromium, on the floor's phone: the table page counts its last hands
down ("2 hands left", "Last hand", "Bag your chips"), then bags the whole table at once.

Screenshots: var/screenshots/toolkit/day-end-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_counts_the_last_hands_down_and_bags_the_table(live_server, new_page):
    from tdsystem.seating.models import Bag, DayEnd, EventTable
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Main Event Day 1", seats_per_table=6)
    arrange(event, {1: [1, 3, 5], 2: [2, 4], 3: [1, 6], 4: [3, 4]}, seats=6)
    from tdsystem.seating.services.dayend import day_end_start

    # A 6-handed event: 2 to 5 last hands. Seed 2 draws 2 (asserted, so a change shows).
    day_end_start(event_id=event.pk, actor=ACTOR, seed=2)
    assert DayEnd.objects.get(event=event).hands == 2
    page = new_page(PHONE)
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    banner = page.locator("#last-hands .word")
    assert banner.inner_text() == "2 hands left"
    hand = page.get_by_role("button", name="Hand finished")
    hand.click()
    page.locator("#last-hands.last").wait_for()
    assert banner.inner_text() == "Last hand"
    hand.click()
    page.locator("#last-hands.bag").wait_for()
    assert banner.inner_text() == "Bag your chips" and hand.is_disabled()

    # One bag number left out: the whole table is refused and what was typed stays.
    for seat, chips in ((1, "31,500"), (3, "12 000"), (5, "8000")):
        page.fill(f"[name=chips-{seat}]", chips)
        page.fill(f"[name=bag-{seat}]", f"B{seat}" if seat != 5 else "")
    page.locator("[name=bag-5]").evaluate("el => el.removeAttribute('required')")
    page.get_by_role("button", name="Save the bags").click()
    page.locator("#table-bags .flash.error").wait_for()
    assert "Seat 5" in page.locator("#table-bags .flash.error").inner_text()
    assert page.locator("[name=chips-1]").input_value() == "31,500"
    assert not Bag.objects.exists()
    page.fill("[name=bag-5]", "B5")
    page.get_by_role("button", name="Save the bags").click()
    # Saved, the seats are read again: each shows its bag, and no Out button is left.
    page.locator("#table ol.seats .bag-mark").first.wait_for()
    assert page.locator("#table ol.seats").get_by_role("button", name="Out").count() == 0
    assert "This table is bagged." in page.locator("#table-bags").inner_text()
    screenshot(page, "toolkit/day-end-bagged-phone-390", full_page=True)
    bags = sorted(Bag.objects.values_list("seat", "chips", "number"))
    assert bags == [(1, 31_500, "B1"), (3, 12_000, "B3"), (5, 8_000, "B5")]
    assert EventTable.objects.get(event=event, number=1).hands_left == 0
