"""How the player's page link reaches the player, in Chromium: the seat lookup's "Follow
my seat" on a phone, and the console's entry panel (its QR code, a new link, the card)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tdsystem.players.models import PlayerLink
from tdsystem.simulation.seatings import arrange
from tests.browser.conftest import PHONE, TABLET, TV, login, open_page, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_follows_their_seat_from_the_lookup(live_server, new_page):
    cache.clear()
    event = make_event(600, name="Friday Turbo")
    people = arrange(event, {1: [1, 2, 3, 4], 2: [1, 2, 3]})
    sam = people["T2S3"]
    page = open_page(new_page, PHONE)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/?entry={sam.number}")
    page.wait_for_selector("#follow")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    screenshot(page, "players/lookup-follow-phone")
    page.click("#follow")
    page.wait_for_url("**/me/**")
    link = PlayerLink.objects.get(entry=sam, revoked_at__isnull=True)
    assert page.url.endswith(f"/me/{link.token}/")
    assert page.locator("#me-seat").inner_text() == "3"


def test_the_floor_sees_renews_and_prints_the_link(live_server, new_page):
    event = make_event(600, name="Friday Turbo")
    people = arrange(event, {1: [1, 2, 3, 4], 2: [1, 2, 3]})
    ann = people["T1S2"]
    floor = make_user("flo", "floor")
    page = open_page(new_page, TABLET, accept_dialogs=True)
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    page.fill("#find-q", "T1S2")
    page.click(f"#search button:has-text('#{ann.number}')")
    page.wait_for_selector("#player-page .qr svg")
    first = page.locator("#player-page-url").inner_text()
    assert first.endswith(f"/me/{PlayerLink.objects.get(entry=ann).token}/")
    page.locator("#player-page").scroll_into_view_if_needed()
    screenshot(page, "players/console-panel-tablet")
    page.click("#renew-link")
    page.wait_for_selector("#player-page .flash.ok")
    assert page.locator("#player-page-url").inner_text() != first
    page.click("#print-card")
    page.wait_for_selector("#card-page")
    page.set_viewport_size(TV)
    screenshot(page, "players/console-panel-tv")
