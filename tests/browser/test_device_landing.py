"""A tablet fixed to a table logs in and lands on its table's page, or waits for one."""

from __future__ import annotations

import pytest

from tdsystem.seating.models import EventTable, TableDevice, VenueTable
from tdsystem.simulation.seatings import arrange
from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_device_lands_on_its_own_table_or_a_page_that_waits(live_server, new_page):
    event = make_event(600, 600, name="Sunday Main")
    arrange(event, {3: [1, 2, 4, 6], 4: [2, 3, 5]}, positions={3: (1, 2, 4), 4: (2, 3, 5)})
    TableDevice.objects.create(
        user=make_user("table3", "table"),
        venue_table=EventTable.objects.get(event=event, number=3).venue_table,
    )
    TableDevice.objects.create(
        user=make_user("table9", "table"), venue_table=VenueTable.objects.create(number=9)
    )

    page = new_page(TABLET)
    login(page, live_server, "table3", PASSWORD)
    page.wait_for_url(f"**/console/events/{event.pk}/tables/3/")
    assert page.locator("h1").inner_text() == "Table 3"
    assert page.locator("ol.seats li").count() == 9
    screenshot(page, "device-landing-table")

    idle = new_page(PHONE)
    login(idle, live_server, "table9", PASSWORD)
    idle.wait_for_url("**/console/my-table/")
    assert "No event is playing at this table" in idle.locator("main, body").first.inner_text()
    assert idle.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    screenshot(idle, "device-landing-waiting")
