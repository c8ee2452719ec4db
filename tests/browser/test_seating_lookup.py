"""What a player does: on a phone, find the seat by name, with one tap on the right match."""

from __future__ import annotations

import pytest

from tdsystem.results.services import bustout_record
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.browser.conftest import PHONE, screenshot
from tests.fixtures import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_finds_a_players_seat_on_a_phone(live_server, new_page):
    event = make_event(600, name="Friday Turbo")
    people = arrange(
        event,
        {1: list(range(1, 10)), 2: list(range(1, 9))},
        positions={1: (5, 6, 7), 2: (1, 2, 3)},
    )
    # T1S8 is moved to table 2 seat 4 when T2S4 busts: the page tells them.
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    people["T1S8"].player.name = "Sam Lee"
    people["T1S8"].player.save()
    people["T1S3"].player.name = "Samira Khan"
    people["T1S3"].player.save()

    page = new_page(PHONE)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/")
    page.fill("#q", "sam")
    page.wait_for_selector("a.hit >> nth=1")
    assert page.locator("a.hit").count() == 2
    page.get_by_role("link", name="Sam Lee").click()
    page.wait_for_selector("#found-table")
    assert page.locator("#found-table").inner_text() == "2"
    assert page.locator("#found-seat").inner_text() == "4"
    assert "You moved" in page.locator(".moved").inner_text()
    assert f"entry={people['T1S8'].number}" in page.url  # the result can be shared or reloaded
    screenshot(page, "seat-lookup-phone")

    page.fill("#q", str(people["T1S3"].number))
    page.wait_for_function("document.querySelector('#results').innerText.includes('Samira')")
    assert page.locator("#found-seat").inner_text() == "3"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sticks out sideways on a phone
