"""The floor at the table: a short big blind entered on a tablet, ruled on as it is tapped in."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ellen", "Bob", "Alice", "Dianne", "Carol"]


def open_ruling(live_server, new_page, viewport=TABLET):
    event = make_event(600, 600, name="Sunday Deepstack", seats_per_table=6)  # 50/100, ante 10
    make_user("fred", "floor")
    page = new_page(viewport)
    login(page, live_server, "fred", PASSWORD)
    page.goto(f"{live_server.url}/console/rulings/?event={event.pk}")
    page.evaluate("window.notReloaded = true")
    return page


def tap(page, name: str) -> None:
    page.locator("#next").get_by_role("button", name=name, exact=True).click()
    # A tap re-renders the whole workspace: let the swap land before typing into it.
    page.wait_for_load_state("networkidle")


def test_a_short_big_blind_is_ruled_on_as_the_floor_taps(live_server, new_page):
    page = open_ruling(live_server, new_page)
    assert page.input_value("#id_big_blind") == "100" and page.input_value("#id_ante") == "10"
    page.get_by_role("button", name="Remove seat 6").click()  # five at this table
    page.wait_for_function("document.querySelectorAll('input[name=seat_name]').length === 5")
    for i, name in enumerate(NAMES):
        page.fill(f"#seat-{i}-name", name)
    page.fill("#seat-2-stack", "90")  # Alice, in the big blind, antes 10 and has 80 left
    note = "Alice is all-in for 80 of the 100 big blind: callers owe the full 100"
    page.locator("#notes", has_text=note).wait_for()
    assert "Dianne to act" in page.inner_text("#next")
    assert "Owes 100 to call" in page.inner_text("#next")

    tap(page, "Call 100")
    page.locator("#next", has_text="Carol to act").wait_for()
    tap(page, "Raise to 200")
    for name in ("Ellen", "Bob", "Dianne"):
        page.locator("#next", has_text=f"{name} to act").wait_for()
        tap(page, "Fold")
    page.locator("#next", has_text="Showdown").wait_for()

    pots = page.inner_text("#pots")
    assert "340" in pots and "Alice, Carol" in pots
    assert "140" in pots and "side pot 1" in pots.lower()
    assert note in page.inner_text("#notes")
    assert page.locator("input[name=act_to]").nth(1).input_value() == "200"
    assert page.evaluate("window.notReloaded === true")  # every change came by HTMX
    page.locator("#actions").evaluate("el => window.scrollTo(0, el.offsetTop - 8)")
    screenshot(page, "ruling-tablet")


def test_an_illegal_raise_outlines_its_row_while_typing(live_server, new_page):
    page = open_ruling(live_server, new_page)
    tap(page, "Call 100")
    page.locator("#next", has_text="Seat 5 to act").wait_for()
    tap(page, "Raise to 200")
    page.locator("#next", has_text="Seat 6 to act").wait_for()
    # Typed as a person types (key by key), not set in one go: the first keystroke can
    # land while htmx is still wiring up the workspace that the tap just swapped in.
    page.fill("#action-1 input[name=act_to]", "")
    page.locator("#action-1 input[name=act_to]").press_sequentially("150", delay=80)
    message = "Action 2: Seat 5 may not raise to 150: the minimum raise is to 200 (TDA 43)"
    page.locator("#result .flash.error", has_text=message).wait_for()
    assert "invalid" in page.get_attribute("#action-1", "class")
    assert "invalid" not in page.get_attribute("#action-0", "class")
    page.fill("#action-1 input[name=act_to]", "")
    page.locator("#action-1 input[name=act_to]").press_sequentially("250", delay=80)
    page.locator("#next", has_text="Seat 6 to act").wait_for()
    assert "invalid" not in page.get_attribute("#action-1", "class")
    assert page.evaluate("window.notReloaded === true")


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_the_dead_button_boxes_relay_the_seats(live_server, new_page, size):
    page = open_ruling(live_server, new_page, TABLET if size == "tablet" else PHONE)
    positions = "Array.from(document.querySelectorAll('.seat-row .pos')).map(e => e.textContent)"
    assert page.evaluate(positions)[:3] == ["BTN", "SB", "BB"]

    page.get_by_label("The button is on an empty seat (dead button)").check()
    page.wait_for_function(f"{positions}[0] === 'SB'")
    page.get_by_label("No small blind this hand (dead small blind)").check()
    page.wait_for_function(f"{positions}[0] === 'BB'")
    assert page.evaluate(positions)[:3] == ["BB", "UTG", "UTG+1"]
    page.locator("#next", has_text="Seat 2 to act").wait_for()
    assert "dead button: the button is on an empty seat" in page.inner_text("#notes")
    assert page.is_checked("#id_dead_button") and page.is_checked("#id_dead_small_blind")
    # Nothing wider than the screen: the boxes and their help wrap.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    assert page.evaluate("window.notReloaded === true")
    page.locator("#seats").evaluate("el => window.scrollTo(0, el.offsetTop - 8)")
    screenshot(page, f"ruling-dead-button-{size}")
