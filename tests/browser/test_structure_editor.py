"""The levels editor in Chromium: a director lengthens the next level of a running event and
inserts a break; the clock screen (another page) shows the change at its next poll. Also
the editor at TV, tablet and phone sizes, and from the keyboard."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.events import services
from tdsystem.structures.editing import stored_rows
from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTH = "document.documentElement.scrollWidth <= window.innerWidth"


def running_event():
    event = make_event(600, 600, "B300", 600, 600, name="Friday")
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    return event


def test_a_director_lengthens_the_next_level_and_the_clock_screen_follows(live_server, new_page):
    make_user("dora", "director")
    event = running_event()
    screen = new_page(TV)
    screen.goto(f"{live_server.url}/events/{event.pk}/clock/")
    screen.wait_for_function("window.tdClock && window.tdClock.data")
    assert screen.locator("#next-ante").inner_text().endswith("20")

    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/")
    page.click("#edit-levels")
    page.wait_for_selector("#editor-levels")
    assert page.locator("tr.current .badge").inner_text().lower() == "now"
    page.fill("#minutes-1", "25")
    page.fill("#ante-1", "25")
    page.click("#add-break-1")  # htmx swaps the form: the typed values stay
    page.wait_for_selector("#minutes-2")
    assert page.input_value("#minutes-1") == "25" and page.input_value("#kind-2") == "break"
    page.wait_for_function("document.activeElement.id === 'minutes-2'", timeout=3000)
    page.fill("#minutes-2", "30")
    page.fill("#note-2", "Dinner")
    page.keyboard.press("Enter")  # Enter saves
    page.wait_for_url(f"**/console/events/{event.pk}/")
    assert [r["duration_seconds"] for r in stored_rows(event.structure)] == [
        600, 1500, 1800, 300, 600, 600
    ]  # fmt: skip

    # The screen polls: the next level's ante and the time to the break follow.
    screen.wait_for_function(
        "document.getElementById('next-ante').innerText.endsWith('25')", timeout=8000
    )
    data = screen.evaluate("window.tdClock.data")
    assert data["next"]["duration_seconds"] == 1500
    assert data["next_break"] == {"duration_seconds": 1800, "note": "Dinner"}
    assert data["ms_to_next_break"] > 34 * 60 * 1000


@pytest.mark.parametrize("size", ["tv", "tablet", "phone"])
def test_the_editor_at_each_size(live_server, new_page, size):
    make_user("dora", "director")
    event = running_event()
    services.clock_action(event_id=event.pk, action="next", actor=Actor(label="t"))
    page = new_page({"tv": TV, "tablet": TABLET, "phone": PHONE}[size])
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/levels/")
    assert page.locator(".badge.played").count() == 1
    assert page.evaluate(WIDTH), f"the editor is wider than the {size} screen"
    screenshot(page, f"editor/editor-running-{size}", full_page=size != "tv")
    # A refusal keeps the table: a blind lower than the level before.
    page.fill("#sb-3", "10")
    page.click("#editor-save")
    page.wait_for_selector("#editor-errors")
    assert "blinds never decrease" in page.inner_text("#editor-errors")
    assert page.input_value("#sb-3") == "10"
    screenshot(page, f"editor/editor-refused-{size}")


def test_the_keyboard_reaches_the_row_buttons_in_order(live_server, new_page):
    make_user("dora", "director")
    event = make_event(600, 600, name="Planned")
    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/levels/")
    page.focus("#kind-0")
    order = []
    for _ in range(11):
        order.append(page.evaluate("document.activeElement.id"))
        page.keyboard.press("Tab")
    assert order == [
        "kind-0", "sb-0", "bb-0", "ante-0", "minutes-0", "note-0",
        "up-0", "down-0", "remove-0", "add-level-0", "add-break-0",
    ]  # fmt: skip
    page.focus("#down-0")
    page.keyboard.press("Enter")  # a row button: moves, saves nothing
    page.wait_for_function("document.activeElement.id === 'down-1'")
    assert page.input_value("#sb-1") == "50"
    assert stored_rows(event.structure)[0]["small_blind"] == 50


def test_a_director_edits_a_template_from_its_page(live_server, new_page):
    from tdsystem.structures.services import structure_create
    from tests.fixtures import short_levels

    make_user("dora", "director")
    template, _ = structure_create(name="Daily 10k", levels=short_levels(1200, 1200, "B600", 1200))
    page = new_page(TABLET)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/structures/{template.pk}/")
    page.click("#edit-levels")
    page.wait_for_selector("#editor-levels")
    page.get_by_role("link", name="Show the limit bets").click()
    page.wait_for_selector("#sbet-0")
    page.click("#remove-2")  # the break
    page.wait_for_function("document.querySelectorAll('select[name=kind]').length === 3")
    page.fill("#minutes-2", "30")
    assert page.locator("#sbet-2").count() == 1  # the bets stay shown
    assert page.evaluate(WIDTH)
    screenshot(page, "editor/editor-template-tablet", full_page=True)
    page.click("#editor-save")
    page.wait_for_url(f"**/console/structures/{template.pk}/")
    assert [r["duration_seconds"] for r in stored_rows(template)] == [1200, 1200, 1800]
    assert "Saved the levels of Daily 10k" in page.content()
