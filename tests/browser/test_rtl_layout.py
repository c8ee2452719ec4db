"""Arabic pages in Chromium: the layout mirrors, and names and numbers keep their order.

The order is asserted by geometry (the boxes Chromium draws), not by the text order: a
player named "نور" with entry #2 at seat 9. In Arabic (right to left) the seat number
stands to the right of the name and "#2" to its left; in English, with the same Arabic
name, the other way round (the name is isolated, so "#2" does not jump before it). The
clock's figures read left to right in both: the small blind left of the big blind.

Screenshots: var/screenshots/rtl/*-tablet.png and *-phone.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.browser.test_every_page import WIDTH
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAME = "نور"
ROW = f'#table-1 li:has(button.name:has-text("{NAME}"))'  # her row in the table card

# The boxes Chromium draws, measured together (the health banner may come in and move the
# page between two measurements): for [element, null] the element's box; for [element, text]
# the box of the text's glyphs inside it: its <bdi> when it has one, else a range over the
# text itself (what the reader sees, whatever the markup around it).
BOXES = """(targets) => targets.map(([el, text]) => {
  const box = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  if (text === null) return box(el.getBoundingClientRect());
  for (const bdi of el.querySelectorAll("bdi")) {
    if (bdi.textContent.trim() === text) return box(bdi.getBoundingClientRect());
  }
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const at = node.data.indexOf(text);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + text.length);
    return box(range.getBoundingClientRect());
  }
  return null;
})"""


def boxes(page, *targets: tuple[str, str | None]) -> list[dict]:
    """boxes(page, (selector, None), (selector, "text"), ...): one box per target."""
    handles = [[page.locator(sel).first.element_handle(), text] for sel, text in targets]
    found = page.evaluate(BOXES, handles)
    for (sel, text), one in zip(targets, found, strict=True):
        assert one, f"{text!r} not found in {sel}"
    return found


def same_line(a: dict, b: dict) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.fixture
def nour(db):
    """Table 1 with three players; "نور" is entry #2 at seat 9. Returns (event, entry)."""
    from tdsystem.events.services import clock_action
    from tdsystem.seating.models import Player
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    event = make_event(3900, 600, name="Sunday Main Event")
    entries = arrange(event, {1: [3, 9, 5]})  # numbered in that order: seat 9 is #2
    entry = entries["T1S9"]
    assert (entry.number, entry.seat) == (2, 9)
    Player.objects.filter(pk=entry.player_id).update(name=NAME)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    return event, entry


def open_entry(page, entry) -> None:
    """Tap the player's name in the table card: the entry panel opens beside the cards."""
    page.locator(ROW + " button.name").click()
    page.wait_for_selector(f"#entry-panel h3 >> text=#{entry.number}")


def test_it_mirrors_the_seating_console_in_arabic(live_server, new_page, nour):
    event, entry = nour
    director = make_user("dora", "director")
    page = new_page(TABLET)
    login(page, live_server, director.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/?lang=ar")
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.locator("html").get_attribute("lang") == "ar"

    # The top bar: the brand at the right edge, the nav to its left.
    bar, brand, nav = boxes(
        page, (".topbar", None), (".topbar .brand", None), (".topbar nav", None)
    )
    assert bar["right"] - brand["right"] < 40, "the brand starts the bar at its right edge"
    assert nav["right"] <= brand["left"], "the nav follows the brand, to its left"

    # A table card: the seat number to the right of the name.
    seat, name = boxes(page, (ROW + " .s", None), (ROW, NAME))
    assert page.locator(ROW + " .s").inner_text() == "9"
    assert same_line(seat, name) and seat["left"] >= name["right"]

    # The entry panel: the name, then "#2" to its left.
    open_entry(page, entry)
    name, number = boxes(page, ("#entry-panel h3", NAME), ("#entry-panel h3", f"#{entry.number}"))
    assert same_line(name, number) and number["right"] <= name["left"]
    screenshot(page, "rtl/seating-console-tablet", full_page=True)

    phone = new_page(PHONE)
    login(phone, live_server, director.username, PASSWORD)
    phone.goto(f"{live_server.url}/console/events/{event.pk}/seating/?lang=ar")
    width, inner, culprits = phone.evaluate(WIDTH)
    assert width <= inner + 1, f"wider than a phone in Arabic: {culprits}"
    open_entry(phone, entry)
    screenshot(phone, "rtl/seating-console-phone", full_page=True)


def test_it_keeps_an_arabic_name_before_its_number_in_english(live_server, new_page, nour):
    event, entry = nour
    director = make_user("dora", "director")
    page = new_page(TABLET)
    login(page, live_server, director.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/?lang=en")
    assert page.locator("html").get_attribute("dir") == "ltr"
    seat, name = boxes(page, (ROW + " .s", None), (ROW, NAME))
    assert same_line(seat, name) and seat["right"] <= name["left"]
    open_entry(page, entry)
    name, number = boxes(page, ("#entry-panel h3", NAME), ("#entry-panel h3", f"#{entry.number}"))
    assert same_line(name, number) and name["right"] <= number["left"], (
        "an Arabic name in an English line stays before its entry number"
    )


def test_it_mirrors_the_table_page_in_arabic(live_server, new_page, nour):
    event, _ = nour
    director = make_user("dora", "director")
    for size, viewport in {"tablet": TABLET, "phone": PHONE}.items():
        page = new_page(viewport)
        login(page, live_server, director.username, PASSWORD)
        page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/?lang=ar")
        assert page.locator("html").get_attribute("dir") == "rtl"
        row = "ol.seats > li:nth-child(9)"  # every seat has its row: the 9th is seat 9
        assert page.locator(row + " .n").inner_text() == "9"
        seat, name = boxes(page, (row + " .n", None), (row + " .who", NAME))
        assert same_line(seat, name) and seat["left"] >= name["right"], (
            "the seat number stands to the right of the name"
        )
        width, inner, culprits = page.evaluate(WIDTH)
        assert width <= inner + 1, f"wider than a phone in Arabic: {culprits}"
        screenshot(page, f"rtl/table-page-{size}", full_page=True)


def test_it_keeps_the_clock_figures_left_to_right_in_arabic(live_server, new_page, nour):
    event, _ = nour
    for size, viewport in {"tablet": TABLET, "phone": PHONE}.items():
        page = new_page(viewport)
        page.goto(f"{live_server.url}/events/{event.pk}/clock/?lang=ar")
        assert page.locator("html").get_attribute("dir") == "rtl"
        page.wait_for_function(
            "() => /\\d:\\d\\d/.test(document.querySelector('#time').textContent)"
        )
        small, big = boxes(page, ("#sb", None), ("#bb", None))
        assert small["right"] <= big["left"], "100 / 200: the small blind reads first, on the left"
        # "Next level 100 / 200": the figures in their order, not "200 / 100".
        nxt = page.locator("#next").inner_text()
        first, second = (part.strip() for part in nxt.split("/"))
        left, right = boxes(page, ("#next", first), ("#next", second))
        assert left["right"] <= right["left"], f"{nxt!r} reads left to right"
        screenshot(page, f"rtl/clock-screen-{size}")
