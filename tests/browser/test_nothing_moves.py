"""What a page reads after it has opened does not move what is already on the screen: a
finger about to tap a button, or Playwright's click, lands where it aimed.

- the staff's health line (here: no Celery worker) comes in at the foot of the screen;
- the shot clock's panel is in the table page itself, not loaded above its seats;
- seating's flights and end of the day are in the event's console itself, not loaded
  above the clock's buttons and the log.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import PHONE, TABLET, Quiet, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SPOT = "s => { const r = document.querySelector(s).getBoundingClientRect(); return [r.x, r.y]; }"


def watch(page, selector: str) -> None:
    """Records where `selector` is when the page is first parsed, before any of its loads."""
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        f" window.tdFirstSpot = ({SPOT})({json.dumps(selector)}); }});"
    )


def spot_now(page, selector: str) -> list[float]:
    return page.evaluate(SPOT, selector)


def test_the_health_line_comes_in_below_what_a_director_taps(live_server, new_page):
    from tdsystem.structures.services import structure_create
    from tests.fixtures import short_levels

    make_user("dora", "director")
    template, _ = structure_create(name="Daily 10k", levels=short_levels(1200, 1200, "B600"))
    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    watch(page, "#edit-levels")
    page.goto(f"{live_server.url}/console/structures/{template.pk}/")
    line = page.locator(".health-banner")
    line.wait_for()  # the test run has no Celery worker
    assert "No Celery worker" in line.inner_text()
    assert spot_now(page, "#edit-levels") == page.evaluate("window.tdFirstSpot")
    # Held at the foot of the screen, over nothing the page needs at its end.
    box = line.bounding_box()
    assert box is not None and abs(box["y"] + box["height"] - TABLET["height"]) <= 1
    screenshot(page, "health-line-tablet")
    # One line on a phone, covering little of it; the whole text once tapped.
    page.set_viewport_size(PHONE)
    folded = line.bounding_box()
    assert folded is not None and folded["height"] < 50
    screenshot(page, "health-line-phone")
    line.click()
    opened = line.bounding_box()
    assert opened is not None and opened["height"] > 2 * folded["height"]
    assert abs(opened["y"] + opened["height"] - PHONE["height"]) <= 1
    screenshot(page, "health-line-phone-opened")


def test_the_shot_clock_panel_is_in_the_table_page_and_moves_no_seat(live_server, new_page):
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Wynn Classic")
    arrange(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    page = new_page(PHONE)
    login(page, live_server, floor.username, PASSWORD)
    quiet = Quiet(page)
    watch(page, "#table")
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    assert page.locator("#shot-clock #sc-face").count() == 1  # there before any script ran
    quiet.wait()
    assert spot_now(page, "#table") == page.evaluate("window.tdFirstSpot")
    screenshot(page, "table-page-phone")


def test_the_console_s_flights_and_end_of_day_are_in_it_and_move_no_clock_button(
    live_server, new_page
):
    from tests.services.test_flights import played

    make_user("dora", "director")
    main, _a, _b, _players = played()
    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    quiet = Quiet(page)
    watch(page, "#log")
    page.goto(f"{live_server.url}/console/events/{main.pk}/")
    # Above the clock's panel and below it, there before any script ran.
    assert page.locator("#flights-summary").count() == 1
    assert page.locator("#day-end h2").inner_text() == "End of day 1"
    quiet.wait()
    assert spot_now(page, "#log") == page.evaluate("window.tdFirstSpot")
    screenshot(page, "console-flights-and-day-end-tablet", full_page=True)
