"""Dates out of range in the browser: the inputs tell the browser the range, a start the
server refuses shows beside its field with what was typed kept (htmx swaps the 400 in),
and a bad row already in the database leaves the pages readable, at every size."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tdsystem.events.models import Event
from tests.browser.conftest import PHONE, TABLET, TV, login, open_page, screenshot, settled
from tests.personas import PASSWORD, make_user
from tests.services.test_flights import festival

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}
RANGE = "Choose a date and time from 2000-01-01 00:00 to 2100-12-31 23:59 (time zone UTC)."


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("size", SIZES)
def test_a_flight_start_out_of_range_is_refused_beside_its_field(live_server, new_page, size):
    make_user("dora", "director")
    main, (flight,) = festival("1A")
    # One row out of range already (an older release's): the page still reads.
    Event.objects.filter(pk=flight.pk).update(scheduled_start=datetime(1, 1, 1, tzinfo=UTC))
    page = open_page(new_page, SIZES[size])
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{main.pk}/flights/")
    start = page.locator("#id_scheduled_start")
    assert start.get_attribute("min") == "2000-01-01T00:00"
    assert start.get_attribute("max") == "2100-12-31T23:59"
    assert "Fri 31 Dec, 10:00" in page.locator("#flights table").inner_text()  # held at the end
    # The browser refuses it by itself; a page opened before, or a script, gets the server's.
    page.evaluate("document.querySelector('form.add-flight').noValidate = true")
    page.fill("#id_name", "Z3")
    start.fill("0001-01-01T00:00")
    page.get_by_role("button", name="Add a flight").click()
    page.wait_for_selector("#flights .flash.error")
    settled(page)
    assert page.locator("#flights .field-error").inner_text() == f"Start: {RANGE}"
    assert page.input_value("#id_name") == "Z3"
    assert page.input_value("#id_scheduled_start") == "0001-01-01T00:00"
    assert Event.objects.filter(parent=main).count() == 1
    assert no_sideways_scroll(page), size
    screenshot(page, f"dates/flight-refused-{size}", full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_the_new_event_form_shows_the_range_on_its_field(live_server, new_page, size):
    from tdsystem.structures.services import templates_install

    make_user("dora", "director")
    templates_install()
    page = open_page(new_page, SIZES[size])
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/new/")
    page.evaluate("document.querySelector('form.card').noValidate = true")
    page.fill("#id_name", "Friday")
    page.select_option("#id_template", index=1)
    page.fill("#id_scheduled_start", "9999-12-31T23:59")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_selector(f"text={RANGE}")
    assert page.input_value("#id_scheduled_start") == "9999-12-31T23:59"
    assert page.locator(".flash.error").count() == 1  # that field's, and no other
    assert not Event.objects.filter(name="Friday").exists()
    assert no_sideways_scroll(page), size
    field = page.locator("#id_scheduled_start").locator("xpath=..")
    field.scroll_into_view_if_needed()
    screenshot(page, f"dates/new-event-refused-{size}")
