"""What the room sees: the table draw on a venue TV pages through every player by itself."""

from __future__ import annotations

import pytest

from tdsystem.seating.testing import field
from tests.browser.conftest import TV, screenshot
from tests.fixtures import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_pages_the_draw_screen_through_every_player_on_a_tv(live_server, new_page):
    event = make_event(600, name="Main Event")
    field(event, players=300, tables=34)
    page = new_page(TV)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/draw/?seconds=3")
    label = page.locator("#page").inner_text()
    pages = int(label.rsplit(" ", 1)[1])
    assert label.startswith("page 1 of") and 2 <= pages <= 4  # a hundred or more a page
    first = page.locator(".p:not(.head) .name").first.inner_text()
    assert first == "Player 00001"
    shown = page.locator(".p:not(.head)").count()
    screenshot(page, "seat-draw-tv")
    # Nothing is cut off: the last row ends above the footer.
    rows = "[...document.querySelectorAll('.p')].map(e => e.getBoundingClientRect().bottom)"
    bottom = page.evaluate(f"Math.max(...{rows})")
    assert bottom <= page.locator(".draw-foot").bounding_box()["y"]
    page.wait_for_function("document.getElementById('page').innerText.startsWith('page 2')")
    second = page.locator(".p:not(.head) .name").first.inner_text()
    assert second == f"Player {shown + 1:05d}"
