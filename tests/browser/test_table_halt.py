"""A halted table in Chromium: the table page's HALT banner, the confirm step before a hand
at a halted table, and the halt lifting without a reload once balancing brings a player.

Screenshots: var/screenshots/table-halt-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import TABLET, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))


def test_a_halt_shows_on_the_table_page_and_lifts_after_balancing(live_server, new_page):
    from tdsystem.seating.models import EventTable, Move
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Friday Turbo")
    # Table 2: 6 players against 9, its blinds last on seats 5 and 6, seat 7 empty.
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (4, 5, 6)})

    table = new_page(TABLET)
    login(table, live_server, floor.username, PASSWORD)
    table.goto(live_server.url + _table_path(event.pk, 2))
    banner = table.locator("#halt")
    assert "HALT" in banner.inner_text()
    assert "Play stops here (TDA 11-D)" in banner.inner_text()
    assert "3 players short of table 1; the big blind would fall on empty seat 7" in (
        banner.inner_text()
    )
    table.evaluate("window.notReloaded = true")
    screenshot(table, "table-halt-banner")

    # "Hand finished" asks first; cancelling changes nothing.
    table.get_by_role("button", name="Hand finished").click()
    table.wait_for_selector(".confirm-halt")
    assert "Table 2 is halted (TDA 11-D)." in table.locator(".confirm-halt").inner_text()
    screenshot(table, "table-halt-confirm")
    table.locator(".confirm-halt").get_by_role("link", name="Cancel").click()
    table.wait_for_selector(".confirm-halt", state="detached")
    assert EventTable.objects.get(event=event, number=2).hand_number == 0

    # The director rebalances: one player walks from table 1 to seat 7 of table 2. Until
    # the move is done the table is still short and its big blind seat still empty.
    console = new_page(TABLET)
    login(console, live_server, director.username, PASSWORD)
    console.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    console.get_by_role("button", name="Rebalance").click()
    table.wait_for_selector("text=arriving from table 1", timeout=30_000)
    assert table.locator("#halt").is_visible()
    (move,) = Move.objects.filter(event=event)
    assert (move.to_table, move.to_seat) == (2, 7)

    # The floor brings the player and acknowledges the slip at the table: the halt lifts.
    table.locator(f"#slip-{move.pk}").get_by_role("button", name="Acknowledge").click()
    table.wait_for_selector("#halt", state="detached", timeout=30_000)
    assert table.evaluate("window.notReloaded === true")
    screenshot(table, "table-halt-lifted")
    table.get_by_role("button", name="Hand finished").click()
    table.wait_for_selector("text=Hand 2: button on seat 5")
    assert table.locator(".confirm-halt").count() == 0
    assert EventTable.objects.get(event=event, number=2).big_blind == 7


def _table_path(event_id: int, number: int) -> str:
    from django.urls import reverse

    return reverse("results:table", args=[event_id, number])
