"""The console's event list, the copy form and the delete confirmation, at every size."""

from __future__ import annotations

import pytest

from tdsystem.events.services import clock_action
from tdsystem.seating import services as seating
from tdsystem.simulation.seatings import ACTOR
from tdsystem.venue import life
from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user
from tests.services.test_event_life import finished_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = ("Sunday Main Event " + "Deepstack Freezeout " * 5)[:109] + "!"
SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}


def twelve_events():
    week_one = finished_event("Week one")
    archived = finished_event("Last month")
    life.event_archive(event_id=archived.pk, actor=ACTOR)
    running = make_event(600, name=LONG_NAME)
    seating.tables_setup(event=running, numbers=[1, 2, 3], seats=9, actor=ACTOR)
    clock_action(event_id=running.pk, action="start", actor=ACTOR)
    paused = make_event(600, name="Tuesday turbo")
    clock_action(event_id=paused.pk, action="start", actor=ACTOR)
    clock_action(event_id=paused.pk, action="pause", actor=ACTOR)
    planned = [make_event(600, name=f"Friday night {n}") for n in range(1, 9)]
    seating.tables_setup(event=planned[0], numbers=[7, 8], seats=9, actor=ACTOR)
    return week_one, running, planned[0]


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_event_list_copy_form_and_delete_page_fit_every_screen(live_server, new_page):
    make_user("dora", "director")
    week_one, running, planned = twelve_events()
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, "dora", PASSWORD)
        page.goto(f"{live_server.url}/console/")
        assert page.locator("table.events-list tbody tr").count() == 11
        title = page.locator(f'a[title="{LONG_NAME}"]')
        assert title.count() == 1
        assert no_sideways_scroll(page), size
        screenshot(page, f"console-events/list-{size}", full_page=True)

        page.goto(f"{live_server.url}/console/events/{running.pk}/copy/")
        assert page.input_value("#id_numbers") == "4, 5, 6"
        assert no_sideways_scroll(page), size
        screenshot(page, f"console-events/copy-{size}", full_page=True)

        page.goto(f"{live_server.url}/console/events/{planned.pk}/delete/")
        assert no_sideways_scroll(page), size
        screenshot(page, f"console-events/delete-{size}", full_page=True)

    page.goto(f"{live_server.url}/console/?show=archived")
    screenshot(page, "console-events/archived-phone", full_page=True)
    page.goto(f"{live_server.url}/console/events/{week_one.pk}/copy/")
    page.fill("#id_name", "Week two")
    page.get_by_role("button", name="Create the copy").click()
    page.wait_for_selector("h1:has-text('Week two')")

    page.goto(f"{live_server.url}/console/events/{planned.pk}/delete/")
    page.get_by_role("button", name="Delete the event").click()
    page.wait_for_selector("text=Recent activity")
    assert no_sideways_scroll(page)
    screenshot(page, "console-events/after-delete-phone", full_page=True)


@pytest.mark.parametrize("size_name", SIZES)
def test_the_event_page_offers_its_life_actions_at_every_size(live_server, new_page, size_name):
    make_user("dora", "director")
    finished = finished_event(LONG_NAME)
    planned = make_event(600, name="Friday night")
    page = new_page(SIZES[size_name])
    login(page, live_server, "dora", PASSWORD)

    page.goto(f"{live_server.url}/console/events/{planned.pk}/")
    actions = page.locator(".event-actions .btn")
    assert actions.all_inner_texts() == ["Copy", "Export", "Delete"]
    assert no_sideways_scroll(page)
    screenshot(page, f"console/event-actions-planned-{size_name}")
    page.locator(".event-actions").get_by_text("Delete").click()
    page.wait_for_url(f"**/console/events/{planned.pk}/delete/")

    page.goto(f"{live_server.url}/console/events/{finished.pk}/")
    assert page.locator(".event-actions .btn").all_inner_texts() == ["Copy", "Export", "Archive"]
    assert no_sideways_scroll(page)
    screenshot(page, f"console/event-actions-finished-{size_name}")
    page.locator(".event-actions").get_by_text("Archive").click()
    page.wait_for_url("**/console/?show=archived")
    done = page.locator(".flash.success")
    assert done.inner_text() == f"Archived {LONG_NAME}"
    # Styled like the pages' own "ok" notes: a green border, not the bare default.
    assert done.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb(63, 185, 80)"
    screenshot(page, f"console/archived-message-{size_name}")
