"""What the room sees: the venue clock screen follows the console within seconds."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import TV, TV_SMALL, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seconds_shown(page) -> int:
    text = page.locator("#time").inner_text()
    parts = [int(p) for p in text.split(":")]
    return sum(v * 60**i for i, v in enumerate(reversed(parts)))


def test_the_screen_counts_down_and_stops_when_the_director_pauses(live_server, new_page):
    event = make_event(600, 600, "B300", 600, name="Sunday Deepstack")
    make_user("dora", "director")
    console = new_page()
    login(console, live_server, "dora", PASSWORD)
    console.goto(f"{live_server.url}/console/events/{event.pk}/")
    console.on("dialog", lambda dialog: dialog.accept())  # nobody is seated: start anyway
    console.get_by_role("button", name=re.compile("Start")).click()
    console.wait_for_selector("text=running")

    screen = new_page(TV)
    screen.goto(f"{live_server.url}/events/{event.pk}/clock/")
    screen.wait_for_function("document.body.classList.contains('running')")
    first = seconds_shown(screen)
    screen.wait_for_timeout(2200)
    assert seconds_shown(screen) < first  # counting down on its own
    screenshot(screen, "clock-screen-tv")

    console.get_by_role("button", name=re.compile("Pause")).click()
    screen.wait_for_function("document.body.classList.contains('paused')", timeout=2000)
    paused_at = seconds_shown(screen)
    screen.wait_for_timeout(1500)
    assert seconds_shown(screen) == paused_at
    assert screen.locator("#status").inner_text().lower() == "paused"


def test_the_screen_shows_a_level_change_and_the_break(live_server, new_page):
    event = make_event(600, 600, "B300", 600, name="Level change")
    make_user("dora", "director")
    screen = new_page(TV_SMALL)
    screen.goto(f"{live_server.url}/events/{event.pk}/clock/")
    expect_text(screen, "#level-label", "Level 1")
    console = new_page()
    login(console, live_server, "dora", PASSWORD)
    console.goto(f"{live_server.url}/console/events/{event.pk}/")
    console.on("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name=re.compile("Next level")).click()
    expect_text(screen, "#level-label", "Level 2")
    assert screen.locator("#bb").inner_text() == "200"
    console.get_by_role("button", name=re.compile("Next level")).click()
    screen.wait_for_function("document.body.classList.contains('on-break')", timeout=2500)
    assert "Colour up" in screen.locator("#break-note").inner_text()
    screenshot(screen, "clock-screen-break-720p")


def test_nothing_is_cut_off_at_tv_sizes(live_server, new_page):
    event = make_event(600, 600, name="A rather long event name for the main room, Day 1A")
    for size in (TV, TV_SMALL):
        page = new_page(size)
        page.goto(f"{live_server.url}/events/{event.pk}/clock/")
        page.wait_for_function("window.tdClock && window.tdClock.data")
        overflow = page.evaluate(
            """() => [...document.querySelectorAll('.time, .blinds, .row2, .side .value')]
                 .filter(el => el.offsetParent !== null)
                 .filter(el => { const r = el.getBoundingClientRect();
                   return r.right > innerWidth || r.bottom > innerHeight || r.left < 0; })
                 .map(el => el.id || el.className)"""
        )
        assert overflow == [], (size, overflow)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def expect_text(page, selector: str, text: str, timeout: int = 2500) -> None:
    page.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent.trim() === t",
        arg=[selector, text],
        timeout=timeout,
    )


def test_a_screen_whose_clock_is_seven_minutes_off_shows_the_right_time(live_server, new_page):
    from datetime import timedelta

    from django.utils import timezone

    from tdsystem.events import services

    event = make_event(600, 600, name="Skewed screen")
    services.clock_action(event_id=event.pk, action="start", actor=services.Actor())
    page = new_page(TV_SMALL)
    page.clock.install(time=timezone.now() + timedelta(minutes=7))
    page.goto(f"{live_server.url}/events/{event.pk}/clock/")
    page.wait_for_function("window.tdClock && window.tdClock.data")
    page.wait_for_timeout(600)
    shown = seconds_shown(page)
    assert 590 <= shown <= 600, shown  # not 180 s, as the screen's own clock would say


def test_the_screen_marks_a_lost_network_and_recovers_by_itself(live_server, new_page):
    from tdsystem.events import services

    event = make_event(600, 600, name="Flaky network")
    services.clock_action(event_id=event.pk, action="start", actor=services.Actor())
    page = new_page(TV_SMALL)
    page.goto(f"{live_server.url}/events/{event.pk}/clock/")
    page.wait_for_function("window.tdClock && window.tdClock.data")
    page.context.set_offline(True)
    page.wait_for_function("document.body.classList.contains('is-stale')", timeout=12000)
    before = seconds_shown(page)
    page.wait_for_timeout(1200)
    assert seconds_shown(page) < before  # still counting while offline
    services.clock_action(event_id=event.pk, action="pause", actor=services.Actor())
    page.context.set_offline(False)
    page.wait_for_function("!document.body.classList.contains('is-stale')", timeout=5000)
    page.wait_for_function("document.body.classList.contains('paused')", timeout=3000)
