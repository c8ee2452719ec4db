"""Chip counts in Chromium: the floor enters a table's counts on a phone, the console reads
the count list on a tablet and a phone, the public chip-count page on a TV.

Screenshots: var/screenshots/toolkit/chips-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_floor_enters_a_tables_counts_on_a_phone(live_server, new_page):
    from tdsystem.results.models import ChipCount, ChipCountHistory
    from tdsystem.simulation.seatings import field
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Friday Deepstack")
    field(event, players=18, tables=2)
    stack = event.starting_stack
    page = new_page(PHONE)
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    inputs = page.locator("#table-chips input[inputmode=numeric]")
    assert inputs.count() == 9

    # One bad value: the whole form is refused, naming the player; nothing is saved.
    inputs.nth(0).fill(f"{stack + 2500:,}")
    inputs.nth(1).fill("12k")
    page.get_by_role("button", name="Save counts").click()
    error = page.locator("#table-chips .flash.error")
    error.wait_for()
    assert "Seat 2, " in error.inner_text() and "not a number of chips" in error.inner_text()
    assert not ChipCount.objects.exists()
    assert inputs.nth(0).input_value() == f"{stack + 2500:,}"  # what was typed stays
    screenshot(page, "toolkit/chips-table-refused-phone-390", full_page=True)

    # Corrected, with the keyboard: the next input by Tab, Enter saves.
    inputs.nth(1).fill(str(stack - 2500))
    inputs.nth(1).press("Tab")
    page.keyboard.type(str(stack))
    page.keyboard.press("Enter")
    page.locator("#table-chips .flash.ok").wait_for()
    assert "3 counts saved" in page.locator("#table-chips").inner_text()
    assert "(3 of 18 players counted)" in page.locator("#chip-total").inner_text()
    assert ChipCountHistory.objects.count() == 3
    screenshot(page, "toolkit/chips-table-saved-phone-390", full_page=True)
    for name, size in (("tablet-1024", TABLET), ("tv-1920", TV)):
        page.set_viewport_size(size)
        screenshot(page, f"toolkit/chips-table-saved-{name}", full_page=True)


def test_the_console_and_the_public_page_show_the_counts(live_server, new_page):
    from tdsystem.core.actors import Actor
    from tdsystem.results.services.chips import chip_counts_record
    from tdsystem.seating.models import Entry, Player
    from tdsystem.simulation.seatings import field
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    event = make_event(600, 600, name="Sunday Main Event")
    field(event, players=24, tables=3)
    # Names as entered, another script among them.
    Player.objects.filter(entries__event=event, entries__number=5).update(name="دانيال")
    Player.objects.filter(entries__event=event, entries__number=9).update(name="Zoë Łukasiewicz")
    stack = event.starting_stack
    entries = list(Entry.objects.filter(event=event).order_by("number"))
    counts = {e.number: stack // 2 + (i * 7_919) % stack for i, e in enumerate(entries)}
    counts = {n: c for n, c in counts.items() if n != 24}  # one player still to count
    chip_counts_record(event_id=event.pk, counts=counts, actor=Actor(label="fred"))

    console = new_page(TABLET)
    login(console, live_server, director.username, PASSWORD)
    console.goto(f"{live_server.url}/console/events/{event.pk}/results/")
    total = console.locator("#chip-total").inner_text()
    assert "(23 of 24 players counted)" in total
    rows = console.locator("#counts tbody tr")
    assert rows.count() == 24 and "not counted" in rows.nth(23).inner_text()
    console.locator("#counts").scroll_into_view_if_needed()
    screenshot(console, "toolkit/chips-console-tablet-1024", full_page=True)
    rows.nth(0).locator("a", has_text="History").click()
    console.locator("#tools h3", has_text="Counts of #").wait_for()
    phone = new_page(PHONE)
    login(phone, live_server, director.username, PASSWORD)
    phone.goto(f"{live_server.url}/console/events/{event.pk}/results/")
    phone.locator("#counts").scroll_into_view_if_needed()
    screenshot(phone, "toolkit/chips-console-phone-390")

    tv = new_page(TV)
    tv.goto(f"{live_server.url}/events/{event.pk}/chips/")
    board = tv.locator(".cs-board li")
    assert board.count() == 23
    chips = [int(t.replace(",", "")) for t in tv.locator(".cs-board .chips").all_inner_texts()]
    assert chips == sorted(chips, reverse=True)
    assert tv.locator("bdi", has_text="دانيال").count() == 1
    # Readable from across the room: the names are at least 30 px high on a 1080p TV.
    size = tv.locator(".cs-board .name").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 30
    # Nothing falls off the screen.
    assert tv.evaluate("document.documentElement.scrollHeight") <= 1080 + 2
    screenshot(tv, "toolkit/chips-screen-tv-1920")
    tv.set_viewport_size(TABLET)
    screenshot(tv, "toolkit/chips-screen-tablet-1024", full_page=True)
    phone_screen = new_page(PHONE)
    phone_screen.goto(f"{live_server.url}/events/{event.pk}/chips/")
    screenshot(phone_screen, "toolkit/chips-screen-phone-390", full_page=True)


@pytest.mark.parametrize(("size_name", "size"), [("tv", TV), ("tablet", TABLET), ("phone", PHONE)])
def test_the_chips_screen_says_reconnecting_while_its_board_cannot_be_read(
    live_server, new_page, size_name, size
):
    from tests.fixtures import make_event

    event = make_event(600, name="Chip board")
    page = new_page(size)
    page.clock.install()
    page.goto(f"{live_server.url}/events/{event.pk}/chips/")
    reconnecting = page.locator(".cs-head .stale")
    assert not reconnecting.is_visible()
    page.route(
        "**/events/*/chips/",
        lambda route: route.fulfill(status=503, headers={"Retry-After": "10"}, body="down"),
    )
    page.clock.run_for(16_000)  # the board's own refresh, every 15 s
    reconnecting.wait_for(state="visible", timeout=4000)
    assert page.locator(".cs-empty").is_visible()  # the board it had stays
    screenshot(page, f"chips-screen-reconnecting-{size_name}")
    page.unroute("**/events/*/chips/")
    page.clock.run_for(16_000)
    reconnecting.wait_for(state="hidden", timeout=4000)
