"""A TV set up once at /clock/ shows this week's event and moves to next week's by itself."""

from __future__ import annotations

import re

import pytest

from tdsystem.core.actors import Actor
from tdsystem.events import services
from tdsystem.venue import life
from tests.browser.conftest import PHONE, TABLET, TV, screenshot
from tests.fixtures import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ACTOR = Actor(label="test")


@pytest.fixture
def quick_follow(settings):
    """The screens ask every second instead of every minute."""
    settings.SCREEN_FOLLOW_SECONDS = 1


def clock(event, action: str) -> None:
    services.clock_action(event_id=event.pk, action=action, actor=ACTOR)


def screen_of(live_server, event_id: int, page: str) -> re.Pattern:
    return re.compile(rf"{re.escape(live_server.url)}/events/{event_id}/{page}\?(.*&)?follow=1")


def test_a_tv_at_clock_follows_the_week_to_next_weeks_copy(live_server, new_page, quick_follow):
    week_one = make_event(600, 600, name="Thursday Turbo")
    clock(week_one, "start")
    tv = new_page(TV)
    tv.goto(f"{live_server.url}/clock/?layout=draw")
    tv.wait_for_url(screen_of(live_server, week_one.pk, "clock/"))
    tv.wait_for_function("window.tdClock && window.tdClock.data")
    assert tv.locator("h1").inner_text() == "Thursday Turbo"
    assert "layout=draw" in tv.url
    draw = new_page(TV)
    draw.goto(f"{live_server.url}/seats/draw/")
    draw.wait_for_url(screen_of(live_server, week_one.pk, "seats/draw/"))
    pinned = new_page(TV)  # opened at the event's own address: stays on that event
    pinned.goto(f"{live_server.url}/events/{week_one.pk}/clock/")

    clock(week_one, "finish")
    tv.wait_for_timeout(1500)
    assert f"/events/{week_one.pk}/" in tv.url  # a finished event stays current until the next
    week_two = life.event_copy(source_id=week_one.pk, name="Thursday Turbo II", actor=ACTOR)
    clock(week_two, "start")

    tv.wait_for_url(screen_of(live_server, week_two.pk, "clock/"), timeout=5000)
    tv.wait_for_function("window.tdClock && window.tdClock.data")
    assert tv.locator("h1").inner_text() == "Thursday Turbo II"
    assert "layout=draw" in tv.url and tv.url.count("follow=1") == 1
    draw.wait_for_url(screen_of(live_server, week_two.pk, "seats/draw/"), timeout=5000)
    screenshot(tv, "screens/clock-followed-tv")
    assert f"/events/{week_one.pk}/clock/" in pinned.url and "follow" not in pinned.url


def test_a_tv_without_an_event_waits_on_a_friendly_page(live_server, new_page):
    for size, name in ((TV, "tv"), (TABLET, "tablet"), (PHONE, "phone")):
        page = new_page(size)
        page.goto(f"{live_server.url}/clock/")
        assert page.get_by_role("heading", name="No event yet").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        screenshot(page, f"screens/no-event-{name}")


def test_the_permanent_poster_prints_the_stable_lookup(live_server, new_page):
    for size, name in ((TV, "tv"), (TABLET, "tablet"), (PHONE, "phone")):
        page = new_page(size)
        page.goto(f"{live_server.url}/seats/poster/")
        assert page.locator(".qr svg").is_visible()
        assert page.locator(".url").inner_text().endswith("/seats/")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        screenshot(page, f"screens/poster-stable-{name}", full_page=True)
