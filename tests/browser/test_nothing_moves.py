"""What a page reads after it has opened does not move what is already on the screen: a
finger about to tap a button, or Playwright's click, lands where it aimed.

- the shot clock's panel is in the table page itself, not loaded above its seats.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import PHONE, Quiet, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watch(page, selector: str) -> None:
    """Records where `selector` is when the page is first parsed, before any of its loads."""
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        f" const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
        " window.tdFirstSpot = [r.x, r.y]; });"
    )


def spot_now(page, selector: str) -> list[float]:
    return page.evaluate(
        "s => { const r = document.querySelector(s).getBoundingClientRect(); return [r.x, r.y]; }",
        selector,
    )


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
