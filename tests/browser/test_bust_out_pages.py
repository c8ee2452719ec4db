"""A bust-out from the seating console's player panel and from the table page, in
Chromium: both post to the one bust-out route and show the place and the moves.

Screenshots: var/screenshots/bust-out-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))


def seated(event):
    from tdsystem.simulation.seatings import arrange

    return arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})


def test_the_player_panels_bust_out_shows_the_place_and_the_move(live_server, new_page):
    from tdsystem.results.models import Finish
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Friday Turbo")
    people = seated(event)
    page = new_page(TABLET)
    page.on("dialog", lambda dialog: dialog.accept())  # "T2S4 is out?"
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    page.fill("#find-q", "T2S4")
    page.locator("#search button").first.click()
    page.wait_for_selector("#entry-panel h3")
    page.locator("#entry-panel").get_by_role("button", name="Bust out").click()
    # The bust-out's own answer, beside the panel; the panel reads itself again.
    page.wait_for_selector("#bustout-answer #bustout-done")
    done = page.locator("#bustout-done").inner_text()
    assert f"#{people['T2S4'].number} T2S4 is out: 17th place" in done
    assert "1 move slip:" in done and "T1S8" in done and "table 1 seat 8" in done
    page.wait_for_selector("#entry-panel >> text=Out in place 17")
    assert page.locator("#bustout-done").is_visible()
    # The other cards follow: the move slip waits for the floor.
    page.wait_for_selector("#slips >> text=T1S8")
    screenshot(page, "bust-out-player-panel")
    assert Finish.objects.get(entry=people["T2S4"]).place == 17
    # Undo, from the answer itself: the player sits down again and the panel follows.
    page.locator("#bustout-done").get_by_role("button", name="Undo").click()
    page.wait_for_selector("#bustout-answer >> text=Undone:")
    page.wait_for_selector("#entry-panel >> text=Table 2 seat 4")
    screenshot(page, "bust-out-player-panel-undone")
    assert not Finish.objects.filter(entry=people["T2S4"], undone_at=None).exists()


def test_a_seats_out_on_the_table_page_shows_the_place(live_server, new_page):
    from tdsystem.results.models import Finish
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Friday Turbo")
    people = seated(event)
    page = new_page(PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/2/")
    screenshot(page, "bust-out-table-page-phone", full_page=True)
    page.get_by_role("button", name="T2S4 is out").click()
    # The bust-out's own answer above the seats; the seats read themselves again.
    page.wait_for_selector("#bustout-answer #bustout-done")
    done = page.locator("#bustout-done").inner_text()
    assert "T2S4 is out: 17th place" in done and "1 move slip:" in done
    page.wait_for_selector("#table >> text=arriving from table 1 seat 8")
    assert "T2S4" not in page.locator("#table .seats").inner_text()
    assert page.locator("#bustout-done").is_visible()
    screenshot(page, "bust-out-table-page-phone-done", full_page=True)
    assert Finish.objects.get(entry=people["T2S4"]).place == 17
