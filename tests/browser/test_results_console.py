"""What the floor does: bust a player from the console, see the place and the move slip."""

from __future__ import annotations

import pytest

from tdsystem.results.models import Finish
from tdsystem.simulation.seatings import arrange
from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_floor_person_busts_a_player_and_sees_the_place_and_the_move_slip(live_server, new_page):
    make_user("fred", "floor")
    event = make_event(600, name="Friday Turbo")
    people = arrange(
        event,
        {1: list(range(1, 10)), 2: list(range(1, 9))},
        positions={1: (5, 6, 7), 2: (1, 2, 3)},
    )
    page = new_page(TABLET)
    login(page, live_server, "fred", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/results/")
    page.select_option("#bo-table", "2")
    page.wait_for_selector(".rs-players")
    page.get_by_role("checkbox", name="T2S4").check()
    assert not page.locator(f"input[name=stack-{people['T2S4'].pk}]").is_visible()
    page.get_by_role("button", name="Record bust-out").click()
    done = page.wait_for_selector("#bustout-done")
    text = done.inner_text()
    assert "T2S4 is out: 17th place" in text
    # Table 2 was two short of table 1: T1S8, next big blind there, moves to seat 4.
    slip = page.locator("#bustout-done .slip")
    assert "T1S8" in slip.inner_text() and "table 2 seat 4" in slip.inner_text()
    page.wait_for_function("document.querySelector('#recent').innerText.includes('T2S4')")
    assert "Move: T1S8" in page.locator("#recent").inner_text()
    # Each part reloads on its own request after the bust-out: wait for this one too.
    page.wait_for_function(
        "/players left\\s*16\\s/i.test(document.querySelector('#overview').innerText)"
    )
    assert "of 17 entries" in page.locator("#overview").inner_text()
    # The table list's counts follow, the table chosen kept: table 1 gave T1S8 to table 2.
    page.wait_for_function(
        "document.querySelector('#bo-table option[value=\"1\"]').textContent.includes('8 players')"
    )
    assert page.input_value("#bo-table") == "2"
    assert "Table 2 · 8 players" in page.locator("#bo-table").inner_text()
    screenshot(page, "bustout-console")
    assert Finish.objects.get(entry=people["T2S4"]).place == 17

    # Two on one hand: the stacks are asked for, and a phone shows them under the names.
    page.set_viewport_size(PHONE)
    page.select_option("#bo-table", "1")
    page.wait_for_selector("text=T1S1")
    page.get_by_role("checkbox", name="T1S1").check()
    page.get_by_role("checkbox", name="T1S2").check()
    page.fill(f"input[name=stack-{people['T1S1'].pk}]", "3000")
    page.fill(f"input[name=stack-{people['T1S2'].pk}]", "3000")
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_function(
        "document.querySelector('#bustout-done') && "
        "document.querySelector('#bustout-done').innerText.includes('T1S2')"
    )
    assert "they tie for places 15-16" in page.locator("#bustout-done").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    screenshot(page, "bustout-console-phone")
