"""A seven-card stud table in Chromium on a tablet held upright (820x1180): no button or
blind badges, the stud note, 'Hand finished' counting the hand, and a bust-out balancing
by position.

Screenshots: var/screenshots/stud-table-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))
PORTRAIT_TABLET = {"width": 820, "height": 1180}


def test_a_stud_table_shows_no_blinds_and_balances_by_position(live_server, new_page):
    from django.urls import reverse

    from tdsystem.events.models import Event
    from tdsystem.seating.models import EventTable, Move
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Stud Eight", game=Event.Game.STUD)
    arrange(event, {1: FULL, 2: FULL[:8]})

    page = new_page(PORTRAIT_TABLET)
    login(page, live_server, floor.username, PASSWORD)
    page.goto(live_server.url + reverse("results:table", args=[event.pk, 2]))
    assert "no button and no blinds" in page.locator("#stud-note").inner_text()
    assert page.locator(".pos").count() == 0

    page.get_by_role("button", name="Hand finished").click()
    page.wait_for_selector("text=Hand 2: deal from seat 1")
    assert page.locator(".pos").count() == 0
    assert EventTable.objects.get(event=event, number=2).hand_number == 1

    # Seat 4 is out: table 1's seat 4 comes to seat 4 (stud moves by position).
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="T2S4 is out").click()
    page.wait_for_selector("text=arriving from table 1 seat 4", timeout=30_000)
    (move,) = Move.objects.filter(event=event)
    assert (move.from_table, move.from_seat, move.to_table, move.to_seat) == (1, 4, 2, 4)
    assert page.locator(".pos").count() == 0
    assert "waits for the button" not in page.content()
    screenshot(page, "stud-table-tablet-820", full_page=True)
