"""The shot clock on a tablet-sized Chromium: started, an extension used, reset, one run
out (the page reports it, the server records the dead hand), the floor's list and the
log, a refused extension, and a player redrawn to another table keeping their count.

Screenshots: var/screenshots/shot-clock-*.png (tablet, TV, phone, the floor's list).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login, open_page, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dealer_runs_the_shot_clock_and_the_floor_sees_it_run_out(live_server, new_page):
    from tdsystem.engine import shotclock as sc
    from tdsystem.events.models import Event
    from tdsystem.seating.balancing import tables_redraw
    from tdsystem.seating.models import Entry
    from tdsystem.shotclock.models import Call
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Wynn Classic")
    # Five seconds a player (the shortest a policy allows) keeps the wait for zero short.
    Event.objects.filter(pk=event.pk).update(
        rule_overrides={
            "shot_clock_starts": sc.STARTS_AT_START,
            "shot_clock_seconds": [5],
            "shot_clock_warnings": [3],
            "shot_clock_extension_seconds": 30,
            "shot_clock_extensions": 1,
        }
    )
    seated = [1, 2, 3, 4]
    arrange(event, {1: seated, 2: seated, 3: seated}, positions={n: (1, 2, 3) for n in (1, 2, 3)})
    table_url = f"{live_server.url}/console/events/{event.pk}/tables/1/"

    table = open_page(new_page, TABLET)
    login(table, live_server, director.username, PASSWORD)
    table.goto(table_url)
    panel = table.locator("#shot-clock")
    panel.wait_for()
    assert panel.locator("#sc-on").inner_text().lower() == "on"

    # Seat 3 on the turn, facing a bet: 5 seconds; the extension adds 30; reset.
    panel.locator("input[name=street][value=turn]").check()
    panel.locator(".sc-seat-btn[data-seat='3']").click()
    table.wait_for_selector("#sc-face.running >> text=Seat 3")
    assert "T1S3" in table.locator("#sc-face").inner_text()
    table.get_by_role("button", name="Extension: seat 3 (1 left)").click()
    table.wait_for_selector("text=Extension for seat 3.")
    assert panel.locator(".sc-seat-btn[data-seat='3'] .ext").inner_text() == "0"
    assert int(table.locator("[data-sc-time]").inner_text()) > 20
    screenshot(table, "shot-clock-tablet-running")
    table.get_by_role("button", name="Reset: action taken").click()
    table.wait_for_selector("#sc-face.idle")

    # Seat 4 lets the clock run out: the face turns red and the server records it.
    panel = table.locator("#shot-clock")
    panel.locator(".sc-seat-btn[data-seat='4']").click()
    table.wait_for_selector("#sc-face.running >> text=Seat 4")
    table.wait_for_selector("#sc-face.expired >> text=the hand is dead", timeout=20_000)
    for _ in range(100):  # the page's report of zero, on its way to the server
        if Call.objects.filter(event=event, action="expiry").exists():
            break
        table.wait_for_timeout(100)
    expiry = Call.objects.get(event=event, action="expiry")
    assert (expiry.seat, expiry.street, expiry.outcome) == (4, "turn", "dead")
    screenshot(table, "shot-clock-tablet-expired")

    # The floor's plan lists the table; the log has every press.
    floor_page = open_page(new_page, TABLET)
    login(floor_page, live_server, floor.username, PASSWORD)
    floor_page.goto(f"{live_server.url}/console/floor/")
    out = floor_page.locator("#shot-clocks-out li[data-table='1']")
    out.wait_for()
    assert "T1S4" in out.inner_text() and "hand dead" in out.inner_text()
    screenshot(floor_page, "shot-clock-floor-list")
    floor_page.goto(f"{live_server.url}/console/events/{event.pk}/shot-clock/")
    rows = floor_page.locator("#sc-log tbody tr")
    assert rows.count() == 5
    assert "expired: hand dead" in rows.nth(0).inner_text()
    screenshot(floor_page, "shot-clock-log")
    # The director's rules page shows the policy among the rule set's settings.
    rules = open_page(new_page, TABLET, session=table)
    rules.goto(f"{live_server.url}/console/events/{event.pk}/rules/")
    rules.locator("#setting-shot_clock_seconds").scroll_into_view_if_needed()
    assert rules.locator("#id_shot_clock_seconds").input_value() == "5"
    screenshot(rules, "shot-clock-rules")

    # Seat 3 again: their one extension is gone, and the page says so.
    panel = table.locator("#shot-clock")
    panel.locator(".sc-seat-btn[data-seat='3']").click()
    table.wait_for_selector("#sc-face.running >> text=Seat 3")
    table.get_by_role("button", name="Extension: seat 3 (0 left)").click()
    table.wait_for_selector("text=has no extensions left")

    # Screens of other sizes: the face readable on a TV, the buttons usable on a phone.
    for size, name in ((TV, "tv"), (PHONE, "phone")):
        table.set_viewport_size(size)
        table.goto(table_url)
        table.locator("#shot-clock").wait_for()
        screenshot(table, f"shot-clock-{name}", full_page=name == "phone")

    # A redraw into two tables moves everyone: T1S3 keeps no extension wherever they sit.
    tables_redraw(event_id=event.pk, table_count=2, actor=ACTOR, rng_seed=11)
    moved = Entry.objects.select_related("table").get(event=event, player__name="T1S3")
    table.set_viewport_size(TABLET)
    table.goto(f"{live_server.url}/console/events/{event.pk}/tables/{moved.table.number}/")
    seat = table.locator(f"#shot-clock .sc-seat-btn[data-seat='{moved.seat}']")
    seat.wait_for()
    assert "T1S3" in seat.inner_text() and seat.locator(".ext").inner_text() == "0"
    others = [
        table.locator(f".sc-seat-btn[data-seat='{e.seat}'] .ext").inner_text()
        for e in Entry.objects.filter(table=moved.table).exclude(pk=moved.pk)
    ]
    assert set(others) == {"1"}
