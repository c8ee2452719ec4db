"""A series in one room, as the floor manager and the room see it: the floor plan on a
tablet (tables given to an event from it) and the room's clocks on a TV."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tdsystem.core.actors import Actor
from tdsystem.core.tasks import heartbeat
from tdsystem.events.models import Event
from tdsystem.events.services import clock_action
from tdsystem.seating import services as seating
from tdsystem.seating.models import EventTable, VenueTable
from tdsystem.simulation.seatings import arrange
from tests.browser.conftest import TABLET, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ACTOR = Actor(label="test")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "img" / "series"


def shot(page, name: str) -> None:
    """var/screenshots/series/<name>.png, and docs/img/series/ (docs/festivals.md's
    pictures) when TD_SHOTS=1, so a test run leaves the docs be."""
    screenshot(page, f"series/{name}")
    if os.environ.get("TD_SHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"{name}.png"))


def seconds_shown(panel) -> int:
    parts = [int(p) for p in panel.locator("[data-k=time]").inner_text().split(":")]
    return sum(v * 60**i for i, v in enumerate(reversed(parts)))


def the_room() -> tuple[Event, Event, Event]:
    """Day 1A of the main event running at tables 1-4, a turbo paused at 5-6, a deepstack
    planned without tables; the room has 16 tables."""
    VenueTable.objects.bulk_create(VenueTable(number=n, seats=9) for n in range(1, 17))
    main = make_event(1200, 1200, name="Main Event")
    flight = make_event(1200, 1200, name="Main Event Day 1A")
    Event.objects.filter(pk=flight.pk).update(parent=main, flight="1A")
    turbo = make_event(600, 600, name="Turbo Bounty", seats_per_table=8)
    deep = make_event(1800, name="Deepstack")
    arrange(flight, {1: [1, 2, 3, 4, 5, 6, 7], 2: [1, 2, 3, 4, 5, 6], 3: [2, 4, 6], 4: [1]})
    arrange(turbo, {5: [1, 2, 3, 4], 6: [1, 2, 3]}, seats=8)
    for event in (flight, turbo):
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
    clock_action(event_id=turbo.pk, action="pause", actor=ACTOR)
    return flight, turbo, deep


def test_the_floor_plan_and_the_rooms_clocks(live_server, new_page):
    flight, turbo, deep = the_room()
    make_user("dora", "director")
    heartbeat()  # a worker seen now: no warning banner across the pictures

    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/floor/")
    tile = page.locator('[data-table="1"]')
    assert "Main Event Day 1A" in tile.inner_text() and "7 / 9 seated" in tile.inner_text()
    assert "1A" in tile.locator(".fl").inner_text()
    assert (
        page.locator("a.tile.held").count() == 6 and page.locator("label.tile.free").count() == 10
    )
    page.locator('[data-table="7"]').click()
    # The plan's refresh (every 12 s) keeps what is ticked.
    page.evaluate("htmx.ajax('GET', '/console/floor/', {target: '#floor', swap: 'outerHTML'})")
    page.wait_for_timeout(500)
    assert page.locator("#pick-7").is_checked()
    page.locator('[data-table="8"]').click()
    page.select_option("#give-event", str(deep.pk))
    page.get_by_role("button", name="Give to event").click()
    page.wait_for_selector('a.tile.held[data-table="8"]')
    assert "Tables 7, 8 given to Deepstack" in page.locator("#floor .flash").inner_text()
    assert EventTable.objects.filter(event=deep, in_play=True).count() == 2
    # Taken meanwhile by the turbo: the plan says who holds it, and gives nothing.
    seating.tables_setup(event=turbo, numbers=[9], seats=8, actor=ACTOR)
    page.locator('[data-table="9"]').click()
    page.select_option("#give-event", str(deep.pk))
    page.get_by_role("button", name="Give to event").click()
    page.wait_for_selector("#floor .flash.error")
    assert "in use by Turbo Bounty" in page.locator("#floor .flash.error").inner_text()
    shot(page, "floor-tablet")

    screen = new_page(TV)
    screen.goto(f"{live_server.url}/screens/clocks/")
    panels = screen.locator(".clock-panel")
    assert panels.count() == 2
    running = screen.locator(f'.clock-panel[data-event="{flight.pk}"]')
    paused = screen.locator(f'.clock-panel[data-event="{turbo.pk}"]')
    assert "Main Event Day 1A" in running.inner_text() and "17 / 17" in running.inner_text()
    assert "50 / 100" in running.locator("[data-k=blinds]").inner_text()
    screen.wait_for_function("window.tdClocks.panels.every((p) => p.data)")
    first, stopped = seconds_shown(running), seconds_shown(paused)
    screen.wait_for_timeout(2200)
    assert seconds_shown(running) < first and seconds_shown(paused) == stopped
    assert paused.locator("[data-k=banner]").is_visible()
    assert not running.locator("[data-k=banner]").is_visible()
    box = panels.first.bounding_box()
    assert box["width"] > 900 and box["height"] > 900  # two panels fill the TV side by side
    shot(screen, "clocks-tv")
