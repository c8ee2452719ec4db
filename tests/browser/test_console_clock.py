"""The console's clock panel in Chromium: the empty-field start, a break, set time 10:30."""

from __future__ import annotations

import re

import pytest

from tdsystem.events.models import Clock
from tdsystem.seating.services import player_register
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}


def open_console(new_page, live_server, event, size=TABLET):
    page = new_page(size)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/")
    return page


def test_the_start_asks_first_while_nobody_is_seated(live_server, new_page):
    event = make_event(600, 600, "B300", 600, name="Empty room")
    make_user("dora", "director")
    page = open_console(new_page, live_server, event)
    asked: list[str] = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("button", name=re.compile("Start$")).click()
    page.wait_for_timeout(300)
    assert asked == ["Nobody is seated yet. Start the clock anyway?"]
    assert Clock.objects.get(pk=event.pk).status == "not-started"
    assert page.locator("#clock-panel .badge").inner_text() == "Not started"
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"console-clock-not-started-{name}", full_page=True)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=re.compile("Start$")).click()
    page.wait_for_selector("#clock-panel .badge.running")
    assert page.locator("#clock-panel .badge").inner_text() == "Running"
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"console-clock-running-{name}", full_page=True)


def test_the_start_does_not_ask_once_players_are_seated(live_server, new_page):
    event = make_event(600, 600, name="Seated room")
    arrange(event, {1: [1, 2, 3]})
    make_user("dora", "director")
    page = open_console(new_page, live_server, event)
    page.on("dialog", lambda dialog: pytest.fail(f"unexpected dialog: {dialog.message}"))
    page.get_by_role("button", name=re.compile("Start$")).click()
    page.wait_for_selector("#clock-panel .badge.running")


def test_set_time_accepts_ten_thirty_and_shows_a_bad_time_in_the_panel(live_server, new_page):
    event = make_event(600, 600, name="Set time")
    make_user("dora", "director")
    page = open_console(new_page, live_server, event)
    page.on("dialog", lambda dialog: dialog.accept())
    page.fill("#set-time", "25:00:00")
    page.get_by_role("button", name="Set", exact=True).click()
    page.wait_for_selector("#clock-panel .flash.error")
    assert "at most 24 hours" in page.locator("#clock-panel .flash.error").inner_text()
    assert page.locator("#set-time").input_value() == "25:00:00"
    assert Clock.objects.get(pk=event.pk).version == 0
    screenshot(page, "console-clock-bad-time-tablet", full_page=True)

    page.fill("#set-time", "10:30")
    page.get_by_role("button", name="Set", exact=True).click()
    page.wait_for_function("document.getElementById('console-time').textContent === '10:30'")
    assert Clock.objects.get(pk=event.pk).remaining_ms == 630_000
    assert page.locator("#clock-panel .flash.error").count() == 0


def test_a_break_reads_as_a_break_with_the_next_level(live_server, new_page):
    event = make_event(600, 600, "B300", 600, name="Break time")
    arrange(event, {1: [1, 2]})
    make_user("dora", "director")
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=2, remaining_ms=240_000)
    page = open_console(new_page, live_server, event)
    panel = page.locator("#clock-panel")
    assert panel.locator("h2").inner_text() == "Break"
    assert panel.locator(".badge").inner_text() == "Paused"
    assert "Colour up" in panel.locator(".break-note").inner_text()
    assert re.search(r"Next: Level 3 200 / 400 ante 40", panel.locator(".break-next").inner_text())
    assert panel.get_by_text("Blinds", exact=True).count() == 0
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"console-clock-break-{name}", full_page=True)


def test_the_seating_console_warns_of_a_duplicate_name(live_server, new_page):
    event = make_event(600, 600, name="Namesakes")
    player_register(event=event, name="Ann Lee", actor=ACTOR)
    make_user("dora", "director")
    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    page.fill("#id_name", "ann lee")
    page.locator("#register").get_by_role("button", name="Register", exact=True).click()
    page.wait_for_selector("#register .flash.warn")
    assert "#1 Ann Lee" in page.locator("#register .flash.warn").inner_text()
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.locator("#register").scroll_into_view_if_needed()
        screenshot(page, f"seating-duplicate-warning-{name}")
    page.fill("#id_note", "from Lyon")
    page.locator("#register").get_by_role("button", name="Register", exact=True).click()
    page.wait_for_selector("#register .flash.ok")
    assert "#2 ann lee (from Lyon)" in page.locator("#register .flash.ok").inner_text()
