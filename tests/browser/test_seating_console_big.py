"""The seating console of a 500-player event in Chromium: a tablet pages through the
tables with HTMX, jumps to a table, and a phone opens a later page.

Screenshots: var/screenshots/seating-console-big-*.png.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.browser.test_every_page import WIDTH
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown(page) -> list[int]:
    ids = page.eval_on_selector_all("#tables .tcard", "cards => cards.map(c => c.id)")
    return [int(i.removeprefix("table-")) for i in ids]


def test_a_tablet_pages_through_a_big_field_and_jumps_to_a_table(live_server, new_page):
    from tdsystem.simulation.seatings import field
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    event = make_event(1200, 1200, name="Big Sunday")
    field(event, players=500, tables=56)  # 56 tables of 9: pages of 36 and 20
    console = f"{live_server.url}/console/events/{event.pk}/seating/"

    page = new_page(TABLET)
    login(page, live_server, director.username, PASSWORD)
    page.goto(console)
    assert shown(page) == list(range(1, 37))
    pager = page.locator("#tables .pager").first
    assert "Tables 1–36 · page 1 of 2" in pager.inner_text()
    screenshot(page, "seating-console-big-tablet")

    # Next page: the grid swaps in place (no reload) and the address keeps the page.
    page.evaluate("window.stillHere = true")
    pager.get_by_role("link", name="Next ›").click()
    page.wait_for_selector("#tables >> text=page 2 of 2")
    assert shown(page) == list(range(37, 57))
    assert page.url.endswith("?tables=2") and page.evaluate("window.stillHere") is True
    screenshot(page, "seating-console-big-tablet-page2")

    # Go to table 12: back on page 1, its card marked and in view.
    page.fill("#goto-table", "12")
    page.locator("#tables .goto").get_by_role("button", name="Go").click()
    page.wait_for_selector("#table-12.marked")
    assert shown(page) == list(range(1, 37)) and page.url.endswith("?table=12")
    assert page.locator("#table-12").is_visible()
    box = page.locator("#table-12").bounding_box()
    assert box and 0 <= box["y"] < TABLET["height"], "the marked card is scrolled into view"
    screenshot(page, "seating-console-big-tablet-jump")

    # A table not in play: a message, and the grid stays where it was.
    page.fill("#goto-table", "999")
    page.locator("#tables .goto").get_by_role("button", name="Go").click()
    page.wait_for_selector("#tables .flash.error")
    assert "Table 999 is not in play." in page.locator("#tables .flash.error").inner_text()
    assert shown(page) == list(range(1, 37)) and page.url.endswith("?table=12")
    assert page.locator("#table-12.marked").count() == 1
    assert page.locator("#tables .flash.error").is_visible()
    flash = page.locator("#tables .flash.error").bounding_box()
    assert flash and 0 <= flash["y"] < TABLET["height"], "the message is scrolled into view"
    screenshot(page, "seating-console-big-tablet-refused")

    # The table breaking next (the highest number) is one tap away.
    page.locator(".grid-find").get_by_role("link", name="56").click()
    page.wait_for_selector("#table-56.marked")
    assert "breaks next" in page.locator("#table-56 header").inner_text().lower()
    assert page.evaluate("window.stillHere") is True

    # Reload and back work from the address bar.
    page.reload()
    page.wait_for_selector("#table-56.marked")
    page.go_back()
    page.wait_for_function("location.search === '?table=12'")
    page.wait_for_selector("#table-12.marked")

    # Finding a player on the other page brings the grid to their table.
    from tdsystem.seating.models import Entry

    entry = Entry.objects.filter(event=event, table__number=50).select_related("player").first()
    page.fill("#find-q", entry.player.name)
    page.locator("#search").get_by_role("button", name=re.compile(entry.player.name)).click()
    page.locator("#entry-panel").get_by_role("link", name="show table").click()
    page.wait_for_selector("#table-50.marked")
    assert entry.player.name in page.locator("#table-50").inner_text()


def test_a_phone_opens_a_later_page_of_a_big_field(live_server, new_page):
    from tdsystem.simulation.seatings import field
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    event = make_event(1200, 1200, name="Big Sunday")
    field(event, players=500, tables=56)

    page = new_page(PHONE)
    login(page, live_server, director.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/?tables=2")
    assert shown(page) == list(range(37, 57))
    page.evaluate("document.getElementById('tables').scrollIntoView()")
    screenshot(page, "seating-console-big-phone")
    width, inner, culprits = page.evaluate(WIDTH)
    assert width <= inner + 1, f"wider than a phone: {culprits}"
    page.fill("#goto-table", "3")
    page.locator("#tables .goto").get_by_role("button", name="Go").click()
    page.wait_for_selector("#table-3.marked")
    screenshot(page, "seating-console-big-phone-jump")
